"""``ssescope scan``: judge a corpus of logged streams, one row per stream, and summarize."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import click
from rich.console import Console

from ..output import strictjson
from ..output.visible import visible
from . import exitcodes
from ._input import want_color
from ._stdout import stdout_to_stderr
from .options import idle_threshold_option, timing_options
from .scan_render import render_summary

__all__ = ["FAIL_ON", "render_summary", "scan_command", "scan_exit_code"]

FAIL_ON = {
    "failed": exitcodes.FAILED,
    "truncated": exitcodes.TRUNCATED,
    "cancelled": exitcodes.INTERRUPTED,
    "incomplete": exitcodes.INCOMPLETE,
    "error": exitcodes.INTERNAL,
}
"""``--fail-on`` choices, in the order they win, and the exit code of each."""


def scan_exit_code(summary: dict[str, Any], fail_on: list[str]) -> int:
    """0, or the exit code of the first ``--fail-on`` verdict found in the corpus (failed,
    truncated, cancelled, incomplete; ``error``: an input could not be read)."""
    for name, code in FAIL_ON.items():
        if name not in fail_on:
            continue
        found = summary["input_errors"] if name == "error" else summary["verdicts"][name]["count"]
        if found:
            return code
    return exitcodes.COMPLETED


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[int, int | None], None] | None]:
    if not enabled:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("scanning"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("inputs"),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("scan", total=None, rate="")

        def update(done: int, total: int | None) -> None:
            elapsed = progress.tasks[0].elapsed or 0.0
            rate = f"{done / elapsed:,.0f}/s" if elapsed > 0 else ""
            progress.update(task, completed=done, total=total, rate=rate)

        yield update


def _missing(path: str) -> bool:
    # a local path (not a glob, not a URL) that names nothing, not even a dangling link
    if "://" in path or set("*?[") & set(path) or "\0" in path:
        return False
    return not os.path.lexists(path)


def _carried(
    keys: list[str] | None, groups: list[str] | None, time: str | None
) -> list[str] | None:
    # --key, with the table columns --group-by and --time name (all of them: None)
    if keys is None:
        return None
    from ..scan.kernel import RESULT_SCHEMA

    wanted = [g for g in groups or () if not g.startswith("path[")]
    wanted += [time] if time else []
    return list(dict.fromkeys([*keys, *(w for w in wanted if w not in RESULT_SCHEMA.names)]))


def _keys(values: tuple[str, ...]) -> list[str] | None:
    keys = [k.strip() for v in values for k in v.split(",") if k.strip()]
    return keys or None


@click.command("scan")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--out",
    metavar="FILE",
    help="Write one row per stream: .parquet (the default format), .jsonl or .csv.",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 512),
    default=None,
    help="Worker processes of the local engine (default: the number of cores).",
)
@click.option(
    "--engine",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="local: DuckDB and a process pool; ray: Ray Data.",
)
@click.option(
    "--body",
    metavar="COLUMN",
    help="The body column of Parquet/JSONL tables (default: body); JSONL files become tables.",
)
@click.option(
    "--key",
    "keys",
    multiple=True,
    metavar="COLUMN",
    help="A table column to carry into the rows (repeatable; default: all of them).",
)
@click.option(
    "--group-by",
    "group_by",
    multiple=True,
    metavar="COLUMN",
    help="Verdict rates per value of a row column, a --key, or path[N] (the N-th segment of "
    "the input's path from 0; path[-2]: its folder). Repeatable.",
)
@click.option(
    "--time",
    "time_column",
    metavar="COLUMN",
    help="The table column holding each request's start, for the time axis (default: "
    "started, ts, timestamp, time, created_at…, the first that has one).",
)
@click.option("--html", "html_path", metavar="FILE", help="Write a self-contained HTML report.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--fail-on",
    metavar="VERDICTS",
    help="Comma-separated: failed (exit 4), truncated (3), cancelled (130), incomplete (6), "
    "error: an input not read (1).",
)
@click.option(
    "--follow-links",
    is_flag=True,
    help="Follow links that lead out of a directory's tree (each real path is read once).",
)
@idle_threshold_option
@click.option("--color/--no-color", default=None, help="Force colour on or off.")
def scan_command(
    paths: tuple[str, ...],
    out: str | None,
    jobs: int | None,
    engine: str,
    body: str | None,
    keys: tuple[str, ...],
    group_by: tuple[str, ...],
    time_column: str | None,
    html_path: str | None,
    as_json: bool,
    fail_on: str | None,
    follow_links: bool,
    idle_threshold: float | None,
    color: bool | None,
) -> int:
    """Judge every stream under PATH... and summarize the corpus.

    PATH is a stream file in any form `inspect` reads, a directory (read recursively; a
    `proxy --record` directory through its index.jsonl), a glob, or a Parquet table of
    bodies (--body). Each HAR entry and each response of a capture is one stream. Exit 0
    when the scan ran, unless --fail-on finds one of its verdicts; 2 when a PATH names
    nothing.
    """
    levels = [v.strip() for v in (fail_on or "").split(",") if v.strip()]
    bad = [v for v in levels if v not in FAIL_ON]
    if bad:
        raise click.BadParameter(
            f"{bad[0]!r} is not one of {', '.join(FAIL_ON)}", param_hint="--fail-on"
        )
    missing = [p for p in paths if _missing(p)]
    if missing:
        for path in missing:
            print(f"ssescope: {visible(path)}: no such file or directory", file=sys.stderr)
        return exitcodes.USAGE
    import duckdb  # noqa: F401  (the scan extra; a missing one is named in one line)
    import pyarrow  # noqa: F401

    if engine == "ray":
        import ray  # noqa: F401

    from ..scan import scan
    from ..scan.run import ScanInterrupted, partial_path

    interrupted = None
    # Ray prints to file descriptor 1: while it runs, that is stderr (cli/_stdout.py)
    quiet = stdout_to_stderr() if engine == "ray" else nullcontext()
    try:
        with quiet, _progress(sys.stderr.isatty() and not as_json) as progress:
            result = scan(
                list(paths),
                out=out,
                engine=engine,
                jobs=jobs,
                body=body,
                keys=_carried(_keys(keys), _keys(group_by), time_column),
                on_progress=progress,
                follow_links=follow_links,
                group_by=_keys(group_by) or (),
                time=time_column,
                timing=timing_options(idle_threshold),
            )
    except ScanInterrupted as exc:
        interrupted, result = exc, exc.result
        written = "" if out is None else f"; the rows read so far are in {partial_path(out)}"
        print(f"ssescope: interrupted: {exc}{written}", file=sys.stderr, flush=True)
    summary = result.summary
    if html_path is not None:
        from ..scan.html import write_html

        write_html(html_path, summary)
    if as_json:
        strictjson.write(summary, sys.stdout, indent=2)
    else:
        use_color = want_color(color, sys.stdout)
        console = Console(
            file=sys.stdout,
            force_terminal=use_color,
            no_color=not use_color,
            color_system="auto" if use_color else None,
            highlight=False,
            width=None if sys.stdout.isatty() else 120,
        )
        render_summary(console, summary)
    if interrupted is not None:
        return exitcodes.INTERRUPTED
    return scan_exit_code(summary, levels)

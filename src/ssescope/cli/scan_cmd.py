"""``ssescope scan``: judge a corpus of logged streams, one row per stream, and summarize."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..output import strictjson
from ..output.visible import visible
from . import exitcodes
from ._input import want_color

__all__ = ["FAIL_ON", "render_summary", "scan_command", "scan_exit_code"]

FAIL_ON = {
    "failed": exitcodes.FAILED,
    "truncated": exitcodes.TRUNCATED,
    "cancelled": exitcodes.INTERRUPTED,
    "incomplete": exitcodes.INCOMPLETE,
    "error": exitcodes.INTERNAL,
}
"""``--fail-on`` choices, in the order they win, and the exit code of each."""

_STYLES = {
    "completed": "green",
    "incomplete": "yellow",
    "failed": "red",
    "truncated": "bold red",
    "cancelled": "magenta",
}


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


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value * 1000:.0f} ms" if value < 10 else f"{value:.1f} s"


def _groups(console: Console, title: str, key: str, groups: list[dict[str, Any]]) -> None:
    from ..scan.summary import STATUSES

    table = Table(title=title, title_justify="left", header_style="bold", box=None)
    names = [visible(str(g[key])) for g in groups[:15]]
    longest = max((len(name) for name in names), default=0)
    table.add_column(key, no_wrap=True, min_width=min(longest, 40))
    table.add_column("streams", justify="right")
    for status in STATUSES:
        table.add_column(status, justify="right", style=_STYLES[status])
    for name, group in zip(names, groups[:15], strict=True):
        # a model or provider name is the stream's text: a Text, never rich markup
        cells: list[Text | str] = [Text(name), f"{group['streams']:,}"]
        cells += [f"{group[f'{s}_rate']:.1%}" if group[s] else "" for s in STATUSES]
        table.add_row(*cells)
    if len(groups) > 15:
        table.add_row(f"… {len(groups) - 15} more", "")
    console.print(table)
    console.print()


def render_summary(console: Console, summary: dict[str, Any]) -> None:
    """Print the corpus summary: verdicts, per provider and model, diagnostics, timing,
    the worst streams and the inputs that could not be read."""
    from ..scan.summary import STATUSES

    streams = summary["streams"]
    inputs = summary.get("inputs", streams)
    head = Text(
        f"{inputs:,} input{'' if inputs == 1 else 's'} · {streams:,} "
        f"response{'' if streams == 1 else 's'} · {summary['bytes']:,} bytes",
        style="bold",
    )
    if summary["input_errors"]:
        head.append(f" · {summary['input_errors']:,} inputs not read", style="bold red")
    if summary.get("inputs_cut"):
        head.append(f" · {summary['inputs_cut']:,} judged by their first 64 MiB", style="yellow")
    partial = summary.get("partial")
    if partial:
        total = "" if partial["inputs"] is None else f" of {partial['inputs']:,}"
        head.append(
            f" · interrupted: {partial['inputs_read']:,}{total} inputs read", style="bold red"
        )
    console.print(head)
    verdicts = Text()
    for status in STATUSES:
        v = summary["verdicts"][status]
        verdicts.append(f"{status} {v['count']:,} ({v['rate']:.1%})", style=_STYLES[status])
        verdicts.append("   ")
    console.print(verdicts, soft_wrap=True)
    console.print()
    if streams:
        _groups(console, "by provider", "provider", summary["by_provider"])
        _groups(console, "by model", "model", summary["by_model"])
    if summary["diagnostics"]:
        table = Table(title="top diagnostics", title_justify="left", header_style="bold", box=None)
        for name, justify in (
            ("code", "left"),
            ("streams", "right"),
            ("share", "right"),
            ("count", "right"),
        ):
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for d in summary["diagnostics"]:
            share = d["streams"] / streams if streams else 0
            table.add_row(
                Text(visible(d["code"])), f"{d['streams']:,}", f"{share:.1%}", f"{d['count']:,}"
            )
        console.print(table)
        console.print()
    timed = {k: v for k, v in summary["timing"].items() if v["streams"]}
    if timed:
        table = Table(title="timing", title_justify="left", header_style="bold", box=None)
        for name in ("", "streams", "p50", "p90", "p99"):
            table.add_column(name, justify="left" if not name else "right")
        for name, t in timed.items():
            cells = [name, f"{t['streams']:,}"]
            table.add_row(*cells, *(_seconds(t[p]) for p in ("p50", "p90", "p99")))
        console.print(table)
        console.print()
    if summary["worst"]:
        console.print(Text("open next", style="bold"))
        for w in summary["worst"]:
            source = visible(str(w["source"]))
            where = source if w["entry"] is None else f"{source} #{w['entry']}"
            line = Text(f"  {visible(str(w['status'])):<10} ", style=_STYLES.get(w["status"], ""))
            line.append(where)
            codes = visible(", ".join(w["diagnostics"][:3]))
            reason = visible(str(w["status_reason"]))
            line.append(f"  {reason}" + (f" [{codes}]" if codes else ""), style="dim")
            console.print(line, soft_wrap=True)
    for e in summary["errors"]:
        console.print(
            Text(
                f"  not read   {visible(str(e['source']))}: {visible(str(e['error']))}", style="red"
            ),
            soft_wrap=True,
        )


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
@click.option("--color/--no-color", default=None, help="Force colour on or off.")
def scan_command(
    paths: tuple[str, ...],
    out: str | None,
    jobs: int | None,
    engine: str,
    body: str | None,
    keys: tuple[str, ...],
    html_path: str | None,
    as_json: bool,
    fail_on: str | None,
    follow_links: bool,
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
    try:
        with _progress(sys.stderr.isatty() and not as_json) as progress:
            result = scan(
                list(paths),
                out=out,
                engine=engine,
                jobs=jobs,
                body=body,
                keys=_keys(keys),
                on_progress=progress,
                follow_links=follow_links,
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

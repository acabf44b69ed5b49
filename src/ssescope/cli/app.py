"""The click commands: inspect, records, replay, check, examples, schema."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import __version__, core_label
from ..aggregate.timing import TimingOptions
from ..compare import compare_result, load_result, normalise_result
from ..examples import list_examples
from ..inflight import FedFindings, in_flight, streaming_text
from ..output import strictjson
from ..output.redaction import redact_report
from . import exitcodes
from ._feed import Input, feed, load_all, run_pipeline, start
from ._input import need_input, open_source, table_source, want_color
from ._pipe import PipeConsole, reader_may_leave
from .check import print_differences, stream_exit
from .conform_cmd import conform_command
from .entries import entry_option, one_entry, render_entries, select_entry, worst_exit
from .export_otel_cmd import export_otel_command
from .frames_cmd import frames_alias, frames_command
from .options import (
    container_option,
    framing_option,
    idle_threshold_option,
    provider_option,
    timing_options,
)
from .proxy_cmd import proxy_command
from .render import SECTIONS, render_report
from .replay import chunkings, run_chunking
from .request_cmd import request_command
from .scan_cmd import scan_command
from .schema_cmd import schema_command
from .serve_cmd import serve_command
from .web_cmd import web_command

__all__ = ["COMMANDS", "cli"]

_CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
_EXIT_HELP = """\b
Exit codes:
  0  completed (or incomplete, unless --fail-on incomplete)
  1  internal or I/O error
  2  usage error
  3  truncated: the bytes ended without a terminal marker
  4  failed: provider error in the stream, or HTTP >= 400
  5  --strict / --fail-on warning|error hit, or check/replay mismatch
  6  incomplete, with --fail-on incomplete
  7  stalled (live requests)
  130 interrupted, or cancelled"""


def _stderr(color: bool | None = None) -> Console:
    return PipeConsole(stderr=True, no_color=not want_color(color, sys.stderr), highlight=False)


def _stdout(color: bool) -> Console:
    return PipeConsole(
        file=sys.stdout,
        force_terminal=color,
        no_color=not color,
        color_system="auto" if color else None,
        highlight=False,
        soft_wrap=False,
    )


def _parse_list(value: str | None, allowed: tuple[str, ...], option: str) -> list[str]:
    if not value:
        return []
    items = [v.strip() for v in value.split(",") if v.strip()]
    bad = [v for v in items if v not in allowed]
    if bad:
        raise click.BadParameter(
            f"{bad[0]!r} is not one of {', '.join(allowed)}", param_hint=option
        )
    return items


@click.group(context_settings=_CONTEXT, epilog=_EXIT_HELP, invoke_without_command=True)
@click.version_option(
    __version__, prog_name="ssescope", message=f"%(prog)s %(version)s, {core_label()}"
)
@click.pass_context
def cli(ctx: click.Context) -> int:
    """What actually happened in an LLM streaming response.

    Give a captured stream body (SSE, NDJSON, JSON array, AWS event-stream) as a file or
    on stdin.
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())  # a bare `ssescope` asked for nothing wrong
    return exitcodes.COMPLETED


@cli.command(context_settings=_CONTEXT, epilog=_EXIT_HELP)
@click.argument("file", required=False)
@click.option("--example", metavar="NAME", help="Inspect a bundled example (see `examples`).")
@provider_option
@framing_option
@container_option
@click.option("--json", "as_json", is_flag=True, help="Print the Report JSON (default when piped).")
@click.option("--pretty", is_flag=True, help="Print the human view even when piped.")
@click.option(
    "--only",
    metavar="SECTIONS",
    help="Human view sections, comma-separated: text,reasoning,tools,usage,diagnostics.",
)
@click.option("--redact", is_flag=True, help="Show lengths and sha256 prefixes, not content.")
@click.option(
    "--full",
    is_flag=True,
    help="Show long texts whole (the human view folds them at 20,000 chars).",
)
@click.option("--color/--no-color", default=None, help="Force colour on or off.")
@click.option("--strict", is_flag=True, help="Exit 5 on any error-severity framing/JSON finding.")
@click.option(
    "--fail-on",
    metavar="LEVELS",
    help="Comma-separated: incomplete (exit 6), warning or error (exit 5).",
)
@entry_option
@click.option(
    "--row",
    type=click.IntRange(min=0),
    metavar="N",
    help="FILE is a table of bodies (Parquet, JSONL): inspect its row N (from 0, as "
    "`scan` numbers it; needs the scan extra).",
)
@click.option(
    "--body",
    metavar="COLUMN",
    help="With --row: the table's body column (default: body).",
)
@idle_threshold_option
@click.pass_context
def inspect(
    ctx: click.Context,
    file: str | None,
    example: str | None,
    provider: str,
    framing: str,
    container: str,
    as_json: bool,
    pretty: bool,
    only: str | None,
    redact: bool,
    full: bool,
    color: bool | None,
    strict: bool,
    fail_on: str | None,
    entry: str | None,
    row: int | None,
    body: str | None,
    idle_threshold: float | None,
) -> int:
    """Assemble a stream and say how it ended.

    FILE is a stream body; `-` or a pipe reads stdin. On a terminal: the verdict, the reply,
    usage and diagnostics. Piped, or with --json: exactly the Report JSON. A HAR or JSONL
    log holding several streams gives one verdict line per entry, then the details (with
    --json, an array of Reports); --entry N picks one. A table of bodies (what `scan`
    reads) is opened a row at a time: --row N (--body COLUMN).
    """
    sections = _parse_list(only, SECTIONS, "--only") or list(SECTIONS)
    levels = _parse_list(fail_on, exitcodes.FAIL_ON_CHOICES, "--fail-on")
    if as_json and pretty:
        raise click.UsageError("--json and --pretty exclude each other")
    need_input(ctx, file, example)
    if body is not None and row is None:
        raise click.UsageError("--body names a table's column: give --row N too")
    opened = open_source(file, example) if row is None else table_source(file, row, body)
    inputs = load_all(opened, container)
    if entry is not None:
        inputs = [select_entry(inputs, entry)]
    if len(inputs) > 1:
        return _inspect_entries(
            inputs,
            provider,
            framing,
            as_json,
            pretty,
            only,
            sections,
            redact,
            color,
            strict,
            levels,
            timing_options(idle_threshold),
        )
    # a proxy's capture still being written is not judged: it has not ended
    live = file not in (None, "-") and example is None and row is None
    streaming = in_flight(file) if live and file is not None else None
    fed = FedFindings()
    timing = timing_options(idle_threshold)
    pipeline = start(inputs[0], provider=provider, framing=framing, timing=timing)
    report = feed(pipeline, inputs[0], fed).report()
    data = report.to_dict()
    if redact:
        redact_report(data)
    human = pretty or (not as_json and (sys.stdout.isatty() or only is not None))
    if streaming is not None and human:  # its end's findings wait for its end
        held = set(fed.at_end(report.diagnostics))
        data["diagnostics"] = [d for i, d in enumerate(data["diagnostics"]) if i not in held]
    with reader_may_leave():
        if human:
            console = _stdout(want_color(color, sys.stdout))
            render_report(console, data, sections, full=full, streaming=streaming)
        else:
            strictjson.write(data, sys.stdout, indent=2)
    if streaming is not None:
        if not human:  # (the Report is of the bytes so far)
            click.echo(f"ssescope: {file}: {streaming_text(streaming)}", err=True)
        return exitcodes.IN_FLIGHT
    return exitcodes.exit_code(report, strict=strict, fail_on=levels)


def _inspect_entries(
    inputs: list[Input],
    provider: str,
    framing: str,
    as_json: bool,
    pretty: bool,
    only: str | None,
    sections: list[str],
    redact: bool,
    color: bool | None,
    strict: bool,
    levels: list[str],
    timing: TimingOptions | None,
) -> int:
    reports = [run_pipeline(source, provider, framing, timing) for source in inputs]
    datas = [report.to_dict() for report in reports]
    if redact:
        for data in datas:
            redact_report(data)
    with reader_may_leave():
        if pretty or (not as_json and (sys.stdout.isatty() or only is not None)):
            console = _stdout(want_color(color, sys.stdout))
            render_entries(console, datas, lambda data: render_report(console, data, sections))
        else:
            strictjson.write(datas, sys.stdout, indent=2)
    return worst_exit(exitcodes.exit_code(r, strict=strict, fail_on=levels) for r in reports)


@cli.command(context_settings=_CONTEXT)
@click.argument("file")
@provider_option
@framing_option
@container_option
@click.option("--seed", type=int, default=0, show_default=True, help="First random seed.")
@click.option(
    "--random",
    "count",
    type=click.IntRange(0, 1000),
    default=8,
    show_default=True,
    help="How many seeded random splits.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the runs as JSON.")
@click.option("--color/--no-color", default=None, help="Force colour on or off.")
@entry_option
def replay(
    file: str,
    provider: str,
    framing: str,
    container: str,
    seed: int,
    count: int,
    as_json: bool,
    color: bool | None,
    entry: str | None,
) -> int:
    """Prove the Report does not depend on how the bytes were chunked (exit 5 if it does).

    Feeds FILE whole, in 1, 2, 3, 7, 64 and 1024-byte pieces and in seeded random splits,
    and compares the sha256 of each Report (timing removed).
    """
    source = one_entry(load_all(open_source(file), container), entry)
    pieces = list(source.pieces())
    body = b"".join(pieces)
    runs = [
        run_chunking(name, chunks, provider, framing)
        for name, chunks in chunkings(body, seed=seed, count=count, original=source.original)
    ]
    reference = runs[0].digest
    same = all(r.digest == reference for r in runs)
    if as_json:
        out = {
            "file": file,
            "bytes": len(body),
            "identical": same,
            "runs": [
                {
                    "chunking": r.chunking,
                    "chunks": r.chunks,
                    "digest": r.digest,
                    "status": r.status,
                    "seconds": r.seconds,
                }
                for r in runs
            ],
        }
        with reader_may_leave():
            strictjson.write(out, sys.stdout, indent=2)
    else:
        console = _stdout(want_color(color, sys.stdout))
        table = Table(header_style="bold")
        for name in ("chunking", "chunks", "digest", "status", "ms", ""):
            table.add_column(name, justify="right" if name in ("chunks", "ms") else "left")
        for r in runs:
            ok = r.digest == reference
            table.add_row(
                r.chunking,
                str(r.chunks),
                r.digest[:16],
                r.status,
                f"{r.seconds * 1000:.1f}",
                Text("same", style="green") if ok else Text("DIFFERS", style="bold red"),
            )
        verdict = "identical in every chunking" if same else "the Report DIFFERS by chunking"
        with reader_may_leave():
            console.print(table)
            console.print(Text(verdict, style="bold green" if same else "bold red"))
    return exitcodes.COMPLETED if same else exitcodes.MISMATCH


@cli.command(context_settings=_CONTEXT)
@click.argument("stream")
@click.option(
    "--against",
    "result",
    required=True,
    metavar="RESULT",
    help="What a client built from STREAM: an openai ChatCompletion or Response, an "
    "anthropic Message, a Gemini GenerateContentResponse, a Vercel AI SDK result or a "
    "ssescope Report (as JSON), JSON with text, reasoning, refusal, tool_calls, "
    "finish_reason, usage, or a text file (the expected text).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the differences as JSON.")
@provider_option
@framing_option
@click.option("--color/--no-color", default=None, help="Force colour on or off.")
@entry_option
def check(
    stream: str,
    result: str,
    as_json: bool,
    provider: str,
    framing: str,
    color: bool | None,
    entry: str | None,
) -> int:
    """Compare the reply assembled from STREAM with what a client built (exit 5 if it differs).

    Only what RESULT states is compared; tool arguments are compared as parsed JSON. A
    STREAM that was itself cut or failed is said first, and its code is the exit code (3
    truncated, 4 failed, 130 cancelled), whatever the comparison says: a client that
    agrees with a broken stream holds a broken reply.
    """
    expected = normalise_result(load_result(open_source(result).read_all(), result))
    report = run_pipeline(one_entry(load_all(open_source(stream)), entry), provider, framing)
    diffs = compare_result(expected, report)
    with reader_may_leave():
        print_differences(_stdout(want_color(color, sys.stdout)), expected, diffs, as_json, report)
    broken = stream_exit(report)
    if broken is not None:
        return broken
    return exitcodes.MISMATCH if diffs else exitcodes.COMPLETED


@cli.command(context_settings=_CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def examples(as_json: bool) -> int:
    """List the bundled examples (use them with `inspect --example NAME`)."""
    items = list_examples()
    if as_json:
        listed = [{"name": e.name, "file": e.filename, "description": e.description} for e in items]
        strictjson.write(listed, sys.stdout, indent=2)
        return exitcodes.COMPLETED
    for e in items:
        click.echo(f"{e.name:38} {e.description}")
    return exitcodes.COMPLETED


cli.add_command(frames_command, "records")
cli.add_command(frames_alias, "frames")
cli.add_command(schema_command, "schema")
cli.add_command(request_command, "request")
cli.add_command(serve_command, "serve")
cli.add_command(web_command, "web")
cli.add_command(scan_command, "scan")
cli.add_command(proxy_command, "proxy")
cli.add_command(conform_command, "conform")
cli.add_command(export_otel_command, "export-otel")

COMMANDS = tuple(cli.commands)
"""The command names (``python -m ssescope X`` runs ``inspect X`` unless X is one)."""

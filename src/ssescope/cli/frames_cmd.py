"""``ssescope records``: one row per record, printed while the stream is read.

Rows are written as the engine finalises them (see :mod:`ssescope.output.frame_rows`), one line
each, so ``ssescope records big.sse | head`` answers at once and a long stream is shown in
bounded memory. The unterminated tail of a cut stream is a row of its own. ``frames`` is
the same command under its former name.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

import click
import orjson
from rich.cells import cell_len

from ..diagnostics import Diagnostic
from ..output import strictjson
from ..output.frame_rows import FrameRow, FrameRows
from ..output.redaction import redact_diagnostic, redacted
from ..output.visible import escape_json_text, visible
from . import exitcodes
from ._feed import feed, load_all, start
from ._input import need_input, open_source, want_color
from ._pipe import quiet_stdout
from .entries import entry_option, one_entry
from .options import container_option, framing_option, provider_option

__all__ = ["frames_alias", "frames_command"]

_CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
_EVENT_WIDTH = 30
_BOLD, _DIM, _RED, _YELLOW, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[33m", "\x1b[0m"


def _fit(text: str, width: int) -> str:
    """``text`` on one line, control characters made visible, cut to ``width`` cells."""
    flat = visible(text[: width * 8])  # no escape spells out to more than 6 characters
    if flat.isascii():
        if len(flat) > width:
            return flat[: width - 1] + "…"
        return flat + " " * (width - len(flat))
    used = 0
    out = []
    for ch in flat:
        w = cell_len(ch)
        if used + w > width - 1:
            out.append("…")
            used += 1
            break
        out.append(ch)
        used += w
    return "".join(out) + " " * max(0, width - used)


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


class _Table:
    """Writes rows as aligned text lines (ANSI colours when asked)."""

    def __init__(self, out: TextIO, width: int, color: bool) -> None:
        self._out = out
        self._width = width
        self._color = color
        self._started = False
        self._show_time = False
        self._show_id = False
        self._event_width = 9

    def _paint(self, text: str, style: str) -> str:
        return f"{style}{text}{_RESET}" if self._color and text else text

    def _start(self, rows: list[FrameRow], header: str) -> None:
        self._started = True
        self._show_time = any(r.time is not None for r in rows)
        self._show_id = any(r.id for r in rows)
        # the width is chosen from the first rows; named events (Anthropic, Responses)
        # get room for the longer names that follow
        longest = max((len(visible(r.event or "")) for r in rows), default=0)
        named = any(r.event not in (None, "message") for r in rows)
        self._event_width = min(max(longest, 22 if named else 9), _EVENT_WIDTH)
        self._out.write(header + "\n")
        cells = [f"{'#':>5}", f"{'offset':>8}", f"{'len':>6}"]
        if self._show_time:
            cells.append(f"{'time':>8}")
        cells.append(f"{'event':<{self._event_width}}")
        if self._show_id:
            cells.append(f"{'id':<10}")
        cells.append("data")
        self._out.write(self._paint("  ".join(cells), _BOLD) + "\n")

    def write(self, rows: list[FrameRow], header: Callable[[], str]) -> None:
        if not rows:
            return
        if not self._started:
            self._start(rows, header())
        fixed = 5 + 8 + 6 + self._event_width + 2 * 4
        fixed += 10 if self._show_time else 0
        fixed += 12 if self._show_id else 0
        lines: list[str] = []
        append = lines.append
        plain_width = max(24, self._width - fixed)
        event_width = self._event_width
        show_time, show_id = self._show_time, self._show_id
        for row in rows:
            mark = ""
            data_width = plain_width
            if row.diagnostics or row.unknown:  # most rows have nothing to mark
                mark, cells_used = self._marks(row)
                data_width = max(24, plain_width - cells_used)
            kind = row.kind
            if kind == "comment":
                event = ": comment"
            elif kind == "tail":
                event = ""
            else:
                event = visible(row.event or "")
            if len(event) > event_width:
                event = "…" + event[len(event) - event_width + 1 :]
            data = _fit(row.preview, data_width)
            if kind == "comment":
                data = self._paint(data, _DIM)
            elif kind == "tail":
                data = self._paint(data, _RED)
            index = "cut" if kind == "tail" else row.index
            head = f"{index:>5}  {row.offset:>8}  {row.length:>6}  "
            if show_time:
                head += f"{'' if row.time is None else f'{row.time:.3f}':>8}  "
            head += f"{event:<{event_width}}  "
            if show_id:
                head += _fit(row.id or "", 10) + "  "
            append(f"{head}{data}".rstrip() + mark + "\n")
        self._out.write("".join(lines))

    def _marks(self, row: FrameRow) -> tuple[str, int]:
        """The findings after a row's data, and how many cells they take."""
        marks = []
        invalid = row.invalid
        if invalid:
            marks.append(self._paint("✗ invalid", _RED + _BOLD))
        if row.unknown:
            marks.append(self._paint("? unknown", _YELLOW))
        codes = [d.code for d in row.diagnostics]
        if codes:
            worst = _RED if any(d.severity == "error" for d in row.diagnostics) else _DIM
            marks.append(self._paint(" ".join(codes), worst))
        used = len(" ".join(codes)) + 10 * (invalid + row.unknown) + 2
        return "  " + " ".join(marks), used

    def footer(self, text: str, late: list[Diagnostic]) -> None:
        for d in late:
            where = "" if d.record is None else f"record {d.record} · "
            self._out.write(self._paint(f"{where}{d.code} ({d.severity})", _DIM) + "\n")
        self._out.write(text + "\n")


def _jsonl(rows: list[FrameRow]) -> str:
    """The rows as JSON lines: strict JSON (orjson writes no NaN), C1 and bidi escaped."""
    return escape_json_text("".join(orjson.dumps(r.to_dict()).decode() + "\n" for r in rows))


def _write(out: TextIO, text: str) -> None:
    """Write ``text`` in pieces (one write of gigabytes is cut short by the system)."""
    piece = strictjson.WRITE_PIECE
    if len(text) <= piece:
        out.write(text)
        return
    for i in range(0, len(text), piece):
        out.write(text[i : i + piece])


def _redact(rows: list[FrameRow]) -> list[FrameRow]:
    for row in rows:
        row.data = redacted(row.data)
        row.preview = row.data
    return rows


@click.command(context_settings=_CONTEXT)
@click.argument("file", required=False)
@click.option("--example", metavar="NAME", help="Use a bundled example.")
@provider_option
@framing_option
@container_option
@click.option("--jsonl", is_flag=True, help="One JSON object per record (raw data included).")
@click.option(
    "--redact", is_flag=True, help="Show each record's length and sha256 prefix, not its data."
)
@click.option("--color/--no-color", default=None, help="Force colour on or off.")
@entry_option
@click.pass_context
def frames_command(
    ctx: click.Context,
    file: str | None,
    example: str | None,
    provider: str,
    framing: str,
    container: str,
    jsonl: bool,
    redact: bool,
    color: bool | None,
    entry: str | None,
) -> int:
    """One row per record: offset, length, time, event / id, what it changed, findings.

    Rows are printed as the stream is read (`frames` is another name for this command). The bytes after the last complete record of a
    cut stream are a row of their own (`cut`). With --jsonl, each row is a JSON object;
    findings raised at the end about an earlier record follow as `{"kind": "finding"}`.
    """
    need_input(ctx, file, example)
    source = one_entry(load_all(open_source(file, example), container), entry)
    pipeline = start(source, provider=provider, framing=framing, keep_records=True)
    rows = FrameRows(pipeline)
    out = sys.stdout
    table = None
    if not jsonl:
        from rich.console import Console

        width = Console(file=sys.stdout).width
        table = _Table(out, width, want_color(color, sys.stdout))

    def header() -> str:
        return f"{pipeline.provider} · {pipeline.framing} · {visible(pipeline.container)}"

    gone = False  # the reader has what it wanted (`records big.sse | head`)

    def emit(found: list[FrameRow]) -> None:
        nonlocal gone
        if gone:
            return
        if redact:
            found = _redact(found)
        try:
            if table is not None:
                table.write(found, header)
            else:
                _write(out, _jsonl(found))
        except BrokenPipeError:
            gone = True
            quiet_stdout()

    # The stream is read to its end even when the reader left: the exit code is its verdict.
    feed(pipeline, source, lambda events: emit(rows.take(events)))
    emit(rows.finish())
    report = pipeline.report()
    code = exitcodes.exit_code(report)
    if gone:
        return code
    if table is None:
        for d in rows.late:
            finding: dict[str, Any] = d.to_dict()
            if redact:
                redact_diagnostic(finding)
            try:
                strictjson.write({"kind": "finding", **finding}, out, flush=False)
            except BrokenPipeError:
                quiet_stdout()
                break
        return code
    count = report.records.total
    summary = f"{_plural(count, 'record')} · {report.bytes:,} bytes · {report.status}"
    if rows.tail is not None:
        summary += f" · cut at byte {rows.tail.offset:,}"
    try:
        if count == 0 and rows.tail is None:
            table.write([], header)
        table.footer(summary, rows.late)
    except BrokenPipeError:
        quiet_stdout()
    return code


frames_alias = click.Command(
    "frames",
    callback=frames_command.callback,
    params=frames_command.params,
    help=frames_command.help,
    context_settings=_CONTEXT,
    hidden=True,
)
"""``ssescope frames``: the former name of ``records``, kept for existing scripts."""

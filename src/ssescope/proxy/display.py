"""What the proxy prints: one line per finished exchange, and the streams in flight.

:func:`exchange_line` is the line (time, method, path, status, provider, verdict,
first-content time, records, bytes, capture); :func:`exchange_json` its ``--json`` form.
:class:`LiveDisplay` shows the streams in flight on a terminal with ``rich.live``.

Whatever came from a client or an upstream (a request path, an error message) is shown
through :func:`ssescope.output.visible.visible` and as a rich ``Text``: never as markup, so a
path holding ``[link=…]`` or ``[/x]`` is shown as it is.
"""

from __future__ import annotations

import threading
from typing import IO

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from ..output import strictjson
from ..output.visible import visible
from ..silence import SILENCE_NOTE_S
from ..silence import silence_note as silence_note_of
from .exchange import Exchange, Registry

__all__ = [
    "SILENCE_NOTE_S",
    "LineWriter",
    "LiveDisplay",
    "exchange_json",
    "exchange_line",
    "exchange_summary",
    "silence_note",
    "socket_note",
]

_COLORS = {
    "completed": "green",
    "incomplete": "yellow",
    "failed": "red",
    "truncated": "red",
    "cancelled": "magenta",
}


_SO_FAR = 30  # the characters of the reply so far shown for a stream in flight


def _s(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}s"


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / (1024 * 1024):.1f} MiB"


def _plain(text: str, style: str = "") -> Text:
    """Text from elsewhere, with its control characters made visible (never markup)."""
    return Text(visible(text), style)


def _elide(text: str, room: int) -> str:
    """``text`` cut in the middle to ``room`` characters (at least 9), with an ellipsis."""
    if len(text) <= room:
        return text
    room = max(room, 9)
    head = (room - 1) // 2
    return text[:head] + "…" + text[len(text) - (room - 1 - head) :]


def silence_note(ex: Exchange) -> str:
    """`` · idle 8.0 s mid tool call`` or `` · keep-alives only for 6.0 s mid text``
    (:func:`ssescope.silence.silence_note`) for an exchange whose longest silence without
    content lasted :data:`SILENCE_NOTE_S` or more; else ``""``."""
    note = silence_note_of(ex.content_idle_max_s, ex.content_idle_after, ex.byte_idle_max_s)
    return f" · {note}" if note else ""


def _verb(ex: Exchange) -> str:
    """``WS`` for a WebSocket connection, else the request's method."""
    return "WS" if ex.transport == "websocket" else ex.method


def socket_note(ex: Exchange) -> str:
    """`` · 2 responses · closed 1011 (overloaded) by server`` for a WebSocket connection
    (``dropped by client, no close frame`` when it ended with none); else ``""``."""
    if ex.transport != "websocket" or ex.closed_by is None:
        return ""
    count = f" · {ex.responses} responses" if ex.responses > 1 else ""
    if ex.dropped:
        return f"{count} · dropped by {ex.closed_by}, no close frame"
    code = "with no code" if ex.close_code is None else str(ex.close_code)
    reason = f" ({visible(ex.close_reason)})" if ex.close_reason else ""
    return f"{count} · closed {code}{reason} by {ex.closed_by}"


def exchange_line(ex: Exchange, width: int | None = None, folder: str | None = None) -> Text:
    """The one line printed as an exchange ends.

    Args:
        ex: the finished exchange.
        width: the terminal's width: a capture's name that does not fit goes whole on a
            second line (``  ↳ NAME``), and a request path too long is cut in its middle
            (``None``, as when the output is piped: one line, never cut).
        folder: the record folder (printed once when the proxy starts): the capture is
            named relative to it.
    """
    capture = ex.capture
    if capture and folder and capture.startswith(folder.rstrip("/") + "/"):
        capture = capture[len(folder.rstrip("/")) + 1 :]
    status = str(ex.status if ex.status is not None else "---")
    verdict = ex.verdict or "-"
    facts = (
        f" first-content {_s(ex.first_content_s)} · {ex.records} records · {_size(ex.wire_bytes)}"
        + silence_note(ex)
        + socket_note(ex)
    )
    tail = ""
    if capture:
        tail = f" {visible(capture)}"
    elif ex.error:
        tail = f" ({visible(ex.error)})"
    if ex.unrecorded:
        tail += " (not recorded: the recording stopped)"
    path = visible(ex.path)
    method = visible(_verb(ex))
    head = f"{ex.started.astimezone():%H:%M:%S} {method} "
    middle = f" {status} {visible(ex.provider or '-')} {verdict}"
    below = False  # the capture's name on a line of its own, under the exchange's
    if width is not None:
        fixed = len(head) + len(middle) + len(facts)
        if fixed + len(path) + len(tail) > width and capture:
            below = True
            tail = tail[len(visible(capture)) + 1 :]
        if fixed + len(path) + len(tail) > width:
            path = _elide(path, max(24, width - fixed - len(tail)))
    line = Text()
    line.append(f"{ex.started.astimezone():%H:%M:%S}", "dim")
    line.append(f" {method} {path} ")
    line.append(status, "bold")
    line.append(f" {visible(ex.provider or '-')} ")
    line.append(verdict, _COLORS.get(verdict, ""))
    line.append(facts)
    if ex.schema_mismatches:
        n = ex.schema_mismatches
        line.append(f" · {n} tool call{'' if n == 1 else 's'} off schema", "bold red")
    line.append(tail, "dim")
    if below and capture:
        line.append("\n  ↳ " + visible(capture), "dim")
    return line


def exchange_summary(finished: dict[str, int], in_flight: int, folder: str | None) -> str:
    """The line printed when the proxy stops: how many exchanges ended how.

    Args:
        finished: the count of finished exchanges by verdict (``"-"``: never judged).
        in_flight: the exchanges still open (they end ``cancelled``).
        folder: the record folder, if the proxy recorded.
    """
    total = sum(finished.values())
    order = ("completed", "incomplete", "failed", "truncated", "cancelled")
    parts = [f"{finished[v]} {v}" for v in order if finished.get(v)]
    parts += [f"{n} {v}" for v, n in sorted(finished.items()) if v not in order and n]
    line = f"ssescope proxy: stopped after {total} exchange{'s' if total != 1 else ''}"
    if parts:
        line += ": " + ", ".join(parts)
    if in_flight:
        line += f"; {in_flight} still in flight"
    if folder is not None and total:
        line += f"; captures in {folder}"
    return visible(line)


def exchange_json(ex: Exchange) -> str:
    """The ``--json`` line of an exchange."""
    return strictjson.dumps(ex.to_dict())


class LineWriter:
    """Print each finished exchange to ``out`` (a line, or a JSON line).

    Args:
        out: where to print (default: the console's file).
        json: print JSON lines instead.
        console: the rich console for the human lines.
    """

    def __init__(
        self,
        *,
        json: bool = False,
        out: IO[str] | None = None,
        console: Console | None = None,
        folder: str | None = None,
    ) -> None:
        self.json = json
        self.out = out
        self.console = console or Console(file=out, highlight=False, soft_wrap=True)
        self.folder = folder
        self.verdicts: dict[str, int] = {}
        """How many finished exchanges ended how (for the summary at exit)."""
        self._lock = threading.Lock()

    def __call__(self, ex: Exchange) -> None:
        with self._lock:
            verdict = ex.verdict or "-"
            self.verdicts[verdict] = self.verdicts.get(verdict, 0) + 1
            if self.json:
                stream = self.out if self.out is not None else self.console.file
                stream.write(exchange_json(ex) + "\n")
                stream.flush()
            else:
                width = self.console.width if self.console.is_terminal else None
                self.console.print(exchange_line(ex, width, self.folder))


class LiveDisplay:
    """A live table of the streams in flight, under the finished lines (a terminal only).

    Args:
        registry: the exchanges.
        console: the terminal.
        header: a line shown above the table (where the proxy listens).
        stderr: print what is written to stderr meanwhile above the table (when stderr is
            the same terminal), so that a message (a refusal, a full disk) does not tear it.
    """

    def __init__(
        self, registry: Registry, console: Console, header: str = "", *, stderr: bool = False
    ) -> None:
        self.registry = registry
        self.header = header
        self._live = Live(
            get_renderable=self.render,
            console=console,
            refresh_per_second=4,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=stderr,
        )

    def render(self) -> RenderableType:
        """What the table shows now (the streams in flight, newest last)."""
        active = self.registry.active()
        if not active:
            return _plain(self.header + "  waiting for requests…", "dim")
        table = Table(box=None, pad_edge=False, header_style="dim")
        columns = (
            "state",
            "age",
            "request",
            "status",
            "provider",
            "bytes",
            "records",
            "idle",
            "no content",
            "so far",
        )
        for column in columns:
            table.add_column(column)
        for ex in active[-20:]:
            idle = quiet = "-"
            now = ex.elapsed()
            if ex.last_byte_s is not None:
                idle = f"{max(0.0, now - ex.last_byte_s):.1f}s"
            # since the last content (or the first byte): keep-alives do not reset it
            since = ex.last_content_s if ex.last_content_s is not None else ex.first_byte_s
            if since is not None and not ex.finished and ex.terminal_s is None:
                quiet = f"{max(0.0, now - since):.1f}s"
            # every cell is a Text: a str cell would be parsed as rich markup
            # in flight: never a verdict, however long it has been quiet
            so_far = ex.reply_tail[-_SO_FAR:] if ex.reply_tail else ex.content_kind or ""
            table.add_row(
                Text("STREAMING", "cyan"),
                Text(f"{ex.elapsed():.1f}s"),
                _plain(f"{_verb(ex)} {ex.path}"),
                Text(str(ex.status or "…")),
                _plain(ex.provider or "-"),
                Text(_size(ex.wire_bytes)),
                Text(str(ex.records)),
                Text(idle),
                Text(quiet),
                _plain(" ".join(so_far.split()), "dim"),
            )
        title = _plain(f"{self.header}  {len(active)} in flight", "dim")
        return Group(title, table)

    def __enter__(self) -> LiveDisplay:
        self._live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._live.stop()

"""What the proxy prints: one line per finished exchange, and the streams in flight.

:func:`exchange_line` is the line (time, method, path, status, provider, verdict,
first-content time, records, bytes, capture); :func:`exchange_json` its ``--json`` form.
:class:`LiveDisplay` shows the streams in flight on a terminal with ``rich.live``.

Whatever came from a client or an upstream (a request path, an error message) is shown
through :func:`ssescope.visible.visible` and as a rich ``Text``: never as markup, so a
path holding ``[link=…]`` or ``[/x]`` is shown as it is.
"""

from __future__ import annotations

import threading
from typing import IO

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from .. import strictjson
from ..visible import visible
from .exchange import Exchange, Registry

__all__ = ["LineWriter", "LiveDisplay", "exchange_json", "exchange_line"]

_COLORS = {
    "completed": "green",
    "incomplete": "yellow",
    "failed": "red",
    "truncated": "red",
    "cancelled": "magenta",
}


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


def exchange_line(ex: Exchange) -> Text:
    """The one line printed as an exchange ends."""
    line = Text()
    line.append(ex.started.astimezone().strftime("%H:%M:%S"), "dim")
    line.append(visible(f" {ex.method} {ex.path} "))
    line.append(str(ex.status if ex.status is not None else "---"), "bold")
    line.append(visible(f" {ex.provider or '-'} "))
    verdict = ex.verdict or "-"
    line.append(verdict, _COLORS.get(verdict, ""))
    line.append(
        f" first-content {_s(ex.first_content_s)} records {ex.records} bytes {ex.wire_bytes}"
    )
    if ex.capture:
        line.append(visible(f" {ex.capture}"), "dim")
    elif ex.error:
        line.append(visible(f" ({ex.error})"), "dim")
    if ex.unrecorded:
        line.append(" (not recorded: the recording stopped)", "dim")
    return line


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
        self, *, json: bool = False, out: IO[str] | None = None, console: Console | None = None
    ) -> None:
        self.json = json
        self.out = out
        self.console = console or Console(file=out, highlight=False, soft_wrap=True)
        self._lock = threading.Lock()

    def __call__(self, ex: Exchange) -> None:
        with self._lock:
            if self.json:
                stream = self.out if self.out is not None else self.console.file
                stream.write(exchange_json(ex) + "\n")
                stream.flush()
            else:
                self.console.print(exchange_line(ex))


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
        for column in ("age", "request", "status", "provider", "bytes", "records", "idle"):
            table.add_column(column)
        for ex in active[-20:]:
            idle = "-"
            if ex.last_byte_s is not None:
                idle = f"{max(0.0, ex.elapsed() - ex.last_byte_s):.1f}s"
            # every cell is a Text: a str cell would be parsed as rich markup
            table.add_row(
                Text(f"{ex.elapsed():.1f}s"),
                _plain(f"{ex.method} {ex.path}"),
                Text(str(ex.status or "…")),
                _plain(ex.provider or "-"),
                Text(_size(ex.wire_bytes)),
                Text(str(ex.records)),
                Text(idle),
            )
        title = _plain(f"{self.header}  {len(active)} in flight", "dim")
        return Group(title, table)

    def __enter__(self) -> LiveDisplay:
        self._live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._live.stop()

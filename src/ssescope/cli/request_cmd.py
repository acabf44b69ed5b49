"""``ssescope request URL``: send a request, watch the stream live, give the verdict."""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import click
from rich.console import Console

from ..aggregate.report import Report
from ..containers.redact import scrub, secret_values
from ..diagnostics import Diagnostic
from ..errors import UsageError
from ..events import ReasoningDelta, RefusalDelta, TextDelta
from ..output import strictjson
from ..output.visible import visible
from ..sources.answer import ERROR_BODY_CAP, read_answer
from . import exitcodes
from ._types import positive
from .options import FAIL_ON_HELP, parse_fail_on, provider_option
from .render import SECTIONS, render_report

__all__ = ["ERROR_BODY_CAP", "EXIT", "exit_code", "request_command"]


EXIT = {
    "completed": 0,
    "internal": 1,
    "usage": 2,
    "truncated": 3,
    "failed": 4,
    "incomplete": 6,
    "stalled": 7,
    "interrupted": 130,
}
"""The exit codes of ``request``."""

_SHORT = 500  # the longest error message repeated on the first line
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


def exit_code(report: Report, *, stalled: bool, fail_on: str | Sequence[str] = "never") -> int:
    """The exit code a Report earns (see :data:`EXIT`).

    ``fail_on`` takes the levels of ``inspect --fail-on`` (``incomplete``, ``warning``,
    ``error``); ``"never"`` is none of them.
    """
    levels = [fail_on] if isinstance(fail_on, str) else list(fail_on)
    status = report.status
    if status == "cancelled":
        return EXIT["interrupted"]
    if stalled:
        return EXIT["stalled"]
    if report.http_status is not None and report.http_status >= 400:
        return EXIT["failed"]
    if status == "failed":
        return EXIT["failed"]
    if status == "truncated":
        return EXIT["truncated"]
    return exitcodes.exit_code(report, fail_on=[v for v in levels if v != "never"])


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _parse_header(value: str) -> tuple[str, str]:
    name, sep, rest = value.partition(":")
    if not sep or not name.strip():
        # the text before a missing colon may be a bare key: never echo it
        raise click.BadParameter("expected 'Name: value' (the text given has no colon)")
    name, rest = name.strip(), rest.strip(" \t")
    if _CONTROL.search(name):
        raise click.BadParameter("a header name holds a control character")
    bad = _CONTROL.search(rest)
    if bad:
        # e.g. a key read from a .env file with CRLF line ends; the value is never shown
        what = {"\r": "a carriage return (CR)", "\n": "a line feed (LF)"}.get(
            bad.group(0), f"the control character {bad.group(0)!r}"
        )
        raise click.BadParameter(
            f"the value of header {visible(name)!r} holds {what} at character {bad.start() + 1}"
            f" of {len(rest)} (the value is not shown); remove it, e.g. a CRLF .env file's CR"
        )
    return name, rest


def _recorded_body(body: bytes | None) -> object:
    """The request body as a capture keeps it: its JSON value, else its text (so that a
    reader of the capture knows the request's tools, among the rest)."""
    if body is None:
        return None
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return body.decode("utf-8", "replace")


def _body(data: str | None) -> bytes | None:
    if data is None:
        return None
    if data.startswith("@"):
        path = Path(data[1:])
        if data == "@-":
            return sys.stdin.buffer.read()
        try:
            return path.read_bytes()
        except OSError as exc:
            raise click.BadParameter(f"cannot read {str(path)!r}: {exc.strerror}") from None
    return data.encode()


def _verdict(report: Report, out: IO[str], *, streamed: bool = False) -> None:
    """Print the human verdict (the ``inspect`` renderer).

    With ``streamed``, the text and reasoning were already written as they arrived.
    """
    sections = [s for s in SECTIONS if not (streamed and s in ("text", "reasoning"))]
    render_report(Console(file=out), report.to_dict(), sections)


class _Screen:
    """Where the streamed reply stands on the terminal (so nothing is glued onto it)."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.mid_line = False

    def write(self, text: str, raw: str | None = None) -> None:
        """Write ``raw`` (``text`` with styling) and remember whether a line is open."""
        if not text:
            return
        self.out.write(text if raw is None else raw)
        self.out.flush()
        self.mid_line = not text.endswith("\n")

    def break_line(self) -> None:
        """End an open line of the reply, so that the next line starts at column 0."""
        if self.mid_line:
            self.out.write("\n")
            self.out.flush()
            self.mid_line = False


class _Counters:
    """Live counters on stderr (only on a terminal).

    When the reply text streams to the same terminal, each milestone (first byte, first
    event, first content) is one dim line, so that the text is never overwritten. When
    the text goes elsewhere (a pipe, a file), one status line on stderr is rewritten as
    records arrive: milestones, records and bytes.
    """

    def __init__(
        self, err: IO[str], enabled: bool, inline: bool, screen: _Screen | None = None
    ) -> None:
        self.err = err
        self.enabled = enabled
        self.inline = enabled and inline
        self.screen = screen
        self.seen: dict[str, float] = {}
        self._last_draw = 0.0
        self._drawn = False

    def mark(self, what: str, elapsed: float, records: int, nbytes: int) -> None:
        if not self.enabled or what in self.seen:
            return
        self.seen[what] = elapsed
        if self.inline:
            self.tick(elapsed, records, nbytes, force=True)
            return
        if self.screen is not None:
            self.screen.break_line()  # the reply shares the terminal: start a new line
        print(
            f"{_DIM}{what} after {elapsed:.3f} s · {records} records · {nbytes} bytes{_RESET}",
            file=self.err,
            flush=True,
        )

    def tick(self, elapsed: float, records: int, nbytes: int, *, force: bool = False) -> None:
        """Redraw the status line (at most ten times a second)."""
        if not self.inline or (not force and elapsed - self._last_draw < 0.1):
            return
        self._last_draw = elapsed
        marks = " · ".join(f"{k} {v:.3f} s" for k, v in self.seen.items())
        line = (
            f"{marks + ' · ' if marks else ''}{records} records · {nbytes} bytes · {elapsed:.1f} s"
        )
        self.err.write(f"\r\x1b[2K{_DIM}{line}{_RESET}")
        self.err.flush()
        self._drawn = True

    def finish(self) -> None:
        """End the status line so the verdict starts on a line of its own."""
        if self._drawn:
            self.err.write("\n")
            self.err.flush()
            self._drawn = False


@dataclass(frozen=True, slots=True)
class Reading:
    """How ``request`` reads and reports an exchange, over HTTP or a WebSocket alike.

    Attributes:
        provider: ``"auto"`` or the provider the stream is read as (``--provider``).
        stall: the seconds of silence after which the client gives up (``--stall``).
        save: where to write the capture (``--save``), if anywhere.
        as_json: print the Report as JSON (``--json``).
        fail_on: the levels that fail the exit code (``--fail-on``).
    """

    provider: str
    stall: float | None
    save: str | None
    as_json: bool
    fail_on: list[str]


def _run(
    url: str, method: str, headers: list[tuple[str, str]], body: bytes | None, how: Reading
) -> int:
    import httpx

    from ..containers import CaptureWriter
    from ..sources.httpx import LiveStream, iter_events

    out = sys.stdout
    err = sys.stderr
    tty = out.isatty() and not how.as_json
    screen = _Screen(out)
    counters = _Counters(
        err, err.isatty() and not how.as_json, inline=not out.isatty(), screen=screen
    )
    timeout = httpx.Timeout(30.0, read=how.stall)
    secrets = secret_values(headers, url)
    # The client (its TLS context, its pool) is built before the clock starts: the
    # timings measure the server from the moment the request is sent, as curl does.
    client = httpx.Client(timeout=timeout, follow_redirects=False)
    live: LiveStream | None = None
    interrupted = False
    printed = False  # whether the reply was streamed to stdout
    try:
        request = client.build_request(method, url, headers=headers, content=body)
        start = time.monotonic()
        with (
            client,
            closing(client.send(request, stream=True)) as response,
        ):
            capture = None
            if how.save is not None:
                capture = CaptureWriter(
                    how.save,
                    request={
                        "method": method,
                        "url": url,
                        "headers": headers,
                        "body": _recorded_body(body),
                    },
                    response_status=response.status_code,
                    response_headers=list(response.headers.multi_items()),
                )
            live = iter_events(
                response,
                provider=how.provider,
                capture=capture,
                stall=how.stall,
                start=start,
                request=body,
            )
            if response.status_code >= 300:
                report = read_answer(response, live, capture, start, secrets)
            else:
                try:
                    for ev in live:
                        p = live.pipeline
                        # the milestones are the Report's own measurements: the arrival
                        # time of the chunk (not the moment the event is handled)
                        arrived = p.last_time if p.last_time is not None else live.elapsed
                        first = p.first_byte_time
                        if first is not None:
                            counters.mark("first byte", first, p.record_count, p.bytes_seen)
                        counters.tick(live.elapsed, p.record_count, p.bytes_seen)
                        if not isinstance(ev, Diagnostic):
                            counters.mark("first event", arrived, p.record_count, p.bytes_seen)
                        if p.first_content_seen:  # (the engine's one rule of first content)
                            found = p.first_content_time
                            at = arrived if found is None else found
                            counters.mark("first content", at, p.record_count, p.bytes_seen)
                        if how.as_json:
                            continue
                        if isinstance(ev, TextDelta | RefusalDelta) and ev.output == 0:
                            screen.write(visible(ev.text, multiline=True))
                            printed = True
                        elif isinstance(ev, ReasoningDelta) and ev.output == 0 and tty:
                            shown = visible(ev.text, multiline=True)
                            screen.write(shown, f"{_DIM}{shown}{_RESET}")
                            printed = True
                except KeyboardInterrupt:
                    interrupted = True
                    live.close()
                counters.finish()
                screen.break_line()
                report = live.close() if live.report is None else live.report
    except KeyboardInterrupt:
        interrupted = True
        if live is None:
            print("interrupted before the response began", file=err)
            return EXIT["interrupted"]
        report = live.close()
    except httpx.ReadTimeout as exc:
        if live is not None and live.report is not None:
            report = live.report
        elif live is None and how.stall is not None:
            print(
                f"ssescope: stalled: no response headers within {how.stall:g} s (--stall)", file=err
            )
            return EXIT["stalled"]
        else:
            _request_failed(exc, secrets)
            return EXIT["internal"]
    except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError) as exc:
        if live is not None and live.report is not None:
            report = live.report
        else:
            _request_failed(exc, secrets)
            return EXIT["internal"]
    except (ValueError, TypeError) as exc:  # e.g. a header value httpx cannot encode
        if live is not None:
            raise
        _request_failed(exc, secrets)
        return EXIT["internal"]
    finally:
        client.close()  # (already closed, unless building the request failed)
    if how.as_json:
        strictjson.write(report.to_dict(), out, indent=2)
    else:
        if report.http_status is not None and report.http_status >= 400 and report.error:
            kind = report.error.get("type")
            message = f"{kind + ': ' if kind else ''}{report.error.get('message')}"
            if len(message) > _SHORT:
                message = message[: _SHORT - 1] + "…"
            print(f"HTTP {report.http_status}: {visible(message)}", file=err)
        # the reply was streamed above: the verdict does not print it a second time
        _verdict(report, err, streamed=printed)
    if how.save is not None:
        print(f"saved {how.save}", file=err)
    if interrupted:
        return EXIT["interrupted"]
    return exit_code(report, stalled=bool(live and live.stalled), fail_on=how.fail_on)


def _request_failed(exc: BaseException, secrets: list[str]) -> None:
    """One line on stderr for a request that got no answer; never a credential."""
    message = scrub(f"{type(exc).__name__}: {exc}", secrets)
    print(f"ssescope: request failed: {visible(message)}", file=sys.stderr)


@click.command("request")
@click.argument("url")
@click.option(
    "-X", "--request", "method", default=None, help="HTTP method (default: POST with -d, else GET)."
)
@click.option("-H", "--header", "headers", multiple=True, help="'Name: value' (repeatable).")
@click.option("-d", "--data", default=None, help="Request body: '{json}', @file or @- for stdin.")
@provider_option
@click.option(
    "--stall",
    type=float,
    callback=positive,
    default=None,
    help="Abort after SECONDS without a chunk, or without content while only keep-alives "
    "or pings arrive (exit 7).",
)
@click.option(
    "--save", type=click.Path(dir_okay=False), default=None, help="Write a .ssecap capture."
)
@click.option("--json", "as_json", is_flag=True, help="Print the Report as JSON on stdout.")
@click.option("--fail-on", metavar="LEVELS", default=None, help=FAIL_ON_HELP)
@click.option(
    "--websocket",
    is_flag=True,
    help="Open a WebSocket (an http(s) URL becomes ws(s)); ws:// and wss:// URLs always do.",
)
@click.option(
    "--send",
    "sends",
    multiple=True,
    metavar="JSON",
    help="A message to send over the WebSocket, after -d's (repeatable).",
)
def request_command(
    url: str,
    method: str | None,
    headers: tuple[str, ...],
    data: str | None,
    provider: str,
    stall: float | None,
    save: str | None,
    as_json: bool,
    fail_on: str | None,
    websocket: bool,
    sends: tuple[str, ...],
) -> None:
    """Send a request to URL and show the stream live, then the verdict.

    Over a WebSocket (a ws:// or wss:// URL, or --websocket), the JSON messages of -d
    (one, or one a line of a file) and --send go out in order, each response.create
    after the response before it ended, and each response gets its verdict.

    Exit codes: 0 completed, 3 truncated, 4 failed or HTTP error, 5 diagnostics at the
    --fail-on warning|error level, 6 incomplete (with --fail-on incomplete), 7 stalled
    (--stall: the client gave up), 130 interrupted, 1 internal, 2 usage.
    """
    how = Reading(provider, stall, save, as_json, parse_fail_on(fail_on))
    pairs = [_parse_header(h) for h in headers]
    content = _body(data)
    if websocket or url.startswith(("ws://", "wss://")):
        if method is not None:
            raise click.UsageError("-X does not apply to a WebSocket (the upgrade is a GET)")
        from .request_ws import run_websocket, ws_messages

        target = url
        if url.startswith(("http://", "https://")):
            target = "ws" + url[len("http") :]
        messages = ws_messages(content, sends)
        code = run_websocket(target, pairs, messages, how)
        raise click.exceptions.Exit(code)
    if sends:
        raise click.UsageError("--send applies to a WebSocket (a ws:// URL or --websocket)")
    if content is not None and not any(n.lower() == "content-type" for n, _ in pairs):
        pairs.append(("Content-Type", "application/json"))
    verb = (method or ("POST" if content is not None else "GET")).upper()
    try:
        code = _run(url, verb, pairs, content, how)
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    sys.exit(code)

"""``ssescope request ws://…``: open a WebSocket, send the given JSON messages, judge what
comes back, live.

The messages go out in order; each ``response.create`` after the first waits for the
response before it to reach its terminal event or an ``error`` event (one response at a
time, as the protocol wants), and the connection is closed (1000) once the last one has. Each
response is judged by its own :class:`~ssescope.sources.LiveCore` (the engine ``request``
runs over HTTP: the same timing figures, the same ``--stall``), with how the connection
ended when it ended it. ``--save`` writes the ``.ssecap`` WebSocket form, both directions.
"""

from __future__ import annotations

import contextlib
import sys
from typing import IO, TYPE_CHECKING, Any

from .. import codes
from ..aggregate.report import Report
from ..containers.redact import REDACTED, redact_ws_pairs, scrub, secret_values
from ..containers.websocket import elide_audio, is_response_create, message_record
from ..containers.ws_writer import WebSocketCaptureWriter
from ..diagnostics import Diagnostic, diagnostic
from ..events import ProviderError, RefusalDelta, TextDelta
from ..output import strictjson
from ..output.visible import visible
from ..sourceinfo import SourceInfo, WebSocketEnd
from ..sources import LiveCore

if TYPE_CHECKING:
    from .request_cmd import Reading

__all__ = ["run_websocket", "ws_messages"]

_JUDGED = ("truncated", "failed", "cancelled", "incomplete")


def ws_messages(data: bytes | None, sends: tuple[str, ...]) -> list[str]:
    """The messages to send: ``-d`` (one JSON message, or one a line) then each ``--send``."""
    out: list[str] = []
    if data is not None:
        text = data.decode("utf-8", "replace").strip()
        lines = [line for line in text.splitlines() if line.strip()]
        one = len(lines) <= 1 or not all(line.lstrip().startswith("{") for line in lines)
        out.extend([text] if one else lines)
    out.extend(sends)
    return out


class _Turn:
    """One response: its LiveCore, the client messages it began with, its message count."""

    def __init__(self, provider: str, stall: float | None, start: float, headers: Any) -> None:
        self.core = LiveCore(
            provider=provider,
            stall=stall,
            start=start,
            source=SourceInfo(container="http", status=101, headers=tuple(headers)),
        )
        self.sent: list[str] = []
        self.messages = 0
        self.echoed = False
        self.over = False  # an error event ended the response (no terminal event follows)


def _batch(pending: list[str]) -> list[str]:
    """The messages up to and including the next ``response.create`` (or all of them)."""
    for i, message in enumerate(pending):
        if is_response_create(message.encode("utf-8", "surrogatepass")):
            return [pending.pop(0) for _ in range(i + 1)]
    batch = list(pending)
    pending.clear()
    return batch


def run_websocket(
    url: str, headers: list[tuple[str, str]], messages: list[str], how: Reading
) -> int:
    """Run the WebSocket exchange; print the verdict(s); return the exit code."""
    import time

    from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException
    from websockets.sync.client import connect

    from .request_cmd import EXIT, _Counters, _Screen, _verdict, exit_code

    out, err = sys.stdout, sys.stderr
    secrets = secret_values(headers, url)
    screen = _Screen(out)
    counters = _Counters(
        err, err.isatty() and not how.as_json, inline=not out.isatty(), screen=screen
    )
    start = time.monotonic()
    stack = contextlib.ExitStack()
    try:
        ws = stack.enter_context(
            connect(url, additional_headers=headers, proxy=None, max_size=None, open_timeout=30)
        )
    except InvalidStatus as exc:
        status = exc.response.status_code
        body = scrub(bytes(exc.response.body or b"").decode("utf-8", "replace"), secrets)
        print(f"ssescope: the server refused the upgrade: HTTP {status}", file=err)
        if body.strip():
            print(visible(body.strip()[:500]), file=err)
        return EXIT["failed"]
    except (OSError, TimeoutError, WebSocketException, ValueError) as exc:
        message = scrub(f"{type(exc).__name__}: {exc}", secrets)
        print(f"ssescope: request failed: {visible(message)}", file=err)
        return EXIT["internal"]
    response_headers = list(ws.response.headers.raw_items()) if ws.response else []
    capture = None
    if how.save is not None:
        try:
            capture = WebSocketCaptureWriter(
                how.save,
                request={"method": "GET", "url": url, "headers": redact_ws_pairs(headers)},
                response_status=101,
                response_headers=response_headers,
            )
        except OSError as exc:
            stack.close()
            print(f"ssescope: cannot write {how.save}: {exc.strerror}", file=err)
            return EXIT["internal"]
    pending = list(messages)
    turns = [_Turn(how.provider, how.stall, start, response_headers)]
    end = WebSocketEnd(code=1000)
    by = "client"
    interrupted = stalled = False
    printed = False

    def send(batch: list[str]) -> None:
        for message in batch:
            t = time.monotonic() - start
            ws.send(message)
            if capture is not None:
                capture.write_message("send", scrub(message, secrets).encode(), t)
            turn = turns[-1]
            turn.sent.append(elide_audio(scrub(message, secrets).encode()))  # (as read back)
            turn.messages += 1

    try:
        send(_batch(pending))
        while True:
            turn = turns[-1]
            core = turn.core
            try:
                data = ws.recv(timeout=core.read_timeout())
            except TimeoutError:
                core.on_stall()
                stalled = not core.terminal_seen
                ws.close(1000)
                break
            except ConnectionClosed as exc:
                rcvd = exc.rcvd
                by = "server"
                end = (
                    WebSocketEnd(dropped=True)
                    if rcvd is None
                    else WebSocketEnd(
                        code=None if rcvd.code == 1005 else rcvd.code, reason=rcvd.reason
                    )
                )
                break
            t = core.now()
            turn.messages += 1
            if isinstance(data, bytes):
                if capture is not None:
                    capture.write_message("receive", data, t, "binary")
                core.pipeline.add_diagnostic(
                    diagnostic(
                        codes.WEBSOCKET_BINARY_MESSAGE, index=turn.messages - 1, size=len(data)
                    )
                )
                continue
            cleaned = scrub(data, secrets)
            turn.echoed = turn.echoed or cleaned != data
            if capture is not None:
                capture.write_message("receive", cleaned.encode(), t)
            for ev in core.feed(message_record(cleaned.encode()), t):
                printed = _show(ev, core, counters, screen, how.as_json) or printed
                turn.over = turn.over or isinstance(ev, ProviderError)
            if core.terminal_seen or turn.over:
                if not pending:
                    ws.close(1000)
                    break
                _finish(turn, WebSocketEnd(next_response=True, messages=turn.messages))
                turns.append(_Turn(how.provider, how.stall, start, response_headers))
                send(_batch(pending))
    except KeyboardInterrupt:
        interrupted = True
        turns[-1].core.on_cancel("the client aborted the stream (Ctrl-C)")
    except BaseException:
        if capture is not None:
            capture.close()  # (what was written stays readable)
        raise
    finally:
        stack.close()  # (closes with 1000 unless closed already)
    last = turns[-1]
    _finish(
        last,
        WebSocketEnd(
            code=end.code,
            reason=end.reason,
            dropped=end.dropped,
            messages=last.messages,
            sent=tuple(last.sent),
        ),
    )
    counters.finish()
    screen.break_line()
    if capture is not None:
        capture.close_connection(
            end.code,
            end.reason,
            dropped=end.dropped,
            time=time.monotonic() - start,
            extra={"by": by},
        )
    reports = [t.core.report for t in turns if t.core.report is not None]
    _print(reports, out, err, as_json=how.as_json, streamed=printed, verdict=_verdict)
    if how.save is not None:
        print(f"saved {how.save}", file=err)
    if interrupted:
        return EXIT["interrupted"]
    judged = next((r for r in reports if r.status in _JUDGED), reports[-1])
    return exit_code(judged, stalled=stalled and judged is reports[-1], fail_on=how.fail_on)


def _finish(turn: _Turn, end: WebSocketEnd) -> None:
    if turn.echoed:
        turn.core.pipeline.add_diagnostic(
            diagnostic(codes.HTTP_SECRET_ECHOED, 0, replacement=REDACTED)
        )
    full = WebSocketEnd(
        code=end.code,
        reason=end.reason,
        dropped=end.dropped,
        messages=turn.messages,
        sent=tuple(turn.sent),
        next_response=end.next_response,
    )
    turn.core.finish(websocket=full)


def _show(ev: Any, core: LiveCore, counters: Any, screen: Any, as_json: bool) -> bool:
    """Show one event live (the text as it arrives, the milestones); whether text was shown."""
    p = core.pipeline
    arrived = p.last_time if p.last_time is not None else core.now()
    if p.first_byte_time is not None:
        counters.mark("first byte", p.first_byte_time, p.record_count, p.bytes_seen)
    if not isinstance(ev, Diagnostic):
        counters.mark("first event", arrived, p.record_count, p.bytes_seen)
    if as_json:
        return False
    if isinstance(ev, TextDelta | RefusalDelta) and ev.output == 0:
        counters.mark("first content", arrived, p.record_count, p.bytes_seen)
        screen.write(visible(ev.text, multiline=True))
        return True
    return False


def _print(
    reports: list[Report],
    out: IO[str],
    err: IO[str],
    *,
    as_json: bool,
    streamed: bool,
    verdict: Any,
) -> None:
    if as_json:
        data: Any = reports[0].to_dict() if len(reports) == 1 else [r.to_dict() for r in reports]
        strictjson.write(data, out, indent=2)
        return
    for n, report in enumerate(reports, 1):
        if len(reports) > 1:
            print(f"response {n} of {len(reports)}", file=err)
        verdict(report, err, streamed=streamed)

"""The recorder's side of a WebSocket connection: the capture and one Pipeline per response.

It runs on the recorder's thread (:mod:`ssescope.proxy.recorder`), message by message,
in the order the forwarder handed them over. Each message is written to the ``.ssecap``
WebSocket form (:class:`~ssescope.containers.ws_writer.WebSocketCaptureWriter`); each
server text message is fed to the response's :class:`~ssescope.pipeline.Pipeline` as one
record, exactly as reading the capture back does
(:func:`~ssescope.containers.websocket.split_responses`): the connection's
:class:`~ssescope.containers.websocket.ResponseSplitter` says where the next response
begins (a ``response.create`` once the current one has its response, a Realtime
server's ``response.created`` of a turn it detected), and the connection's end is judged
with the last. So the verdicts the proxy prints, lists and indexes are those
``ssescope inspect`` gives for the capture. What the client sent is kept for the Report
as the container keeps it: the audio of an ``input_audio_buffer.append`` by its length
only (the capture holds the message as sent).

A credential of the upgrade request that a message repeats is scrubbed before it is
written or judged (``http.secret-echoed``); ``--redact-content`` hashes the text of each
JSON message as it does for HTTP bodies.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import codes
from ..aggregate.report import Report
from ..containers.redact import REDACTED, scrub
from ..containers.websocket import (
    Direction,
    Opcode,
    ResponseSplitter,
    elide_audio,
    message_record,
)
from ..containers.ws_writer import WebSocketCaptureWriter
from ..diagnostics import diagnostic
from ..pipeline import Pipeline
from ..sourceinfo import SourceInfo, WebSocketEnd
from ..sources.decode import ContentDecoder
from .exchange import Exchange
from .headers import redact_pairs
from .redact import redact_json
from .tape import Tape

if TYPE_CHECKING:
    from .recorder import Recorder

__all__ = ["Judged", "SocketClose", "SocketTape", "close_socket", "message", "open_socket"]


@dataclass(frozen=True)
class SocketClose:
    """How a WebSocket connection ended: who ended it (``"client"``, ``"server"`` or
    ``"proxy"``), the close code and reason, or a drop (no close frame)."""

    by: str
    code: int | None
    reason: str
    dropped: bool


log = logging.getLogger("ssescope.proxy")

_ORDER = ("truncated", "failed", "cancelled", "incomplete")  # what a connection is listed as


@dataclass
class SocketTape(Tape):
    """The recorder's state for one WebSocket connection (its current response's)."""

    socket: WebSocketCaptureWriter | None = None
    splitter: ResponseSplitter = field(default_factory=ResponseSplitter)
    messages: int = 0  # the current response's messages, both directions
    sent: list[str] = field(default_factory=list)
    seen: int = 0  # the connection's messages so far
    echoed: bool = False  # a message repeated a credential (scrubbed)
    judged: list[Judged] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Judged:
    """What the listing keeps of one response's Report (not the Report: a connection may
    carry thousands of responses, and memory must not grow with them)."""

    status: str
    reason: str | None
    provider: str | None
    records: int
    first_content_s: float | None
    max_content_idle_s: float | None
    codes: frozenset[str]

    @classmethod
    def of(cls, report: Report) -> Judged:
        """The summary of ``report``."""
        return cls(
            report.status,
            report.response.status_reason,
            report.provider,
            report.records.total,
            report.timing.first_content_s,
            report.timing.max_content_idle_s,
            frozenset(d.code for d in report.diagnostics),
        )


def _pipeline(recorder: Recorder, ex: Exchange) -> Pipeline:
    return Pipeline(
        provider=recorder.provider,
        bounded=True,
        source=SourceInfo(
            container="http", status=ex.status, headers=tuple(redact_pairs(ex.response_headers))
        ),
    )


def open_socket(recorder: Recorder, ex: Exchange) -> SocketTape:
    """The upgrade succeeded: open the capture and the first response's Pipeline."""
    from .recorder import capture_name

    tape = SocketTape(_pipeline(recorder, ex), ContentDecoder(""), None, None, None)
    if recorder.directory is not None:
        ex.name = capture_name(ex)
        tape.socket = recorder.folder.socket(
            ex.name,
            request={"method": "GET", "url": ex.upstream, "headers": ex.request_headers},
            response_status=ex.status,
            response_headers=redact_pairs(ex.response_headers),
        )
        if tape.socket is not None:
            ex.capture = str(recorder.directory / f"{ex.name}.ssecap")
        else:
            ex.unrecorded = recorder.folder.stopped
    return tape


def message(
    recorder: Recorder,
    ex: Exchange,
    tape: SocketTape,
    direction: Direction,
    opcode: Opcode,
    data: bytes,
    t: float,
) -> None:
    """Record one message, start the next response where the splitter says one begins,
    and judge the message (a server message) with the current response."""
    index = tape.seen
    tape.seen += 1
    if ex.secrets and opcode == "text":
        text = data.decode("utf-8", "replace")
        cleaned = scrub(text, ex.secrets)
        if cleaned != text:
            data = cleaned.encode("utf-8")
            tape.echoed = True
    if tape.socket is not None:
        kept = redact_json(data) or data if recorder.redact_content and opcode == "text" else data
        if not recorder.folder.message(tape.socket, direction, kept, t, opcode):
            tape.socket = None  # the recording stopped: the exchange is judged, not kept
            ex.capture = None
            ex.unrecorded = recorder.folder.stopped
    if tape.splitter.starts(direction, opcode, data):
        _finish(recorder, ex, tape, None, t)
    if direction == "send":
        ex.messages_sent += 1
        tape.messages += 1
        tape.sent.append(elide_audio(data))
        return
    tape.messages += 1
    if tape.last_byte is not None:
        gap = t - tape.last_byte
        ex.byte_idle_max_s = gap if ex.byte_idle_max_s is None else max(ex.byte_idle_max_s, gap)
    elif ex.first_byte_s is None:
        ex.first_byte_s = t
    tape.last_byte = t
    ex.last_byte_s = t
    if opcode == "binary":
        tape.pipeline.add_diagnostic(
            diagnostic(codes.WEBSOCKET_BINARY_MESSAGE, index=index, size=len(data))
        )
        return
    record = message_record(data)
    ex.body_bytes += len(record)
    events = tape.pipeline.feed(record, t)
    recorder.note(ex, tape, events, t)


def _finish(
    recorder: Recorder, ex: Exchange, tape: SocketTape, end: SocketClose | None, t: float
) -> None:
    """Judge the current response; ``end`` is the connection's end, ``None`` when the next
    response began (a new Pipeline then takes over)."""
    pipeline = tape.pipeline
    if tape.echoed:
        pipeline.add_diagnostic(diagnostic(codes.HTTP_SECRET_ECHOED, 0, replacement=REDACTED))
    # (who closed is judged by the engine, as it judges the capture: a client that left
    # before the terminal event makes the response cancelled)
    websocket = WebSocketEnd(
        code=end.code if end is not None else None,
        reason=end.reason if end is not None else "",
        dropped=end.dropped if end is not None else False,
        messages=tape.messages,
        sent=tuple(tape.sent),
        next_response=end is None,
        closed_by=end.by if end is not None else None,
    )
    pipeline.close(t, websocket=websocket)
    report = pipeline.report()
    tape.judged.append(Judged.of(report))
    if recorder.on_report is not None:
        try:
            recorder.on_report(ex, report)
        except Exception:
            log.warning("the proxy's report hook failed", exc_info=True)
    if end is None:
        tape.pipeline = _pipeline(recorder, ex)
        tape.messages = 0
        tape.sent = []
        tape.echoed = False
        tape.last_content = None


def close_socket(
    recorder: Recorder, ex: Exchange, tape: SocketTape | None, end: SocketClose, t: float
) -> None:
    """The connection ended: judge its last response, close the capture, list it."""
    by, code, reason, dropped = end.by, end.code, end.reason, end.dropped
    ex.closed_by, ex.close_code, ex.close_reason, ex.dropped = by, code, reason, dropped
    if tape is None:
        tape = open_socket(recorder, ex)
    _finish(recorder, ex, tape, end, t)
    judged_all = tape.judged
    judged = next((j for j in judged_all if j.status in _ORDER), judged_all[-1])
    n = len(judged_all)
    ex.responses = n
    ex.provider = judged.provider
    ex.records = sum(j.records for j in judged_all)
    ex.verdict = judged.status
    reason_text = judged.reason
    if n > 1 and reason_text and judged.status != "completed":
        reason_text = f"response {judged_all.index(judged) + 1} of {n}: {reason_text}"
    ex.status_reason = reason_text
    ex.end = "error" if dropped else ("cancelled" if judged.status == "cancelled" else "eof")
    ex.total_s = t
    first = next((j.first_content_s for j in judged_all if j.first_content_s is not None), None)
    if first is not None:
        ex.first_content_s = first
    idles = [j.max_content_idle_s for j in judged_all if j.max_content_idle_s is not None]
    if idles:
        ex.content_idle_max_s = max(idles)
    ex.diagnostics = sorted(set().union(*(j.codes for j in judged_all)))
    if tape.socket is not None:
        extra = {
            "by": by,
            "content_idle_max_s": ex.content_idle_max_s,
            "byte_idle_max_s": ex.byte_idle_max_s,
            "wire_bytes": ex.wire_bytes,
        }
        if not recorder.folder.finish_socket(tape.socket, code, reason, dropped, t, extra):
            ex.capture = None
            ex.unrecorded = recorder.folder.stopped
    ex.finished = True

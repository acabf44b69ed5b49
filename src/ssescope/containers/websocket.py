"""WebSocket exchanges: messages in both directions, split into one body per response.

A WebSocket exchange is a sequence of messages, each with its arrival time, its
direction (``"send"``: client to server, ``"receive"``: server to client), its opcode
(text or binary) and its bytes, and it ends with a close frame (code and reason) or
drops with none. Three forms hold one: the ``.ssecap`` WebSocket form (version 2), a
Chrome DevTools HAR entry's ``_webSocketMessages``, and a JSONL log of messages (one
``{"type": "send" | "receive", "time": …, "opcode": 1 | 2, "data": …}`` per line).

Each server text message is one record: its bytes (line breaks in it made spaces) and a
line feed, so the NDJSON framing reads one JSON value per message. Client messages are the requests: they are kept
(:attr:`~ssescope.sourceinfo.WebSocketEnd.sent`), never assembled; the audio of an
``input_audio_buffer.append`` is not kept (its length is, see :func:`elide_audio`).

A connection that carried several responses gives several bodies, like the entries of a
HAR: a new one starts at a client ``response.create`` once the current one has its
response (or an earlier ``response.create`` still unanswered), and at a server
``response.created`` once the current one has had one (a Realtime session whose server
detects the user's turns creates responses with no ``response.create``). The
connection's end belongs to the last of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import orjson

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..sourceinfo import EntryInfo, RequestInfo, WebSocketEnd
from ._body import Body, Chunk, ContainerName

__all__ = [
    "Direction",
    "Message",
    "Opcode",
    "ResponseSplitter",
    "elide_audio",
    "is_response_create",
    "is_response_created",
    "message_record",
    "split_responses",
]

Direction = Literal["send", "receive"]
"""``"send"``: client to server; ``"receive"``: server to client."""
Opcode = Literal["text", "binary"]
"""The message's frame type."""


@dataclass(frozen=True, slots=True)
class Message:
    """One WebSocket message.

    Attributes:
        direction: who sent it (:data:`Direction`).
        opcode: text or binary.
        data: its bytes (a text message's UTF-8).
        time: seconds since the connection opened, or ``None`` when not recorded.
    """

    direction: Direction
    opcode: Opcode
    data: bytes
    time: float | None = None


@dataclass(slots=True)
class _Group:
    received: list[Chunk] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    sent_at: list[tuple[int, float | None]] = field(default_factory=list)
    messages: int = 0
    binary: list[Diagnostic] = field(default_factory=list)


def _is_type(data: bytes, kind: bytes, head: int | None = None) -> bool:
    """Whether ``data`` is a JSON object of type ``kind`` (looked for in its first or last
    ``head`` bytes before it is decoded, when given: the type leads the object, or ends it
    when a recorder sorted the keys)."""
    if head is None:
        if kind not in data:
            return False
    elif kind not in data[:head] and kind not in data[-head:]:
        return False
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        return False
    return isinstance(obj, dict) and obj.get("type") == kind.strip(b'"').decode()


def is_response_create(data: bytes) -> bool:
    """Whether a client text message is a ``response.create`` (the start of a response)."""
    return _is_type(data, b"response.create")


def is_response_created(data: bytes) -> bool:
    """Whether a server text message is a ``response.created`` (the type looked for near
    either end, as :class:`ResponseSplitter` does)."""
    return _is_type(data, b'"response.created"', 512)


class ResponseSplitter:
    """Where the next response of a WebSocket connection begins: fed every message in
    order, :meth:`starts` says whether it begins a new response (the current one ends just
    before it). The one rule :func:`split_responses` and a live recorder share.

    A new response begins at a client ``response.create`` once the current one has its
    response (or an earlier ``response.create`` is still unanswered), and at a server
    ``response.created`` once the current one has had one (a Realtime server that detects
    the user's turns creates responses with no ``response.create``).
    """

    __slots__ = ("_pending", "_responded")

    def __init__(self) -> None:
        self._pending = False  # a response.create with no response.created yet
        self._responded = False  # the server created the current response

    def starts(self, direction: Direction, opcode: Opcode, data: bytes) -> bool:
        """Whether this message begins a new response."""
        if opcode != "text":
            return False
        if direction == "send":
            if not is_response_create(data):
                return False
            new = self._pending or self._responded
            self._pending, self._responded = True, False
            return new
        if not is_response_created(data):
            return False
        new = self._responded and not self._pending
        self._pending, self._responded = False, True
        return new


_APPEND = b"input_audio_buffer.append"
_ELIDE_FROM = 256  # shorter messages are kept as they are


def elide_audio(data: bytes) -> str:
    """A client message as text, for the Report: an ``input_audio_buffer.append`` has its
    base64 ``audio`` replaced by ``"(N base64 characters, not kept)"``; any other message
    is kept as sent."""
    if len(data) >= _ELIDE_FROM and _APPEND in data[:256]:
        try:
            obj = orjson.loads(data)
        except orjson.JSONDecodeError:
            obj = None
        if isinstance(obj, dict) and obj.get("type") == _APPEND.decode():
            audio = obj.get("audio")
            if isinstance(audio, str):
                obj["audio"] = f"({len(audio)} base64 characters, not kept)"
                return orjson.dumps(obj).decode()
    return data.decode("utf-8", "replace")


def message_record(data: bytes) -> bytes:
    """A server text message as the body bytes of one record: its line breaks made
    spaces (JSON whitespace, or invalid inside a string anyway), and a line feed."""
    if b"\n" in data or b"\r" in data:
        data = data.replace(b"\r", b" ").replace(b"\n", b" ")
    return data + b"\n"


def split_responses(
    messages: Iterable[Message],
    *,
    container: ContainerName,
    close: WebSocketEnd | None,
    request: RequestInfo | None = None,
    status: int | None = None,
    headers: list[tuple[str, str]] | None = None,
    diagnostics: list[Diagnostic] | None = None,
    lost: Iterable[str] = (),
    closed_by: str | None = None,
) -> list[Body]:
    """Split a connection's messages into one :class:`Body` per response.

    Args:
        messages: the connection's messages, in order.
        container: the form they came from (the bodies' ``container``).
        close: how the connection ended, or ``None`` when the form does not say (a
            capture still being written).
        request: the upgrade request (secrets redacted), if recorded.
        status: the upgrade response's status (101), if recorded.
        headers: the upgrade response's headers, if recorded.
        diagnostics: what was wrong with the form; reported with the first body.
        lost: what the form cannot give.
        closed_by: who ended the connection, when the form records it (the last
            body's :attr:`WebSocketEnd.closed_by`).

    Returns:
        At least one body. With several, each carries its :attr:`Body.entry`; the last
        one carries the connection's end in :attr:`Body.websocket` (the others were ended
        by the next ``response.create``). Never raises.
    """
    groups = [_Group()]
    splitter = ResponseSplitter()
    for n, msg in enumerate(messages):
        group = groups[-1]
        if splitter.starts(msg.direction, msg.opcode, msg.data):
            group = _Group()
            groups.append(group)
        if msg.direction == "send":
            group.messages += 1
            group.sent.append(elide_audio(msg.data))
            group.sent_at.append((len(group.received), msg.time))
            continue
        group.messages += 1
        if msg.opcode == "binary":
            group.binary.append(
                diagnostic(codes.WEBSOCKET_BINARY_MESSAGE, index=n, size=len(msg.data))
            )
            continue
        group.received.append(Chunk(message_record(msg.data), msg.time))
    bodies: list[Body] = []
    several = len(groups) > 1
    for i, group in enumerate(groups):
        last = i == len(groups) - 1
        end = close if last else None
        diags = list(diagnostics or []) if i == 0 else []
        diags.extend(group.binary)
        body = Body(
            group.received,
            container,
            status=status,
            headers=list(headers or []),
            request=request,
            lost=list(lost),
            diagnostics=diags,
            entry=(
                EntryInfo(
                    i, request["method"] if request else None, request["url"] if request else None
                )
                if several
                else None
            ),
            websocket=WebSocketEnd(
                code=end.code if end else None,
                reason=end.reason if end else "",
                dropped=end.dropped if end else False,
                messages=group.messages,
                sent=tuple(group.sent),
                next_response=not last,
                known=end is not None or not last,
                sent_at=tuple(group.sent_at),
                closed_by=closed_by if last and end is not None else None,
            ),
        )
        if group.received and group.received[0].time is not None:
            body.timing["first_byte_s"] = group.received[0].time
        if group.received and group.received[-1].time is not None:
            body.timing["total_s"] = group.received[-1].time
        bodies.append(body)
    return bodies

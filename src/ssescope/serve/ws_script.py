"""What ``serve`` replays over a WebSocket: a recording's server messages, turn by turn,
and the faults that apply to them. Pure: no I/O, no sleeping.

A :class:`SocketScript` comes from a WebSocket capture (the ``.ssecap`` WebSocket form, a
JSONL log of messages, a DevTools HAR's first WebSocket entry): the server messages sent
before the first response (``session.created`` of a Realtime session), then those of
each response, with their times. A response begins at a client ``response.create``, or
at a server ``response.created`` with no ``response.create`` waiting for it (a Realtime
server's turn detection): the replay starts that one by itself, once the client has sent
as many messages as the recording holds between the response before it and it (the
user's audio). Any other stream (a Responses SSE capture, NDJSON) is one turn whose messages are
its records' data, one message a record, timed by the capture's chunks: so every
Responses stream can be replayed to a WebSocket client.

:func:`plan_turn` applies the faults to one turn: ``stall@record:N:SECONDS``,
``garble@record:N``, ``error@record:N`` (an ``error`` event instead of message N and the
rest), ``no-done`` (no terminal event), ``close@record:N:CODE`` (a close frame with that
code before message N), ``drop@record:N`` (the connection cut with no close frame before
message N) and ``http-error:STATUS`` (the upgrade refused). The byte-level faults
(``cut@BYTE``, ``cut@record:N``, ``crlf``, ``cr``, ``drop-blank-lines``,
``split-utf8``) have no meaning for messages and are refused, and so is a fault naming a
message past the turn's last, with the count (as for SSE).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import orjson

from ..containers.websocket import is_response_create, is_response_created, message_record
from ..containers.ws_forms import WSExchange
from ..errors import UsageError
from ..json_objects import object_type
from ..providers.registry import terminal_events
from ..sourceinfo import WebSocketEnd
from .faults import Fault, record_spans

__all__ = [
    "SOCKET_FAULTS",
    "SocketScript",
    "TurnPlan",
    "check_socket_faults",
    "error_event",
    "paced",
    "plan_turn",
    "record_types",
    "script_from_exchange",
    "script_from_stream",
]

SOCKET_FAULTS = ("stall", "garble", "error", "no-done", "close", "drop", "http-error")
"""The faults that apply to a WebSocket stream."""

Msg = tuple[str | bytes, float | None]
"""A server message and its time (seconds since its turn began), if recorded."""

_REASON = "ssescope serve: {fault}"


def error_event(message: str = "The server had an error while processing your request.") -> str:
    """The ``error`` event ``error@record:N`` sends (the Responses and Realtime shape)."""
    return orjson.dumps(
        {
            "type": "error",
            "error": {"type": "server_error", "code": "server_error", "message": message},
        }
    ).decode()


@dataclass(frozen=True, slots=True)
class SocketScript:
    """A recording, as the WebSocket replay plays it.

    Attributes:
        preamble: server messages sent on connect, before any ``response.create``.
        turns: each response's server messages (at least one turn).
        close: how the server ended the recording after its last turn, replayed then
            (``None``: the connection stays open; the client ended it, or nothing says).
        subprotocol: the subprotocol the recording agreed on, if any.
        provider: the provider its messages are from (``unknown`` when none matched).
        server_started: for each turn the server began by itself, the number of client
            messages to wait for after the turn before it began (or the connection
            opened); ``None`` (or no entry) for a turn that answers a ``response.create``.
    """

    preamble: tuple[Msg, ...]
    turns: tuple[tuple[Msg, ...], ...]
    close: WebSocketEnd | None = None
    subprotocol: str | None = None
    provider: str = "unknown"
    server_started: tuple[int | None, ...] = ()

    def waits_for(self, index: int) -> int | None:
        """Turn ``index``'s client messages to wait for (the server starts it), or
        ``None``: it answers a ``response.create``."""
        return self.server_started[index] if index < len(self.server_started) else None


def _text(data: bytes, opcode: str) -> str | bytes:
    if opcode == "binary":
        return data
    return data.decode("utf-8", "replace")


def script_from_exchange(exchange: WSExchange, subprotocol: str | None = None) -> SocketScript:
    """The script of a recorded connection: its server messages split where each response
    begins (a ``response.create`` the client sent, or a ``response.created`` the server
    sent with none waiting), each turn's times made relative to its start. A recording
    with no client message at all is answered turn by turn on ``response.create`` only."""
    preamble: list[Msg] = []
    turns: list[list[Msg]] = []
    started: list[int | None] = []
    began: float | None = 0.0
    pending = False  # a response.create with no response.created yet
    two_way = any(m.direction == "send" for m in exchange.messages)
    sent = 0  # client messages since the last turn began
    for msg in exchange.messages:
        if msg.direction == "send":
            if msg.opcode == "text" and is_response_create(msg.data):
                turns.append([])
                started.append(None)
                began, pending, sent = msg.time, True, 0
            else:
                sent += 1
            continue
        if msg.opcode == "text" and is_response_created(msg.data):
            if two_way and not pending:  # the server began this response by itself
                turns.append([])
                started.append(sent)
                began, sent = msg.time, 0
            pending = False
        t = None if msg.time is None or began is None else max(0.0, msg.time - began)
        (turns[-1] if turns else preamble).append((_text(msg.data, msg.opcode), t))
    if not turns:  # a recording with no response.create: its messages are the one turn
        turns, preamble, started = [preamble], [], [None]
    close = exchange.close
    by_server = exchange.closed_by == "server" or (
        exchange.closed_by is None
        and close is not None
        and (close.dropped or close.code not in (None, 1000))
    )
    return SocketScript(
        tuple(preamble),
        tuple(tuple(t) for t in turns),
        close if by_server else None,
        subprotocol,
        _provider(turns[0]),
        tuple(started),
    )


def _provider(turn: list[Msg] | tuple[Msg, ...]) -> str:
    body = b"".join(message_record(d.encode()) for d, _ in turn if isinstance(d, str))
    return record_spans(body)[2]


def script_from_stream(body: bytes, chunks: list[tuple[int, float]] | None) -> SocketScript:
    """The turns of any stream: each record's data is one message, timed by the chunk
    that completed it (``chunks``: the capture's ``(end offset, time)``, if known). Each
    ``response.created`` starts a turn (a stream that holds several responses one after
    the other); the messages before the first one (a Realtime ``session.created``) are
    the preamble, sent on connect."""
    spans, _, provider = record_spans(body)
    preamble: list[Msg] = []
    turns: list[list[Msg]] = []
    began = 0.0
    for span in spans:
        if span.data is None or span.data.strip() in ("", "[DONE]"):
            continue
        t = None
        if chunks:
            t = next((time for end, time in chunks if end >= span.end), chunks[-1][1])
        data = span.data.replace("\n", " ")
        if '"response.created"' in data and object_type(data) == "response.created":
            turns.append([])
            began = t if t is not None else began
        rel = None if t is None else max(0.0, t - began)
        (turns[-1] if turns else preamble).append((data, rel))
    if not turns:  # no response.created at all: the whole stream is the one turn
        turns, preamble = [preamble], []
    return SocketScript(tuple(preamble), tuple(tuple(t) for t in turns), provider=provider)


@dataclass(slots=True)
class TurnPlan:
    """What to send for one turn: each message with the seconds to wait before it, then
    how the turn ends (``"open"``: the connection stays open)."""

    steps: list[tuple[str | bytes, float]] = field(default_factory=list)
    end: Literal["open", "close", "drop"] = "open"
    code: int = 1000
    reason: str = ""
    end_wait: float = 0.0  # seconds before the close or the drop


def check_socket_faults(faults: list[Fault], turns: tuple[tuple[Msg, ...], ...]) -> None:
    """Refuse faults that have no meaning over a WebSocket, or that name a message past
    the end of every turn (with the count, as for SSE). A fault applies to each turn
    long enough for it; a shorter turn is served without it.

    Raises:
        UsageError: the first fault that does not fit.
    """
    for f in faults:
        if f.kind not in SOCKET_FAULTS or (f.kind == "cut"):
            hint = " (drop@record:N cuts a WebSocket)" if f.kind == "cut" else ""
            raise UsageError(
                f"fault {f} does not apply to a WebSocket stream, whose messages have no "
                f"bytes between them to cut or lines to change{hint}"
            )
        if f.record is None:
            continue
        counts = [len(turn) for turn in turns]
        if not any(f.record <= (c if f.kind == "error" else c - 1) for c in counts):
            count = max(counts)
            where = f"0 to {count - 1}" if count else "none"
            which = "its longest response" if len(turns) > 1 else "it"
            raise UsageError(
                f"fault {f} does not fit this stream: {which} has {count} record(s) "
                f"(numbered {where})"
            )


def _is_terminal(data: str | bytes) -> bool:
    return isinstance(data, str) and object_type(data) in terminal_events()


def _garble(data: str | bytes) -> str | bytes:
    if not isinstance(data, str):
        return data
    cut = max(data.rfind("}"), data.rfind("]"))
    return data[:cut] + data[cut + 1 :] if cut >= 0 else data + "{"


def _waits(messages: tuple[Msg, ...], delay: str, speed: float) -> list[tuple[str | bytes, float]]:
    out: list[tuple[str | bytes, float]] = []
    prev = 0.0
    fixed = 0.0 if delay == "original" else float(delay) / 1000.0
    for i, (data, t) in enumerate(messages):
        if delay == "original":
            at = prev if t is None else t
            wait = max(0.0, at - prev)
            prev = max(prev, at)
        else:
            wait = fixed if i else 0.0
        out.append((data, wait / speed))
    return out


def paced(messages: tuple[Msg, ...], delay: str = "0", speed: float = 1.0) -> TurnPlan:
    """The preamble's plan: its messages paced, nothing else."""
    return TurnPlan(_waits(messages, delay, speed))


def plan_turn(
    turn: tuple[Msg, ...],
    faults: list[Fault],
    *,
    delay: str = "0",
    speed: float = 1.0,
    close: WebSocketEnd | None = None,
) -> TurnPlan:
    """The turn's messages paced (``delay``: milliseconds between messages, or
    ``"original"``; ``speed`` divides the waits, not the stalls) with ``faults`` applied.

    Args:
        close: how the recording ended after this turn, replayed when no fault ends it.
    """
    stalls = {f.record: f.seconds or 0.0 for f in faults if f.kind == "stall"}
    garbled = {f.record for f in faults if f.kind == "garble"}
    enders = [f for f in faults if f.kind in ("error", "close", "drop") and f.record is not None]
    first = min(enders, key=lambda f: f.record or 0) if enders else None
    no_done = any(f.kind == "no-done" for f in faults)
    plan = TurnPlan()
    for i, (data, wait) in enumerate(_waits(turn, delay, speed)):
        pause = wait + stalls.get(i, 0.0)
        if first is not None and i == first.record:
            _end(plan, first, pause)
            return plan
        if no_done and _is_terminal(data):
            continue
        plan.steps.append((_garble(data) if i in garbled else data, pause))
    if first is not None and first.record == len(turn) and first.kind == "error":
        _end(plan, first, 0.0)  # error@record:COUNT: appended after the last message
        return plan
    if close is not None:
        plan.end = "drop" if close.dropped else "close"
        plan.code = close.code if close.code is not None else 1000
        plan.reason = close.reason
    return plan


def _end(plan: TurnPlan, fault: Fault, wait: float) -> None:
    if fault.kind == "error":
        plan.steps.append((error_event(), wait))
    elif fault.kind == "close":
        plan.end, plan.code, plan.reason = (
            "close",
            fault.status or 1011,
            _REASON.format(fault=fault),
        )
        plan.end_wait = wait
    else:
        plan.end, plan.end_wait = "drop", wait


def record_types(turn: tuple[Msg, ...]) -> list[str | None]:
    """Each message's ``type`` (for the log and for tests), ``None`` when it has none."""
    return [object_type(data) for data, _ in turn]

"""The replay server's WebSocket endpoint: each ``response.create`` a client sends is
answered with the next recorded response (:mod:`ssescope.serve.ws_script`).

On connect, the capture is picked as for HTTP (``/NAME/...`` or ``?capture=NAME``) and
the faults are read (``?fault=SPEC``, repeatable, besides the server's own); faults that
do not fit are refused before the upgrade (HTTP 400 with the reason), and
``http-error:STATUS`` refuses it with that status. Then the recording's preamble (the
server messages sent before the first response) is sent, and each ``response.create``
gets the next recorded response, from the first again after the last. A response the
recording's server started by itself is sent once the client has sent the messages
recorded before it (:class:`~ssescope.serve.ws_script.SocketScript`). A
``response.create`` that arrives while a response is being sent waits for it to end.

A capture with a ``watch`` (the pytest plugin's) is handed a :class:`SocketLog` of each
connection as it opens: every message it carried, both ways, and how it ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from starlette.responses import PlainTextResponse, Response
from starlette.websockets import WebSocket

from ..containers.websocket import Direction, Message, is_response_create
from ..errors import UsageError
from ..providers.registry import error_body
from ..sourceinfo import WebSocketEnd
from .faults import Fault, parse_fault
from .ws_script import (
    SocketScript,
    TurnPlan,
    check_socket_faults,
    paced,
    plan_turn,
    script_from_stream,
)

if TYPE_CHECKING:
    from .app import Capture, ReplayOptions

__all__ = [
    "DENIED_UPGRADE",
    "SocketLog",
    "quiet_denied_upgrades",
    "socket_endpoint",
    "socket_script",
]

DENIED_UPGRADE = "ASGI callable returned without completing handshake."
"""What uvicorn logs as an error of an upgrade answered with a refusal (as it should be)."""


class _Denied(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != DENIED_UPGRADE


def quiet_denied_upgrades() -> None:
    """Keep uvicorn from logging an error for each upgrade refused on purpose (a guard's
    421 or 403, a fault that does not fit, ``http-error``)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _Denied) for f in logger.filters):
        logger.addFilter(_Denied())


@dataclass(slots=True)
class SocketLog:
    """What one WebSocket connection of the replay carried, filled in as it runs.

    Attributes:
        path: the path the client connected to.
        faults: the faults it was served with.
        messages: every message, in order: ``"send"`` the client's, ``"receive"`` those
            the server sent (directions as a capture of the client's side names them),
            each timed in seconds since the upgrade was accepted.
        close: how the connection ended (``None`` while it is open, or when the server
            stopped under it).
        closed_by: ``"server"`` (a fault or the recording's end) or ``"client"``.
        ended: set once the connection has ended.
    """

    path: str
    faults: tuple[str, ...]
    messages: list[Message] = field(default_factory=list)
    close: WebSocketEnd | None = None
    closed_by: Literal["client", "server"] | None = None
    ended: threading.Event = field(default_factory=threading.Event)

    def add(self, direction: Direction, data: str | bytes, time: float) -> None:
        """Log one message."""
        if isinstance(data, str):
            self.messages.append(Message(direction, "text", data.encode("utf-8", "replace"), time))
        else:
            self.messages.append(Message(direction, "binary", data, time))

    def finish(self, by: Literal["client", "server"] | None, close: WebSocketEnd | None) -> None:
        """Log how the connection ended (the first end logged is kept) and set ``ended``."""
        if not self.ended.is_set():
            self.close, self.closed_by = close, by
            self.ended.set()


def socket_script(cap: Capture) -> SocketScript:
    """The capture as a WebSocket replays it (any stream: one turn of its records)."""
    if cap.socket is not None:
        return cap.socket
    return script_from_stream(cap.body, cap.chunks)


class _Clock:
    """Seconds since the upgrade was accepted, and where each message is logged."""

    def __init__(self, log: SocketLog | None) -> None:
        self.log = log
        self._loop = asyncio.get_running_loop()
        self._start = self._loop.time()

    def note(self, direction: Direction, data: str | bytes) -> None:
        if self.log is not None:
            self.log.add(direction, data, self._loop.time() - self._start)


async def _play(ws: WebSocket, plan: TurnPlan, clock: _Clock) -> TurnPlan:
    for data, wait in plan.steps:
        if wait > 0:
            await asyncio.sleep(wait)
        if isinstance(data, str):
            await ws.send_text(data)
        else:
            await ws.send_bytes(data)
        clock.note("receive", data)
    if plan.end != "open" and plan.end_wait > 0:
        await asyncio.sleep(plan.end_wait)
    return plan


def socket_endpoint(
    captures: dict[str, Capture],
    options: ReplayOptions,
    pick: Callable[[dict[str, Capture], Any], tuple[Capture | None, str]],
    log: Callable[[str], None],
) -> Callable[[WebSocket], Any]:
    """The WebSocket endpoint of :func:`~ssescope.serve.app.make_app`."""
    quiet_denied_upgrades()

    async def endpoint(ws: WebSocket) -> None:
        cap, name = pick(captures, ws)
        path = ws.url.path
        if cap is None:
            names = ", ".join(sorted(captures))
            log(f"WS {path} -> 404 (no capture {name!r})")
            await ws.send_denial_response(
                PlainTextResponse(f"no capture named {name!r}; available: {names}\n", 404)
            )
            return
        use = cap.options if cap.options is not None else options
        script = socket_script(cap)
        try:
            faults = use.faults + [parse_fault(s) for s in ws.query_params.getlist("fault")]
            check_socket_faults(faults, script.turns)
        except UsageError as exc:
            log(f"WS {path} -> 400 ({exc})")
            await ws.send_denial_response(PlainTextResponse(str(exc) + "\n", 400))
            return
        shown = " ".join(str(f) for f in faults) or "none"
        refused = next((f for f in faults if f.kind == "http-error"), None)
        if refused is not None and refused.status is not None:
            log(f"WS {path} capture={cap.name} faults={shown} -> {refused.status}")
            body = error_body(script.provider, refused.status)
            await ws.send_denial_response(
                Response(body, refused.status, media_type="application/json")
            )
            return
        offered = list(ws.scope.get("subprotocols") or [])
        chosen = script.subprotocol if script.subprotocol in offered else None
        watched = None
        if cap.watch is not None:  # (before the client can know it is connected)
            watched = SocketLog(path, tuple(str(f) for f in faults))
            cap.watch(watched)
        try:
            await ws.accept(subprotocol=chosen)
            log(f"WS {path} capture={cap.name} faults={shown} responses={len(script.turns)}")
            await _session(ws, script, faults, use, _Clock(watched))
        finally:
            if watched is not None:
                watched.finish(None, None)  # (the server stopped under it)

    return endpoint


def _next_turn(script: SocketScript, served: int) -> int | None:
    """The turn to play after ``served`` of them: each in order, then again from the first
    the ones that answer a ``response.create`` (a turn the recording's server started by
    itself is played once), or ``None`` when there is none."""
    count = len(script.turns)
    if served < count:
        return served
    answering = [i for i in range(count) if script.waits_for(i) is None]
    return answering[(served - count) % len(answering)] if answering else None


def _disconnected(message: Any) -> WebSocketEnd:
    code = message.get("code")
    if code == 1006:  # (what the ASGI server reports for a connection lost with no close)
        return WebSocketEnd(dropped=True)
    return WebSocketEnd(
        code=code if isinstance(code, int) else None, reason=message.get("reason") or ""
    )


async def _session(
    ws: WebSocket, script: SocketScript, faults: list[Fault], use: Any, clock: _Clock
) -> None:
    """Answer each response.create, and start each response the recording's server
    started by itself, until the client leaves or a fault ends the connection."""
    delay, speed = use.delay, use.speed
    log = clock.log
    turn: asyncio.Task[TurnPlan] | None = asyncio.ensure_future(
        _play(ws, paced(script.preamble, delay, speed), clock)
    )
    receiving: asyncio.Task[Any] = asyncio.ensure_future(ws.receive())
    waiting = 0  # response.create messages not answered yet
    since = 0  # client messages since the last turn began (or the connection opened)
    served = 0
    try:
        while True:
            pending = {receiving} | ({turn} if turn is not None else set())
            done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            if turn is not None and turn in done:
                plan = turn.result()
                turn = None
                if plan.end == "close":
                    await ws.close(plan.code, plan.reason)
                    if log is not None:
                        log.finish("server", WebSocketEnd(code=plan.code, reason=plan.reason))
                    return
                if plan.end == "drop":
                    if log is not None:
                        log.finish("server", WebSocketEnd(dropped=True))
                    return  # no close frame: the server cuts the connection
            if receiving in done:
                message = receiving.result()
                if message["type"] == "websocket.disconnect":
                    if log is not None:
                        log.finish("client", _disconnected(message))
                    return
                text = message.get("text")
                if text is not None or message.get("bytes") is not None:
                    clock.note("send", text if text is not None else message["bytes"])
                    since += 1
                if text is not None and is_response_create(text.encode("utf-8", "replace")):
                    waiting += 1
                receiving = asyncio.ensure_future(ws.receive())
            index = _next_turn(script, served) if turn is None else None
            need = script.waits_for(index) if index is not None else None
            if index is not None and (waiting > 0 if need is None else since >= need):
                if need is None:
                    waiting -= 1
                since = 0
                last = index == len(script.turns) - 1
                plan = plan_turn(
                    script.turns[index],
                    faults,
                    delay=delay,
                    speed=speed,
                    close=script.close if last else None,
                )
                served += 1
                turn = asyncio.ensure_future(_play(ws, plan, clock))
    finally:
        for task in (turn, receiving):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

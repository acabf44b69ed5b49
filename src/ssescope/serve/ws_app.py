"""The replay server's WebSocket endpoint: each ``response.create`` a client sends is
answered with the next recorded response (:mod:`ssescope.serve.ws_script`).

On connect, the capture is picked as for HTTP (``/NAME/...`` or ``?capture=NAME``) and
the faults are read (``?fault=SPEC``, repeatable, besides the server's own); faults that
do not fit are refused before the upgrade (HTTP 400 with the reason), and
``http-error:STATUS`` refuses it with that status. Then the recording's preamble (the
server messages sent before the first ``response.create``) is sent, and each
``response.create`` gets the next recorded response, from the first again after the last.
A ``response.create`` that arrives while a response is being sent waits for it to end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.responses import PlainTextResponse, Response
from starlette.websockets import WebSocket

from ..containers.websocket import is_response_create
from ..errors import UsageError
from ..providers.registry import error_body
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

__all__ = ["DENIED_UPGRADE", "quiet_denied_upgrades", "socket_endpoint", "socket_script"]

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


def socket_script(cap: Capture) -> SocketScript:
    """The capture as a WebSocket replays it (any stream: one turn of its records)."""
    if cap.socket is not None:
        return cap.socket
    return script_from_stream(cap.body, cap.chunks)


async def _play(ws: WebSocket, plan: TurnPlan) -> TurnPlan:
    for data, wait in plan.steps:
        if wait > 0:
            await asyncio.sleep(wait)
        if isinstance(data, str):
            await ws.send_text(data)
        else:
            await ws.send_bytes(data)
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
        await ws.accept(subprotocol=chosen)
        log(f"WS {path} capture={cap.name} faults={shown} responses={len(script.turns)}")
        await _session(ws, script, faults, use)

    return endpoint


async def _session(ws: WebSocket, script: SocketScript, faults: list[Fault], use: Any) -> None:
    """Answer each response.create until the client leaves or a fault ends the connection."""
    delay, speed = use.delay, use.speed
    turn: asyncio.Task[TurnPlan] | None = asyncio.ensure_future(
        _play(ws, paced(script.preamble, delay, speed))
    )
    receiving: asyncio.Task[Any] = asyncio.ensure_future(ws.receive())
    waiting = 0  # response.create messages not answered yet
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
                    return
                if plan.end == "drop":
                    return  # no close frame: the server cuts the connection
            if receiving in done:
                message = receiving.result()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if text is not None and is_response_create(text.encode("utf-8", "replace")):
                    waiting += 1
                receiving = asyncio.ensure_future(ws.receive())
            if turn is None and waiting:
                waiting -= 1
                index = served % len(script.turns)
                last = index == len(script.turns) - 1
                plan = plan_turn(
                    script.turns[index],
                    faults,
                    delay=delay,
                    speed=speed,
                    close=script.close if last else None,
                )
                served += 1
                turn = asyncio.ensure_future(_play(ws, plan))
    finally:
        for task in (turn, receiving):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

"""A scripted WebSocket upstream for the proxy tests: each path is one situation, and every
message it received or sent is kept per connection, so that a test can compare both
sides message by message."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from dataclasses import dataclass, field

import orjson
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


def response_events(rid: str, text: str, *, terminal: bool = True) -> list[str]:
    """A short Responses stream (one text delta per word), completed unless told not."""
    words = text.split(" ")
    events = [
        {
            "type": "response.created",
            "sequence_number": 0,
            "response": {"id": rid, "status": "in_progress", "model": "gpt-5", "output": []},
        }
    ]
    for i, word in enumerate(words):
        events.append(
            {
                "type": "response.output_text.delta",
                "sequence_number": i + 1,
                "item_id": "m1",
                "output_index": 0,
                "content_index": 0,
                "delta": word if i == 0 else " " + word,
            }
        )
    if terminal:
        events.append(
            {
                "type": "response.completed",
                "sequence_number": len(words) + 1,
                "response": {
                    "id": rid,
                    "status": "completed",
                    "model": "gpt-5",
                    "output": [
                        {
                            "type": "message",
                            "id": "m1",
                            "role": "assistant",
                            "content": [{"type": "output_text", "text": text}],
                        }
                    ],
                    "usage": {"input_tokens": 3, "output_tokens": len(words), "total_tokens": 9},
                },
            }
        )
    return [orjson.dumps(e).decode() for e in events]


@dataclass
class Conn:
    """One connection as the upstream saw it."""

    path: str
    headers: list[tuple[str, str]]
    subprotocols: list[str]
    received: list[str | bytes] = field(default_factory=list)
    sent: list[str | bytes] = field(default_factory=list)
    disconnect: tuple[int, str] | None = None  # the client's close, as received
    done: threading.Event = field(default_factory=threading.Event)


class WSUpstream:
    """What the scripted upstream saw (connections by arrival order)."""

    def __init__(self) -> None:
        self.conns: list[Conn] = []
        self._ids = itertools.count()

    def wait(self, n: int, timeout: float = 10.0) -> list[Conn]:
        """The first ``n`` connections, once each has ended."""
        for conn in self.conns[:n]:
            conn.done.wait(timeout)
        return self.conns[:n]


def ws_upstream_app(state: WSUpstream) -> Starlette:
    """The scripted WebSocket upstream.

    ``/v1/responses``: answers each ``response.create`` with a completed response whose
    text is the request's ``input`` (and ``/slow`` waits 5 ms between messages);
    ``/cut``: two events, then a close with 1011; ``/drop``: two events, then the
    connection is cut with no close frame; ``/echo-key``: sends the request's
    ``Authorization`` back in a message; ``/binary``: one binary message then a
    completed response; ``/refuse``: a 401 before the upgrade; ``/flood?n=N``: N deltas
    then the terminal event, as fast as they go.
    """

    async def endpoint(ws: WebSocket) -> None:
        path = ws.url.path
        conn = Conn(path, list(ws.headers.items()), list(ws.scope.get("subprotocols") or []))
        state.conns.append(conn)
        try:
            await _serve(ws, conn, path)
        finally:
            conn.done.set()

    async def _send(ws: WebSocket, conn: Conn, data: str | bytes) -> None:
        if isinstance(data, str):
            await ws.send_text(data)
        else:
            await ws.send_bytes(data)
        conn.sent.append(data)

    async def _serve(ws: WebSocket, conn: Conn, path: str) -> None:
        if path.endswith("/refuse"):
            await ws.send_denial_response(
                JSONResponse(
                    {"error": {"type": "invalid_request_error", "message": "bad key"}},
                    status_code=401,
                )
            )
            return
        await ws.accept(
            subprotocol=conn.subprotocols[0] if conn.subprotocols else None,
            headers=[(b"x-request-id", b"req_ws_1")],
        )
        n = 0
        answering: asyncio.Task[None] | None = None
        while True:
            try:
                message = await ws.receive()
            except WebSocketDisconnect as exc:
                conn.disconnect = (exc.code, exc.reason or "")
                return
            if message["type"] == "websocket.disconnect":
                conn.disconnect = (message.get("code", 1005), message.get("reason") or "")
                if answering is not None:
                    answering.cancel()
                return
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            conn.received.append(data)
            if not isinstance(data, str) or '"response.create"' not in data:
                continue
            n += 1
            if path.endswith(("/cut", "/drop")):  # (then the connection ends)
                await _respond(ws, conn, path, n, orjson.loads(data))
                return
            if answering is not None:
                await answering
            answering = asyncio.ensure_future(_answer(ws, conn, path, n, orjson.loads(data)))

    async def _answer(ws: WebSocket, conn: Conn, path: str, n: int, body: dict[str, str]) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # (the client left)
            await _respond(ws, conn, path, n, body)

    async def _respond(ws: WebSocket, conn: Conn, path: str, n: int, body: dict[str, str]) -> None:
        rid = f"resp_{n}"
        if path.endswith("/cut"):
            for event in response_events(rid, "Hello there", terminal=False)[:2]:
                await _send(ws, conn, event)
            await ws.close(1011, "overloaded")
            return
        if path.endswith("/drop"):
            for event in response_events(rid, "Hello there", terminal=False)[:2]:
                await _send(ws, conn, event)
            return  # the endpoint returns with no close frame: the server cuts it
        if path.endswith("/echo-key"):
            key = dict(conn.headers).get("authorization", "")
            await _send(ws, conn, orjson.dumps({"type": "debug", "saw": key}).decode())
        if path.endswith("/binary"):
            await _send(ws, conn, b"\x00\x01\x02")
        if path.endswith("/flood"):
            count = int(ws.query_params.get("n", "1000"))
            text = " ".join("w" for _ in range(count))
            events = response_events(rid, text)
        else:
            events = response_events(rid, str(body.get("input", "hi")))
        for event in events:
            await _send(ws, conn, event)
            if path.endswith("/slow"):
                await asyncio.sleep(0.005)

    return Starlette(routes=[WebSocketRoute("/{path:path}", endpoint)])

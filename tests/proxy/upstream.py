"""A scripted upstream for the situations the replay server does not make: gzip bodies,
a JSON reply, heartbeats, a connection kept open after the end, a stream that never ends,
an echo of the request headers."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import socket
import threading
from collections.abc import AsyncIterator

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

OPENAI = [
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Bonjour "},"finish_reason":null}]}\n\n',
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"le monde"},"finish_reason":null}]}\n\n',
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
    b"data: [DONE]\n\n",
]
"""A short OpenAI chat stream that completes."""

BOMB_BODY = (
    b"".join(
        b'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
        b'"delta":{"content":"' + b"%04d" % i + b"x" * 1000 + b'"},"finish_reason":null}]}\n\n'
        for i in range(8000)
    )
    + OPENAI[2]
    + OPENAI[3]
)
"""A long stream that compresses about 400 to 1 (a small gzip bomb)."""

ERROR_BODY = b'{"error":{"type":"overloaded_error","message":"Overloaded, try later"}}'
JSON_REPLY = (
    b'{"id":"c2","object":"chat.completion","model":"m","choices":[{"index":0,'
    b'"message":{"role":"assistant","content":"Salut"},"finish_reason":"stop"}],'
    b'"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}'
)


class Scripted:
    """What the scripted upstream saw (filled by its endpoints, read by the tests)."""

    def __init__(self) -> None:
        self.endless_closed = threading.Event()
        self.endless_started = threading.Event()
        self.seen_headers: list[list[tuple[str, str]]] = []
        self.sink_started = threading.Event()


def scripted_app(state: Scripted) -> Starlette:
    """The scripted upstream."""

    async def gzip_error(_request: Request) -> Response:
        return Response(
            gzip.compress(ERROR_BODY),
            status_code=529,
            headers={"content-encoding": "gzip", "content-type": "application/json"},
        )

    async def gzip_stream(_request: Request) -> Response:
        packed = gzip.compress(b"".join(OPENAI))
        pieces = [packed[i : i + 40] for i in range(0, len(packed), 40)]

        async def body() -> AsyncIterator[bytes]:
            for piece in pieces:
                await asyncio.sleep(0.005)
                yield piece

        return StreamingResponse(
            body(), media_type="text/event-stream", headers={"content-encoding": "gzip"}
        )

    async def gzip_bomb(_request: Request) -> Response:
        # 8 MiB of stream in about 20 KB of gzip, sent as one chunk
        return Response(
            gzip.compress(BOMB_BODY),
            media_type="text/event-stream",
            headers={"content-encoding": "gzip"},
        )

    async def chunks(request: Request) -> Response:
        # an OpenAI stream of ?n= content chunks, then its end
        n = int(request.query_params.get("n", "10"))

        async def body() -> AsyncIterator[bytes]:
            for i in range(n):
                yield OPENAI[1].replace(b"le monde", b"piece %05d" % i)
                await asyncio.sleep(0)
            yield OPENAI[2]
            yield OPENAI[3]

        return StreamingResponse(body(), media_type="text/event-stream")

    async def json_reply(_request: Request) -> Response:
        return Response(
            JSON_REPLY, media_type="application/json", headers={"x-request-id": "req_123"}
        )

    async def heartbeat(_request: Request) -> Response:
        async def body() -> AsyncIterator[bytes]:
            yield OPENAI[0]
            for _ in range(4):
                await asyncio.sleep(0.1)
                yield b": ping\n\n"
            await asyncio.sleep(0.05)
            for piece in OPENAI[1:]:
                yield piece

        return StreamingResponse(body(), media_type="text/event-stream")

    async def hold_open(_request: Request) -> Response:
        async def body() -> AsyncIterator[bytes]:
            for piece in OPENAI:
                yield piece
            await asyncio.sleep(30)

        return StreamingResponse(body(), media_type="text/event-stream")

    async def endless(_request: Request) -> Response:
        async def body() -> AsyncIterator[bytes]:
            state.endless_started.set()
            try:
                yield OPENAI[0]
                for _ in range(600):
                    await asyncio.sleep(0.05)
                    yield OPENAI[1]
            finally:
                state.endless_closed.set()

        return StreamingResponse(body(), media_type="text/event-stream")

    async def echo_key(request: Request) -> Response:
        # a provider refusing the key, and repeating it: in 5-byte pieces (the key is split
        # across chunks), gzip'd with ?gzip=1
        key = request.headers.get("x-api-key") or request.headers.get("authorization", "")
        key = key.removeprefix("Bearer ")
        body = orjson.dumps(
            {"error": {"type": "invalid_request_error", "message": f"Incorrect API key: {key}"}}
        )
        packed = gzip.compress(body) if request.query_params.get("gzip") else body

        async def pieces() -> AsyncIterator[bytes]:
            for i in range(0, len(packed), 5):
                yield packed[i : i + 5]
                await asyncio.sleep(0)

        headers = {"content-encoding": "gzip"} if request.query_params.get("gzip") else {}
        return StreamingResponse(
            pieces(), status_code=401, media_type="application/json", headers=headers
        )

    async def sink(request: Request) -> Response:
        # reads the body as it arrives: says when the first piece came, and what came
        digest = hashlib.sha256()
        size = 0
        async for piece in request.stream():
            if piece and not state.sink_started.is_set():
                state.sink_started.set()
            digest.update(piece)
            size += len(piece)
        framing = {k: request.headers.get(k) for k in ("content-length", "transfer-encoding")}
        return Response(
            orjson.dumps({"size": size, "sha256": digest.hexdigest(), **framing}),
            media_type="application/json",
        )

    async def echo(request: Request) -> Response:
        pairs = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in request.headers.raw]
        state.seen_headers.append(pairs)
        return Response(
            orjson.dumps({"headers": len(pairs), "body": len(await request.body())}),
            media_type="application/json",
            headers={"request-id": "req_echo"},
        )

    return Starlette(
        routes=[
            Route("/gzip-error", gzip_error, methods=["POST"]),
            Route("/gzip-stream", gzip_stream, methods=["POST"]),
            Route("/gzip-bomb", gzip_bomb, methods=["POST"]),
            Route("/chunks", chunks, methods=["POST"]),
            Route("/json", json_reply, methods=["POST"]),
            Route("/heartbeat", heartbeat, methods=["POST"]),
            Route("/hold-open", hold_open, methods=["POST"]),
            Route("/endless", endless, methods=["POST"]),
            Route("/echo", echo, methods=["GET", "POST"]),
            Route("/echo-key", echo_key, methods=["POST"]),
            Route("/sink", sink, methods=["POST"]),
        ]
    )


def unreachable_upstream() -> str:
    """The URL of a loopback port nothing listens on (it was bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"

"""The replay server's Starlette app, capture loading, and a background-thread runner.

Any GET or POST path is answered with the captured stream. A directory serves several
captures: pick one with a ``/NAME/...`` path prefix or ``?capture=NAME``. ``?fault=SPEC``
and ``?quirk=NAME`` (repeatable) add faults and quirk presets to one request. A WebSocket
upgrade on any path is answered by :mod:`ssescope.serve.ws_app`: each ``response.create``
gets the next recorded response.

The app runs behind :class:`~ssescope.serve.guard.HostGuard`: the ``Host`` header must
name a loopback address (or the one the server was bound to), so a web page cannot read
the captures through DNS rebinding, and every answer carries :data:`SERVE_CSP`, so a
capture served as HTML runs nothing. The request log shows paths and capture names with
control characters made visible.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
import sys
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route, WebSocketRoute

from ..containers import read_path
from ..containers.ws_forms import read_ws_exchange
from ..errors import UsageError
from ..output.visible import visible
from .faults import Fault, apply_faults, parse_fault, schedule
from .guard import guarded_app
from .match import pick
from .quirks import Quirk, apply_quirks, parse_quirk, shape
from .ws_app import SocketLog, socket_endpoint
from .ws_script import SocketScript, script_from_exchange

__all__ = [
    "SERVED_LOG",
    "SERVED_PATH",
    "SERVE_CSP",
    "STREAM_HEADERS",
    "Capture",
    "LogStream",
    "ReplayOptions",
    "ServerThread",
    "load_captures",
    "make_app",
]

SERVE_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"
"""The Content-Security-Policy of every answer of the replay server: it serves data only."""

STREAM_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no"}
"""The headers a well-behaved stream carries: not cached, not buffered by a reverse proxy
(a quirk may change them)."""

SERVED_PATH = "/.ssescope/served"
"""Where the server answers with its log of served streams (JSON), so that a test in front
of a gateway can see whether the gateway hung up on its upstream too."""
SERVED_LOG = 100
"""How many served streams the log keeps."""

_CONTENT_TYPES = {
    "sse": "text/event-stream",
    "ndjson": "application/x-ndjson",
    "json-array": "application/json",
    "json": "application/json",
    "aws-eventstream": "application/vnd.amazon.eventstream",
}
_SUFFIXES = {".ssecap", ".sse", ".txt", ".ndjson", ".jsonl", ".json", ".har", ".log"}


@dataclass(slots=True)
class Capture:
    """One servable stream: its body and, from a capture, its chunking, timing and type."""

    name: str
    body: bytes
    content_type: str | None = None
    chunks: list[tuple[int, float]] | None = None  # (end offset, arrival time)
    options: ReplayOptions | None = None  # replaces the server's options for this capture
    socket: SocketScript | None = None  # a WebSocket recording, as replayed over a WebSocket
    status: int | None = None  # the recorded status: an error (>= 400) is answered as one
    request: object = None  # the recorded request body (what --by-request matches)
    watch: Callable[[SocketLog], None] | None = None  # handed each WebSocket connection's log


def _read_capture(path: Path) -> Capture:
    name = path.stem
    body = read_path(path)
    data = b"".join(c.data for c in body.chunks)
    chunks: list[tuple[int, float]] | None = None
    end = 0
    timed = []
    for c in body.chunks:
        end += len(c.data)
        if c.time is not None:
            timed.append((end, float(c.time)))
    if timed and len(timed) == len(body.chunks):
        chunks = timed
    content_type = None
    subprotocol = None
    headers = getattr(body, "headers", None) or {}
    for key, value in dict(headers).items():
        if str(key).lower() == "content-type":
            content_type = str(value)
        elif str(key).lower() == "sec-websocket-protocol":
            subprotocol = str(value)
    socket = None
    if body.websocket is not None:
        exchange = read_ws_exchange(path.read_bytes())
        if exchange is not None:
            socket = script_from_exchange(exchange, subprotocol)
    status = body.status if body.status is not None and body.status >= 400 else None
    return Capture(
        name,
        data,
        content_type,
        chunks,
        socket=socket,
        status=status,
        request=body.request_body,
    )


def load_captures(path: str | Path) -> dict[str, Capture]:
    """Load a file, or every capture in a directory, keyed by name (file stem).

    Raises:
        UsageError: if the path does not exist or the directory holds no file.
    """
    p = Path(path)
    if not p.exists():
        raise UsageError(f"no such file or directory: {str(p)!r}")
    if p.is_file():
        cap = _read_capture(p)
        return {cap.name: cap}
    out: dict[str, Capture] = {}
    for f in sorted(p.iterdir()):
        if f.is_file() and f.suffix.lower() in _SUFFIXES:
            cap = _read_capture(f)
            out[cap.name] = cap
    if not out:
        raise UsageError(f"{str(p)!r} holds no capture ({', '.join(sorted(_SUFFIXES))})")
    return out


@dataclass(slots=True)
class ReplayOptions:
    """How to replay: chunking, delay, speed, faults and quirks applied to every request;
    with ``by_request``, a request not naming its capture gets the one whose recorded
    request is most like it (:mod:`ssescope.serve.match`)."""

    chunk: str = "original"
    delay: str = "0"
    speed: float = 1.0
    faults: list[Fault] = field(default_factory=list)
    quirks: list[Quirk] = field(default_factory=list)
    by_request: bool = False


def _pick(
    captures: dict[str, Capture], request: HTTPConnection, body: bytes | None = None
) -> tuple[Capture | None, str]:
    wanted = request.query_params.get("capture")
    if wanted is not None:
        return captures.get(wanted), wanted
    first = request.url.path.strip("/").split("/", 1)[0]
    if first in captures:
        return captures[first], first
    if body is not None:
        matched = pick(captures, body)
        if matched is not None:
            return captures[matched], matched
    if len(captures) == 1:
        cap = next(iter(captures.values()))
        return cap, cap.name
    return None, first


class LogStream(Protocol):
    """Where :func:`make_app` logs: any text stream that can be written and flushed."""

    def write(self, text: str, /) -> object:
        """Write one line's text."""
        ...

    def flush(self) -> None:
        """Flush what was written."""
        ...


def make_app(
    captures: dict[str, Capture],
    options: ReplayOptions | None = None,
    *,
    log: LogStream | None = None,
    allowed_hosts: list[str] | None = None,
) -> Starlette:
    """Build the Starlette app replaying ``captures``.

    Args:
        captures: from :func:`load_captures`.
        options: chunking, delays, speed and faults for every request.
        log: where each request is logged (default: stderr). Headers are never logged.
        allowed_hosts: the names the ``Host`` header may carry (default: the loopback
            names); ``[]`` disables the check.
    """
    opts = options or ReplayOptions()
    log_served: deque[dict[str, object]] = deque(maxlen=SERVED_LOG)
    numbers = itertools.count(1)

    def _log(line: str) -> None:
        stream = log if log is not None else sys.stderr
        print(visible(line), file=stream, flush=True)

    async def endpoint(request: Request) -> Response:
        received = await request.body()
        cap, name = _pick(captures, request, received if opts.by_request else None)
        use = cap.options if cap is not None and cap.options is not None else opts
        query = request.query_params
        try:
            faults = use.faults + [parse_fault(s) for s in query.getlist("fault")]
            quirks = use.quirks + [parse_quirk(s) for s in query.getlist("quirk")]
            served = apply_quirks(cap.body, quirks) if cap is not None else None
        except UsageError as exc:
            _log(f"{request.method} {request.url.path} -> 400 ({exc})")
            return PlainTextResponse(str(exc) + "\n", status_code=400)
        if cap is None or served is None:
            names = ", ".join(sorted(captures))
            _log(f"{request.method} {request.url.path} -> 404 (no capture {name!r})")
            return PlainTextResponse(
                f"no capture named {name!r}; available: {names}\n", status_code=404
            )
        shown = " ".join([str(f) for f in faults] + [str(q) for q in quirks]) or "none"
        if served.status is not None:
            _log(f"{request.method} {request.url.path} capture={cap.name} faults={shown}")
            await asyncio.sleep(served.wait_before)
            return Response(served.body, status_code=served.status, headers=served.headers)
        try:
            plan = apply_faults(served.body, faults)
        except UsageError as exc:  # a fault past the end of this capture
            _log(f"{request.method} {request.url.path} -> 400 ({exc})")
            return PlainTextResponse(str(exc) + "\n", status_code=400)
        if plan.http_status is not None:
            _log(f"{request.method} {request.url.path} capture={cap.name} faults={shown}")
            return Response(plan.body, status_code=plan.http_status, media_type="application/json")
        if cap.status is not None:  # a recorded error answer is answered as one
            _log(f"{request.method} {request.url.path} capture={cap.name} -> {cap.status}")
            return Response(
                plan.body, status_code=cap.status, media_type=cap.content_type or "application/json"
            )
        original = cap.chunks if plan.body == cap.body else None
        chunks = schedule(
            plan, chunk=use.chunk, delay=use.delay, speed=use.speed, original=original
        )
        chunks = shape(chunks, served)
        _log(
            f"{request.method} {request.url.path} capture={cap.name} faults={shown} "
            f"bytes={len(plan.body)} chunks={len(chunks)}"
        )
        media = cap.content_type or _CONTENT_TYPES.get(plan.framing, "text/event-stream")

        entry: dict[str, object] = {
            "n": next(numbers),
            "path": request.url.path,
            "capture": cap.name,
            "state": "streaming",
            "bytes": 0,
        }
        log_served.append(entry)

        async def body() -> AsyncIterator[bytes]:
            sent = 0
            try:
                for data, wait in chunks:
                    if wait > 0:
                        await asyncio.sleep(wait)
                    yield data
                    sent += len(data)
                    entry["bytes"] = sent
                if served.hold_after > 0:
                    await asyncio.sleep(served.hold_after)
                entry["state"] = "complete"
            finally:
                if entry["state"] == "streaming":
                    entry["state"] = "client-closed"

        usual = {k: v for k, v in STREAM_HEADERS.items() if k not in served.dropped}
        headers = {**usual, **served.headers}
        return StreamingResponse(body(), media_type=media, headers=headers)

    async def served_log(_request: Request) -> Response:
        return JSONResponse({"served": list(log_served)})

    socket = socket_endpoint(captures, opts, _pick, _log)
    routes = [
        Route(SERVED_PATH, served_log, methods=["GET"]),
        Route("/", endpoint, methods=["GET", "POST"]),
        Route("/{path:path}", endpoint, methods=["GET", "POST"]),
        WebSocketRoute("/", socket),
        WebSocketRoute("/{path:path}", socket),
    ]
    return guarded_app(routes, allowed_hosts, SERVE_CSP)


def bind(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """Bind a listening socket (port 0 picks a free port).

    The socket names its protocol (``IPPROTO_TCP``), so that asyncio turns Nagle's
    algorithm off on each connection it accepts (it checks the protocol number, and a
    socket made with protocol 0 keeps Nagle on). With Nagle on, a response's first body
    write waits for the peer to acknowledge its headers, which on a reused connection
    takes a delayed ACK: about 40 ms at the start of every stream.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class ServerThread:
    """Run an ASGI app with uvicorn in a background thread (tests, notebooks).

    ::

        with ServerThread(make_app(load_captures("cap.ssecap"))) as server:
            httpx.post(server.url + "/v1/chat/completions")
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        self._sock = bind(host, port)
        self.port: int = self._sock.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        config = uvicorn.Config(
            app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    def __enter__(self) -> ServerThread:
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the replay server did not start")
            threading.Event().wait(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._sock.close()

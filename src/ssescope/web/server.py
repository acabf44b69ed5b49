"""The local web debugger: a Starlette app serving one page and a small JSON API.

Routes:

* ``GET /`` and ``GET /static/{name}``: the page (HTML, one ES module, one stylesheet),
  read from package data through :mod:`importlib.resources`.
* ``POST /api/inspect?provider=auto&framing=auto``: the body is a raw stream or a
  container; the answer is :func:`ssescope.web.analysis.analyse`'s JSON.
* ``POST /api/ssecap``: the same body, returned as an ``.ssecap`` capture.
* ``GET /api/examples`` and ``GET /api/examples/{name}``: the bundled examples.
* ``GET /api/live`` and ``GET /api/live/{name}``: the Live view of a proxy's record folder
  (:mod:`ssescope.web.live`).

Every answer carries a strict Content-Security-Policy (``default-src 'self'``), and the
``Host`` header must name the address the server was bound to, so a page on another site
cannot reach the API through DNS rebinding.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import UsageError
from .analysis import analyse, build_capture
from .examples import find_examples
from .live import live_routes

__all__ = ["CSP", "DEFAULT_MAX_BODY", "LOOPBACK_HOSTS", "create_app"]

DEFAULT_MAX_BODY = 64 * 1024 * 1024
"""The largest stream the page accepts (64 MiB)."""

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Addresses the server binds to without ``--host``."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
"""The Content-Security-Policy of every answer: nothing from another origin, nothing inline."""

_STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
    # the Live view of `ssescope proxy` (web/live.py)
    "live.js": "text/javascript; charset=utf-8",
}


def _static(name: str) -> bytes:
    return resources.files("ssescope.web").joinpath("static").joinpath(name).read_bytes()


class _Guard:
    """ASGI middleware: security headers on every answer, and a Host-header check."""

    def __init__(self, app: ASGIApp, allowed_hosts: frozenset[str] | None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.allowed_hosts is not None:
            host = ""
            for key, value in scope.get("headers", []):
                if key == b"host":
                    host = value.decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            name = name.strip("[]")
            if name not in self.allowed_hosts:
                response = JSONResponse(
                    {
                        "error": f"This server only answers requests addressed to {', '.join(sorted(self.allowed_hosts))}."
                    },
                    status_code=421,
                )
                await response(scope, receive, send)
                return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cache-control", b"no-store"),
                ]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _TooLarge(Exception):
    pass


async def _read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _TooLarge
    parts: list[bytes] = []
    size = 0
    async for piece in request.stream():
        size += len(piece)
        if size > limit:
            raise _TooLarge
        parts.append(piece)
    return b"".join(parts)


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse(
        {
            "error": f"The stream is larger than the {limit // (1024 * 1024)} MiB this page "
            "accepts; inspect it with `ssescope inspect FILE` instead."
        },
        status_code=413,
    )


def create_app(
    *,
    max_body: int = DEFAULT_MAX_BODY,
    examples_dir: Path | None = None,
    allowed_hosts: list[str] | None = None,
    live_dir: Path | None = None,
) -> Starlette:
    """Build the web debugger's ASGI app.

    Args:
        max_body: the largest request body accepted, in bytes (answers 413 beyond).
        examples_dir: serve the example files of this folder instead of the bundled ones.
        allowed_hosts: host names the ``Host`` header may carry (default: loopback names);
            ``[]`` disables the check.
        live_dir: the record folder of ``ssescope proxy`` that the Live view lists.
    """

    async def index(_request: Request) -> Response:
        return Response(_static("index.html"), media_type=_STATIC["index.html"])

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return JSONResponse({"error": "not found"}, status_code=404)
        return Response(_static(name), media_type=_STATIC[name])

    async def inspect(request: Request) -> Response:
        try:
            data = await _read_body(request, max_body)
        except _TooLarge:
            return _too_large(max_body)
        provider = request.query_params.get("provider", "auto") or "auto"
        framing = request.query_params.get("framing", "auto") or "auto"
        try:
            result = analyse(data, provider=provider, framing=framing)
        except UsageError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except Exception as exc:  # the engine must not take the page down with it
            return JSONResponse(
                {"error": f"The engine failed on this stream: {type(exc).__name__}: {exc}"},
                status_code=500,
            )
        body = json.dumps(result, ensure_ascii=False, separators=(",", ":"), default=str)
        return Response(body.encode("utf-8"), media_type="application/json")

    async def ssecap(request: Request) -> Response:
        try:
            data = await _read_body(request, max_body)
        except _TooLarge:
            return _too_large(max_body)
        return Response(
            build_capture(data),
            media_type="application/x-ndjson",
            headers={"content-disposition": 'attachment; filename="stream.ssecap"'},
        )

    async def examples(_request: Request) -> Response:
        listed: list[dict[str, Any]] = [
            {"name": e.name, "description": e.description} for e in find_examples(examples_dir)
        ]
        return JSONResponse(listed)

    async def example(request: Request) -> Response:
        name = request.path_params["name"]
        for e in find_examples(examples_dir):
            if e.name == name:
                try:
                    return Response(e.path.read_bytes(), media_type="application/octet-stream")
                except OSError as exc:
                    return JSONResponse(
                        {"error": f"cannot read example {name!r}: {exc}"}, status_code=500
                    )
        return JSONResponse({"error": f"no example named {name!r}"}, status_code=404)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/static/{name}", static),
            Route("/api/inspect", inspect, methods=["POST"]),
            Route("/api/ssecap", ssecap, methods=["POST"]),
            Route("/api/examples", examples),
            Route("/api/examples/{name}", example),
            # the Live view of `ssescope proxy` (web/live.py)
            *live_routes(live_dir),
        ]
    )
    hosts = LOOPBACK_HOSTS if allowed_hosts is None else tuple(allowed_hosts)
    app.add_middleware(_Guard, allowed_hosts=frozenset(hosts) if hosts else None)
    return app

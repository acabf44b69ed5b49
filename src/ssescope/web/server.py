"""The local web debugger: a Starlette app serving one page and a small JSON API.

Routes:

* ``GET /`` and ``GET /static/{name}``: the page (HTML, one ES module, one stylesheet),
  read from package data through :mod:`importlib.resources`.
* ``POST /api/inspect?provider=auto&framing=auto``: the body is a raw stream or a
  container; the answer is :func:`ssescope.web.analysis.analyse`'s JSON.
* ``POST /api/report?provider=auto&framing=auto&redact=1``: the same body; the answer is
  the Report's JSON as a download, with content redacted (:mod:`ssescope.output.redaction`)
  when ``redact`` is ``1``.
* ``POST /api/ssecap``: the same body, returned as an ``.ssecap`` capture.
* ``GET /api/examples`` and ``GET /api/examples/{name}``: the bundled examples.
* ``GET /api/live`` and ``GET /api/live/{name}``: the Live view of a proxy's record folder
  (:mod:`ssescope.web.live`).

Every answer carries a strict Content-Security-Policy (``default-src 'self'``), errors
and refusals included. Three checks keep other web pages out:

* the ``Host`` header must name the address the server was bound to (421 otherwise), so
  a page on another site cannot reach the API through DNS rebinding;
* a request whose ``Origin`` is not the page's own, or whose ``Sec-Fetch-Site`` is
  ``cross-site`` or ``same-site``, is refused with 403 (a page on another port of
  localhost is same-site); only a top-level GET navigation may come from elsewhere;
* requests without these headers (curl, scripts) are served: they are not a browser
  acting for some other page.

Analysis runs in a worker thread, one stream at a time, so the page stays responsive
while a big stream is analysed; beyond :data:`DEFAULT_MAX_QUEUE` streams waiting, a new
one is refused with 503 and ``Retry-After``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
from anyio import to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Scope

from ..errors import UsageError
from ..output import strictjson
from ..output.redaction import redact_report
from ..providers.registry import PROVIDERS
from ..serve.guard import LOOPBACK_HOSTS, foreign_request, guarded_app
from .analysis import analyse, build_capture
from .examples import find_examples
from .live import live_routes

__all__ = [
    "CSP",
    "DEFAULT_MAX_BODY",
    "DEFAULT_MAX_QUEUE",
    "LOOPBACK_HOSTS",
    "create_app",
]

DEFAULT_MAX_BODY = 64 * 1024 * 1024
"""The largest stream the page accepts (64 MiB)."""

DEFAULT_MAX_QUEUE = 2
"""How many streams may wait while one is analysed; more are refused with 503."""

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


_PROVIDERS_SLOT = (
    b"<!-- providers: the server writes one option per name of the provider registry -->"
)


def _static(name: str) -> bytes:
    data = resources.files("ssescope.web").joinpath("static").joinpath(name).read_bytes()
    if name == "index.html":  # the provider list is the registry's
        options = "".join(f"<option>{html.escape(p)}</option>" for p in PROVIDERS)
        data = data.replace(_PROVIDERS_SLOT, options.encode())
    return data


def _foreign(scope: Scope) -> Response | None:
    """A 403 for a request sent by another web page (``None`` if it is not)."""
    why = foreign_request(scope, navigation=True)
    if why is None:
        return None
    return JSONResponse(
        {"error": f"Refused: {why}. Open the page itself to use it."}, status_code=403
    )


class _Jobs:
    """One analysis at a time in a worker thread, and at most ``max_queue`` waiting."""

    def __init__(self, max_queue: int) -> None:
        self.max_queue = max_queue
        self.admitted = 0
        self._limiter: anyio.CapacityLimiter | None = None

    def full(self) -> bool:
        return self.admitted > self.max_queue

    async def run(self, job: Callable[[], Any]) -> Any:
        if self._limiter is None:  # created in the event loop
            self._limiter = anyio.CapacityLimiter(1)
        return await to_thread.run_sync(job, limiter=self._limiter)


def _busy(jobs: _Jobs) -> JSONResponse:
    return JSONResponse(
        {
            "error": f"The server is busy: one stream is being analysed and {jobs.max_queue} "
            "are waiting. Try again in a moment."
        },
        status_code=503,
        headers={"retry-after": "2"},
    )


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


def _entry_param(request: Request) -> int | None:
    """The ``entry`` query parameter: which stream of a capture holding several."""
    raw = request.query_params.get("entry")
    if raw is None or raw == "":
        return None
    if not raw.isascii() or not raw.isdigit():
        raise UsageError(f"entry must be a stream's position (0, 1, …), not {raw!r}")
    return int(raw)


def create_app(
    *,
    max_body: int = DEFAULT_MAX_BODY,
    examples_dir: Path | None = None,
    allowed_hosts: list[str] | None = None,
    max_queue: int = DEFAULT_MAX_QUEUE,
    live_dir: Path | None = None,
) -> Starlette:
    """Build the web debugger's ASGI app.

    Args:
        max_body: the largest request body accepted, in bytes (answers 413 beyond).
        max_queue: how many streams may wait for the one being analysed (503 beyond).
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

    jobs = _Jobs(max_queue)

    async def queued(request: Request, job: Callable[[bytes], Response]) -> Response:
        if jobs.full():
            return _busy(jobs)
        jobs.admitted += 1
        try:
            try:
                data = await _read_body(request, max_body)
            except _TooLarge:
                return _too_large(max_body)
            response: Response = await jobs.run(lambda: job(data))
            return response
        finally:
            jobs.admitted -= 1

    def analysed(
        data: bytes, provider: str, framing: str, entry: int | None
    ) -> dict[str, Any] | Response:
        try:
            return analyse(data, provider=provider, framing=framing, entry=entry)
        except UsageError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except Exception as exc:  # the engine must not take the page down with it
            return JSONResponse(
                {"error": f"The engine failed on this stream: {type(exc).__name__}: {exc}"},
                status_code=500,
            )

    def inspect_job(data: bytes, provider: str, framing: str, entry: int | None) -> Response:
        result = analysed(data, provider, framing, entry)
        if isinstance(result, Response):
            return result
        body = strictjson.dumps(result, default=str)
        return Response(body.encode("utf-8"), media_type="application/json")

    def report_job(
        data: bytes, provider: str, framing: str, entry: int | None, redact: bool
    ) -> Response:
        result = analysed(data, provider, framing, entry)
        if isinstance(result, Response):
            return result
        report: dict[str, Any] = result["report"]
        name = "report.json"
        if redact:
            redact_report(report)
            name = "report.redacted.json"
        body = json.dumps(report, ensure_ascii=False, indent=2, default=str) + "\n"
        return Response(
            body.encode("utf-8"),
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    async def inspect(request: Request) -> Response:
        provider = request.query_params.get("provider", "auto") or "auto"
        framing = request.query_params.get("framing", "auto") or "auto"
        try:
            entry = _entry_param(request)
        except UsageError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return await queued(request, lambda data: inspect_job(data, provider, framing, entry))

    async def report(request: Request) -> Response:
        provider = request.query_params.get("provider", "auto") or "auto"
        framing = request.query_params.get("framing", "auto") or "auto"
        redact = request.query_params.get("redact") == "1"
        try:
            entry = _entry_param(request)
        except UsageError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return await queued(
            request, lambda data: report_job(data, provider, framing, entry, redact)
        )

    def ssecap_job(data: bytes, entry: int | None) -> Response:
        try:
            capture = build_capture(data, entry=entry)
        except UsageError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return Response(
            capture,
            media_type="application/x-ndjson",
            headers={"content-disposition": 'attachment; filename="stream.ssecap"'},
        )

    async def ssecap(request: Request) -> Response:
        try:
            entry = _entry_param(request)
        except UsageError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return await queued(request, lambda data: ssecap_job(data, entry))

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

    routes = [
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/inspect", inspect, methods=["POST"]),
        Route("/api/report", report, methods=["POST"]),
        Route("/api/ssecap", ssecap, methods=["POST"]),
        Route("/api/examples", examples),
        Route("/api/examples/{name}", example),
        # the Live view of `ssescope proxy` (web/live.py)
        *live_routes(live_dir),
    ]
    return guarded_app(routes, allowed_hosts, CSP, _foreign)

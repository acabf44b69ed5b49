"""The forwarding ASGI app: each request goes to its upstream, each response comes back
untouched and unbuffered.

The hot path per chunk is: read from the upstream, hand it to the client, queue a copy for
the recorder (:mod:`ssescope.proxy.recorder`). Nothing on it parses. Headers follow
:mod:`ssescope.proxy.headers`; the body bytes, ``Content-Encoding`` and ``Content-Length``
are the upstream's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import ssl
import time as _time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson

from .. import codes
from ..containers.capture import EndReason
from ..containers.redact import redact_url, scrub, secret_values
from ..diagnostics import diagnostic
from ..serve.ws_app import quiet_denied_upgrades
from .exchange import Exchange, Registry
from .headers import forward_headers, header, is_stream, redact_pairs, request_ids
from .recorder import Recorder
from .upload import DISCONNECT, ClientGone, ClientIdle, Upload
from .ws_forward import relay_websocket, ws_ssl_context

__all__ = ["ProxyApp", "ProxyOptions", "UpstreamBroke", "make_client", "quiet_upstream_breaks"]


class UpstreamBroke(Exception):
    """The upstream connection failed mid-body; the client's connection is dropped too."""


@dataclass
class ProxyOptions:
    """Where to forward and how long to wait for an upstream that keeps a stream open.

    Attributes:
        upstream: the default upstream base URL (``https://api.openai.com``).
        routes: ``(path prefix, upstream base URL)`` pairs; the longest matching prefix
            wins. The path is forwarded whole (the prefix is not removed).
        finish_grace: seconds the proxy keeps reading after the terminal marker before it
            closes an upstream that keeps the connection open (``stream.open-after-finish``).
        idle_timeout: the longest the proxy waits for the next piece of a request body
            (408 beyond; ``None``: no limit).
    """

    upstream: str
    routes: list[tuple[str, str]] = field(default_factory=list)
    finish_grace: float = 5.0
    idle_timeout: float | None = 60.0

    def target(self, path: str) -> str:
        """The upstream base URL for ``path``."""
        best = ("", self.upstream)
        for prefix, url in self.routes:
            if path.startswith(prefix) and len(prefix) > len(best[0]):
                best = (prefix, url)
        return best[1]


def make_client(verify: ssl.SSLContext | str | bool = True) -> httpx.AsyncClient:
    """The one pooled upstream client: HTTP/2 when ``h2`` is installed, no read timeout.

    It adds no header of its own (no ``User-Agent`` or ``Accept-Encoding``): the
    request goes out with the app's headers only. HTTP/2 is agreed with an ``https``
    upstream during the TLS handshake (ALPN); a plain ``http`` upstream gets HTTP/1.1.

    Args:
        verify: how upstream certificates are checked (httpx's ``verify``: the default CA
            bundle, a bundle's path or an ``ssl.SSLContext``).
    """
    http2 = importlib.util.find_spec("h2") is not None
    client = httpx.AsyncClient(
        http2=http2,
        verify=verify,
        timeout=httpx.Timeout(connect=30.0, read=None, write=60.0, pool=60.0),
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=64),
        follow_redirects=False,
        trust_env=False,
    )
    client.headers.clear()
    return client


def quiet_upstream_breaks() -> None:
    """Keep uvicorn from printing a traceback for a connection dropped on purpose."""

    class _Filter(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            exc = record.exc_info[1] if record.exc_info else None
            return not isinstance(exc, UpstreamBroke)

    logging.getLogger("uvicorn.error").addFilter(_Filter())
    quiet_denied_upgrades()


def _pairs(raw: list[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in raw]


def _raw(pairs: list[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in pairs]


async def _error_answer(send: Any, status: int, message: str, *, close: bool = False) -> None:
    """The proxy's own answer, in the providers' error shape (so that an SDK shows it)."""
    payload = orjson.dumps({"error": {"type": "proxy_error", "message": message}})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


class ProxyApp:
    """The ASGI app: forward, tee to the recorder, never buffer.

    Args:
        options: upstreams and routes.
        recorder: where copies of the chunks go.
        client: the pooled upstream client (default: :func:`make_client`).
        ws_ssl: the TLS context of ``wss`` upstreams (default: the default CA bundle; see
            :func:`~ssescope.proxy.ws_forward.ws_ssl_context`).

    A WebSocket upgrade is relayed by :mod:`ssescope.proxy.ws_forward`.
    """

    def __init__(
        self,
        options: ProxyOptions,
        recorder: Recorder,
        client: httpx.AsyncClient | None = None,
        ws_ssl: ssl.SSLContext | None = None,
    ) -> None:
        self.options = options
        self.recorder = recorder
        self.registry: Registry = recorder.registry
        self.client = client if client is not None else make_client()
        self.ws_ssl = ws_ssl if ws_ssl is not None else ws_ssl_context(True)

    async def aclose(self) -> None:
        """Close the upstream client's pooled connections."""
        await self.client.aclose()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] == "websocket":
            await relay_websocket(self, scope, receive, send)
            return
        if scope["type"] != "http":
            return
        await self._exchange(scope, receive, send)

    async def _exchange(self, scope: Any, receive: Any, send: Any) -> None:
        method: str = scope["method"]
        path: str = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        query = scope.get("query_string", b"").decode("latin-1")
        full = path + (f"?{query}" if query else "")
        base = self.options.target(scope["path"])
        url = base.rstrip("/") + full
        ex = self.registry.new(method, redact_url(full), redact_url(url))
        headers_in = _pairs(scope.get("headers", []))
        # the request's credentials: an upstream that repeats one has it scrubbed from the
        # capture, the verdict and every message (kept in memory only)
        ex.secrets = secret_values(headers_in, url)
        ex.request_headers = redact_pairs(forward_headers(headers_in))
        upload = Upload(receive, idle=self.options.idle_timeout)
        ctype = header(headers_in, "content-type")
        drop = ["host", "expect"]  # (no 100-continue dance with the upstream)
        try:
            content = await upload.start()
            if isinstance(content, bytes):
                drop.append("content-length")  # set again by the client, the same
            # otherwise the body streams through, with the client's own framing: its
            # Content-Length, or chunked without one
            fwd = forward_headers(headers_in, drop=drop)
            request = self.client.build_request(method, url, headers=fwd, content=content)
            response = await self.client.send(request, stream=True)
        except (ClientGone, ClientIdle) as exc:
            self._note_request(ex, upload, ctype)
            await self._client_failed(ex, send, exc)
            return
        except (httpx.HTTPError, httpx.InvalidURL, ValueError) as exc:
            self._note_request(ex, upload, ctype)
            await self._bad_gateway(ex, send, base, exc)
            return
        self._note_request(ex, upload, ctype)
        try:
            await self._relay(ex, response, receive, send)
        finally:
            await response.aclose()

    @staticmethod
    def _note_request(ex: Exchange, upload: Upload, ctype: str | None) -> None:
        ex.request_bytes = upload.size
        ex.request_body = upload.recorded(ctype)
        if isinstance(ex.request_body, dict) and isinstance(ex.request_body.get("model"), str):
            ex.model = ex.request_body["model"]

    async def _client_failed(self, ex: Exchange, send: Any, exc: ClientGone | ClientIdle) -> None:
        """The client hung up, or stopped sending, in the middle of its request."""
        ex.error = str(exc)
        if isinstance(exc, ClientIdle):
            ex.status = 408
            with contextlib.suppress(Exception):  # (it may have gone meanwhile)
                await _error_answer(send, 408, f"ssescope proxy: {exc}", close=True)
        self.recorder.end(ex, "cancelled", ex.elapsed())

    async def _bad_gateway(self, ex: Exchange, send: Any, base: str, exc: Exception) -> None:
        reason = scrub(f"{type(exc).__name__}: {exc}", ex.secrets)
        message = f"ssescope proxy: cannot reach {redact_url(base)}: {reason}"
        ex.error = message
        ex.status = 502
        await _error_answer(send, 502, message)
        self.recorder.end(ex, "error", ex.elapsed())

    async def _relay(self, ex: Exchange, response: httpx.Response, receive: Any, send: Any) -> None:
        raw_headers = _pairs(list(response.headers.raw))
        # Transfer-Encoding is hop-by-hop, so a Content-Length (true: the body goes out
        # exactly as it came) is never sent beside it
        out_headers = forward_headers(raw_headers)
        ex.status = response.status_code
        ex.upstream_http = response.http_version
        ex.response_headers = out_headers
        ex.stream = is_stream(raw_headers)
        ex.content_type = header(raw_headers, "content-type")
        ex.request_ids = request_ids(raw_headers)
        self.recorder.start(ex)
        await send(
            {"type": "http.response.start", "status": ex.status, "headers": _raw(out_headers)}
        )
        end: EndReason = "error"
        stop: list[str] = []  # why the guard stopped the pump, if it did
        task = asyncio.current_task()
        assert task is not None
        guard = asyncio.ensure_future(self._guard(ex, receive, task, stop))
        try:
            end = await self._pump(ex, response.aiter_raw(), send)
        except asyncio.CancelledError:
            if not stop:
                end = "cancelled"
                raise  # the server is shutting down
            if hasattr(task, "uncancel"):
                task.uncancel()
            if stop[0] == "finished":
                end = "eof"
                # (unless the pump was stopped while already ending the response)
                with contextlib.suppress(RuntimeError):
                    await send({"type": "http.response.body", "body": b""})
            else:
                end = "cancelled"
        finally:
            guard.cancel()
            self.recorder.end(ex, end, ex.elapsed())

    async def _pump(self, ex: Exchange, chunks: AsyncIterator[bytes], send: Any) -> EndReason:
        # the hot path: a plain read, the hand-over to the client, a queued copy
        recorder = self.recorder
        start = ex.start
        try:
            async for data in chunks:
                t = _time.monotonic() - start
                await send({"type": "http.response.body", "body": data, "more_body": True})
                ex.wire_bytes += len(data)
                ex.chunks += 1
                recorder.chunk(ex, data, t)
                if recorder.backlog > recorder.limit:
                    await recorder.wait_below_limit()
        except httpx.HTTPError as exc:
            self._connection_error(ex, exc)
            raise UpstreamBroke(str(exc)) from exc
        await send({"type": "http.response.body", "body": b""})
        return "eof"

    async def _guard(
        self, ex: Exchange, receive: Any, pump: asyncio.Task[Any], stop: list[str]
    ) -> None:
        """Stop the pump when the client hangs up, or when the upstream stays open
        ``finish_grace`` seconds after the terminal marker."""
        grace = self.options.finish_grace
        watch = asyncio.ensure_future(receive())
        try:
            while True:
                done, _ = await asyncio.wait((watch,), timeout=min(grace, 0.25))
                if done:
                    if watch.result().get("type") != DISCONNECT:
                        watch = asyncio.ensure_future(receive())
                        continue
                    ex.end = "cancelled"
                    stop.append("cancelled")
                    pump.cancel()
                    return
                if (
                    ex.terminal_s is not None
                    and ex.last_byte_s is not None
                    and _time.monotonic() - ex.start - ex.last_byte_s >= grace
                ):
                    self._open_after_finish(ex, grace)
                    stop.append("finished")
                    pump.cancel()
                    return
        finally:
            watch.cancel()

    def _open_after_finish(self, ex: Exchange, grace: float) -> None:
        self.recorder.diagnostic(
            ex,
            diagnostic(codes.STREAM_OPEN_AFTER_FINISH, form="proxy", wait=f"{grace:g} s"),
        )

    def _connection_error(self, ex: Exchange, exc: Exception) -> None:
        text = scrub(str(exc), ex.secrets)
        ex.error = f"{type(exc).__name__}: {text}"
        self.recorder.diagnostic(
            ex,
            diagnostic(
                codes.STREAM_CONNECTION_ERROR,
                form="proxy",
                bytes_seen=ex.wire_bytes,
                name=type(exc).__name__,
                exc=text,
            ),
        )

"""WebSocket upgrades through the proxy: both directions relayed message by message.

The client's upgrade request is repeated to the upstream (``ws://`` for an ``http``
upstream, ``wss://`` for ``https``) with the client's headers and subprotocols, by the
``websockets`` client; the upstream's choice of subprotocol and its headers go back in the
client's handshake. Then each message is handed on as it arrives, in both directions,
and a copy goes to the recorder (:meth:`~ssescope.proxy.recorder.Recorder.message`),
which writes the ``.ssecap`` WebSocket form and judges the server's messages with the
Pipeline. Nothing on the hot path parses.

How one side ended is passed to the other: a close frame's code and reason, or a drop
(no close frame) as a drop. An upstream that refuses the upgrade has its HTTP answer
passed back as it is (and judged like an HTTP error); one that cannot be reached gets the
proxy's 502. Pings and pongs are answered on each leg, not relayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time as _time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import orjson

from ..containers.redact import redact_url, redact_ws_pairs, scrub, secret_values
from .exchange import Exchange
from .headers import forward_headers, request_ids
from .ws_record import SocketClose

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

    from .forward import ProxyApp

__all__ = [
    "HANDSHAKE_HEADERS",
    "SECRET_SUBPROTOCOLS",
    "SENDABLE",
    "relay_websocket",
    "subprotocol_secrets",
    "ws_ssl_context",
    "ws_url",
]

HANDSHAKE_HEADERS = frozenset(
    {
        "host",
        "sec-websocket-key",
        "sec-websocket-version",
        "sec-websocket-extensions",
        "sec-websocket-protocol",
        "sec-websocket-accept",
        "content-length",
    }
)
"""Headers of one leg's handshake, made anew on the other leg (never copied across)."""

MAX_MESSAGE = 64 * 1024 * 1024
"""The largest message taken from the upstream (64 MiB): a bigger one closes with 1009."""

_CLIENT_CLOSE_WAIT = 1.0
"""Seconds to wait for the client's close frame once a send found the client gone."""


def sendable(code: int | None) -> bool:
    """Whether a close frame may carry ``code`` (1005 and 1006 only say what happened)."""
    return code is not None and (code in SENDABLE or 3000 <= code < 5000)


SENDABLE = frozenset({1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014})
"""The close codes below 3000 that a close frame may carry."""


SECRET_SUBPROTOCOLS = ("openai-insecure-api-key.", "openai-organization.", "openai-project.")
"""Subprotocol prefixes a browser client carries a credential or an account id behind
(it cannot set an ``Authorization`` header on a WebSocket)."""


def subprotocol_secrets(subprotocols: Iterable[str]) -> list[str]:
    """The credentials and account ids offered as subprotocols (``openai-insecure-api-key.sk-…``):
    scrubbed from the recorded handshake and from every message, as a key header is."""
    return [
        token[len(prefix) :]
        for token in subprotocols
        for prefix in SECRET_SUBPROTOCOLS
        if token.startswith(prefix) and len(token) > len(prefix)
    ]


def ws_url(base: str, path: str) -> str:
    """The upstream WebSocket URL: ``base`` (``http(s)://…`` or ``ws(s)://…``) + ``path``."""
    url = base.rstrip("/") + path
    if url.startswith("https://"):
        return "wss://" + url[len("https://") :]
    if url.startswith("http://"):
        return "ws://" + url[len("http://") :]
    return url


def ws_ssl_context(verify: ssl.SSLContext | str | bool) -> ssl.SSLContext:
    """The TLS context of ``wss`` upstreams, from the proxy's ``verify`` setting (as for
    HTTP: the default CA bundle, a bundle's path, a context, or ``False``: no checks)."""
    if isinstance(verify, ssl.SSLContext):
        return verify
    if isinstance(verify, str):
        return ssl.create_default_context(cafile=verify)
    ctx = ssl.create_default_context()
    if verify is False:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def _pairs(raw: Iterable[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in raw]


async def _deny(send: Any, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
    """Answer the upgrade with a plain HTTP response (the ASGI denial extension)."""
    await send(
        {
            "type": "websocket.http.response.start",
            "status": status,
            "headers": [
                (k.encode("latin-1"), v.encode("latin-1"))
                for k, v in headers
                if k.lower() not in ("content-length", "transfer-encoding", "connection")
            ]
            + [(b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "websocket.http.response.body", "body": body})


async def relay_websocket(app: ProxyApp, scope: Any, receive: Any, send: Any) -> None:
    """Relay one WebSocket connection between the client and its upstream, recorded."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus, WebSocketException

    first = await receive()
    if first.get("type") != "websocket.connect":
        return
    path: str = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
    query = scope.get("query_string", b"").decode("latin-1")
    full = path + (f"?{query}" if query else "")
    base = app.options.target(scope["path"])
    url = ws_url(base, full)
    ex = app.registry.new("GET", redact_url(full), redact_url(url))
    ex.transport = "websocket"
    headers_in = _pairs(scope.get("headers", []))
    subprotocols = list(scope.get("subprotocols") or [])
    ex.secrets = secret_values(headers_in, url) + subprotocol_secrets(subprotocols)
    fwd = forward_headers(headers_in, drop=HANDSHAKE_HEADERS)
    recorded = forward_headers(headers_in, drop=("sec-websocket-key",))
    ex.request_headers = redact_ws_pairs([(k, scrub(v, ex.secrets)) for k, v in recorded])
    try:
        upstream = await connect(
            url,
            additional_headers=fwd,
            subprotocols=subprotocols or None,
            compression=None,
            user_agent_header=None,
            proxy=None,
            open_timeout=30,
            max_size=MAX_MESSAGE,
            ssl=app.ws_ssl if url.startswith("wss://") else None,
        )
    except InvalidStatus as exc:
        await _refused(app, ex, send, exc)
        return
    except (OSError, TimeoutError, WebSocketException, ValueError) as exc:
        reason = scrub(f"{type(exc).__name__}: {exc}", ex.secrets)
        message = f"ssescope proxy: cannot reach {redact_url(base)}: {reason}"
        ex.error = message
        ex.status = 502
        body = orjson.dumps({"error": {"type": "proxy_error", "message": message}})
        with contextlib.suppress(Exception):  # (the client may have gone meanwhile)
            await _deny(send, 502, [("content-type", "application/json")], body)
        app.recorder.end(ex, "error", ex.elapsed())
        return
    await _relay(app, ex, upstream, receive, send)


async def _refused(app: ProxyApp, ex: Exchange, send: Any, exc: Any) -> None:
    """The upstream answered the upgrade with an HTTP status: pass it on, judge it."""
    response = exc.response
    headers = [(str(k), str(v)) for k, v in response.headers.raw_items()]
    body = bytes(response.body or b"")
    ex.status = response.status_code
    ex.response_headers = forward_headers(headers)
    ex.content_type = next((v for k, v in headers if k.lower() == "content-type"), None)
    ex.request_ids = request_ids(headers)
    ex.upstream_http = "1.1"
    app.recorder.start(ex)
    with contextlib.suppress(Exception):
        await _deny(send, ex.status, ex.response_headers, body)
    if body:
        ex.wire_bytes += len(body)
        ex.chunks += 1
        app.recorder.chunk(ex, body, ex.elapsed())
    app.recorder.end(ex, "eof", ex.elapsed())


async def _relay(
    app: ProxyApp, ex: Exchange, upstream: ClientConnection, receive: Any, send: Any
) -> None:
    response = upstream.response
    assert response is not None
    out_headers = forward_headers(
        [(str(k), str(v)) for k, v in response.headers.raw_items()], drop=HANDSHAKE_HEADERS
    )
    ex.status = 101
    ex.upstream_http = "1.1"
    ex.stream = True
    ex.response_headers = [(str(k), str(v)) for k, v in response.headers.raw_items()]
    ex.request_ids = request_ids(ex.response_headers)
    recorder = app.recorder
    recorder.open_socket(ex)
    accept: dict[str, Any] = {
        "type": "websocket.accept",
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in out_headers],
    }
    if upstream.subprotocol is not None:
        accept["subprotocol"] = upstream.subprotocol
    ends: list[SocketClose] = []
    try:
        await send(accept)
    except OSError:  # the client left during the handshake
        ends.append(SocketClose("client", None, "", True))
    end = SocketClose("proxy", 1001, "going away", False)  # (unless a side ends first)
    tasks: list[asyncio.Task[None]] = []
    try:
        if not ends:
            from_client = asyncio.ensure_future(_from_client(ex, upstream, receive, recorder, ends))
            tasks = [
                from_client,
                asyncio.ensure_future(_from_upstream(ex, upstream, send, recorder, ends)),
            ]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if not ends and not from_client.done():
                # The upstream's pump found the client gone while it handed a message on:
                # the client's own pump is about to read how (its close frame's code and
                # reason, or a drop), which the race must not lose.
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(asyncio.shield(from_client), _CLIENT_CLOSE_WAIT)
                if not ends:
                    ends.append(SocketClose("client", None, "", True))
        end = ends[0] if ends else end
        if end.by == "client":
            await _close_upstream(upstream, end)
        else:
            await _close_client(send, end)
    finally:
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(upstream.close(1001), 1.0)  # (closed already, mostly)
        recorder.close_socket(ex, end, ex.elapsed())


async def _close_upstream(upstream: ClientConnection, end: SocketClose) -> None:
    """Pass the client's close (or drop) on to the upstream."""
    if end.dropped:
        upstream.transport.abort()
        return
    with contextlib.suppress(Exception):
        if sendable(end.code):
            await asyncio.wait_for(upstream.close(end.code or 1000, end.reason), 5.0)
        else:
            await asyncio.wait_for(upstream.close(), 5.0)


async def _close_client(send: Any, end: SocketClose) -> None:
    """Pass the upstream's close on to the client; a drop drops the client too (the ASGI
    app returns without a close frame, and the server cuts the connection)."""
    if end.dropped:
        return
    code = end.code if sendable(end.code) else 1000
    with contextlib.suppress(Exception):
        await send({"type": "websocket.close", "code": code, "reason": end.reason})


async def _from_client(
    ex: Exchange, upstream: ClientConnection, receive: Any, recorder: Any, ends: list[SocketClose]
) -> None:
    from websockets.exceptions import ConnectionClosed

    start = ex.start
    while True:
        message = await receive()
        kind = message["type"]
        if kind == "websocket.disconnect":
            code = message.get("code")
            dropped = code == 1006
            reason = "" if dropped else str(message.get("reason") or "")
            ends.append(SocketClose("client", None if code == 1005 else code, reason, dropped))
            return
        if kind != "websocket.receive":
            continue
        t = _time.monotonic() - start
        text = message.get("text")
        try:
            if text is not None:
                await upstream.send(text)
                recorder.message(ex, "send", "text", text.encode("utf-8", "surrogatepass"), t)
            else:
                data = message.get("bytes") or b""
                await upstream.send(data)
                recorder.message(ex, "send", "binary", data, t)
        except ConnectionClosed:
            return  # (the upstream's own pump says how it ended)


async def _from_upstream(
    ex: Exchange, upstream: ClientConnection, send: Any, recorder: Any, ends: list[SocketClose]
) -> None:
    from websockets.exceptions import ConnectionClosed

    start = ex.start
    try:
        while True:
            data = await upstream.recv()
            t = _time.monotonic() - start
            text = isinstance(data, str)
            out = {"type": "websocket.send", "text" if text else "bytes": data}
            raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
            ex.wire_bytes += len(raw)
            ex.chunks += 1
            try:
                await send(out)
            finally:  # (recorded as received, even when the client could not take it)
                recorder.message(ex, "receive", "text" if text else "binary", raw, t)
            if recorder.backlog > recorder.limit:
                await recorder.wait_below_limit()
    except ConnectionClosed:
        pass
    except OSError:  # the client went while a message was handed on (_relay asks how)
        return
    rcvd = upstream.protocol.close_rcvd
    if rcvd is None:
        ends.append(SocketClose("server", None, "", True))
    else:
        code = None if rcvd.code == 1005 else int(rcvd.code)
        ends.append(SocketClose("server", code, rcvd.reason, False))

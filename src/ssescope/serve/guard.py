"""The ASGI guard the local servers (``serve``, ``web`` and ``proxy``) run behind.

* Every answer carries security headers, a Content-Security-Policy first: refusals and
  errors included (the proxy, which adds nothing to what it forwards, puts them on its
  own refusals and errors only).
* The ``Host`` header must name an address the server answers to (421 otherwise): a page
  on another site that rebinds its DNS name to 127.0.0.1 sends its own name, and is
  refused (DNS rebinding).
* An optional ``refuse`` hook turns other requests away: the web page and the proxy refuse
  requests sent by other pages (:func:`foreign_request`).
* An exception the app did not answer becomes a 500 with the same headers (Starlette's
  own error page would carry none).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import KW_ONLY, dataclass

from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "LOOPBACK_HOSTS",
    "HostGuard",
    "foreign_request",
    "guarded_app",
    "header",
    "host_name",
    "security_headers",
]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""The names a server bound to loopback answers to."""


def security_headers(csp: str) -> list[tuple[bytes, bytes]]:
    """The headers every answer carries: ``csp``, no sniffing, no framing, no caching."""
    return [
        (b"content-security-policy", csp.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cache-control", b"no-store"),
    ]


def host_name(host: str) -> str:
    """The lower-case name part of a ``Host`` header value (``[::1]:8765`` gives ``::1``)."""
    if host.startswith("["):
        return host[1:].split("]", 1)[0].lower()
    return (host.rsplit(":", 1)[0] if host.count(":") == 1 else host).lower()


def header(scope: Scope, name: bytes) -> str | None:
    """The value of the request header ``name`` (lower-case bytes), or ``None``."""
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def foreign_request(
    scope: Scope, *, origins: frozenset[str] = frozenset(), navigation: bool = False
) -> str | None:
    """Why a request was sent by another web page, or ``None`` if it was not.

    A browser marks who sent a request: an ``Origin`` that is not the server's own
    (``http://`` and the ``Host`` header) nor one of ``origins``, or a ``Sec-Fetch-Site``
    of ``cross-site`` or ``same-site`` (a page on another port of localhost is
    same-site), is another page's. Requests without these headers (curl, scripts, SDKs)
    are not a browser acting for some page.

    Args:
        scope: the request.
        origins: other origins allowed to send requests (``http://localhost:3000``).
        navigation: let a top-level ``GET /`` navigation (following a link to the page)
            come from elsewhere.
    """
    host = header(scope, b"host") or ""
    origin = header(scope, b"origin")
    if origin is not None and origin != f"http://{host}" and origin not in origins:
        return "its Origin is another site"
    site = header(scope, b"sec-fetch-site")
    if site is None or site in ("same-origin", "none") or origin in origins:
        return None
    if (
        navigation
        and scope.get("method") == "GET"
        and scope.get("path") == "/"
        and header(scope, b"sec-fetch-mode") == "navigate"
        and header(scope, b"sec-fetch-dest") == "document"
    ):
        return None
    return f"it was sent by a {site} page"


@dataclass(eq=False)  # an app, compared by identity like any other
class HostGuard:
    """ASGI middleware: security headers, the Host check, a refusal hook, a safe 500.

    Args:
        app: the app behind the guard.
        allowed_hosts: the names the ``Host`` header may carry (``None``: no check).
        csp: the Content-Security-Policy of every answer.
        refuse: called with the scope of each request; an answer it returns is sent
            instead of the app's.
        decorate: add the security headers to the app's answers too (``False`` for the
            proxy: its answers are the upstream's, untouched).
    """

    app: ASGIApp
    allowed_hosts: frozenset[str] | None
    csp: str
    refuse: Callable[[Scope], Response | None] | None = None
    _: KW_ONLY
    decorate: bool = True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                started = True
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                headers += [h for h in security_headers(self.csp) if h[0] not in names]
                message["headers"] = headers
            await send(message)

        refusal = self._refusal(scope)
        if refusal is not None:
            # (a WebSocket upgrade is refused with the same HTTP answer, before any accept)
            await refusal(scope, receive, send_with_headers)
            return
        if scope["type"] == "websocket":  # the app answers the upgrade itself
            await self.app(scope, receive, send)
            return
        if self.decorate:
            app_send = send_with_headers
        else:

            async def app_send(message: Message) -> None:
                nonlocal started
                started = started or message["type"] == "http.response.start"
                await send(message)

        try:
            await self.app(scope, receive, app_send)
        except Exception as exc:
            if started:
                raise
            error = f"The server failed on this request: {type(exc).__name__}."
            await JSONResponse({"error": error}, status_code=500)(scope, receive, send_with_headers)

    def _refusal(self, scope: Scope) -> Response | None:
        if self.allowed_hosts is not None:
            name = host_name(header(scope, b"host") or "")
            if name not in self.allowed_hosts:
                hosts = ", ".join(sorted(self.allowed_hosts))
                return JSONResponse(
                    {"error": f"This server only answers requests addressed to {hosts}."},
                    status_code=421,
                )
        return self.refuse(scope) if self.refuse is not None else None


def guarded_app(
    routes: Sequence[BaseRoute],
    allowed_hosts: Iterable[str] | None,
    csp: str,
    refuse: Callable[[Scope], Response | None] | None = None,
) -> Starlette:
    """An app of ``routes`` behind a :class:`HostGuard` (``serve``, ``web``).

    ``allowed_hosts``: the names the ``Host`` header may carry; ``None`` for the loopback
    names, empty for no check.
    """
    names = LOOPBACK_HOSTS if allowed_hosts is None else tuple(allowed_hosts)
    app = Starlette(routes=list(routes))
    app.add_middleware(
        HostGuard,
        allowed_hosts=frozenset(h.lower() for h in names) if names else None,
        csp=csp,
        refuse=refuse,
    )
    return app

"""Who may send requests through the proxy: the guard of ``serve`` and ``web``, for a proxy.

A web page open in the browser can send requests to ``127.0.0.1`` (a form post, a
``fetch`` in ``no-cors`` mode) and, by rebinding its own DNS name to ``127.0.0.1``, read
the answers. The proxy therefore answers only requests addressed to it (the ``Host``
header names a loopback name, the address it was bound to, or an ``--allow-host`` name:
421 otherwise) and not sent by another web page (an ``Origin`` or ``Sec-Fetch-Site``
header saying so, unless the origin was allowed with ``--allow-origin``: 403). SDKs,
curl and scripts send neither header and are served.

It runs behind :class:`~ssescope.serve.guard.HostGuard` without decoration: the
forwarded answers stay the upstream's, byte for byte; only the guard's own refusals and
errors carry the security headers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import orjson
from starlette.responses import Response
from starlette.types import ASGIApp, Scope

from ..serve.guard import LOOPBACK_HOSTS, HostGuard, foreign_request, header, host_name

__all__ = ["CSP", "ProxyGuard", "guarded"]

CSP = "default-src 'none'; sandbox"
"""The Content-Security-Policy of the proxy's own refusals and errors."""


def _refusal(status: int, message: str) -> Response:
    # the shape of the providers' own errors, so that an SDK shows the message
    body = orjson.dumps({"error": {"type": "proxy_error", "message": message}})
    return Response(body, status_code=status, media_type="application/json")


class ProxyGuard:
    """The refusal hook: the Host check, then the check that no other page sent it.

    Args:
        hosts: the names the ``Host`` header may carry (the loopback names by default).
        origins: origins whose pages may send requests (``http://localhost:3000``).
        on_refusal: called with ``(method, path, status, why)`` for each refusal (the
            command prints a line).
    """

    def __init__(
        self,
        hosts: Iterable[str] | None = None,
        origins: Iterable[str] = (),
        on_refusal: Callable[[str, str, int, str], None] | None = None,
    ) -> None:
        self.hosts = frozenset(h.lower() for h in (LOOPBACK_HOSTS if hosts is None else hosts))
        self.origins = frozenset(o.rstrip("/") for o in origins)
        self.on_refusal = on_refusal

    def __call__(self, scope: Scope) -> Response | None:
        name = host_name(header(scope, b"host") or "")
        if name not in self.hosts:
            why = (
                f"the Host header names {name!r}, not this proxy "
                f"(--allow-host {name or 'NAME'} accepts it)"
            )
            return self._refuse(scope, 421, why)
        foreign = foreign_request(scope, origins=self.origins)
        if foreign is not None:
            origin = header(scope, b"origin")
            hint = f" (--allow-origin {origin} accepts it)" if origin else ""
            return self._refuse(scope, 403, f"{foreign}{hint}")
        return None

    def _refuse(self, scope: Scope, status: int, why: str) -> Response:
        method = str(scope.get("method") or ("WS" if scope.get("type") == "websocket" else ""))
        raw = scope.get("raw_path") or str(scope.get("path", "")).encode()
        path = raw.decode("latin-1")
        if self.on_refusal is not None:
            self.on_refusal(method, path, status, why)
        return _refusal(status, f"ssescope proxy: refused: {why}.")


def guarded(app: ASGIApp, guard: ProxyGuard) -> ASGIApp:
    """``app`` behind ``guard``, with the security headers on the guard's own answers only."""
    return HostGuard(app, None, CSP, refuse=guard, decorate=False)

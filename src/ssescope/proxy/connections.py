"""The servers' connections: a deadline for each request head, and a limit on how many.

uvicorn waits for a request head as long as the client likes: a thousand connections that
each send half a request line hold every file descriptor the process may open, and
nobody else gets in. The proxy's servers, ``web`` and ``serve`` therefore run on
:func:`guarded_protocol` (:func:`uvicorn_limits`), an
HTTP/1.1 protocol (uvicorn's own, on h11) that

* closes a connection that has not sent a whole request head ``header_timeout`` seconds
  after it opened or after its previous answer ended (with a 408 if it had started one);
* answers 503 and closes at once a connection beyond ``max_connections``, so that the
  descriptors stay free for the upstream connections and the captures;
* accepts at most :attr:`ServerLimits.backlog` connections at a time (asyncio accepts
  a whole backlog in one go before any is refused: a burst must never take the last
  descriptors, since asyncio then retries ``accept()`` in a busy loop).

A kept-alive connection with no new request is closed after ``keep_alive`` seconds
(uvicorn's own timer); a request body that stops arriving is the app's to time out
(``ProxyOptions.idle_timeout``).
"""

from __future__ import annotations

import resource
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ServerLimits",
    "default_max_connections",
    "guarded_protocol",
    "quiet_descriptor_errors",
    "uvicorn_limits",
]

_PER_EXCHANGE = 3  # descriptors one exchange may hold: the client, the upstream, its capture
_RESERVED = 32  # for the rest of the process: listening sockets, the index, threads, …


def default_max_connections() -> int:
    """What the open-file limit allows: a third of it, less a reserve (330 for 1024)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 65536
    return max(8, min(4096, (soft - _RESERVED) // _PER_EXCHANGE))


@dataclass(frozen=True)
class ServerLimits:
    """How long a connection may take and how many may be open.

    Attributes:
        header_timeout: seconds to send a whole request head (``None``: no limit).
        keep_alive: seconds a kept-alive connection may wait for its next request.
        max_connections: connections open at once (``None``: what the open-file limit
            allows, :func:`default_max_connections`).
    """

    header_timeout: float | None = 10.0
    keep_alive: int = 5
    max_connections: int | None = field(default=None)

    @property
    def connections(self) -> int:
        """The connection limit in force."""
        if self.max_connections is not None:
            return self.max_connections
        return default_max_connections()

    @property
    def backlog(self) -> int:
        """How many connections are accepted at once (and wait in the kernel's queue)."""
        return max(4, min(128, self.connections // 2))


def _answer(status: bytes, message: str, extra: bytes = b"") -> bytes:
    body = b'{"error":{"type":"proxy_error","message":"ssescope proxy: ' + message.encode() + b'"}}'
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
        b"content-length: "
        + str(len(body)).encode()
        + b"\r\n"
        + extra
        + b"connection: close\r\n\r\n"
        + body
    )


def guarded_protocol(limits: ServerLimits) -> type[Any]:
    """The uvicorn protocol class (``uvicorn.Config(http=...)``) that enforces ``limits``."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    header_timeout = limits.header_timeout
    most = limits.connections
    busy = _answer(
        b"503 Service Unavailable",
        f"too many connections (the limit is {most}); try again in a moment",
        b"retry-after: 1\r\n",
    )
    late = _answer(
        b"408 Request Timeout",
        f"the request head did not arrive within {header_timeout:g} s" if header_timeout else "",
    )

    class GuardedH11Protocol(H11Protocol):
        _head_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if len(self.connections) > most:
                transport.write(busy)
                transport.close()
                return
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # the head is in (or the request broke)
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm()

        def _arm(self) -> None:
            self._disarm()
            if header_timeout is not None:
                self._head_timer = self.loop.call_later(header_timeout, self._head_late)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
                return
            if self.conn.trailing_data[0]:  # part of a head arrived: say why it is closed
                self.transport.write(late)
            self.transport.close()

    return GuardedH11Protocol


def uvicorn_limits(limits: ServerLimits) -> dict[str, Any]:
    """The ``uvicorn.Config`` arguments that hold a server to ``limits`` (the proxy's,
    and the standalone ``web`` and ``serve`` servers')."""
    return {
        "http": guarded_protocol(limits),
        "timeout_keep_alive": limits.keep_alive,
        "backlog": limits.backlog,
    }


def quiet_descriptor_errors(loop: Any, say: Any) -> None:
    """Replace asyncio's traceback per failed ``accept()`` (thousands a second when the
    process runs out of descriptors) by one line every 10 s, through ``say``."""
    import time

    last = [0.0]
    default = loop.get_exception_handler()

    def handler(loop: Any, context: dict[str, Any]) -> None:
        if context.get("message") == "socket.accept() out of system resource":
            now = time.monotonic()
            if now - last[0] >= 10:
                last[0] = now
                say(
                    f"ssescope proxy: out of file descriptors ({context.get('exception')}); "
                    "new connections wait until some close (see --max-connections)"
                )
            return
        if default is not None:
            default(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)

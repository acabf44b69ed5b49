"""Running the proxy: its uvicorn server (and the web page's, for ``--web``) in one loop.

:func:`serve` is what the CLI runs; :class:`ProxyThread` runs a proxy in a background
thread (tests, benchmarks, notebooks).
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..serve.app import bind
from ..serve.guard import LOOPBACK_HOSTS
from .connections import ServerLimits, quiet_descriptor_errors, uvicorn_limits
from .exchange import Exchange, Registry
from .forward import ProxyApp, ProxyOptions, make_client, quiet_upstream_breaks
from .guard import ProxyGuard, guarded
from .recorder import Recorder
from .ws_forward import ws_ssl_context

__all__ = ["ProxyThread", "serve", "server_config"]


def server_config(app: Any, limits: ServerLimits | None = None) -> Any:
    """The uvicorn config of a proxy or web server: quiet, adds no header of its own, and
    holds its connections to ``limits`` (:mod:`ssescope.proxy.connections`)."""
    import uvicorn

    limits = limits if limits is not None else ServerLimits()
    return uvicorn.Config(
        app,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
        server_header=False,
        date_header=False,
        **uvicorn_limits(limits),
    )


async def serve(
    app: ProxyApp,
    sock: socket.socket,
    *,
    web_app: Any = None,
    web_sock: socket.socket | None = None,
    started: threading.Event | None = None,
    servers: list[Any] | None = None,
    guard: ProxyGuard | None = None,
    limits: ServerLimits | None = None,
) -> None:
    """Serve the proxy (and the web page) until one server stops; then stop both.

    Args:
        app: the proxy.
        sock: its bound listening socket.
        web_app: the web page's app, served on ``web_sock`` from the same loop.
        started: set once every server listens.
        servers: filled with the uvicorn servers (so that a caller can stop them).
        guard: who may send requests (default: loopback names, no other web page).
        limits: the request-head deadline and the connection limit of both servers.
    """
    import uvicorn

    quiet_upstream_breaks()
    quiet_descriptor_errors(asyncio.get_running_loop(), lambda line: print(line, file=sys.stderr))
    front = guarded(app, guard if guard is not None else ProxyGuard())
    running = [uvicorn.Server(server_config(front, limits))]
    socks = [sock]
    if web_app is not None and web_sock is not None:
        running.append(uvicorn.Server(server_config(web_app, limits)))
        socks.append(web_sock)
    if servers is not None:
        servers.extend(running)
    tasks = [
        asyncio.ensure_future(s.serve(sockets=[k])) for s, k in zip(running, socks, strict=True)
    ]
    if started is not None:

        async def _tell() -> None:
            while not all(s.started for s in running):
                if any(t.done() for t in tasks):
                    return
                await asyncio.sleep(0.01)
            started.set()

        teller = asyncio.ensure_future(_tell())
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for s in running:
            s.should_exit = True
        await asyncio.gather(*tasks, return_exceptions=True)
        if started is not None:
            teller.cancel()
        await app.aclose()


class ProxyThread:
    """A proxy on a free loopback port, in a background thread.

    ::

        with ProxyThread("http://127.0.0.1:8765", record=tmp) as proxy:
            openai.OpenAI(base_url=proxy.url + "/v1", api_key=...)

    Args:
        upstream: the default upstream base URL.
        record: the capture directory (``None``: judge only).
        routes: ``(prefix, url)`` pairs.
        redact_content: hash the text in captures.
        finish_grace: see :class:`ProxyOptions`.
        web: also serve the web page with a Live view of ``record``.
        verify: how upstream certificates are checked (see :func:`make_client`).
        allow_hosts: more names the ``Host`` header may carry (besides the loopback ones).
        allow_origins: origins whose web pages may send requests through the proxy.
        limits: the request-head deadline and the connection limit.
        idle_timeout: see :class:`ProxyOptions`.
        on_report: see :class:`Recorder` (what ``--otel`` exports through).
        timing: see :class:`Recorder` (``--idle-threshold``).

    Attributes:
        refused: ``(method, path, status, why)`` of each request the guard refused.
    """

    def __init__(
        self,
        upstream: str,
        *,
        record: Path | None = None,
        routes: list[tuple[str, str]] | None = None,
        redact_content: bool = False,
        finish_grace: float = 5.0,
        web: bool = False,
        verify: ssl.SSLContext | str | bool = True,
        allow_hosts: tuple[str, ...] = (),
        allow_origins: tuple[str, ...] = (),
        limits: ServerLimits | None = None,
        idle_timeout: float | None = 60.0,
        on_report: Callable[[Exchange, Report], None] | None = None,
        timing: TimingOptions | None = None,
    ) -> None:
        self._limits = limits
        self.refused: list[tuple[str, str, int, str]] = []
        self._guard = ProxyGuard(
            (*LOOPBACK_HOSTS, *allow_hosts),
            allow_origins,
            lambda *refusal: self.refused.append(refusal),
        )
        self.registry = Registry()
        self._verify = verify
        self.recorder = Recorder(
            self.registry,
            record,
            timing=timing,
            redact_content=redact_content,
            on_report=on_report,
        )
        self.options = ProxyOptions(upstream, list(routes or []), finish_grace, idle_timeout)
        self._sock = bind("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}"
        self._web_sock: socket.socket | None = None
        self.web_url: str | None = None
        self._web = web
        if web:
            self._web_sock = bind("127.0.0.1", 0)
            self.web_url = f"http://127.0.0.1:{self._web_sock.getsockname()[1]}"
        self._servers: list[Any] = []
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._main, daemon=True)
        self.error: BaseException | None = None

    def _main(self) -> None:
        async def main() -> None:
            web_app = None
            if self._web:
                from ..web import create_app

                web_app = create_app(live_dir=self.recorder.directory)
            app = ProxyApp(
                self.options,
                self.recorder,
                make_client(self._verify),
                ws_ssl=ws_ssl_context(self._verify),
            )
            await serve(
                app,
                self._sock,
                web_app=web_app,
                web_sock=self._web_sock,
                started=self._started,
                servers=self._servers,
                guard=self._guard,
                limits=self._limits,
            )

        try:
            asyncio.run(main())
        except BaseException as exc:
            self.error = exc
            self._started.set()

    def __enter__(self) -> ProxyThread:
        self._thread.start()
        if not self._started.wait(10) or self.error is not None:
            raise RuntimeError(f"the proxy did not start: {self.error!r}")
        return self

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until no exchange is in flight and the recorder has caught up."""
        deadline = time.monotonic() + timeout
        while self.registry.active() and time.monotonic() < deadline:
            time.sleep(0.01)
        done = threading.Event()
        self.recorder.call(done.set)
        done.wait(max(0.0, deadline - time.monotonic()))

    def __exit__(self, *exc: object) -> None:
        for s in self._servers:
            s.should_exit = True
        self._thread.join(timeout=10)
        self.recorder.stop()
        self._sock.close()
        if self._web_sock is not None:
            self._web_sock.close()

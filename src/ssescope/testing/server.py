"""The ``ssescope_server`` fixture's object: one loopback replay server for a test session.

It is the project's replay server (:func:`ssescope.serve.app.make_app` run by
:class:`~ssescope.serve.app.ServerThread`); each :meth:`SSEScopeServer.url` call adds a
stream with its own chunking, delay, faults and quirks under a path of its own.
"""

from __future__ import annotations

import io
import itertools
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import UsageError
from ..examples import example_path
from ..serve.app import Capture, ReplayOptions, ServerThread, load_captures, make_app
from ..serve.faults import apply_faults, parse_fault, schedule
from ..serve.quirks import apply_quirks, parse_quirk
from ..serve.ws_app import SocketLog
from ..serve.ws_script import SocketScript
from .chunking import resolve
from .ws_served import ServedSocket

__all__ = ["SSEScopeServer", "ServedURL", "source_bytes"]


class ServedURL(str):
    """A base URL ``ssescope_server.url`` returned; a ``str`` that also knows what it serves.

    Attributes:
        body: the bytes a request to it is answered with (quirks and faults applied).
        status: the HTTP status it answers with when it is not a stream, else ``None``.
        name: the source it was made from.
    """

    body: bytes
    status: int | None
    name: str

    def __new__(cls, url: str, body: bytes, status: int | None, name: str) -> ServedURL:
        """Make the URL string carrying what it serves."""
        self = super().__new__(cls, url)
        self.body = body
        self.status = status
        self.name = name
        return self


def _capture(source: bytes | str | os.PathLike[str]) -> Capture:
    if isinstance(source, bytes | bytearray):
        return Capture("bytes", bytes(source))
    path = Path(source)
    if not path.exists():
        if isinstance(source, str) and os.sep not in source and "/" not in source:
            path = example_path(source)
        else:
            raise UsageError(f"no such file: {str(source)!r}")
    return next(iter(load_captures(path).values()))


def source_bytes(source: ServedURL | bytes | str | os.PathLike[str]) -> bytes:
    """The bytes a source stands for: what a served URL sends, bytes, a file's body (what
    the replay server would serve of it) or a bundled example's."""
    if isinstance(source, ServedURL):
        return source.body
    return _capture(source).body


class SSEScopeServer:
    """A replay server on 127.0.0.1 that serves any stream, for SDK clients to read.

    ::

        url = ssescope_server.url("openai-chat-tool-call", quirk="usage-only-chunk")
        client = openai.OpenAI(base_url=url, api_key="test")

    Use it as a context manager (the ``ssescope_server`` fixture does, once per session).
    """

    def __init__(self) -> None:
        self._captures: dict[str, Capture] = {}
        self._log = io.StringIO()
        self._thread = ServerThread(make_app(self._captures, log=self._log))
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.base: str = self._thread.url
        """The server's root URL, ``http://127.0.0.1:PORT``."""

    @property
    def requests(self) -> list[str]:
        """One line per request served so far (method, path, capture, faults)."""
        return self._log.getvalue().splitlines()

    def __enter__(self) -> SSEScopeServer:
        self._thread.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._thread.__exit__(*exc)

    def url(
        self,
        source: bytes | str | os.PathLike[str],
        *,
        fault: str | Sequence[str] = (),
        quirk: str | Sequence[str] = (),
        chunk: int | str = "original",
        delay: float | str = 0,
        path: str = "",
    ) -> ServedURL:
        """Serve ``source`` and return the base URL that answers every request with it.

        Args:
            source: the stream: a path (any capture ``ssescope serve`` reads), the body's
                bytes, or a bundled example's name (``ssescope examples``).
            fault: one fault spec or several (``ssescope serve --fault``).
            quirk: one quirk preset or several (``ssescope serve --list-quirks``).
            chunk: ``"original"`` (one read per record, or the capture's chunks), a size in
                bytes, ``"random:SEED"``, ``"whole"`` or ``"split-utf8"``
                (:data:`~ssescope.testing.CHUNKINGS`).
            delay: milliseconds between reads, or ``"original"`` (the capture's timing).
            path: appended to the URL (``"/v1"`` for a client that expects it).

        Raises:
            UsageError: an unknown source, a bad fault, quirk, chunk or delay, or a quirk
                that does not apply to this stream (one line saying why).
        """
        cap = _capture(source)
        faults = [parse_fault(f) for f in ([fault] if isinstance(fault, str) else fault)]
        quirks = [parse_quirk(q) for q in ([quirk] if isinstance(quirk, str) else quirk)]
        served = apply_quirks(cap.body, quirks)
        plan = apply_faults(served.body, faults)
        chunking, extra = resolve(chunk, len(plan.body))
        faults += [parse_fault(f) for f in extra]
        schedule(plan, chunk=chunking, delay=str(delay))  # validate now, not in the server
        status: int | None
        if served.status is not None:
            body, status = served.body, served.status
        else:
            body, status = plan.body, plan.http_status
            if status is None:
                body += b"".join(data for data, _ in served.tail)
        options = ReplayOptions(chunk=chunking, delay=str(delay), faults=faults, quirks=quirks)
        name = self._new_name()
        self._serve(name, cap, options)
        return ServedURL(f"{self.base}/{name}{path}", body, status, cap.name)

    def ws_url(
        self,
        source: bytes | str | os.PathLike[str],
        *,
        fault: str | Sequence[str] = (),
        delay: float | str = 0,
        path: str = "",
    ) -> ServedSocket:
        """Serve ``source`` over a WebSocket and return its ``ws://`` URL: each
        ``response.create`` a client sends there gets the next recorded response, and
        the URL logs each connection (:meth:`ServedSocket.reports`: the Report of each
        response sent).

        ::

            url = ssescope_server.ws_url("cap.ssecap", fault="close@record:3:1011")
            client = openai.OpenAI(websocket_base_url=url, api_key="test")

        Args:
            source: a WebSocket capture (the ``.ssecap`` WebSocket form, a JSONL log of
                messages, a DevTools HAR's first WebSocket entry) or any stream (a Responses stream: each record one message).
            fault: one fault spec or several (``stall``, ``garble``, ``error``,
                ``no-done``, ``close@record:N:CODE``, ``drop@record:N``, ``http-error``).
            delay: milliseconds between messages, or ``"original"`` (the recorded pacing).
            path: appended to the URL.

        Raises:
            UsageError: an unknown source, a bad fault, or one that does not apply to a
                WebSocket or names a message past a response's last (with the count).

        The URL's ``body`` is the source's body, and ``status`` the ``http-error`` status
        the upgrade is refused with, if one was asked for. The ``ssescope_ws_server``
        fixture (:class:`~ssescope.testing.WebSocketServer`) makes these URLs and judges
        every response a test's clients were sent.
        """
        from ..serve.ws_app import socket_script
        from ..serve.ws_script import check_socket_faults

        cap = _capture(source)
        faults = [parse_fault(f) for f in ([fault] if isinstance(fault, str) else fault)]
        check_socket_faults(faults, socket_script(cap).turns)
        _waits_valid(delay)
        refused = next((f.status for f in faults if f.kind == "http-error"), None)
        options = ReplayOptions(delay=str(delay), faults=faults)
        base = self.base.replace("http://", "ws://", 1)
        name = self._new_name()
        served = ServedSocket(f"{base}/{name}{path}", cap.body, refused, cap.name)
        self._serve(name, cap, options, cap.socket, served.watch)
        return served

    def _new_name(self) -> str:
        with self._lock:
            return f"s{next(self._ids)}"

    def _serve(
        self,
        name: str,
        cap: Capture,
        options: ReplayOptions,
        socket: SocketScript | None = None,
        watch: Callable[[SocketLog], None] | None = None,
    ) -> None:
        """Serve ``cap``'s body, type and chunks under ``name`` with ``options`` (and, over
        a WebSocket, its ``socket`` script, each connection's log handed to ``watch``)."""
        served = Capture(name, cap.body, cap.content_type, cap.chunks, options, socket, watch=watch)
        with self._lock:
            self._captures[name] = served


def _waits_valid(delay: float | str) -> None:
    if delay == "original":
        return
    try:
        ok = float(delay) >= 0
    except ValueError:
        ok = False
    if not ok:
        raise UsageError(f"bad delay {delay!r}; expected milliseconds or original")

"""The WebSocket side of the replay fixture: a served ``ws://`` URL that keeps what each
connection to it carried, and the ``ssescope_ws_server`` fixture's object.

The replay server (:mod:`ssescope.serve.ws_app`, as ``ssescope serve`` runs it) logs
every connection to a URL :meth:`~ssescope.testing.SSEScopeServer.ws_url` made: the
messages both ways and how it ended. :meth:`ServedSocket.reports` judges the responses
it sent with :func:`~ssescope.testing.websocket_reports`, so a test can compare what its
client made of a response with what the server really sent.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..aggregate.report import Report
from ..serve.ws_app import SocketLog
from .websocket import Close, websocket_reports

if TYPE_CHECKING:
    from .server import SSEScopeServer

__all__ = ["ServedSocket", "WebSocketServer", "connection_reports"]

ENDED_WITHIN = 5.0
"""Seconds :meth:`ServedSocket.reports` waits for a connection to end by default."""


def _close(log: SocketLog) -> Close:
    end = log.close
    if end is None:
        return None
    if end.dropped:
        return "dropped"
    if end.code is None:
        return None
    return (end.code, end.reason)


def connection_reports(log: SocketLog) -> list[Report]:
    """The Report of each response one connection carried, as ``ssescope inspect`` would
    give them for a capture of its client's side (each with ``entry`` when several)."""
    return websocket_reports(log.messages, close=_close(log))


class ServedSocket(str):
    """A ``ws://`` URL the replay server answers; a ``str`` that also logs each
    connection made to it.

    Attributes:
        body: the bytes of the capture it replays.
        status: the status the upgrade is refused with (``http-error``), else ``None``.
        name: the source it was made from.
    """

    body: bytes
    status: int | None
    name: str
    _logs: list[SocketLog]
    _lock: threading.Lock

    def __new__(cls, url: str, body: bytes, status: int | None, name: str) -> ServedSocket:
        """Make the URL string, with no connection logged yet."""
        self = super().__new__(cls, url)
        self.body = body
        self.status = status
        self.name = name
        self._logs = []
        self._lock = threading.Lock()
        return self

    def watch(self, log: SocketLog) -> None:
        """Keep the log of a connection the server accepted (the server calls this)."""
        with self._lock:
            self._logs.append(log)

    @property
    def connections(self) -> list[SocketLog]:
        """The log of each connection accepted so far, in order (those still open too)."""
        with self._lock:
            return list(self._logs)

    def wait_closed(self, timeout: float = ENDED_WITHIN) -> list[SocketLog]:
        """The log of each connection so far, once every one of them has ended.

        Raises:
            AssertionError: a connection still open after ``timeout`` seconds.
        """
        logs = self.connections
        for n, log in enumerate(logs):
            if not log.ended.wait(timeout):
                raise AssertionError(
                    f"connection {n} to {self} is still open after {timeout:g} s "
                    f"({len(log.messages)} messages so far)"
                )
        return logs

    def reports(self, timeout: float = ENDED_WITHIN) -> list[Report]:
        """The Report of each response the server sent on the connections made so far,
        in order, once they have ended (a fault's close or drop is judged with the
        response it cut, as for a capture).

        Raises:
            AssertionError: a connection still open after ``timeout`` seconds.
        """
        return [r for log in self.wait_closed(timeout) for r in connection_reports(log)]


class WebSocketServer:
    """The ``ssescope_ws_server`` fixture's object: the session's replay server, seen
    from one test, that serves WebSocket captures and afterwards judges what it sent.

    ::

        url = ssescope_ws_server.url("turns.ssecap", fault="close@record:10:1011")
        ...  # the client under test talks to url
        (report, *_) = ssescope_ws_server.reports()
        assert report.status == "truncated"
    """

    def __init__(self, server: SSEScopeServer) -> None:
        self._server = server
        self._urls: list[ServedSocket] = []

    @property
    def base(self) -> str:
        """The server's root ``ws://`` URL."""
        return self._server.base.replace("http://", "ws://", 1)

    def url(
        self,
        source: bytes | str | os.PathLike[str],
        *,
        fault: str | Sequence[str] = (),
        delay: float | str = 0,
        path: str = "",
    ) -> ServedSocket:
        """Serve ``source`` over a WebSocket (:meth:`SSEScopeServer.ws_url`, the same
        arguments) and return its URL."""
        served = self._server.ws_url(source, fault=fault, delay=delay, path=path)
        self._urls.append(served)
        return served

    @property
    def connections(self) -> list[SocketLog]:
        """The log of each connection to the URLs this test made, in the order made."""
        return [log for url in self._urls for log in url.connections]

    def reports(self, timeout: float = ENDED_WITHIN) -> list[Report]:
        """The Report of each response sent to this test's clients, URL by URL, once
        their connections have ended (:meth:`ServedSocket.reports`)."""
        return [r for url in self._urls for r in url.reports(timeout)]

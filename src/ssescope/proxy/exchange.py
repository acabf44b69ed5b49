"""One proxied exchange, and the registry of those in flight and recently finished.

An :class:`Exchange` is written by two parties: the forwarder (status, headers, bytes
forwarded) on the event loop, and the recorder (records, verdict, idle times) on its own
thread. Each field has one writer; readers (the display, the web page) only read.
"""

from __future__ import annotations

import threading
import time as _time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ..silence import silence_note

__all__ = ["Exchange", "Registry"]


@dataclass(eq=False)
class Exchange:
    """What is known about one request and its response, live and at the end."""

    seq: int
    method: str
    path: str
    upstream: str
    started: datetime
    start: float = field(default_factory=_time.monotonic)
    name: str = ""
    request_headers: list[tuple[str, str]] = field(default_factory=list)
    request_body: Any = None
    request_bytes: int = 0
    # the credentials the request carried, to scrub from what is recorded; never written
    secrets: list[str] = field(default_factory=list, repr=False)
    model: str | None = None
    # written by the forwarder
    status: int | None = None
    upstream_http: str | None = None
    response_headers: list[tuple[str, str]] = field(default_factory=list)
    stream: bool = False
    content_type: str | None = None
    wire_bytes: int = 0
    chunks: int = 0
    request_ids: dict[str, str] = field(default_factory=dict)
    end: str | None = None
    error: str | None = None
    capture: str | None = None
    unrecorded: str | None = None  # why it has no whole capture (the recording stopped)
    # written by the recorder
    body_bytes: int = 0
    records: int = 0
    provider: str | None = None
    first_content_s: float | None = None
    first_byte_s: float | None = None
    last_byte_s: float | None = None
    last_content_s: float | None = None
    content_idle_max_s: float | None = None
    byte_idle_max_s: float | None = None
    terminal_s: float | None = None
    verdict: str | None = None
    status_reason: str | None = None
    total_s: float | None = None
    diagnostics: list[str] = field(default_factory=list)
    schema_mismatches: int | None = None  # calls breaking the request's tool schemas
    finished: bool = False
    content_kind: str | None = None  # what the last content was: text, reasoning, tool call
    reply_tail: str = ""  # the end of the reply so far, for the terminal (never recorded)
    content_idle_after: str | None = None  # what was being sent when the longest silence began
    # a WebSocket connection (the forwarder writes how it ended, the recorder the rest)
    transport: str = "http"
    messages_sent: int = 0  # the client's messages (the server's are ``chunks``)
    responses: int = 0  # the responses judged (one per ``response.create``)
    close_code: int | None = None
    close_reason: str = ""
    closed_by: str | None = None  # "client", "server", or "proxy" (shutting down)
    dropped: bool = False  # the connection ended with no close frame

    def elapsed(self) -> float:
        """Seconds since the request arrived."""
        return _time.monotonic() - self.start

    def to_dict(self) -> dict[str, Any]:
        """The exchange as one JSON object (the index line and ``--json`` output)."""
        return {
            "name": self.name,
            "capture": self.capture,
            "time": self.started.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "method": self.method,
            "path": self.path,
            "upstream": self.upstream,
            "model": self.model,
            "status": self.status,
            "upstream_http": self.upstream_http,
            "stream": self.stream,
            "content_type": self.content_type,
            "provider": self.provider,
            "verdict": self.verdict,
            "status_reason": self.status_reason,
            "end": self.end,
            "first_content_s": _round(self.first_content_s),
            "total_s": _round(self.total_s),
            "content_idle_max_s": _round(self.content_idle_max_s),
            "content_idle_after": self.content_idle_after,
            "content_idle_note": silence_note(
                self.content_idle_max_s, self.content_idle_after, self.byte_idle_max_s
            )
            or None,
            "byte_idle_max_s": _round(self.byte_idle_max_s),
            "records": self.records,
            "bytes": self.wire_bytes,
            "body_bytes": self.body_bytes,
            "chunks": self.chunks,
            "request_bytes": self.request_bytes,
            "request_ids": self.request_ids,
            "diagnostics": self.diagnostics,
            "schema_mismatches": self.schema_mismatches,
            "error": self.error,
            "unrecorded": self.unrecorded,
            **(self._websocket() if self.transport == "websocket" else {}),
        }

    def _websocket(self) -> dict[str, Any]:
        return {
            "transport": "websocket",
            "messages_sent": self.messages_sent,
            "responses": self.responses,
            "close_code": self.close_code,
            "close_reason": self.close_reason,
            "closed_by": self.closed_by,
            "dropped": self.dropped,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


class Registry:
    """The exchanges in flight and the last ``keep`` finished ones, thread-safe.

    Args:
        keep: how many finished exchanges stay listed.
    """

    def __init__(self, keep: int = 500) -> None:
        self._lock = threading.Lock()
        self._seq = 0
        self._active: dict[int, Exchange] = {}
        self._done: deque[Exchange] = deque(maxlen=keep)
        self._listeners: list[Callable[[Exchange], None]] = []

    def new(self, method: str, path: str, upstream: str) -> Exchange:
        """Register a new exchange (numbered in arrival order)."""
        with self._lock:
            self._seq += 1
            ex = Exchange(self._seq, method, path, upstream, datetime.now(timezone.utc))
            self._active[ex.seq] = ex
        return ex

    def on_finish(self, listener: Callable[[Exchange], None]) -> None:
        """Call ``listener(exchange)`` (on the recorder's thread) as each exchange ends."""
        self._listeners.append(listener)

    def finish(self, ex: Exchange) -> None:
        """Move ``ex`` to the finished list and tell the listeners."""
        with self._lock:
            self._active.pop(ex.seq, None)
            self._done.append(ex)
        for listener in self._listeners:
            listener(ex)

    def active(self) -> list[Exchange]:
        """The exchanges in flight, oldest first."""
        with self._lock:
            return list(self._active.values())

    def finished(self) -> list[Exchange]:
        """The finished exchanges kept, oldest first."""
        with self._lock:
            return list(self._done)

"""What every container reader returns: the response body, as it arrived, with context.

A :class:`Body` is the body bytes split the way they arrived (:class:`Chunk`, each with
its arrival time when the form records one), the response status and headers, the
request (secrets redacted), and two honest lists: what the form cannot give (``lost``)
and what was wrong with it (``diagnostics``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..diagnostics import Diagnostic
from ..sourceinfo import END_REASONS, EntryInfo, RequestInfo, SourceInfo, WebSocketEnd
from .checks import checked_status, checked_time
from .request_tools import ToolSchemas

__all__ = [
    "CONTAINERS",
    "LOST_CHUNKS",
    "LOST_CHUNK_TIMING",
    "LOST_EXACT_BYTES",
    "LOST_FRAMING",
    "LOST_HEADERS",
    "LOST_REQUEST",
    "LOST_TIMING",
    "RAW_LOST",
    "Body",
    "Chunk",
    "ContainerName",
    "RequestInfo",
]

ContainerName = Literal["raw", "http", "curl-trace", "har", "ssecap", "jsonl"]
"""The value of the Report's ``source.container``."""

CONTAINERS: tuple[ContainerName, ...] = ("ssecap", "har", "curl-trace", "http", "jsonl", "raw")
"""Every container, in the order auto-detection tries them."""

# What a form can lose: a fixed vocabulary, so that surfaces can show and test it.
LOST_TIMING = "timing"
"""No arrival time at all."""
LOST_CHUNK_TIMING = "per-chunk timing"
"""Only whole-response times (first byte, total), not when each piece arrived."""
LOST_CHUNKS = "chunk boundaries"
"""The body is one piece: how it was split on the wire is unknown."""
LOST_HEADERS = "headers"
"""No response status or headers."""
LOST_REQUEST = "request"
"""No request method, URL or headers."""
LOST_EXACT_BYTES = "exact bytes"
"""Some bytes were replaced on the way (curl ``--trace-ascii`` prints them as ``.``)."""
LOST_FRAMING = "original framing"
"""The wire framing was rebuilt (from HAR event-source messages or an SDK dump)."""

RAW_LOST = (LOST_TIMING, LOST_CHUNKS, LOST_HEADERS, LOST_REQUEST)
"""What a bare body (a file, stdin or bytes) cannot give: times, pieces, headers, request."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """One piece of the body as it arrived.

    Attributes:
        data: the bytes.
        time: seconds since the request started, or ``None`` when the form has no times.
    """

    data: bytes
    time: float | None = None


@dataclass(slots=True)
class Body:
    """The response body unwrapped from a container, with what the container knew.

    Attributes:
        chunks: the body as it arrived, in order.
        container: which form it came from (the Report's ``source.container``).
        rule: a sentence saying why that form was chosen.
        status: the response status code, or ``None`` if the form does not record it.
        headers: response headers in order (secrets redacted).
        request: the request (secrets redacted), or ``None`` if the form does not record it.
        lost: what this form cannot give; phrases from the ``LOST_*`` vocabulary.
        diagnostics: what was wrong with the container (offsets are offsets in it).
        end: how a capture says the stream ended (``"eof"``, ``"cancelled"``,
            ``"stalled"``, ``"error"``), or ``None`` if the form does not say.
        timing: whole-response times the form gives, in seconds since the request
            started: ``"first_byte_s"`` and ``"total_s"`` when known.
        entry: which entry of a capture holding several streams this body is, or
            ``None`` for a form that holds one.
        tools: the tools the request declared, when the form keeps its body
            (:func:`~ssescope.containers.request_tools.request_tools`).
        request_body: the request's body as the form keeps it (a JSON value, or text),
            or ``None`` (what ``serve --by-request`` matches requests against).
        websocket: how the WebSocket connection ended, for a stream read from a
            WebSocket capture (:mod:`ssescope.containers.websocket`), else ``None``.
        request_ids: the JSON-RPC ids of the request body, when the form keeps one
            (:func:`~ssescope.rpcrequest.request_ids`).
    """

    chunks: list[Chunk]
    container: ContainerName
    rule: str = ""
    status: int | None = None
    headers: list[tuple[str, str]] = field(default_factory=list)
    request: RequestInfo | None = None
    lost: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    end: str | None = None
    timing: dict[str, float] = field(default_factory=dict)
    entry: EntryInfo | None = None
    tools: ToolSchemas = ()
    request_body: object = None
    websocket: WebSocketEnd | None = None
    request_ids: tuple[str, ...] = ()

    def info(self) -> SourceInfo:
        """What the container knew about this body, as the frozen value a Pipeline takes."""
        end = next((e for e in END_REASONS if e == self.end), None)
        status, bad_status = checked_status(self.status)
        diagnostics = tuple(self.diagnostics)
        if bad_status is not None:
            diagnostics += (bad_status,)
        return SourceInfo(
            container=self.container,
            status=status,
            lost=tuple(self.lost),
            end=end,
            total_s=checked_time(self.timing.get("total_s")),
            headers=tuple(self.headers),
            request=self.request,
            diagnostics=diagnostics,
            entry=self.entry,
            tools=self.tools,
            websocket=self.websocket,
            request_ids=self.request_ids,
        )

    @property
    def body(self) -> bytes:
        """All the body bytes, joined."""
        return b"".join(c.data for c in self.chunks)

    @property
    def size(self) -> int:
        """The number of body bytes (the Report's ``source.bytes``)."""
        return sum(len(c.data) for c in self.chunks)

    @property
    def content_type(self) -> str | None:
        """The first ``Content-Type`` response header, or ``None``."""
        return self.header("content-type")

    def header(self, name: str) -> str | None:
        """Return the first response header called ``name`` (any case), or ``None``."""
        name = name.lower()
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None

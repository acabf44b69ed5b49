"""What is known about a stream's source before its first byte: a frozen value.

Every way in (a file, bytes, an iterable of chunks, a container such as a HAR or an
``.ssecap`` capture, a live HTTP response) says the same things about where the body came
from: which container held it, the HTTP status, what the form could not record (``lost``),
how a capture says the stream ended, the headers and request where known, and which entry
of a capture holding several streams this is. :class:`SourceInfo` carries all of it, and
the :class:`~ssescope.pipeline.Pipeline` is given it when it is built::

    info = SourceInfo(container="har", status=200, lost=("chunk boundaries",))
    pipeline = Pipeline(source=info)

No I/O happens here; the container layer and the live sources build these values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypedDict

from .diagnostics import Diagnostic
from .fieldform import field_dict
from .toolschema.request import DeclaredTool

__all__ = [
    "END_REASONS",
    "EndReason",
    "EntryInfo",
    "RequestInfo",
    "RequestSummary",
    "SourceInfo",
    "WebSocketEnd",
]

EndReason: TypeAlias = Literal["eof", "cancelled", "stalled", "error"]
"""How a capture says its stream ended."""

END_REASONS: tuple[EndReason, ...] = ("eof", "cancelled", "stalled", "error")
"""Every :data:`EndReason`."""


class RequestInfo(TypedDict):
    """The request of an exchange, as far as the form records it, secrets redacted."""

    method: str
    url: str
    headers: list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class EntryInfo:
    """Which entry of a capture holding several streams (a HAR, a JSONL log) this is.

    Attributes:
        index: the entry's position in the capture (a HAR's ``log.entries`` index, a JSONL
            log's stream number), counted from 0.
        method: the request method, or ``None`` when the capture does not record it.
        url: the request URL (secrets redacted), or ``None``.
        started: when the request started, as the capture writes it (ISO 8601 for a
            HAR), or ``None``.
        response: of an entry whose WebSocket connection carried several responses (a
            HAR entry with ``_webSocketMessages``), this response's position on the
            connection, counted from 0; else ``None``.
    """

    index: int
    method: str | None = None
    url: str | None = None
    started: str | None = None
    response: int | None = None

    @property
    def label(self) -> str:
        """What ``--entry`` selects it by: ``"3"``, or ``"3.1"`` for the second response
        of entry 3's WebSocket connection."""
        return str(self.index) if self.response is None else f"{self.index}.{self.response}"

    def selected_by(self, wanted: int | str) -> bool:
        """Whether ``--entry wanted`` (``3`` or ``"3.1"``) names this entry: its label, or
        its index alone for the first response of a connection."""
        text = str(wanted)
        return text == self.label or (self.response == 0 and text == str(self.index))

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (the Report's ``entry`` object); ``response`` only when
        the entry's connection carried several responses."""
        out = field_dict(self, _ENTRY_KEYS)
        if self.response is not None:
            out["response"] = self.response
        return out


_ENTRY_KEYS = ("index", "method", "url", "started")
"""The keys an :class:`EntryInfo`'s JSON form always has (``response`` only when set)."""


@dataclass(frozen=True, slots=True)
class RequestSummary:
    """The request a live response answered, as a client in the app saw it (the transport).

    Attributes:
        method: the request method.
        url: the request URL, secrets redacted (a key in the query string is replaced).
        model: the model the request asked for (the body's ``model``, or the model in a
            Gemini or Bedrock URL), or ``None`` when it names none.
        started: when the request started, as Unix time in seconds (the Report's times
            count from here).
    """

    method: str
    url: str
    model: str | None = None
    started: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (the Report's ``request`` object)."""
        return field_dict(self)


@dataclass(frozen=True, slots=True)
class WebSocketEnd:
    """How the WebSocket connection that carried a stream ended.

    Attributes:
        code: the close frame's status code, or ``None`` when the connection dropped
            with no close frame (or the close frame had no code).
        reason: the close frame's reason text (``""`` when none).
        dropped: ``True`` when the connection ended with no close frame at all.
        messages: how many messages the connection carried for this stream, both
            directions.
        sent: the client's messages of this stream (the requests), as text.
        next_response: ``True`` when the connection went on with another response (the
            stream ended at the next ``response.create`` or server ``response.created``,
            not at the connection's end).
        known: ``False`` when the form does not record how the connection ended.
        closed_by: who ended the connection, when the form records it (``"client"``,
            ``"server"``, or ``"proxy"`` shutting down), else ``None``. A client that
            ends it before the terminal event left early: the response is cancelled.
        sent_at: for each of :attr:`sent`, how many of this stream's server text
            messages (its records) came before it, and its time (seconds since the
            connection opened, or ``None``): where the requests fall among the records,
            for a view that shows both directions in order. Not in the Report.
    """

    code: int | None = None
    reason: str = ""
    dropped: bool = False
    messages: int = 0
    sent: tuple[str, ...] = ()
    next_response: bool = False
    known: bool = True
    sent_at: tuple[tuple[int, float | None], ...] = ()
    closed_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (the Report's ``source.websocket`` object)."""
        return {
            "close_code": self.code,
            "close_reason": self.reason,
            "dropped": self.dropped,
            "ended_by_next_response": self.next_response,
            "close_known": self.known,
            "closed_by": self.closed_by,
            "messages": self.messages,
            "sent": list(self.sent),
        }

    def describe(self) -> str:
        """The end in words, for a verdict line: ``"closed with code 1011 (overloaded)"``."""
        if self.next_response:
            return "ended by the next response on the connection"
        if not self.known:
            return "ended where the capture stops (no close recorded)"
        if self.dropped:
            return "dropped with no close frame"
        if self.code is None:
            return "closed with no status code"
        reason = f" ({self.reason})" if self.reason else ""
        return f"closed with code {self.code}{reason}"


@dataclass(frozen=True, slots=True)
class SourceInfo:
    """Where a body came from, as far as its source knows it. Frozen.

    Attributes:
        container: the Report's ``source.container`` (``"raw"``, ``"http"``, ``"har"``…).
        status: the response's HTTP status, or ``None`` if the source does not record it.
        lost: what the source cannot give (``ssescope.containers.LOST_*`` phrases).
        end: how a capture says the stream ended, or ``None`` if it does not say; a
            ``"cancelled"`` end marks the response cancelled.
        total_s: the whole exchange's duration when the source records it (a HAR's
            ``time``), in seconds since the request started.
        headers: the response headers in order (secrets redacted).
        request: the request (secrets redacted), or ``None``.
        diagnostics: what was wrong with the source itself (reported with the stream's).
        entry: which entry of a capture holding several streams this is, or ``None``.
        tools: the tools the request declared, when the source keeps the request's body
            (an ``.ssecap``, a HAR, a proxy record): each one's name, input schema and
            mode (see :mod:`ssescope.toolschema.request`); calls are checked against them.
        websocket: how the WebSocket connection that carried the stream ended, or
            ``None`` for a stream that did not come over a WebSocket (or one followed by
            another response on the same connection).
        request_ids: the JSON-RPC ids of the request, when the source keeps a JSON-RPC
            request body (compact JSON text, :mod:`ssescope.rpcrequest`): the response
            that ends the stream must answer one of them.
    """

    container: str = "raw"
    status: int | None = None
    lost: tuple[str, ...] = ()
    end: EndReason | None = None
    total_s: float | None = None
    headers: tuple[tuple[str, str], ...] = ()
    request: RequestInfo | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    entry: EntryInfo | None = None
    tools: tuple[DeclaredTool, ...] = ()
    websocket: WebSocketEnd | None = None
    request_ids: tuple[str, ...] = ()

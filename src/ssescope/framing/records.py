"""Records: what the framing layer produces from body bytes.

Every record knows its position in the record sequence (``index``), its byte span in
the body (``start`` inclusive, ``end`` exclusive, terminators included) and, when the
bytes came with arrival times, the time of the chunk that completed it.

Records are plain slotted dataclasses rather than frozen ones: a frozen dataclass takes
about 5x longer to construct (1.1 µs against 0.2 µs measured on CPython 3.11), and the
framer builds one per event. Treat them as immutable values all the same. Each record writes
its ``__init__`` by hand (``init=False``): the compiled core compiles a hand-written
``__init__`` natively, where the one ``dataclass`` generates stays interpreted. The
:class:`Tail`, one at most per stream, keeps the generated one.

The SSE framer's shortcut (``SSEParser._lines``) builds :class:`SSEEvent` with positional
arguments; a field added here must be passed there too (the differential test in
``tests/framing/test_sse_fast_path.py`` fails otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from ..codes.spec import Code
from ..diagnostics import Diagnostic

__all__ = [
    "DataRecord",
    "FramingOutput",
    "JSONRecord",
    "Record",
    "SSEComment",
    "SSEEvent",
    "Tail",
]


@dataclass(slots=True, init=False)
class _Kinded:
    """What every record (and the tail) has beside its fields: its ``kind``."""

    @property
    def kind(self) -> str:
        """The record kind, e.g. "event" (looked up by class: the compiled core cannot give a
        dataclass a class constant)."""
        return _KINDS[type(self)]


@dataclass(slots=True, init=False)
class SSEEvent(_Kinded):
    """A dispatched Server-Sent Event (WHATWG HTML §9.2.6).

    Attributes:
        index: position of this record among all records of the stream.
        event: the event type; ``"message"`` when the block had no (or an empty) ``event``.
        data: the data buffer, lines joined with LF, one trailing LF removed.
        id: the last-event-ID at dispatch (persists across events; ``""`` if none).
        retry: the stream's reconnection time in ms at dispatch, or ``None`` if never set.
        start: byte offset of the block's first line in the body.
        end: byte offset just past the blank line that dispatched it.
        time: arrival time of the chunk that completed the block, if known.
    """

    index: int
    event: str
    data: str
    id: str
    retry: int | None
    start: int
    end: int
    time: float | None = None

    def __init__(
        self,
        index: int,
        event: str,
        data: str,
        id: str,
        retry: int | None,
        start: int,
        end: int,
        time: float | None = None,
    ) -> None:
        self.index = index
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
        self.start = start
        self.end = end
        self.time = time


@dataclass(slots=True, init=False)
class SSEComment(_Kinded):
    """A comment line (``: keep-alive``): not an event, kept for the timeline.

    ``text`` is everything after the colon, with one leading space removed.
    """

    index: int
    text: str
    start: int
    end: int
    time: float | None = None

    def __init__(
        self, index: int, text: str, start: int, end: int, time: float | None = None
    ) -> None:
        self.index = index
        self.text = text
        self.start = start
        self.end = end
        self.time = time


@dataclass(slots=True, init=False)
class JSONRecord(_Kinded):
    """One JSON value of an NDJSON line, a JSON-array element or a binary frame payload.

    ``data`` is the raw text of the value (not yet decoded: decoding, and reporting
    invalid JSON, is the provider layer's job). ``event`` is the frame's event type for
    framings that name one (AWS event-stream ``:event-type``), else ``None``.
    """

    index: int
    data: str
    start: int
    end: int
    time: float | None = None
    event: str | None = None

    def __init__(
        self,
        index: int,
        data: str,
        start: int,
        end: int,
        time: float | None = None,
        event: str | None = None,
    ) -> None:
        self.index = index
        self.data = data
        self.start = start
        self.end = end
        self.time = time
        self.event = event


@dataclass(slots=True)
class Tail(_Kinded):
    """The bytes after the last complete record that no record took: where a stream was cut.

    Not a record (it is never dispatched and has no index); a framer keeps it in its
    ``tail`` attribute after ``close`` so that frame views can show the cut as a row.

    Attributes:
        start: byte offset of the unfinished block, line, element or message.
        end: byte offset where the body ended.
        raw: its text (decoded with replacement), as the diagnostic quotes it.
        code: the diagnostic that reports it (``sse.unterminated-event``…).
    """

    start: int
    end: int
    raw: str
    code: Code


DataRecord: TypeAlias = "SSEEvent | JSONRecord"
"""A record that carries a payload for the provider layer."""

Record: TypeAlias = "SSEEvent | SSEComment | JSONRecord"
"""Any record the framing layer produces."""

FramingOutput: TypeAlias = "SSEEvent | SSEComment | JSONRecord | Diagnostic"
"""What ``feed``/``close`` of a framer return: records and diagnostics, in stream order."""

_KINDS: dict[type, str] = {
    SSEEvent: "event",
    SSEComment: "comment",
    JSONRecord: "json",
    Tail: "tail",
}
"""Each record class's ``kind``."""

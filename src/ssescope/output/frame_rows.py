"""Frame rows: one row per record, built while the stream is fed, plus a row for the cut.

The ``frames`` command and the web page's record table both show a stream record by
record. :class:`FrameRows` follows a :class:`~ssescope.pipeline.Pipeline` (created with
``keep_records=True``) and turns its records, unified events and diagnostics into
:class:`FrameRow` values as soon as they are final, so a long stream is shown while it is
read, in bounded memory. Nothing is parsed again: the event column and the preview come
from what the engine produced for the record.

* The **preview** shows what the record changed: its text delta, its tool-call argument
  fragment as received, its audio (by size) or audio transcript, its finish reason or
  usage; a record that produced none of these
  shows its JSON ``type`` or its data.
* The **event** is the SSE event name, or, for a record without an ``event:`` line
  (NDJSON, Vercel, Responses), the JSON ``type`` it carries.
* The **tail** (the bytes after the last complete record, where a cut stream stopped) is a
  row of its own, with the diagnostic that reports it.

A row is held back until the next record arrives, so that diagnostics raised at the end
of the stream about the last record (``tool.incomplete``, ``stream.missing-done``…) are in
its row; end-of-stream diagnostics about an earlier row are in :attr:`FrameRows.late`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from ..diagnostics import Diagnostic
from ..events import (
    Audio,
    Citation,
    Finish,
    ProviderError,
    ReasoningDelta,
    RefusalDelta,
    ResponseStart,
    Snapshot,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallEnd,
    Unknown,
    Usage,
)
from ..framing.records import Record, SSEComment, SSEEvent, Tail
from ..json_objects import loads_object, object_type
from ..pipeline import Pipeline
from ..providers._base import AdapterOutput

__all__ = ["FrameRow", "FrameRows", "json_type", "preview_of"]

_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"})
_TYPE_KEY = '"type"'


@dataclass(slots=True)
class FrameRow:
    """One row of a frame view.

    Attributes:
        index: the record's index, or ``None`` for the tail.
        kind: ``"event"``, ``"comment"``, ``"json"`` or ``"tail"``.
        offset: byte offset of the record in the body.
        length: its length in bytes (terminators included).
        time: arrival time, if known.
        event: the SSE event name, or the JSON ``type`` of a record without one.
        id: the SSE ``id`` (``None`` when empty or not SSE).
        data: the record's data (a comment's text; the tail's raw text).
        preview: what the record changed (see the module docstring).
        diagnostics: the diagnostics that name this record (or the tail).
        unknown: whether the provider adapter did not know the record.
        flagged: whether an invalid-record diagnostic named the record past the Report's
            limit of diagnostics per code (so it is not among :attr:`diagnostics`).
    """

    index: int | None
    kind: str
    offset: int
    length: int
    time: float | None
    event: str | None
    id: str | None
    data: str
    preview: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unknown: bool = False
    flagged: bool = False

    @property
    def invalid(self) -> bool:
        """Whether a framing or JSON diagnostic says the record itself is broken."""
        if self.flagged:
            return True
        diagnostics = self.diagnostics
        return bool(diagnostics) and any(d.spec.invalidates for d in diagnostics)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``frames --jsonl``); ``diagnostics`` holds the codes."""
        return {
            "index": self.index,
            "kind": self.kind,
            "offset": self.offset,
            "length": self.length,
            "time": self.time,
            "event": self.event,
            "id": self.id,
            "data": self.data,
            "preview": self.preview,
            "invalid": self.invalid,
            "unknown": self.unknown,
            "diagnostics": [d.code for d in self.diagnostics],
        }


def json_type(data: str) -> str | None:
    """The top-level ``type`` string of a JSON object's text, or ``None``."""
    if not data.startswith("{") or _TYPE_KEY not in data:
        return None
    return object_type(data)


def _without_type(data: str, event: str | None) -> str:
    """A record's data, without a ``type`` key that only repeats its event name."""
    if event is None or not data.startswith("{") or _TYPE_KEY not in data:
        return data
    value = loads_object(data)
    if value is None or value.get("type") != event:
        return data
    del value["type"]
    if not value:
        return "{}"
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # nested deeper than orjson writes: shown as it came
        return data


def _quoted(text: str) -> str:
    return '"' + text.translate(_ESCAPES) + '"'


def preview_of(events: list[Any]) -> str:
    """Describe what a record's unified events changed, in a few words.

    Text, reasoning and refusal deltas are quoted; tool-call fragments are shown exactly
    as received (never repaired); finish reasons, usage, errors and the end of the
    response are named. Returns ``""`` when the events changed nothing visible.
    """
    parts: list[str] = []
    text: list[str] = []
    for ev in events:
        kind = type(ev)
        if kind is TextDelta:
            text.append(ev.text)
            continue
        if text:
            parts.append(_quoted("".join(text)))
            text = []
        if kind is ReasoningDelta:
            parts.append(f"{'plan' if ev.kind == 'plan' else 'reasoning'} {_quoted(ev.text)}")
        elif kind is RefusalDelta:
            parts.append(f"refusal {_quoted(ev.text)}")
        elif kind is ToolCallDelta or kind is ToolCall:
            head = "tool " + ev.name if ev.name else "args"
            parts.append(f"{head} {ev.arguments}" if ev.arguments else head)
        elif kind is ToolCallEnd:
            parts.append("tool call end")
        elif kind is Snapshot:
            parts.append(f"{ev.field} snapshot ({len(ev.value):,} chars)")
        elif kind is Citation:
            parts.append("citation")
        elif kind is Audio:
            if ev.data:
                size = len(ev.data.rstrip("=")) * 3 // 4  # base64: the decoded bytes
                parts.append(f"audio {size:,} bytes")
            if ev.transcript:
                parts.append(f"transcript {_quoted(ev.transcript)}")
        elif kind is Finish:
            parts.append(f"finish {ev.raw if ev.raw is not None else ev.reason}")
        elif kind is Usage:
            values = ev.values
            counts = [
                f"{values[key]} {label}"
                for key, label in (("input_tokens", "in"), ("output_tokens", "out"))
                if values.get(key) is not None
            ]
            parts.append("usage " + " · ".join(counts) if counts else "usage")
        elif kind is Terminal:
            parts.append(f"end: {ev.status}")
        elif kind is ProviderError:
            label = f"{ev.error_type}: " if ev.error_type else ""
            parts.append(f"error {label}{ev.message}")
        elif kind is ResponseStart:
            parts.append(f"start {ev.model}" if ev.model else "start")
    if text:
        parts.append(_quoted("".join(text)))
    return " · ".join(parts)


class FrameRows:
    """Turn what a :class:`~ssescope.pipeline.Pipeline` produces into frame rows.

    Feed the pipeline yourself (directly or through :func:`ssescope.api.feed_chunks`) and
    pass what each ``feed``/``close`` returned to :meth:`take`; after ``close``, call
    :meth:`finish`. Both return the rows that became final, in order.

    Args:
        pipeline: a pipeline created with ``keep_records=True`` (and collecting events).
    """

    def __init__(self, pipeline: Pipeline) -> None:
        self._pipeline = pipeline
        self._pending: list[FrameRow] = []
        self._by_index: dict[int, FrameRow] = {}
        self._events: dict[int, list[Any]] = {}
        self._waiting: list[Diagnostic] = []
        self._seen = 0
        self._flags_seen = 0  # invalid record indexes read from the diagnostics cap
        self._flag_later: set[int] = set()  # ... naming records not framed yet
        self._next = 0  # index of the next record the pipeline will give
        self.late: list[Diagnostic] = []
        """Diagnostics about rows that were already given (raised at the end of the stream)."""
        self.tail: FrameRow | None = None

    def take(self, outputs: list[AdapterOutput]) -> list[FrameRow]:
        """Take what ``pipeline.feed`` returned; return the rows that are now final."""
        self._collect(outputs)
        if self._pipeline.provider is None:
            return []  # records are held until the provider is known
        return self._release(keep_last=True)

    def finish(self, outputs: list[AdapterOutput] | None = None) -> list[FrameRow]:
        """Take what ``pipeline.close`` returned; return every remaining row and the tail."""
        self._collect(outputs or [])
        report = self._pipeline.report()
        tail = self._pipeline.tail
        if tail is not None:
            self.tail = self._tail_row(tail)
        for diag in report.diagnostics[self._seen :]:
            self._place(diag)
        self._seen = len(report.diagnostics)
        self._flag()
        for diag in self._waiting:
            if self.tail is not None and diag.record is None and self._in_tail(diag):
                self.tail.diagnostics.append(diag)
            else:
                self.late.append(diag)
        self._waiting = []
        rows = self._release(keep_last=False)
        if self.tail is not None:
            rows.append(self.tail)
        return rows

    # -- internals -------------------------------------------------------------------

    def _collect(self, outputs: list[AdapterOutput]) -> None:
        events = self._events
        for ev in outputs:
            if type(ev) is Diagnostic:
                continue
            record = ev.record
            if record is None:
                continue
            found = events.get(record)
            if found is None:
                events[record] = [ev]
            else:
                found.append(ev)
        for rec in self._pipeline.take_records():
            row = self._row(rec)
            if self._flag_later and rec.index in self._flag_later:
                self._flag_later.discard(rec.index)
                row.flagged = True
            self._pending.append(row)
            self._by_index[rec.index] = row
            self._next = rec.index + 1
        self._flag()
        diagnostics = self._pipeline.aggregator.diagnostics
        if len(diagnostics) > self._seen:
            if self._waiting:
                waiting, self._waiting = self._waiting, []
                for diag in waiting:
                    self._place(diag)
            for diag in diagnostics[self._seen :]:
                self._place(diag)
            self._seen = len(diagnostics)

    def _flag(self) -> None:
        """Flag the rows named by invalid-record diagnostics, also those past the cap."""
        indexes = self._pipeline.aggregator.cap.invalid_indexes
        if len(indexes) == self._flags_seen:
            return
        by_index = self._by_index
        for index in indexes[self._flags_seen :]:
            row = by_index.get(index)
            if row is not None:
                row.flagged = True
            elif index >= self._next:
                self._flag_later.add(index)
        self._flags_seen = len(indexes)

    @staticmethod
    def _row(record: Record) -> FrameRow:
        if isinstance(record, SSEComment):
            return FrameRow(
                record.index,
                "comment",
                record.start,
                record.end - record.start,
                record.time,
                None,
                None,
                record.text,
            )
        event = record.event
        rid = record.id or None if isinstance(record, SSEEvent) else None
        if event is None or event == "message":
            event = json_type(record.data) or event
        return FrameRow(
            record.index,
            record.kind,
            record.start,
            record.end - record.start,
            record.time,
            event,
            rid,
            record.data,
        )

    def _tail_row(self, tail: Tail) -> FrameRow:
        length = tail.end - tail.start
        return FrameRow(None, "tail", tail.start, length, None, None, None, tail.raw, tail.raw)

    def _in_tail(self, diag: Diagnostic) -> bool:
        tail = self.tail
        return tail is not None and diag.offset is not None and diag.offset >= tail.offset

    def _place(self, diag: Diagnostic) -> None:
        if diag.record is not None:
            row = self._by_index.get(diag.record)
            if row is not None:
                row.diagnostics.append(diag)
            elif diag.record >= self._next:
                self._waiting.append(diag)  # about a record not framed yet
            else:
                self.late.append(diag)
            return
        if diag.offset is not None:
            for row in reversed(self._pending):
                if row.offset <= diag.offset < row.offset + row.length:
                    row.diagnostics.append(diag)
                    return
        self._waiting.append(diag)  # placed on the tail, or late, by finish()

    def _release(self, *, keep_last: bool) -> list[FrameRow]:
        pending = self._pending
        if not pending:
            return []
        ready = pending[:-1] if keep_last else pending
        self._pending = pending[-1:] if keep_last else []
        events = self._events
        by_index = self._by_index
        for row in ready:
            index = row.index
            assert index is not None
            evs = events.pop(index, None)
            del by_index[index]
            if row.kind == "comment":
                row.preview = row.data
                continue
            shown = ""
            if evs:
                shown = preview_of(evs)
                row.unknown = any(type(ev) is Unknown for ev in evs)
            row.preview = shown or _without_type(row.data, row.event)
        return ready

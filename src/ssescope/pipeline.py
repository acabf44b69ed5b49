"""The pipeline: body bytes → records → unified events → Report, still without I/O.

:class:`Pipeline` is the live, incremental form (what a chat UI or a proxy uses): feed it
chunks as they arrive, it returns the unified events they completed, and
:meth:`Pipeline.report` gives the Report at the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from . import codes
from .aggregate.aggregator import Aggregator, ToolCallState
from .aggregate.report import RecordCounts, Report, ResponseReport
from .aggregate.starts import RecordStarts
from .aggregate.timing import RecordTimes, TimingOptions, compute_timing
from .aggregate.timing_summary import TimingSummary
from .diagnostics import Diagnostic, diagnostic
from .errors import UsageError
from .events import UnifiedEvent
from .exchange_verdicts import error_from_body, http_error, not_a_stream, websocket_end
from .framing.framer import Framer, FramingParser
from .framing.records import DataRecord, FramingOutput, Record, SSEComment, SSEEvent, Tail
from .incremental import Incremental, close_once, refuse_feed_after_close
from .limits import BOUNDED_CONTENT_CHARS, BOUNDED_RECORD_OFFSETS
from .providers._base import Adapter, AdapterBase, AdapterOutput
from .providers.detect import detect_provider
from .providers.pending import terminal_name
from .providers.registry import PROVIDERS, knowledge, make_adapter
from .sourceinfo import SourceInfo, WebSocketEnd
from .toolschema.check import ToolChecker

__all__ = ["Pipeline", "error_from_body"]

_HOLD_LIMIT = 64  # data records held while the provider is still unknown
_ERROR_BODY_BYTES = 1 << 16  # how much of the body is kept to describe an HTTP error
_TRIM_EVERY = 1 << 20  # body bytes between two trims of the assembled content (bounded)
_PASS_RECORDS = 256  # records framed by feed_many before they go through the engine


class Pipeline:
    """Sans-I/O engine: feed body bytes (with arrival times), get unified events.

    Args:
        provider: ``"auto"`` (default) or a provider name (``ssescope.providers.PROVIDERS``).
        framing: ``"auto"`` (default) or ``"sse"``, ``"ndjson"``, ``"json-array"``,
            ``"json"`` (one document), ``"aws-eventstream"``.
        max_event_bytes: opt-in cap on one SSE event block.
        timing: thresholds for ``timing.stall`` / ``timing.burst``.
        source: what is known about the body's source (container, HTTP status, what it
            lost, how a capture ended, its own diagnostics, its entry); frozen, given
            once. The default is a raw body that says nothing about itself.
        keep_records: keep every record in :attr:`records` (for frame views); off by
            default so that a long stream is inspected in bounded memory.
        collect_events: return the unified events from :meth:`feed` and :meth:`close`
            (on by default; ``inspect``, which only wants the Report, turns it off).
        bounded: keep memory bounded whatever the stream's length (what ``ssescope proxy``
            runs): timing is kept as running figures (:class:`TimingSummary`) instead of a
            time per record, record offsets only for the first
            :data:`~ssescope.limits.BOUNDED_RECORD_OFFSETS` records, and at most
            :data:`~ssescope.limits.BOUNDED_CONTENT_CHARS` characters of each text part
            and tool call's arguments. The Report is the same as without it unless a cap
            was reached, which a ``stream.memory-capped`` diagnostic then says.

    Raises:
        UsageError: for an unknown provider or framing.
    """

    def __init__(
        self,
        *,
        provider: str = "auto",
        framing: str = "auto",
        max_event_bytes: object = None,
        timing: TimingOptions | None = None,
        source: SourceInfo | None = None,
        keep_records: bool = False,
        collect_events: bool = True,
        bounded: bool = False,
    ) -> None:
        if provider != "auto" and provider not in PROVIDERS:
            raise UsageError(
                f"unknown provider {provider!r}; expected auto or one of {', '.join(PROVIDERS)}"
            )
        self._framer = Framer(framing, max_event_bytes=max_event_bytes)
        self._provider = provider
        self.provider_rule = "given by the caller" if provider != "auto" else ""
        self._adapter: Adapter | None = None
        self._held: list[DataRecord] = []
        self.aggregator = Aggregator()
        self.aggregator.cap.track_invalid = keep_records
        self.aggregator.set_offset_lookup(self._offset)
        # offsets as machine integers (a list of int objects costs 36 bytes a record), and
        # runs of comments as runs (RecordStarts)
        self._starts = RecordStarts()
        self._times = RecordTimes(self._starts)
        self._comments = 0
        self._head: list[bytes] = []
        self._collect = collect_events
        self._counts = RecordCounts()
        self._first_data: int | None = None
        self._summary: TimingSummary | None = None
        if bounded:
            self._summary = TimingSummary(timing or TimingOptions())
        self._past_offsets = 0  # records counted past BOUNDED_RECORD_OFFSETS
        self._offsets_left = BOUNDED_RECORD_OFFSETS  # (len(self._starts), counted down)
        self._trim_at = _TRIM_EVERY
        self._bytes = 0
        self._first_byte: float | None = None
        self._last_time: float | None = None
        self._closed = False
        self._timing = timing or TimingOptions()
        self._source = source or SourceInfo()
        self.aggregator.tool_checker = ToolChecker(self._source.tools)
        self._extra: list[Diagnostic] = list(self._source.diagnostics)
        self._max_time: float | None = None
        self._last_content: float | None = None
        self._first_content: float | None = None
        self._content_found = False
        self._report: Report | None = None
        self._keep = keep_records
        self.records: list[Record] = []
        """Every record, in order, when ``keep_records`` was asked for."""

    # -- what is known so far ------------------------------------------------------------

    @property
    def framing(self) -> str | None:
        """The framing, once decided."""
        return self._framer.framing

    @property
    def provider(self) -> str | None:
        """The provider, once decided."""
        return None if self._provider == "auto" else self._provider

    @property
    def source(self) -> SourceInfo:
        """What is known about the body's source (given when the pipeline was built)."""
        return self._source

    @property
    def container(self) -> str:
        """The container the body came in (``source.container``)."""
        return self.source.container

    @property
    def http_status(self) -> int | None:
        """The response's HTTP status, if the source records it."""
        return self.source.status

    @property
    def lost(self) -> list[str]:
        """What the source cannot give (``source.lost``)."""
        return list(self.source.lost)

    @property
    def bytes_seen(self) -> int:
        """How many body bytes were fed."""
        return self._bytes

    @property
    def first_byte_time(self) -> float | None:
        """The arrival time of the first body byte (what the Report calls first byte)."""
        return self._first_byte

    @property
    def last_time(self) -> float | None:
        """The arrival time of the latest chunk fed."""
        return self._last_time

    @property
    def last_content_time(self) -> float | None:
        """The arrival time of the latest chunk that completed a content record (text,
        reasoning, refusal, tool-call arguments, the terminal event): what a live client
        measures a content stall from. ``None`` before the first."""
        return self._last_content

    @property
    def first_content_time(self) -> float | None:
        """The arrival time of the record of the first generated content (text, reasoning,
        refusal, a tool call's name or arguments: see
        :func:`~ssescope.aggregate.content.is_generated_content`), as soon as it is framed;
        the Report's ``timing.first_content_s`` is the same figure. ``None`` before it."""
        return self._first_content

    @property
    def first_content_seen(self) -> bool:
        """Whether the first generated content has arrived (with or without a time)."""
        return self._content_found

    @property
    def tail(self) -> Tail | None:
        """After :meth:`close`: the bytes after the last complete record, if the body was cut."""
        return self._framer.tail

    def take_records(self) -> list[Record]:
        """Return the records kept since the last call and forget them (``keep_records``).

        A frame view that prints rows as they come calls this after each chunk, so that a
        long stream is shown in bounded memory.
        """
        taken = self.records
        self.records = []
        return taken

    @property
    def record_count(self) -> int:
        """How many records were framed so far."""
        return len(self._starts) + self._past_offsets

    def tool_calls(self, output: int = 0) -> list[ToolCallState]:
        """The tool calls of ``output`` assembled so far (with a partial-JSON view)."""
        return self.aggregator.tool_calls(output)

    @property
    def unknown_records(self) -> set[int]:
        """Indexes of the records the adapter did not know."""
        return self.aggregator.unknown_record_indexes()

    def _offset(self, record: int) -> int | None:
        return self._starts.get(record)

    # -- feeding ----------------------------------------------------------------------

    def feed(self, data: bytes, time: float | None = None) -> list[AdapterOutput]:
        """Feed the next chunk of the body.

        Args:
            data: body bytes, in any chunking.
            time: arrival time (seconds since the request started), if known.

        Returns:
            The unified events (and diagnostics) this chunk completed, in order.

        Raises:
            UsageError: if called after :meth:`close`.
        """
        if self._closed:
            refuse_feed_after_close()
        if data:
            if self._bytes < _ERROR_BODY_BYTES:
                self._head.append(data[: _ERROR_BODY_BYTES - self._bytes])
            self._bytes += len(data)
            if time is not None:
                if self._first_byte is None:
                    self._first_byte = time
                self._last_time = time
        if time is not None and (self._max_time is None or time > self._max_time):
            self._max_time = time
        marks = self.aggregator.content_marks
        out = self._records(self._framer.feed(data, time))
        if time is not None and self.aggregator.content_marks != marks:
            self._last_content = time
        if self._summary is not None and self._bytes >= self._trim_at:
            self._trim_at = self._bytes + _TRIM_EVERY
            self.aggregator.trim_content(BOUNDED_CONTENT_CHARS)
        return out

    def feed_many(self, chunks: Sequence[bytes], times: Sequence[float]) -> list[AdapterOutput]:
        """Feed several chunks at once, each with its own arrival time: the Report is the
        one :meth:`feed` chunk by chunk gives (what the in-app transport does with the
        chunks the app read since its last batch).

        The records of the whole batch go through the engine in one pass, which costs less
        per chunk than one :meth:`feed` each. :attr:`last_content_time` after it is the
        arrival time of the latest content record's chunk. Until the provider is known the
        chunks are fed one by one.

        Args:
            chunks: body bytes, in order.
            times: the arrival time of each chunk (seconds since the request started).

        Returns:
            What :meth:`feed` returns for each chunk, one list after the other.

        Raises:
            UsageError: if called after :meth:`close`, or without one time per chunk.
        """
        if self._closed:
            refuse_feed_after_close()
        if len(chunks) != len(times):
            raise UsageError("feed_many() needs one time per chunk")
        out: list[AdapterOutput] = []
        k = 0
        while k < len(chunks) and self._adapter is None:
            out += self.feed(chunks[k], times[k])
            k += 1
        if k < len(chunks):
            out += self._feed_batch(chunks[k:] if k else chunks, times[k:] if k else times)
        return out

    def _feed_batch(self, chunks: Sequence[bytes], times: Sequence[float]) -> list[AdapterOutput]:
        summary = self._summary
        size = sum(map(len, chunks))
        top = max(times)
        if summary is not None:
            if self._bytes + size >= self._trim_at:
                return self._feed_each(chunks, times)
            since = summary.prev_t if summary.count else self._first_byte
            low = min(times)
            if since is None or top - min(since, low) >= summary.options.stall_s:
                return self._feed_each(chunks, times)
        # No trim and no silence of stall_s within the batch: its bookkeeping once, and
        # its chunks framed one after the other.
        if size:
            seen = self._bytes
            if seen < _ERROR_BODY_BYTES:
                for data in chunks:
                    if seen >= _ERROR_BODY_BYTES:
                        break
                    if data:
                        self._head.append(data[: _ERROR_BODY_BYTES - seen])
                        seen += len(data)
            self._bytes += size
            first = 0
            while not chunks[first]:
                first += 1
            last = len(chunks) - 1
            while not chunks[last]:
                last -= 1
            if self._first_byte is None:
                self._first_byte = times[first]
            self._last_time = times[last]
        if self._max_time is None or top > self._max_time:
            self._max_time = top
        out: list[AdapterOutput] = []
        items: list[FramingOutput] = []
        framer: Framer | FramingParser = self._framer.parser or self._framer
        for data, time in zip(chunks, times, strict=True):
            items += framer.feed(data, time)
            if len(items) >= _PASS_RECORDS:
                out += self._timed_records(items, time)
                items = []
        if items:
            out += self._timed_records(items, times[-1])
        return out

    def _feed_each(self, chunks: Sequence[bytes], times: Sequence[float]) -> list[AdapterOutput]:
        out: list[AdapterOutput] = []
        items: list[FramingOutput] = []
        framer = self._framer
        summary = self._summary
        # A bounded pipeline counts its first 20 stalls as it meets them: a silence in the
        # bytes as each record is framed, a silence in the content as the records are
        # classified, after each feed. So that the same ones are counted, a record that
        # may end a silence in the bytes (``stall_s`` after the latest record, or more)
        # begins a new pass, as it would begin a new feed.
        stall = None if summary is None else summary.options.stall_s
        base = None if summary is None or not summary.count else summary.prev_t
        prev = times[0]
        for data, time in zip(chunks, times, strict=True):
            if data:
                if self._bytes < _ERROR_BODY_BYTES:
                    self._head.append(data[: _ERROR_BODY_BYTES - self._bytes])
                self._bytes += len(data)
                if self._first_byte is None:
                    self._first_byte = time
                self._last_time = time
            if self._max_time is None or time > self._max_time:
                self._max_time = time
            if stall is not None and items:
                since = base if base is not None else self._first_byte
                if since is not None and time - since >= stall:
                    out += self._timed_records(items, prev)
                    items = []
            found = framer.feed(data, time)
            if found:
                items += found
                if type(found[-1]) is not Diagnostic or any(
                    type(item) is not Diagnostic for item in found
                ):
                    base = time  # (the time of the latest record)
            prev = time
            if summary is not None and self._bytes >= self._trim_at:
                # (the content is trimmed after the same chunk as by feed)
                out += self._timed_records(items, time)
                items = []
                self._trim_at = self._bytes + _TRIM_EVERY
                self.aggregator.trim_content(BOUNDED_CONTENT_CHARS)
        if items:
            out += self._timed_records(items, prev)
        return out

    def _timed_records(self, items: list[FramingOutput], last: float) -> list[AdapterOutput]:
        """:meth:`_records` of a batch, and the time of its latest content record."""
        agg = self.aggregator
        marks = agg.content_marks
        out = self._records(items)
        if agg.content_marks != marks:
            index = agg.last_content_record
            found = last
            for item in reversed(items):
                if not isinstance(item, Diagnostic) and item.index == index:
                    found = item.time if item.time is not None else last
                    break
            self._last_content = found
        return out

    def close(
        self, time: float | None = None, *, websocket: WebSocketEnd | None = None
    ) -> list[AdapterOutput]:
        """Signal the end of the body.

        Args:
            time: when the body ended (seconds since the request started), if known.
                Without it, a source that records the exchange's duration
                (``source.total_s``) ends it then, or at the last chunk if that came later.
                A source whose capture says the client cancelled marks the response
                cancelled.
            websocket: how the WebSocket that carried the stream ended, when that is known
                only now (a live connection: ``ssescope proxy``, ``request`` over a
                WebSocket); it replaces ``source.websocket`` and is judged the same way.

        Returns:
            The last events and diagnostics (unfinished blocks, calls, …).

        Raises:
            UsageError: if called twice.
        """
        close_once(self)
        if websocket is not None:
            self._source = replace(self._source, websocket=websocket)
        source = self.source
        if source.end == "cancelled":
            self.cancel("the capture says the client cancelled the stream")
        if time is None:
            time = source.total_s
            if self._max_time is not None and (time is None or self._max_time > time):
                time = self._max_time
        if time is not None:
            self._last_time = time
        out = self._records(self._framer.close(time))
        if self._adapter is None:
            out.extend(self._decide("unknown", "no record matched any provider's shape"))
        assert self._adapter is not None
        pending = self._framer.pending
        if pending is not None and not self.aggregator.terminal_seen:
            out.extend(self._read_pending(pending))
        tail = self._adapter.close()
        self.aggregator.feed(tail)
        out.extend(tail)
        self._late_first_content()
        if source.websocket is not None:
            self._extra += websocket_end(source.websocket, self.aggregator)
        return out

    def _read_pending(self, pending: SSEEvent) -> list[AdapterOutput]:
        """Read an unterminated last event that is the provider's terminal event, whole
        but for its blank line (``docs/verdicts.md``); anything else stays discarded."""
        name = terminal_name(self._provider, pending)
        if name is None:
            return []
        warning = diagnostic(
            codes.SSE_TERMINAL_EVENT_UNTERMINATED,
            pending.start,
            pending.index,
            pending.data,
            marker=name,
        )
        return self._records([warning, pending])

    def cancel(self, reason: str = "the client aborted the stream") -> None:
        """Mark the response as cancelled by the client (call before :meth:`close`)."""
        self.aggregator.cancel(reason)

    def add_diagnostic(self, diagnostic: Diagnostic) -> None:
        """Attach a diagnostic found outside the body (by the container or the client)."""
        self._extra.append(diagnostic)

    def _records(self, items: list[FramingOutput]) -> list[AdapterOutput]:
        # The per-record loop of the whole engine: kept to type checks and appends
        # (record counts are derived from these lists at the end, not counted here).
        out: list[AdapterOutput] = []
        if not items:
            return out
        adapter = self._adapter
        starts = self._starts
        offsets = starts.array
        keep = self._keep
        summary = self._summary
        held = self._held  # (for a bounded pipeline's first-content time)
        first_byte = self._first_byte  # (set before the chunk's records are framed)
        pending: list[tuple[int, float, int, bool]] = []
        if summary is not None:
            pending = summary.pending
            if first_byte is not None:
                summary.first_byte = first_byte
        # Events and framing diagnostics of the whole chunk go to the aggregator in one
        # call, in stream order (so the Report cannot depend on the chunking).
        batch: list[AdapterOutput] = []
        for item in items:
            kind = type(item)
            if kind is Diagnostic:
                batch.append(item)  # type: ignore[arg-type]
                continue
            record: Record = item  # type: ignore[assignment]
            if summary is None:
                if kind is SSEComment:
                    starts.comment(record.index, record.start)
                else:
                    offsets.append(record.start)
                if record.time is not None:
                    self._times.append(record.index, record.time)
            else:
                # a bounded pipeline's bookkeeping (instead of per-record lists), inline
                comment = kind is SSEComment
                start = record.start
                if self._offsets_left:
                    self._offsets_left -= 1
                    if comment:
                        starts.comment(record.index, start)
                    else:
                        offsets.append(start)
                else:
                    self._past_offsets += 1
                time = record.time
                if time is not None and first_byte is not None:
                    pending.append((record.index, time, start, not comment))
            if keep:
                self.records.append(record)
            if kind is SSEComment:
                self._comments += 1
                continue
            data: DataRecord = record  # type: ignore[assignment]
            if adapter is None:
                if self._first_data is None:
                    self._first_data = data.index
                    if summary is not None:
                        summary.first_event_s = data.time
                if batch:
                    self._flush(batch, out)
                    batch = []
                out.extend(self._hold(data))
                adapter = self._adapter
                continue
            events = adapter.feed(data)
            if events:
                batch += events
        if batch:
            self._flush(batch, out)
        if not self._content_found and self.aggregator.first_content_record is not None:
            self._first_content_time(items, held)
        if summary is not None and (self._adapter is not None or self._first_data is None):
            self._settle(summary)  # (not while data records are held for the provider)
        return out

    def _settle(self, summary: TimingSummary, *, end: bool = False) -> None:
        """Tell a bounded pipeline's running figures which records carried content."""
        agg = self.aggregator
        marks = agg.content_records
        consumed = summary.classify(marks, agg.content_kinds, end=end)
        if consumed:
            del marks[:consumed]
            del agg.content_kinds[:consumed]

    def _first_content_time(self, items: list[FramingOutput], held: list[DataRecord]) -> None:
        """Once the first content is known: the arrival time of its record, which is one
        of the records just framed or one of those held until the provider was known."""
        first = self.aggregator.first_content_record
        self._content_found = True
        for item in (*held, *items):
            if isinstance(item, Diagnostic):
                continue
            if item.index == first:
                self._first_content = item.time
                break
        if self._summary is not None:
            self._summary.content_known = True
            self._summary.first_content_s = self._first_content

    def _late_first_content(self) -> None:
        """At the end: a first content that came out of closing (records held until the
        provider was known, a pending record) gets its record's time too."""
        first = self.aggregator.first_content_record
        if self._content_found or first is None:
            return
        self._content_found = True
        for index, t, _ in self._times:  # (a bounded pipeline keeps no times: None)
            if index == first:
                self._first_content = t
                break

    def _flush(self, batch: list[AdapterOutput], out: list[AdapterOutput]) -> None:
        self.aggregator.feed(batch)
        if self._collect:
            out.extend(batch)

    def _hold(self, record: DataRecord) -> list[AdapterOutput]:
        if self._provider != "auto":
            return self._decide(self._provider, self.provider_rule, record)
        found = detect_provider(record)
        if found is not None:
            return self._decide(found[0], found[1], record)
        self._held.append(record)
        if len(self._held) >= _HOLD_LIMIT:
            return self._decide(
                "unknown", f"none of the first {_HOLD_LIMIT} records matched a provider"
            )
        return []

    def _decide(
        self, provider: str, rule: str, record: DataRecord | None = None
    ) -> list[AdapterOutput]:
        self._provider = provider
        self.provider_rule = rule
        framing = self._framer.framing or "sse"
        self._adapter = make_adapter(provider, framing)
        if self._source.request_ids:
            expect = getattr(self._adapter, "expect_request", None)
            if expect is not None:  # (the adapters whose responses answer a request id)
                expect(self._source.request_ids)
        known = knowledge(provider)
        self.aggregator.reports_usage = known.reports_usage
        self.aggregator.usage_request = known.usage_request
        held = self._held
        if record is not None:
            held.append(record)
        self._held = []
        out: list[AdapterOutput] = []
        for rec in held:
            events = self._adapter.feed(rec)
            self.aggregator.feed(events)
            out.extend(events)
        return out

    # -- the end ----------------------------------------------------------------------

    def _caps_reached(self) -> list[Diagnostic]:
        """A bounded pipeline's ``stream.memory-capped`` diagnostics, one per cap reached."""
        found: list[Diagnostic] = []
        cut = self.aggregator.content_cut
        if cut:
            found.append(
                diagnostic(
                    codes.STREAM_MEMORY_CAPPED,
                    form="content",
                    chars=cut,
                    limit=BOUNDED_CONTENT_CHARS,
                )
            )
        if self._past_offsets:
            found.append(
                diagnostic(
                    codes.STREAM_MEMORY_CAPPED,
                    form="offsets",
                    records=self._past_offsets,
                    limit=BOUNDED_RECORD_OFFSETS,
                )
            )
        return found

    def report(self) -> Report:
        """Build the Report (once; later calls return the same object).

        Raises:
            UsageError: before :meth:`close`.
        """
        if not self._closed:
            raise UsageError("report() needs close() first")
        if self._report is not None:
            return self._report
        agg = self.aggregator
        agg.end_offset = self._bytes
        if self._summary is not None:
            agg.trim_content(BOUNDED_CONTENT_CHARS)
        responses = agg.close()
        cap = agg.cap
        cap.extend(self._extra)
        diagnostics = cap.kept
        self._counts.invalid = cap.dropped_invalid_records + len(
            {d.record for d in diagnostics if d.record is not None and d.spec.invalidates}
        )
        self._counts.unknown = agg.unknown_records
        counts = self._counts
        counts.total = self.record_count
        counts.comments = self._comments
        counts.data = counts.total - self._comments
        # the live client reports the silence it closed the connection on itself
        trailing_stall = not any(
            d.spec in (codes.TIMING_STALL, codes.STREAM_OPEN_AFTER_FINISH) for d in self._extra
        )
        if self._summary is None:
            timing, timing_diags = compute_timing(
                self._first_byte,
                self._last_time,
                self._times,
                self._first_data,
                agg.first_content_record,
                self._timing,
                trailing_stall=trailing_stall,
                content_records=agg.content_records,
                content_kinds=agg.content_kinds,
            )
        else:
            self._settle(self._summary, end=True)
            timing, timing_diags = self._summary.result(
                self._first_byte, self._last_time, trailing_stall=trailing_stall
            )
            timing_diags += self._caps_reached()
        cap.extend(timing_diags)
        diagnostics = [*cap.kept, *cap.summaries()]
        report = Report(
            container=self.container,
            bytes=self._bytes,
            framing=self._framer.framing or "sse",
            framing_rule=self._framer.rule,
            provider=self._provider if self._provider != "auto" else "unknown",
            provider_rule=self.provider_rule,
            response=responses[-1],
            responses=responses,
            records=self._counts,
            diagnostics=diagnostics,
            timing=timing,
            http_status=self.source.status,
            lost=list(self.source.lost),
            entry=self.source.entry,
            websocket=self.source.websocket,
            state=agg.state,
            task=agg.agent.task,
            artifacts=agg.agent.artifacts(),
            notifications=agg.agent.notifications(),
        )
        status = self.source.status
        failed = status is not None and status >= 400
        if not counts.total and not failed:
            not_a_stream(report, b"".join(self._head), self._bytes)
        if failed:
            http_error(report, status, b"".join(self._head))
        self._report = report
        return report


if TYPE_CHECKING:  # mypy holds every part of the pipeline to the one Incremental shape

    def _framer_shape(framer: Framer) -> Incremental[bytes, FramingOutput]:
        return framer

    def _parser_shape(parser: FramingParser) -> Incremental[bytes, FramingOutput]:
        return parser  # (each framing's parser is a FramingParser: make_parser says so)

    def _adapter_shape(adapter: Adapter) -> Incremental[DataRecord, AdapterOutput]:
        return adapter

    def _adapter_base_shape(adapter: AdapterBase) -> Adapter:
        return adapter  # (AdapterBase keeps feed and close; each adapter fills in their steps)

    def _aggregator_shape(
        aggregator: Aggregator,
    ) -> Incremental[Iterable[UnifiedEvent | Diagnostic], ResponseReport]:
        return aggregator

    def _pipeline_shape(pipeline: Pipeline) -> Incremental[bytes, AdapterOutput]:
        return pipeline

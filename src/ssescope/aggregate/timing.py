"""Timing from arrival times: first byte, first event, first content, gaps, stalls, bursts.

Times are seconds since the request started, as the source stamped them. When the source
has no arrival times (a pasted body, a HAR) every figure is ``None``: not measured, never
guessed.

Two kinds of silence are measured. Byte-idle (``max_gap_s``) is the longest time without
any record; content-idle (``max_content_idle_s``) the longest time without a content
record (text, reasoning, refusal, tool-call arguments, the terminal event), whatever else
arrived: a proxy's ``: keep-alive`` comments and a provider's ``ping`` events keep bytes
flowing while the model is silent. Each ``timing.stall`` says its ``kind``: ``"bytes"``
when nothing arrived, ``"content"`` when only such records did (a silence already reported
as a bytes stall is not reported again as a content stall).
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..limits import CONTENT_RECORDS_KEPT
from .content import CONTENT_KINDS
from .pace import PaceStalls
from .report import Timing
from .starts import Offsets

__all__ = ["GAP_BUCKETS", "RecordTimes", "TimingOptions", "TimingSummary", "compute_timing"]

GAP_BUCKETS: tuple[tuple[str, float], ...] = (
    ("<10ms", 0.010),
    ("<100ms", 0.100),
    ("<1s", 1.0),
    ("<5s", 5.0),
    (">=5s", float("inf")),
)


@dataclass(frozen=True, slots=True)
class TimingOptions:
    """Thresholds for the timing diagnostics.

    Attributes:
        stall_s: a silence at least this long is a ``timing.stall``, wherever it is.
        stall_floor_s: after the first content, a silence is also a stall when it lasts
            ``stall_pace`` times the stream's median gap between content records, and at
            least this long (see :mod:`ssescope.aggregate.pace`).
        stall_pace: see above; ``None`` for ``stall_s`` alone (a fixed threshold).
        burst_records: this many records or more arriving within ``burst_window_s`` …
        burst_window_s: … right after a gap of at least ``burst_wait_s`` is a
            ``timing.burst`` (a buffering proxy flushing at once).
        burst_wait_s: see above.
    """

    stall_s: float = 10.0
    stall_floor_s: float = 2.0
    stall_pace: float | None = 20.0
    burst_records: int = 8
    burst_window_s: float = 0.001
    burst_wait_s: float = 0.25

    def __reduce__(self) -> tuple[type[TimingOptions], tuple[float | int | None, ...]]:
        # pickled by its fields (a scan's worker processes get it): the compiled core's
        # frozen class cannot be rebuilt by setting attributes one by one
        return TimingOptions, (
            self.stall_s,
            self.stall_floor_s,
            self.stall_pace,
            self.burst_records,
            self.burst_window_s,
            self.burst_wait_s,
        )


def _bucket(gap: float) -> str:
    for name, limit in GAP_BUCKETS:
        if gap < limit:
            return name
    return GAP_BUCKETS[-1][0]


class RecordTimes(Sequence[tuple[int, float, int]]):
    """The arrival time of each timed record, as machine numbers (24 bytes a record).

    A list of tuples costs about 120 bytes a record; a 2 GiB capture has millions.
    """

    def __init__(self, starts: Offsets) -> None:
        self._starts = starts
        self._index = array("q")
        self._time = array("d")

    def append(self, index: int, time: float) -> None:
        """Record that record ``index`` (starting at ``starts[index]``) arrived at ``time``."""
        self._index.append(index)
        self._time.append(time)

    def __len__(self) -> int:
        return len(self._index)

    @overload
    def __getitem__(self, key: int) -> tuple[int, float, int]: ...

    @overload
    def __getitem__(self, key: slice) -> Sequence[tuple[int, float, int]]: ...

    def __getitem__(
        self, key: int | slice
    ) -> tuple[int, float, int] | Sequence[tuple[int, float, int]]:
        if isinstance(key, slice):
            return [self[k] for k in range(*key.indices(len(self)))]
        index = self._index[key]
        return index, self._time[key], self._starts[index]


class _ContentIdle:
    """The content-idle time, counted record by record (the same in both timing forms).

    Args:
        start: the first byte's arrival time, where the first silence begins.
        options: thresholds.
    """

    def __init__(self, start: float, options: TimingOptions) -> None:
        self.options = options
        self.pace = PaceStalls(options.stall_s, options.stall_floor_s, options.stall_pace)
        """The silences that may be stalls for the stream's pace."""
        self.seen = 0  # content records so far
        self.last = start  # when the last content record arrived (or the first byte)
        self.longest = 0.0
        self.kind = -1  # what the last content record carried (-1: none yet)
        self.longest_after = -1  # what the content before the longest silence carried
        self.between = 0  # records since the last content record
        self.covered = False  # whether a bytes stall lies inside the current silence
        self.times: array[float] = array("d")
        """The arrival time of each content record (the first CONTENT_RECORDS_KEPT)."""
        self.stall_s = options.stall_s
        self.low = self.pace.low
        """Silences shorter than this are never noted for the pace (``pace.low``)."""

    def bytes_stall(self) -> None:
        """A bytes stall lies inside the current silence (it is reported as that)."""
        self.covered = True

    def record(
        self, time: float, content: bool, offset: int, index: int, kind: int = 0
    ) -> Diagnostic | None:
        """Count record ``index`` (at byte ``offset``); a ``timing.stall`` of kind content
        when it is a content record ending a long silence. ``kind`` is what a content
        record carried (an index in :data:`~ssescope.aggregate.content.CONTENT_KINDS`)."""
        if not content:
            self.between += 1
            return None
        last = self.last
        gap = time - last
        if gap > self.longest:
            self.longest = gap
            self.longest_after = self.kind
        self.kind = kind
        times = self.times
        if len(times) < CONTENT_RECORDS_KEPT:
            times.append(time)
        found = None
        if gap >= self.stall_s:
            if not self.covered:
                found = self._stall("content-gap", gap, offset, index)
        elif gap >= self.low and self.seen:
            self.pace.content_gap(last, time, offset, index, self.between)
        self.seen += 1
        self.last = time
        self.between = 0
        self.covered = False
        return found

    def end(self, last_byte: float) -> float:
        """The silence after the last content record, until the body ended."""
        tail = last_byte - self.last
        if tail > self.longest:
            self.longest = tail
            self.longest_after = self.kind
        return tail

    def after(self) -> str | None:
        """What content the longest silence followed (``None``: it came before any)."""
        return None if self.longest_after < 0 else CONTENT_KINDS[self.longest_after]

    def pace_stalls(
        self, tail: float | None, content_tail: float, offset: int, index: int, room: int
    ) -> list[Diagnostic]:
        """The stalls for the stream's pace (:mod:`~ssescope.aggregate.pace`): the silences
        noted, and the one until the end (``tail`` after the last record, judged unless
        ``None``)."""
        judged = None if tail is None else (tail, content_tail, offset, index, self.between)
        return self.pace.diagnostics(self.times, judged, room)

    def tail_stall(self, tail: float, offset: int, index: int) -> Diagnostic | None:
        """The ``timing.stall`` of the silence after the last content record, if it is one
        (named at the last record, ``index``, at byte ``offset``)."""
        if tail >= self.options.stall_s and not self.covered and self.between:
            return self._stall("content-tail", tail, offset, index)
        return None

    def _stall(self, form: str, gap: float, offset: int, index: int) -> Diagnostic:
        return diagnostic(
            codes.TIMING_STALL,
            offset,
            index,
            form=form,
            kind="content",
            gap=gap,
            records=self.between,
            stall_s=self.options.stall_s,
        )


def compute_timing(
    first_byte: float | None,
    last_byte: float | None,
    record_times: Sequence[tuple[int, float | None, int]],
    first_data_record: int | None,
    first_content_record: int | None,
    options: TimingOptions,
    *,
    trailing_stall: bool = True,
    content_records: Sequence[int] = (),
    content_kinds: Sequence[int] = (),
) -> tuple[Timing, list[Diagnostic]]:
    """Compute :class:`Timing` and the timing diagnostics.

    Args:
        first_byte: arrival time of the first chunk, or ``None``.
        last_byte: arrival time of the last chunk (or of the end), or ``None``.
        record_times: ``(record index, time, byte offset)`` of every record with a time,
            in order (:class:`RecordTimes` keeps them in 24 bytes a record).
        first_data_record: index of the first data record.
        first_content_record: index of the record of the first content delta.
        options: thresholds.
        trailing_stall: report a silence after the last record as ``timing.stall`` (off
            when the live client already reported the stall it aborted on).
        content_records: the index of each content record, in order (the aggregator's
            ``content_records``), for the content-idle time.
        content_kinds: what each of ``content_records`` carried (the aggregator's
            ``content_kinds``), for what the longest silence followed.
    """
    timing = Timing()
    diags: list[Diagnostic] = []
    if first_byte is None:
        return timing, diags
    timing.first_byte_s = first_byte
    timing.total_s = last_byte
    # (a scan, not a dict or a filtered copy: memory stays at the caller's arrays)
    for i, t, _ in record_times:
        if i == first_data_record:
            timing.first_event_s = t
        if i == first_content_record:
            timing.first_content_s = t
            break
    times = record_times
    histogram = {name: 0 for name, _ in GAP_BUCKETS}
    max_gap = 0.0
    prev_t = first_byte
    # The wait before the first record counts from the request (time 0), so that a
    # proxy that holds the whole response and sends it in the first chunk shows as a
    # burst ("11 frames in 35 µs after a 515 ms first byte").
    wait_from = 0.0
    stall_reported = 0
    burst_start: int | None = None
    idle = _ContentIdle(first_byte, options)
    pace_low = idle.pace.low
    marks = content_records
    mark = 0
    n_marks = len(marks)
    n_kinds = len(content_kinds)
    for pos, (index, t, offset) in enumerate(times):
        if t is None:
            continue
        gap = t - prev_t
        if pos:
            histogram[_bucket(gap)] += 1
        max_gap = max(max_gap, gap)
        if gap >= pace_low and gap < options.stall_s:
            idle.pace.bytes_gap(gap, t, offset, index)
        if gap >= options.stall_s:
            idle.bytes_stall()
            if stall_reported < 20:
                stall_reported += 1
                diags.append(
                    diagnostic(
                        codes.TIMING_STALL,
                        offset,
                        index,
                        form="gap",
                        kind="bytes",
                        gap=gap,
                        stall_s=options.stall_s,
                    )
                )
        while mark < n_marks and marks[mark] < index:
            mark += 1
        is_content = mark < n_marks and marks[mark] == index
        kind = content_kinds[mark] if is_content and mark < n_kinds else 0
        found = idle.record(t, is_content, offset, index, kind)
        if found is not None and stall_reported < 20:
            stall_reported += 1
            diags.append(found)
        wait = t - wait_from
        wait_from = t
        if wait >= options.burst_wait_s and burst_start is None:
            # count the records that land within the window after this wait
            count = 0
            for k in range(pos, len(times)):
                t2 = times[k][1]
                if t2 is None or t2 - t > options.burst_window_s:
                    break
                count += 1
            if count >= options.burst_records:
                burst_start = index
                diags.append(
                    diagnostic(
                        codes.TIMING_BURST,
                        offset,
                        index,
                        count=count,
                        window_ms=options.burst_window_s * 1000,
                        wait=wait,
                    )
                )
        prev_t = t
    if last_byte is not None:
        tail = last_byte - prev_t
        max_gap = max(max_gap, tail)
        content_tail = idle.end(last_byte)
        if tail >= options.stall_s:
            idle.bytes_stall()
        last = times[-1] if times else (0, 0.0, 0)
        judged = tail if trailing_stall and times else None
        diags += idle.pace_stalls(judged, content_tail, last[2], last[0], 20 - stall_reported)
        if trailing_stall and times and stall_reported < 20:
            index, _, offset = times[-1]
            if tail >= options.stall_s:
                # silence after the last record, until the body ended (or the client gave up)
                diags.append(
                    diagnostic(
                        codes.TIMING_STALL,
                        offset,
                        index,
                        form="tail",
                        kind="bytes",
                        tail=tail,
                        stall_s=options.stall_s,
                    )
                )
            else:
                found = idle.tail_stall(content_tail, offset, index)
                if found is not None:
                    diags.append(found)
    timing.max_gap_s = round(max_gap, 6)
    timing.max_content_idle_s = round(max(idle.longest, 0.0), 6)
    timing.max_content_idle_after = idle.after()
    timing.content_times = idle.times
    timing.gap_histogram = histogram
    return timing, diags


@dataclass(slots=True)
class _Candidate:
    """A record after a long wait, counting the records that land within the burst window."""

    pos: int
    index: int
    offset: int
    time: float
    wait: float
    count: int = 1
    open: bool = True  # no record has landed outside its window yet


class TimingSummary:
    """:func:`compute_timing` as running figures: the same Timing and diagnostics, in
    constant memory (what a bounded :class:`~ssescope.pipeline.Pipeline` keeps).

    Feed every timed record in order with :meth:`append`; :meth:`result` gives what
    :func:`compute_timing` gives for the same records. The times of the first event and
    of the first content are told by the caller (:attr:`first_event_s`,
    :attr:`first_content_s`), who knows which records those are.

    Args:
        options: thresholds.
    """

    def __init__(self, options: TimingOptions) -> None:
        self.options = options
        self.first_event_s: float | None = None
        self.first_content_s: float | None = None
        self.content_known = False
        """Whether the caller has found the first content (and set its time, if it had one)."""
        self.count = 0
        self.histogram: dict[str, int] = {name: 0 for name, _ in GAP_BUCKETS}
        self.max_gap = 0.0
        self.prev_t = 0.0
        self.wait_from = 0.0
        self.stall_reported = 0
        self.found: list[tuple[int, int, Diagnostic]] = []  # (position, order, diagnostic)
        self.burst_found = False
        self.candidates: list[_Candidate] = []
        self.last_index = 0
        self.last_offset = 0
        self._idle: _ContentIdle | None = None
        # Data records wait here until the aggregator has said whether they carried
        # content; a run of other records behind one is only counted. Positions of bytes
        # stalls not yet passed.
        # (a waiting record is (index, time, offset, position), the others after it in
        # the parallel ``_after``: tuples cost less to make than objects, record by record)
        self._waiting: deque[tuple[int, float, int, int]] = deque()
        self._after: deque[int] = deque()
        self._stalls: deque[int] = deque()

    def append(
        self, index: int, time: float, offset: int, first_byte: float, data: bool = True
    ) -> None:
        """Count record ``index`` (at byte ``offset``), which arrived at ``time``.

        A data record (``data``) waits until :meth:`classify` says whether it carried
        content; any other record (an SSE comment) never does.
        """
        options = self.options
        pos = self.count
        self.count = pos + 1
        idle = self._idle
        if idle is None:
            idle = self._idle = _ContentIdle(first_byte, options)
        if pos:
            gap = time - self.prev_t
            bucket = GAP_BUCKETS[-1][0]
            for name, limit in GAP_BUCKETS:  # (_bucket, inline: a call a record is dear)
                if gap < limit:
                    bucket = name
                    break
            self.histogram[bucket] += 1
        else:
            gap = time - first_byte
        self.max_gap = max(self.max_gap, gap)
        stall_s = idle.stall_s
        if gap < stall_s:
            if gap >= idle.low:
                idle.pace.bytes_gap(gap, time, offset, index)
        elif gap >= stall_s:
            self._stalls.append(pos)
            if self.stall_reported < 20:
                self.stall_reported += 1
                found = diagnostic(
                    codes.TIMING_STALL,
                    offset,
                    index,
                    form="gap",
                    kind="bytes",
                    gap=gap,
                    stall_s=options.stall_s,
                )
                self.found.append((pos, 0, found))
        if data:
            self._waiting.append((index, time, offset, pos))
            self._after.append(0)
        elif self._after:
            self._after[-1] += 1
        else:
            idle.between += 1
        if self.candidates:
            self._count_burst(time)
        wait = time - self.wait_from
        self.wait_from = time
        if wait >= options.burst_wait_s and not self.burst_found and not self._head_wins():
            self.candidates.append(_Candidate(pos, index, offset, time, wait))
        self.prev_t = time
        self.last_index = index
        self.last_offset = offset

    def classify(
        self, content: Sequence[int], kinds: Sequence[int] = (), *, end: bool = False
    ) -> int:
        """Settle the waiting data records, whose events the aggregator has folded: those
        whose index is in ``content`` (the aggregator's content records not yet consumed,
        in order) carried content, of the kind at the same place in ``kinds``.

        The latest record waits on (an adapter's close may still name it) unless ``end``.

        Returns:
            How many of ``content``, from the start, are consumed (the caller forgets
            them); those of the record still waiting are kept.
        """
        idle = self._idle
        waiting = self._waiting
        if idle is None:
            return 0
        mark = 0
        n = len(content)
        n_kinds = len(kinds)
        left = 0 if end else 1
        afters = self._after
        stalls = self._stalls
        while len(waiting) > left:
            index, t, offset, pos = waiting.popleft()
            after = afters.popleft()
            while mark < n and content[mark] < index:
                mark += 1
            is_content = mark < n and content[mark] == index
            kind = kinds[mark] if is_content and mark < n_kinds else 0
            while stalls and stalls[0] <= pos:
                stalls.popleft()
                idle.covered = True
            found = idle.record(t, is_content, offset, index, kind)
            if found is not None and self.stall_reported < 20:
                self.stall_reported += 1
                self.found.append((pos, 0, found))
            idle.between += after
        if end or not waiting:
            return n
        kept = waiting[0][0]
        consumed = 0
        while consumed < n and content[consumed] < kept:
            consumed += 1
        return consumed

    def _count_burst(self, time: float) -> None:
        window = self.options.burst_window_s
        for cand in self.candidates:
            if cand.open:
                if time - cand.time > window:
                    cand.open = False  # its count is final
                else:
                    cand.count += 1
        self._resolve()

    def _head_wins(self) -> bool:
        """Whether the earliest open candidate already has enough records to be the burst
        (so no later one can be)."""
        cands = self.candidates
        return bool(cands) and cands[0].count >= self.options.burst_records

    def _resolve(self) -> None:
        """Settle what can be settled: :func:`compute_timing` reports the first candidate, in
        record order, whose records make a burst; a later one can win only once every
        earlier one has ended short. A head with enough records leaves no room for later
        ones, so at most ``burst_records`` candidates are ever kept."""
        cands = self.candidates
        while cands:
            head = cands[0]
            if head.count >= self.options.burst_records:
                if head.open:
                    del cands[1:]  # it wins; it goes on counting until its window ends
                    return
                self._declare(head)
                cands.clear()
                return
            if head.open:
                return
            cands.pop(0)

    def _declare(self, cand: _Candidate) -> None:
        options = self.options
        self.burst_found = True
        found = diagnostic(
            codes.TIMING_BURST,
            cand.offset,
            cand.index,
            count=cand.count,
            window_ms=options.burst_window_s * 1000,
            wait=cand.wait,
        )
        self.found.append((cand.pos, 1, found))

    def result(
        self,
        first_byte: float | None,
        last_byte: float | None,
        *,
        trailing_stall: bool = True,
    ) -> tuple[Timing, list[Diagnostic]]:
        """The Timing and the timing diagnostics, as :func:`compute_timing` gives them
        (call once, at the end)."""
        timing = Timing()
        if first_byte is None:
            return timing, []
        for cand in self.candidates:
            cand.open = False  # no more records: every count is final
        self._resolve()
        self.candidates = []
        timing.first_byte_s = first_byte
        timing.total_s = last_byte
        timing.first_event_s = self.first_event_s
        timing.first_content_s = self.first_content_s
        options = self.options
        self.classify((), end=True)  # (what no content record named carried none)
        idle = self._idle or _ContentIdle(first_byte, options)
        if self._stalls:
            self._stalls.clear()
            idle.covered = True
        found = sorted(self.found, key=lambda item: (item[0], item[1]))
        diags = [d for _, _, d in found]
        max_gap = self.max_gap
        if last_byte is not None:
            tail = last_byte - (self.prev_t if self.count else first_byte)
            max_gap = max(max_gap, tail)
            content_tail = idle.end(last_byte)
            if tail >= options.stall_s:
                idle.bytes_stall()
            judged = tail if trailing_stall and self.count else None
            room = 20 - self.stall_reported
            diags += idle.pace_stalls(judged, content_tail, self.last_offset, self.last_index, room)
            if trailing_stall and self.count and self.stall_reported < 20:
                if tail >= options.stall_s:
                    diags.append(
                        diagnostic(
                            codes.TIMING_STALL,
                            self.last_offset,
                            self.last_index,
                            form="tail",
                            kind="bytes",
                            tail=tail,
                            stall_s=options.stall_s,
                        )
                    )
                else:
                    tail_found = idle.tail_stall(content_tail, self.last_offset, self.last_index)
                    if tail_found is not None:
                        diags.append(tail_found)
        timing.max_gap_s = round(max_gap, 6)
        timing.max_content_idle_s = round(max(idle.longest, 0.0), 6)
        timing.max_content_idle_after = idle.after()
        timing.content_times = idle.times
        timing.gap_histogram = dict(self.histogram)
        return timing, diags

"""Timing as running figures: what :func:`~ssescope.aggregate.timing.compute_timing` gives,
in constant memory.

A bounded :class:`~ssescope.pipeline.Pipeline` (``ssescope proxy``) keeps no time per
record: each timed record is counted as it is framed, and the records whose content the
aggregator has not classified yet wait in a queue. The Timing and the diagnostics at the
end are those :func:`~ssescope.aggregate.timing.compute_timing` gives for the same
records (the tests compare them).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain
from math import isfinite
from operator import eq, itemgetter, sub

from ..diagnostics import Diagnostic
from ..limits import CONTENT_RECORDS_KEPT
from .report import Timing
from .stalls import STALLS_KEPT, ContentIdle, burst, bytes_stall
from .timing import GAP_BUCKETS, TimingOptions

__all__ = ["TimingSummary"]

_INDEX = itemgetter(0)
_TIME = itemgetter(1)
_FIRST_BUCKET, _FIRST_LIMIT = GAP_BUCKETS[0]
_BUCKET_OF = partial(bisect_right, [limit for _, limit in GAP_BUCKETS])
"""A gap's place in GAP_BUCKETS: the first whose limit is above it."""


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
    """:func:`~ssescope.aggregate.timing.compute_timing` as running figures: the same
    Timing and diagnostics, in constant memory (what a bounded
    :class:`~ssescope.pipeline.Pipeline` keeps).

    Append every timed record, in order, to :attr:`pending`, and have them counted with
    :meth:`classify` once their content is known; :meth:`result` gives what
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
        self.histogram: dict[str, int] = {name: 0 for name, _ in GAP_BUCKETS}
        self.max_gap = 0.0
        self.stall_reported = 0
        self.found: list[tuple[int, int, Diagnostic]] = []  # (position, order, diagnostic)
        self.burst_found = False
        self.candidates: list[_Candidate] = []
        self.last_index = 0
        self.last_offset = 0
        self._idle: ContentIdle | None = None
        self.first_byte = 0.0
        """The first byte's arrival time (set by the caller before the first record)."""
        self.pending: list[tuple[int, float, int, bool]] = []
        """The records not counted yet, as ``(index, time, offset, is a data record)``:
        the caller appends every timed record, in order. They wait until the aggregator
        has said whether the data records carried content (:meth:`classify`), and are
        then counted in order, each as compute_timing counts it (tuples cost less to make
        than objects, record by record)."""
        self._done = 0  # records counted
        self._done_t = 0.0  # the time of the last record counted
        self._wait_from = 0.0  # where the wait before the next record counted began

    @property
    def count(self) -> int:
        """How many records were appended."""
        return self._done + len(self.pending)

    @property
    def prev_t(self) -> float:
        """The time of the latest record appended (0.0 before the first)."""
        pending = self.pending
        return pending[-1][1] if pending else self._done_t

    def classify(
        self, content: Sequence[int], kinds: Sequence[int] = (), *, end: bool = False
    ) -> int:
        """Count the pending records, whose events the aggregator has folded: the data
        records whose index is in ``content`` (the aggregator's content records not yet
        consumed, in order) carried content, of the kind at the same place in ``kinds``.

        The latest data record, and the records after it, wait on (an adapter's close may
        still name it) unless ``end``; the others are counted, comments included.

        Returns:
            How many of ``content``, from the start, are consumed (the caller forgets
            them); those of the record still waiting are kept.
        """
        pending = self.pending
        n = len(content)
        last = len(pending) - 1
        while last >= 0 and not pending[last][3]:
            last -= 1
        # (with no data record waiting, nothing waits: a stream of comments alone is
        # counted as it comes)
        stop = len(pending) if end or last < 0 else last
        if stop > 0:
            self._count(pending, stop, content, kinds)
            del pending[:stop]
        if end or last < 0:
            return n
        return bisect_left(content, pending[0][0], 0, n)  # (the marks are in order)

    def _count(
        self,
        pending: list[tuple[int, float, int, bool]],
        stop: int,
        content: Sequence[int],
        kinds: Sequence[int],
    ) -> None:
        """Count ``pending[:stop]``, in order, with compute_timing's steps."""
        idle = self._idle
        if idle is None:
            idle = self._idle = self._new_idle(self.first_byte)
        if not self.candidates and self._count_quick(idle, pending, stop, content, kinds):
            return
        options = self.options
        stall_s = idle.stall_s
        low = idle.low
        burst_wait = options.burst_wait_s
        histogram = self.histogram
        found = self.found
        pos = self._done
        prev = self._done_t if pos else self.first_byte
        wait_from = self._wait_from
        max_gap = self.max_gap
        mark = 0
        n = len(content)
        n_kinds = len(kinds)
        index = offset = 0
        for k in range(stop):
            index, t, offset, data = pending[k]
            gap = t - prev
            if pos:
                bucket = GAP_BUCKETS[-1][0]
                for name, limit in GAP_BUCKETS:  # (_bucket, inline: a call a record is dear)
                    if gap < limit:
                        bucket = name
                        break
                histogram[bucket] += 1
            max_gap = max(max_gap, gap)
            if gap < stall_s:
                if gap >= low:
                    idle.pace.bytes_gap(gap, t, offset, index)
            elif gap >= stall_s:
                idle.covered = True
                if self.stall_reported < STALLS_KEPT:
                    self.stall_reported += 1
                    found.append((pos, 0, bytes_stall(offset, index, gap, stall_s)))
            if data:
                while mark < n and content[mark] < index:
                    mark += 1
                is_content = mark < n and content[mark] == index
                kind = kinds[mark] if is_content and mark < n_kinds else 0
                stall = idle.record(t, is_content, offset, index, kind)
                if stall is not None and self.stall_reported < STALLS_KEPT:
                    self.stall_reported += 1
                    found.append((pos, 0, stall))
            else:
                idle.between += 1
            if self.candidates:
                self._count_burst(t)
            wait = t - wait_from
            wait_from = t
            if wait >= burst_wait and not self.burst_found and not self._head_wins():
                self.candidates.append(_Candidate(pos, index, offset, t, wait))
            prev = t
            pos += 1
        self._done = pos
        self._done_t = prev
        self._wait_from = wait_from
        self.max_gap = max_gap
        self.last_index = index
        self.last_offset = offset

    def _count_quick(
        self,
        idle: ContentIdle,
        pending: list[tuple[int, float, int, bool]],
        stop: int,
        content: Sequence[int],
        kinds: Sequence[int],
    ) -> bool:
        """Count ``pending[:stop]`` a pass at a time when no record in it can end a stall,
        a silence the pace notes, or a burst's wait: what the record-by-record steps of
        :meth:`_count` do then comes down to sums, maxima and the content records' times.

        Returns:
            ``False``, having changed nothing, when some record's gap is that long.
        """
        items = pending[:stop] if stop < len(pending) else pending
        pos = self._done
        prev = self._done_t if pos else self.first_byte
        times = list(map(_TIME, items))
        gaps = list(map(sub, times, chain((prev,), times)))
        longest = max(gaps)
        quiet = min(idle.stall_s, idle.low)
        if longest >= min(quiet, self.options.burst_wait_s) or not isfinite(sum(gaps)):
            return False  # (a time that is not a number has its own steps: the loop's)
        if times[0] - self._wait_from >= self.options.burst_wait_s:
            return False  # (the first record's wait counts from the request's start)
        # The content records of the pass: the marks that name a record of it.
        indexes = list(map(_INDEX, items))
        lo = bisect_left(content, indexes[0])
        hi = bisect_right(content, indexes[-1])
        marks = content[lo:hi]
        at = list(map(partial(bisect_left, indexes), marks))
        if all(map(eq, map(indexes.__getitem__, at), marks)):
            found: Sequence[int] = range(lo, hi)
        else:  # (a mark may name a record without a time, which is not counted)
            found = [k for k, a in enumerate(at, lo) if indexes[a] == content[k]]
            at = [at[k - lo] for k in found]
        if found:
            content_times = list(map(times.__getitem__, at))
            quiets = list(map(sub, content_times, chain((idle.last,), content_times)))
            widest = max(quiets)
            if widest >= quiet or not isfinite(sum(quiets)):
                return False
            n_kinds = len(kinds)
            got: Sequence[int]
            if type(found) is range and hi <= n_kinds:
                got = kinds[lo:hi]
            else:
                got = [kinds[k] if k < n_kinds else 0 for k in found]
            if widest > idle.longest:
                i = quiets.index(widest)
                idle.longest = widest
                idle.longest_after = got[i - 1] if i else idle.kind
            idle.kind = got[-1]
            room = CONTENT_RECORDS_KEPT - len(idle.times)
            if room > 0:
                idle.times.extend(content_times[:room])
            idle.seen += len(found)
            idle.last = content_times[-1]
            idle.covered = False
            idle.between = len(items) - 1 - at[-1]
        else:
            idle.between += len(items)
        # The gaps between records (the first record's from the first byte is no gap).
        counted = gaps if pos else gaps[1:]
        if counted:
            histogram = self.histogram
            if longest < _FIRST_LIMIT:
                histogram[_FIRST_BUCKET] += len(counted)
            else:
                buckets = list(map(_BUCKET_OF, counted))
                for b, (name, _) in enumerate(GAP_BUCKETS):
                    histogram[name] += buckets.count(b)
        self.max_gap = max(self.max_gap, longest)
        last = items[-1]
        self._done = pos + len(items)
        self._done_t = self._wait_from = last[1]
        self.last_index = last[0]
        self.last_offset = last[2]
        return True

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
        self.burst_found = True
        window = self.options.burst_window_s
        found = burst(cand.offset, cand.index, cand.count, window, cand.wait)
        self.found.append((cand.pos, 1, found))

    def _new_idle(self, first_byte: float) -> ContentIdle:
        options = self.options
        return ContentIdle(first_byte, options.stall_s, options.stall_floor_s, options.stall_pace)

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
        self.classify((), end=True)  # (what no content record named carried none)
        idle = self._idle or self._new_idle(first_byte)
        found = sorted(self.found, key=lambda item: (item[0], item[1]))
        diags = [d for _, _, d in found]
        max_gap = self.max_gap
        if last_byte is not None:
            tail = last_byte - (self.prev_t if self.count else first_byte)
            max_gap = max(max_gap, tail)
            judged = trailing_stall and bool(self.count)
            offset, index = self.last_offset, self.last_index
            diags += idle.end_of_stream(tail, last_byte, judged, offset, index, self.stall_reported)
        timing.max_gap_s = round(max_gap, 6)
        timing.gap_histogram = dict(self.histogram)
        idle.fill(timing)
        return timing, diags

"""Timing as running figures: what :func:`~ssescope.aggregate.timing.compute_timing` gives,
in constant memory.

A bounded :class:`~ssescope.pipeline.Pipeline` (``ssescope proxy``) keeps no time per
record: each timed record is counted as it is framed, and the records whose content the
aggregator has not classified yet wait in a queue. The Timing and the diagnostics at the
end are those :func:`~ssescope.aggregate.timing.compute_timing` gives for the same
records (the tests compare them).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from ..diagnostics import Diagnostic
from .report import Timing
from .stalls import STALLS_KEPT, ContentIdle, burst, bytes_stall
from .timing import GAP_BUCKETS, TimingOptions

__all__ = ["TimingSummary"]


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
        self._idle: ContentIdle | None = None
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
            idle = self._idle = self._new_idle(first_byte)
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
            if self.stall_reported < STALLS_KEPT:
                self.stall_reported += 1
                self.found.append((pos, 0, bytes_stall(offset, index, gap, stall_s)))
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
            if found is not None and self.stall_reported < STALLS_KEPT:
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
        if self._stalls:
            self._stalls.clear()
            idle.covered = True
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

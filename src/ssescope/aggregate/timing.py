"""Timing from arrival times: first byte, first event, first content, gaps, stalls, bursts.

Times are seconds since the request started, as the source stamped them. When the source
has no arrival times (a pasted body, a HAR) every figure is ``None``: not measured, never
guessed.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

from ..diagnostics import Diagnostic, diagnostic
from .report import Timing

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
        stall_s: a gap between records at least this long is a ``timing.stall``.
        burst_records: this many records or more arriving within ``burst_window_s`` …
        burst_window_s: … right after a gap of at least ``burst_wait_s`` is a
            ``timing.burst`` (a buffering proxy flushing at once).
        burst_wait_s: see above.
    """

    stall_s: float = 10.0
    burst_records: int = 8
    burst_window_s: float = 0.001
    burst_wait_s: float = 0.25


def _bucket(gap: float) -> str:
    for name, limit in GAP_BUCKETS:
        if gap < limit:
            return name
    return GAP_BUCKETS[-1][0]


class RecordTimes(Sequence[tuple[int, float, int]]):
    """The arrival time of each timed record, as machine numbers (24 bytes a record).

    A list of tuples costs about 120 bytes a record; a 2 GiB capture has millions.
    """

    def __init__(self, starts: array[int]) -> None:
        self._starts = starts
        self._index = array("q")
        self._time = array("d")

    def append(self, index: int, time: float) -> None:
        """Record that record ``index`` (starting at ``starts[index]``) arrived at ``time``."""
        self._index.append(index)
        self._time.append(time)

    def __len__(self) -> int:
        return len(self._index)

    def time_of(self, position: int) -> float:
        """The arrival time of the record at ``position`` (its index when every record
        is timed)."""
        return self._time[position]

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


def compute_timing(
    first_byte: float | None,
    last_byte: float | None,
    record_times: Sequence[tuple[int, float | None, int]],
    first_data_record: int | None,
    first_content_record: int | None,
    options: TimingOptions,
    *,
    trailing_stall: bool = True,
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
    for pos, (index, t, offset) in enumerate(times):
        if t is None:
            continue
        gap = t - prev_t
        if pos:
            histogram[_bucket(gap)] += 1
        max_gap = max(max_gap, gap)
        if gap >= options.stall_s and stall_reported < 20:
            stall_reported += 1
            diags.append(
                diagnostic(
                    "timing.stall", offset, index, form="gap", gap=gap, stall_s=options.stall_s
                )
            )
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
                        "timing.burst",
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
        if trailing_stall and times and tail >= options.stall_s and stall_reported < 20:
            # silence after the last record, until the body ended (or the client gave up)
            index, _, offset = times[-1]
            diags.append(
                diagnostic(
                    "timing.stall", offset, index, form="tail", tail=tail, stall_s=options.stall_s
                )
            )
    timing.max_gap_s = round(max_gap, 6)
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

    def append(self, index: int, time: float, offset: int, first_byte: float) -> None:
        """Count record ``index`` (at byte ``offset``), which arrived at ``time``."""
        options = self.options
        pos = self.count
        self.count = pos + 1
        gap = time - (self.prev_t if pos else first_byte)
        if pos:
            self.histogram[_bucket(gap)] += 1
        self.max_gap = max(self.max_gap, gap)
        if gap >= options.stall_s and self.stall_reported < 20:
            self.stall_reported += 1
            found = diagnostic(
                "timing.stall", offset, index, form="gap", gap=gap, stall_s=options.stall_s
            )
            self.found.append((pos, 0, found))
        if self.candidates:
            self._count_burst(time)
        wait = time - self.wait_from
        self.wait_from = time
        if wait >= options.burst_wait_s and not self.burst_found and not self._head_wins():
            self.candidates.append(_Candidate(pos, index, offset, time, wait))
        self.prev_t = time
        self.last_index = index
        self.last_offset = offset

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
            "timing.burst",
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
        found = sorted(self.found, key=lambda item: (item[0], item[1]))
        diags = [d for _, _, d in found]
        max_gap = self.max_gap
        if last_byte is not None:
            tail = last_byte - (self.prev_t if self.count else first_byte)
            max_gap = max(max_gap, tail)
            if (
                trailing_stall
                and self.count
                and tail >= options.stall_s
                and self.stall_reported < 20
            ):
                diags.append(
                    diagnostic(
                        "timing.stall",
                        self.last_offset,
                        self.last_index,
                        form="tail",
                        tail=tail,
                        stall_s=options.stall_s,
                    )
                )
        timing.max_gap_s = round(max_gap, 6)
        timing.gap_histogram = dict(self.histogram)
        return timing, diags

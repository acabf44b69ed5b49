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

:func:`compute_timing` reads every record's time at the end of the stream; a bounded
pipeline gets the same figures as running ones, in constant memory, from
:class:`~ssescope.aggregate.timing_summary.TimingSummary`. What both count alike is in
:mod:`ssescope.aggregate.stalls`.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

from ..diagnostics import Diagnostic
from .report import Timing
from .stalls import STALLS_KEPT, ContentIdle, burst, bytes_stall
from .starts import Offsets

__all__ = ["GAP_BUCKETS", "RecordTimes", "TimingOptions", "compute_timing"]

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
    idle = ContentIdle(first_byte, options.stall_s, options.stall_floor_s, options.stall_pace)
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
            if stall_reported < STALLS_KEPT:
                stall_reported += 1
                diags.append(bytes_stall(offset, index, gap, options.stall_s))
        while mark < n_marks and marks[mark] < index:
            mark += 1
        is_content = mark < n_marks and marks[mark] == index
        kind = content_kinds[mark] if is_content and mark < n_kinds else 0
        found = idle.record(t, is_content, offset, index, kind)
        if found is not None and stall_reported < STALLS_KEPT:
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
                diags.append(burst(offset, index, count, options.burst_window_s, wait))
        prev_t = t
    if last_byte is not None:
        tail = last_byte - prev_t
        max_gap = max(max_gap, tail)
        index, _, offset = times[-1] if times else (0, 0.0, 0)
        judged = trailing_stall and bool(times)
        diags += idle.end_of_stream(tail, last_byte, judged, offset, index, stall_reported)
    timing.max_gap_s = round(max_gap, 6)
    timing.gap_histogram = histogram
    idle.fill(timing)
    return timing, diags

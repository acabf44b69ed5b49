"""Timing from arrival times: first byte, first event, first content, gaps, stalls, bursts.

Times are seconds since the request started, as the source stamped them. When the source
has no arrival times (a pasted body, a HAR) every figure is ``None``: not measured, never
guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic, diagnostic
from .report import Timing

__all__ = ["GAP_BUCKETS", "TimingOptions", "compute_timing"]

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


def compute_timing(
    first_byte: float | None,
    last_byte: float | None,
    record_times: list[tuple[int, float | None, int]],
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
        record_times: ``(record index, time, byte offset)`` of every record, in order.
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
    by_index = {i: t for i, t, _ in record_times}
    if first_data_record is not None:
        timing.first_event_s = by_index.get(first_data_record)
    if first_content_record is not None:
        timing.first_content_s = by_index.get(first_content_record)
    times = [(i, t, off) for i, t, off in record_times if t is not None]
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
            for _, t2, _ in times[pos:]:
                if t2 - t > options.burst_window_s:
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

"""Timing as the live adapters see it: what Pipeline/compute_timing give for timed chunks."""

from __future__ import annotations

from pathlib import Path

import ssescope
from ssescope import Pipeline, TimingOptions

BODY = (Path(__file__).parent.parent / "fixtures" / "live" / "anthropic.sse").read_bytes()


def records(body: bytes) -> list[bytes]:
    return [part + b"\n\n" for part in body.split(b"\n\n") if part]


def feed(parts: list[tuple[bytes, float]], end: float, **options: float) -> ssescope.Report:
    p = Pipeline(timing=TimingOptions(**options) if options else None)  # type: ignore[arg-type]
    for data, t in parts:
        p.feed(data, t)
    p.close(end)
    return p.report()


def test_first_content_is_the_first_text_delta_not_a_lifecycle_event() -> None:
    recs = records(BODY)  # 0 message_start, 1 block start, 2 ping, 3 first text
    parts = [(r, 0.1 * (i + 1)) for i, r in enumerate(recs)]
    t = feed(parts, 2.0).timing
    assert t.first_byte_s == 0.1
    assert t.first_event_s == 0.1
    assert t.first_content_s == 0.4
    assert t.total_s == 2.0


def test_max_gap_and_histogram_count_the_gaps_between_records() -> None:
    recs = records(BODY)
    times = [0.0, 0.005, 0.05, 0.5, 3.0, 3.001, 3.002, 3.003, 3.004, 3.005, 9.0]
    t = feed(list(zip(recs, times, strict=True)), 9.0).timing
    assert t.max_gap_s == 5.995
    assert t.gap_histogram == {"<10ms": 6, "<100ms": 1, "<1s": 1, "<5s": 1, ">=5s": 1}


def test_a_long_gap_is_a_timing_stall_at_the_record_that_ended_it() -> None:
    recs = records(BODY)
    times = [0.0, 0.1, 0.2, 0.3, 12.3, 12.4, 12.5, 12.6, 12.7, 12.8, 12.9]
    report = feed(list(zip(recs, times, strict=True)), 13.0)
    stalls = [d for d in report.diagnostics if d.code == "timing.stall"]
    assert [d.record for d in stalls] == [4]


def test_records_flushed_at_once_after_a_wait_are_a_timing_burst() -> None:
    recs = records(BODY)
    parts = [(recs[0], 0.1), (recs[1], 0.2), (b"".join(recs[2:]), 1.5)]
    report = feed(parts, 1.5)
    bursts = [d for d in report.diagnostics if d.code == "timing.burst"]
    assert [d.record for d in bursts] == [2]


def test_without_arrival_times_every_figure_is_not_measured() -> None:
    report = ssescope.inspect(BODY)
    assert set(report.timing.to_dict().values()) == {None}
    assert not [d for d in report.diagnostics if d.code.startswith("timing.")]

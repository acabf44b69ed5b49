"""The proxy reads every exchange in bounded memory: ``Pipeline(bounded=True)``.

Its Report is the one ``inspect`` gives for every fixture and real stream (running
timing figures instead of a time per record), the recorder's verdict is ``inspect`` of
its own capture, and past its caps it keeps the start of the content and says what it
left out.
"""

from __future__ import annotations

import os
from array import array
from pathlib import Path

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import ssescope
from ssescope.aggregate.timing import RecordTimes, TimingOptions, compute_timing
from ssescope.aggregate.timing_summary import TimingSummary
from ssescope.api import feed_chunks, open_streams
from ssescope.containers import Chunk
from ssescope.limits import BOUNDED_CONTENT_CHARS, BOUNDED_RECORD_OFFSETS
from ssescope.pipeline import Pipeline
from ssescope.proxy import Recorder, Registry
from ssescope.sourceinfo import SourceInfo

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))


def _bodies() -> list[Path]:
    found = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix != ".md")
    if STREAMS.is_dir():
        found += sorted(
            p
            for p in STREAMS.rglob("*")
            if p.is_file() and p.name not in ("README.md", "EXPECTED.json")
        )
    return found


BODIES = _bodies()


def _name(path: Path) -> str:
    return str(path.relative_to(FIXTURES if path.is_relative_to(FIXTURES) else STREAMS.parent))


def _report(chunks: list[Chunk | bytes], info: SourceInfo, *, bounded: bool) -> dict:
    pipeline = Pipeline(source=info, collect_events=False, bounded=bounded)
    return feed_chunks(pipeline, chunks).report().to_dict()


@pytest.mark.parametrize("path", BODIES, ids=_name)
def test_a_bounded_pipeline_gives_the_report_inspect_gives(path: Path) -> None:
    streams = list(open_streams(path))
    assert streams
    for stream in streams:
        chunks = list(stream.chunks)
        assert _report(chunks, stream.info, bounded=True) == _report(
            chunks, stream.info, bounded=False
        )


# -- the running timing figures ---------------------------------------------------------

# gaps around every threshold of the options below: bursts, stalls, waits, and times
# going back (a capture may hold them)
gaps = st.lists(
    st.one_of(
        st.sampled_from([0.0, 0.0004, 0.001, 0.002, 0.3, 0.5, 1.2, -0.1]),
        st.floats(min_value=-0.5, max_value=3.0, allow_nan=False),
    ),
    max_size=60,
)
OPTIONS = TimingOptions(stall_s=1.0, burst_records=3, burst_window_s=0.002, burst_wait_s=0.25)


@settings(max_examples=300, deadline=None)
# a later wait's burst settles first, but the earlier candidate, which times going back
# keep in its window, is the one compute_timing reports
@example(
    first_byte=0.0,
    gaps=[0.3, -0.5, 0.3, 0.0, 0.0, 0.002],
    tail=0.0,
    wide=False,
    trailing=False,
    content=set(),
    every=1,
)
@given(
    first_byte=st.floats(min_value=0.0, max_value=2.0),
    gaps=gaps,
    tail=st.floats(min_value=0.0, max_value=3.0),
    wide=st.booleans(),
    trailing=st.booleans(),
    content=st.sets(st.integers(min_value=0, max_value=59)),
    every=st.integers(min_value=1, max_value=12),
)
def test_the_running_timing_figures_are_those_of_every_record_time(
    first_byte: float,
    gaps: list[float],
    tail: float,
    wide: bool,
    trailing: bool,
    content: set[int],
    every: int,
) -> None:
    # The records are counted every ``every`` records (the pipeline counts them after
    # each pass): one at a time, and a pass at a time when no gap in it is long.
    # a window wider than the wait lets a burst's window hold another burst's start
    options = (
        TimingOptions(stall_s=1.0, burst_records=3, burst_window_s=0.6, burst_wait_s=0.25)
        if wide
        else OPTIONS
    )
    starts = array_of(len(gaps))
    times = RecordTimes(starts)
    summary = TimingSummary(options)
    summary.first_byte = first_byte
    t = first_byte
    marks = [i for i in sorted(content) if i < len(gaps) and i % 4 != 3]
    waiting: list[int] = []  # the marks the summary has not consumed yet
    for index, gap in enumerate(gaps):
        t += gap
        if index % 7 != 5:  # (every seventh record has no time: a content mark may name it)
            times.append(index, t)
            summary.pending.append((index, t, starts[index], index % 4 != 3))
        if index in marks:
            waiting.append(index)
        if index % every == 0:
            del waiting[: summary.classify(waiting)]
    summary.classify(waiting, end=True)
    first_data = 0 if gaps else None
    first_content = min(2, len(gaps) - 1) if gaps else None
    if gaps:
        summary.first_event_s = times[0][1]
        summary.first_content_s = times[first_content or 0][1]
    last = t + tail
    expected = compute_timing(
        first_byte,
        last,
        times,
        first_data,
        first_content,
        options,
        trailing_stall=trailing,
        content_records=marks,
    )
    got = summary.result(first_byte, last, trailing_stall=trailing)
    assert got[0].to_dict() == expected[0].to_dict()
    assert [d.to_dict() for d in got[1]] == [d.to_dict() for d in expected[1]]


@pytest.mark.parametrize("odd", [float("nan"), float("inf"), float("-inf")])
@pytest.mark.parametrize("every", [1, 3, 8])
def test_a_time_that_is_not_a_number_is_counted_as_every_record_time_counts_it(
    odd: float, every: int
) -> None:
    # A pass of short gaps is counted with sums and maxima; one whose gaps are not all
    # finite numbers must still give what compute_timing gives, record by record (which
    # puts a gap that is not a number in the last bucket of the histogram).
    gaps = [0.01, 0.01, odd, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01]
    starts = array_of(len(gaps))
    times = RecordTimes(starts)
    summary = TimingSummary(OPTIONS)
    waiting: list[int] = []
    t = 0.0
    for index, gap in enumerate(gaps):
        t = gap if gap != gap or abs(gap) == float("inf") else t + gap
        times.append(index, t)
        summary.pending.append((index, t, starts[index], True))
        waiting.append(index)
        if index % every == 0:
            del waiting[: summary.classify(waiting)]
    summary.classify(waiting, end=True)
    summary.first_event_s = summary.first_content_s = times[0][1]
    marks = list(range(len(gaps)))
    expected = compute_timing(0.0, 1.0, times, 0, 0, OPTIONS, content_records=marks)
    got = summary.result(0.0, 1.0)
    assert got[0].to_dict() == expected[0].to_dict()
    assert [d.to_dict() for d in got[1]] == [d.to_dict() for d in expected[1]]


def array_of(n: int) -> array[int]:
    """Byte offsets of ``n`` records of 100 bytes each (the pipeline's array of starts)."""
    return array("q", [100 * i for i in range(n)])


def test_no_first_byte_means_no_timing() -> None:
    timing, found = TimingSummary(OPTIONS).result(None, 1.0)
    assert timing.to_dict() == compute_timing(None, 1.0, [], None, None, OPTIONS)[0].to_dict()
    assert found == []


# -- past the caps -------------------------------------------------------------------------


def _chat(texts: list[str]) -> list[bytes]:
    head = b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":'
    tail = b'},"finish_reason":null}]}\n\n'
    out = [head + orjson.dumps(text) + tail for text in texts]
    out.append(
        b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
        b'"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    )
    return out


def _feed(records: list[bytes], *, bounded: bool, per_chunk: int = 64) -> ssescope.Report:
    pipeline = Pipeline(source=SourceInfo(container="http", status=200), bounded=bounded)
    for n, start in enumerate(range(0, len(records), per_chunk)):
        pipeline.feed(b"".join(records[start : start + per_chunk]), 0.001 * (n + 1))
    pipeline.close()
    return pipeline.report()


def test_past_its_caps_a_bounded_pipeline_keeps_the_start_and_says_what_it_left_out() -> None:
    n = BOUNDED_RECORD_OFFSETS + 5000
    records = _chat([f"{i:07d}," for i in range(n)])  # 8 characters a record
    whole = _feed(records, bounded=False)
    bounded = _feed(records, bounded=True)
    assert len(whole.text) == 8 * n > BOUNDED_CONTENT_CHARS
    assert bounded.text == whole.text[:BOUNDED_CONTENT_CHARS]
    assert bounded.status == whole.status == "completed"
    assert bounded.records == whole.records
    assert bounded.timing == whole.timing
    capped = {d.form: d for d in bounded.diagnostics if d.code == "stream.memory-capped"}
    assert set(capped) == {"content", "offsets"}
    assert capped["content"].args == {
        "chars": 8 * n - BOUNDED_CONTENT_CHARS,
        "limit": BOUNDED_CONTENT_CHARS,
    }
    assert capped["offsets"].args == {
        "records": n + 2 - BOUNDED_RECORD_OFFSETS,  # the finish record and [DONE]
        "limit": BOUNDED_RECORD_OFFSETS,
    }
    others = [d for d in bounded.diagnostics if d.code != "stream.memory-capped"]
    assert [d.code for d in others] == [d.code for d in whole.diagnostics]


def test_the_running_figures_wait_on_no_more_than_a_pass_of_records() -> None:
    # The records wait for their content to be known only behind the latest data
    # record: a stream of keep-alive comments alone, or a long reply, leaves a pass's
    # worth waiting, never the stream.
    for chunk in (b": keep-alive\n\n", b'data: {"n": 1}\n\n'):
        pipeline = Pipeline(bounded=True)
        for start in range(0, 20_000, 500):
            pipeline.feed_many([chunk] * 500, [0.001 * (start + k) for k in range(500)])
            assert pipeline._summary is not None
            assert len(pipeline._summary.pending) <= 64
        pipeline.close()
        assert pipeline.report().records.total == 20_000


def test_tool_arguments_past_the_cap_are_kept_in_part_and_not_parsed() -> None:
    piece = "x" * 50_000
    records = [
        b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
        b'"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":'
        b'{"name":"f","arguments":"{\\"a\\": \\""}}]},"finish_reason":null}]}\n\n'
    ]
    args = (
        b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
        b'"delta":{"tool_calls":[{"index":0,"function":{"arguments":"' + piece.encode() + b'"}}]},'
        b'"finish_reason":null}]}\n\n'
    )
    records += [args] * 24
    records.append(
        b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
        b'"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\"}"}}]},'
        b'"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n'
    )
    whole = _feed(records, bounded=False, per_chunk=1)
    bounded = _feed(records, bounded=True, per_chunk=1)
    call, whole_call = bounded.outputs[0].tool_calls[0], whole.outputs[0].tool_calls[0]
    assert whole_call.input == {"a": piece * 24}
    assert call.arguments == whole_call.arguments[:BOUNDED_CONTENT_CHARS]
    assert call.input is None and call.error is None and call.complete
    assert bounded.status == whole.status == "completed"
    codes = [d.code for d in bounded.diagnostics]
    assert "stream.memory-capped" in codes and "tool.invalid-arguments" not in codes


# -- the recorder's verdict is inspect of its capture --------------------------------------

_DROP = {"content-encoding", "content-length", "transfer-encoding"}


@pytest.mark.parametrize("path", BODIES, ids=_name)
def test_the_recorder_judges_each_stream_as_inspect_judges_its_capture(
    path: Path, tmp_path: Path
) -> None:
    registry = Registry()
    recorder = Recorder(registry, tmp_path)
    exchanges = []
    for stream in open_streams(path):
        ex = registry.new("POST", "/v1/x", "http://127.0.0.1:9/v1/x")
        ex.status = stream.info.status or 200
        headers = [(k, v) for k, v in stream.info.headers if k.lower() not in _DROP]
        ex.response_headers = headers or [("content-type", "text/event-stream")]
        recorder.start(ex)
        t = 0.0
        for chunk in stream.chunks:
            data = chunk if isinstance(chunk, bytes) else chunk.data
            t += 0.01
            recorder.chunk(ex, data, t)
        recorder.end(ex, "eof", t + 0.01)
        exchanges.append(ex)
    recorder.stop()
    assert not recorder.errors
    for ex in exchanges:
        assert ex.capture is not None
        report = ssescope.inspect(Path(ex.capture))
        assert (ex.verdict, ex.records, ex.provider) == (
            report.status,
            report.records.total,
            report.provider,
        )
        assert ex.diagnostics == sorted({d.code for d in report.diagnostics})
        assert ex.first_content_s == report.timing.first_content_s

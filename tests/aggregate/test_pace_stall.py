"""A silence long for the stream's own pace is a stall, below the absolute 10 s."""

from __future__ import annotations

import json

import pytest

import ssescope
from ssescope.aggregate.pace import MIN_GAPS


def _chunk(delta: dict[str, object], finish: str | None = None) -> bytes:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    body = {"id": "c1", "object": "chat.completion.chunk", "model": "m", "choices": [choice]}
    return b"data: " + json.dumps(body).encode() + b"\n\n"


def _tool_stream(pause: float, every: float = 0.03) -> list[tuple[bytes, float]]:
    """Text every ``every`` s, a tool call whose arguments pause ``pause`` s midway."""
    chunks = [_chunk({"role": "assistant", "content": ""})]
    chunks += [_chunk({"content": f"w{i} "}) for i in range(20)]
    call = {"index": 0, "id": "call_1", "type": "function"}
    chunks.append(_chunk({"tool_calls": [{**call, "function": {"name": "f", "arguments": ""}}]}))
    chunks.append(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"a": '}}]}))
    rest = [_chunk({"tool_calls": [{"index": 0, "function": {"arguments": "1}"}}]})]
    rest += [_chunk({}, "tool_calls"), b"data: [DONE]\n\n"]
    t = 0.2
    timed = []
    for piece in chunks:
        timed.append((piece, t))
        t += every
    t += pause
    for piece in rest:
        timed.append((piece, t))
        t += every
    return timed


def _report(timed: list[tuple[bytes, float]], bounded: bool, **options: object) -> ssescope.Report:
    timing = ssescope.TimingOptions(**options)  # type: ignore[arg-type]
    pipeline = ssescope.Pipeline(bounded=bounded, timing=timing)
    for piece, t in timed:
        pipeline.feed(piece, t)
    pipeline.close(timed[-1][1])
    return pipeline.report()


def _stalls(report: ssescope.Report) -> list[ssescope.Diagnostic]:
    return [d for d in report.diagnostics if d.code == "timing.stall"]


@pytest.mark.parametrize("bounded", [False, True])
def test_eight_seconds_mid_tool_call_after_30_ms_content_is_a_stall(bounded: bool) -> None:
    report = _report(_tool_stream(8.0), bounded)
    assert report.status == "completed"
    [stall] = _stalls(report)
    assert stall.severity == "warning"
    assert (stall.form, (stall.args or {})["kind"]) == ("gap", "bytes")
    assert (stall.args or {})["gap"] == pytest.approx(8.03)
    assert (stall.args or {})["stall_s"] == 2.0  # the floor: 20 x 30 ms is less
    assert "threshold 2 s" in stall.message


@pytest.mark.parametrize("bounded", [False, True])
def test_a_slow_stream_gets_a_threshold_from_its_own_pace(bounded: bool) -> None:
    # content every 250 ms: 20 x 250 ms = 5 s; a 4 s pause is that stream's pace
    assert _stalls(_report(_tool_stream(4.0, every=0.25), bounded)) == []
    [stall] = _stalls(_report(_tool_stream(6.0, every=0.25), bounded))
    assert (stall.args or {})["stall_s"] == 5.0


def test_both_timing_forms_give_the_same_stalls() -> None:
    for pause in (1.0, 2.5, 8.0, 12.0):
        one, other = (_report(_tool_stream(pause), b) for b in (False, True))
        assert [d.to_dict() for d in _stalls(one)] == [d.to_dict() for d in _stalls(other)]
        assert one.timing.max_gap_s == other.timing.max_gap_s


def test_a_fixed_threshold_turns_the_pace_off() -> None:
    assert _stalls(_report(_tool_stream(8.0), False, stall_s=10.0, stall_pace=None)) == []
    [stall] = _stalls(_report(_tool_stream(8.0), False, stall_s=5.0, stall_pace=None))
    assert (stall.args or {})["stall_s"] == 5.0


def test_the_wait_before_the_first_content_is_judged_by_the_absolute_threshold() -> None:
    timed = [(piece, t + 8.0) for piece, t in _tool_stream(0.0)]  # 8 s before any byte
    assert _stalls(_report(timed, False)) == []


def test_a_short_stream_has_no_pace_and_the_floor_applies() -> None:
    timed = _tool_stream(3.0)
    short = timed[:2] + timed[-4:]  # a role chunk, one word, then the tool call
    assert len(short) - 1 < MIN_GAPS
    [stall] = _stalls(_report(short, False))
    assert (stall.args or {})["stall_s"] == 2.0

"""Content-idle time: the longest time without a content record, whatever else arrives.

Streams in each provider's documented shape, timed as captures: Anthropic's ``event: ping``
data records, SSE ``: keep-alive`` comments in an OpenAI Chat stream, and OpenAI Responses
lifecycle events carry no content; text, reasoning, tool-call arguments and the terminal
event do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ssescope
from ssescope import Pipeline, TimingOptions, feed_chunks
from ssescope.api import open_streams
from ssescope.containers import CaptureWriter


def _capture(tmp_path: Path, chunks: list[tuple[float, str]], end: float) -> Path:
    path = tmp_path / "timed.ssecap"
    writer = CaptureWriter(
        path,
        request={"method": "POST", "url": "https://api.example.test/v1", "headers": []},
        response_status=200,
        response_headers=[("content-type", "text/event-stream")],
    )
    for t, text in chunks:
        writer.write_chunk(text.encode(), t)
    writer.close("eof", end)
    return path


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def _anthropic(pings: int, gap: float) -> list[tuple[float, str]]:
    """A message whose text stops after the first delta while ``event: ping`` keeps coming."""
    start = {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [],
            "stop_reason": None,
            "usage": {"input_tokens": 12, "output_tokens": 1},
        },
    }
    block = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "text", "text": ""},
    }
    delta = {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "text_delta", "text": "Hi"},
    }
    out = [
        (0.10, _sse("message_start", start)),
        (0.11, _sse("content_block_start", block)),
        (0.20, _sse("content_block_delta", delta)),
    ]
    out += [(0.20 + gap * (i + 1), _sse("ping", {"type": "ping"})) for i in range(pings)]
    return out


def _finish(t: float) -> list[tuple[float, str]]:
    delta = {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "text_delta", "text": "!"},
    }
    return [
        (t, _sse("content_block_delta", delta)),
        (t + 0.01, _sse("content_block_stop", {"type": "content_block_stop", "index": 0})),
        (
            t + 0.02,
            _sse(
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": 3},
                },
            ),
        ),
        (t + 0.03, _sse("message_stop", {"type": "message_stop"})),
    ]


def _stalls(report: ssescope.Report) -> list[Any]:
    return [d for d in report.diagnostics if d.code == "timing.stall"]


def test_pings_between_two_text_deltas_are_a_content_stall_not_a_bytes_one(
    tmp_path: Path,
) -> None:
    path = _capture(tmp_path, [*_anthropic(6, 0.5), *_finish(3.5)], 3.6)
    report = ssescope.inspect(path, timing=TimingOptions(stall_s=2.0))
    assert report.status == "completed"
    assert report.timing.max_gap_s == pytest.approx(0.5, abs=1e-6)
    assert report.timing.max_content_idle_s == pytest.approx(3.3, abs=1e-6)
    [stall] = _stalls(report)
    assert stall.form == "content-gap"
    assert stall.args == {
        "kind": "content",
        "gap": pytest.approx(3.3),
        "records": 6,
        "stall_s": 2.0,
    }
    assert stall.record == 9  # the text delta that ended the silence
    assert "No content arrived for 3.300 s before record 9" in stall.message


def test_keep_alive_comments_after_the_last_text_are_a_content_stall_at_the_end(
    tmp_path: Path,
) -> None:
    chunk = {"id": "c", "object": "chat.completion.chunk", "choices": []}

    def data(delta: dict[str, Any]) -> str:
        body = {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        return f"data: {json.dumps(body)}\n\n"

    chunks = [(0.1, data({"role": "assistant", "content": ""})), (0.2, data({"content": "Hel"}))]
    chunks += [(0.2 + 0.9 * (i + 1), ": keep-alive\n\n") for i in range(4)]
    report = ssescope.inspect(_capture(tmp_path, chunks, 4.0), timing=TimingOptions(stall_s=3.0))
    assert report.status == "truncated"
    assert report.records.comments == 4
    assert report.timing.max_content_idle_s == pytest.approx(3.8, abs=1e-6)
    [stall] = _stalls(report)
    assert (stall.form, stall.args["kind"], stall.args["records"]) == ("content-tail", "content", 4)


def test_a_silence_without_any_bytes_is_a_bytes_stall_and_is_not_reported_twice(
    tmp_path: Path,
) -> None:
    # one ping, then nothing for 4 s, then the rest: the byte gap covers the silence
    path = _capture(tmp_path, [*_anthropic(1, 0.5), *_finish(4.7)], 4.8)
    report = ssescope.inspect(path, timing=TimingOptions(stall_s=2.0))
    [stall] = _stalls(report)
    assert (stall.form, stall.args["kind"]) == ("gap", "bytes")
    assert report.timing.max_content_idle_s == pytest.approx(4.5, abs=1e-6)
    assert report.timing.max_gap_s == pytest.approx(4.0, abs=1e-6)


def test_the_bounded_pipeline_counts_content_idle_as_inspect_does(tmp_path: Path) -> None:
    path = _capture(tmp_path, [*_anthropic(6, 0.5), *_finish(3.5)], 3.6)
    options = TimingOptions(stall_s=2.0)
    [stream] = open_streams(path)
    chunks = list(stream.chunks)
    reports = [
        feed_chunks(Pipeline(source=stream.info, timing=options, bounded=bounded), chunks)
        .report()
        .to_dict()
        for bounded in (False, True)
    ]
    assert reports[0] == reports[1]
    assert reports[0]["timing"]["max_content_idle_s"] == pytest.approx(3.3, abs=1e-6)


def test_the_live_pipeline_says_when_content_last_arrived() -> None:
    pipeline = Pipeline()
    events = _anthropic(2, 0.5)
    for t, text in events:
        pipeline.feed(text.encode(), t)
    assert pipeline.last_content_time == 0.20  # the pings did not move it
    pipeline.feed(_finish(2.0)[0][1].encode(), 2.0)
    assert pipeline.last_content_time == 2.0


def test_a_stream_without_arrival_times_has_no_content_idle() -> None:
    body = "".join(text for _, text in [*_anthropic(2, 0.5), *_finish(1.0)]).encode()
    report = ssescope.inspect(body)
    assert report.status == "completed"
    assert report.timing.max_content_idle_s is None
    assert report.to_dict()["timing"]["max_content_idle_s"] is None


def _chat(
    pieces: list[tuple[float, dict[str, Any]]], finish: str | None
) -> list[tuple[float, str]]:
    """An OpenAI Chat stream of the given deltas at the given times, with ``finish`` (and
    ``[DONE]``) right after the last."""
    chunk = {"id": "c", "object": "chat.completion.chunk", "model": "gpt-test"}
    out = []
    for t, delta in pieces:
        body = {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        out.append((t, f"data: {json.dumps(body)}\n\n"))
    if finish is not None:
        t = pieces[-1][0] + 0.01
        body = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
        out += [(t, f"data: {json.dumps(body)}\n\n"), (t + 0.01, "data: [DONE]\n\n")]
    return out


def _tool(args: str, first: bool = False) -> dict[str, Any]:
    call: dict[str, Any] = {"index": 0, "function": {"arguments": args}}
    if first:
        call.update(id="call_1", type="function")
        call["function"]["name"] = "get_weather"
    return {"tool_calls": [call]}


@pytest.mark.parametrize("bounded", [False, True])
def test_the_longest_silence_says_which_content_it_followed(tmp_path: Path, bounded: bool) -> None:
    # text, then a tool call whose arguments stop for 3 s halfway, then the rest
    pieces = [(0.1, {"role": "assistant", "content": ""}), (0.2, {"content": "Let me look."})]
    pieces += [(0.3, _tool('{"city": ', first=True)), (3.3, _tool('"Paris"}'))]
    path = _capture(tmp_path, _chat(pieces, "tool_calls"), 3.4)
    [stream] = open_streams(path)
    pipeline = Pipeline(source=stream.info, bounded=bounded)
    report = feed_chunks(pipeline, list(stream.chunks)).report()
    assert report.status == "completed"
    assert report.timing.max_content_idle_s == pytest.approx(3.0, abs=1e-6)
    assert report.timing.max_content_idle_after == "tool call"
    assert report.to_dict()["timing"]["max_content_idle_after"] == "tool call"


@pytest.mark.parametrize(
    ("pieces", "end", "after"),
    [
        # the longest wait is the one before the first content: it followed nothing
        ([(0.1, {"role": "assistant"}), (2.5, {"content": "Hi"})], 2.6, None),
        # reasoning, then a long pause, then the answer
        ([(0.1, {"reasoning_content": "hmm"}), (2.1, {"content": "Hi"})], 2.2, "reasoning"),
        # a complete stream whose connection stayed open after [DONE]
        ([(0.1, {"content": "Hi"})], 5.0, "end"),
    ],
)
def test_a_silence_before_any_content_after_reasoning_or_after_the_end(
    tmp_path: Path, pieces: list[tuple[float, dict[str, Any]]], end: float, after: str | None
) -> None:
    report = ssescope.inspect(_capture(tmp_path, _chat(pieces, "stop"), end))
    assert report.timing.max_content_idle_after == after


def test_a_stream_without_arrival_times_says_nothing_of_what_a_silence_followed() -> None:
    body = "".join(text for _, text in _chat([(0.1, {"content": "Hi"})], "stop")).encode()
    assert ssescope.inspect(body).timing.max_content_idle_after is None


def test_timing_options_survive_pickling() -> None:
    # a scan hands them to its worker processes; every field differs from its default,
    # so a field that __reduce__ leaves out fails here
    import dataclasses
    import pickle

    defaults = TimingOptions()
    changed: dict[str, Any] = {
        f.name: 3.0 if getattr(defaults, f.name) is None else getattr(defaults, f.name) + 1
        for f in dataclasses.fields(TimingOptions)
    }
    options = TimingOptions(**changed)
    assert all(getattr(options, k) != getattr(defaults, k) for k in changed)
    assert pickle.loads(pickle.dumps(options)) == options

"""The GenAI client metrics of a stream: names, buckets, and one observation per chunk."""

from __future__ import annotations

import pytest

import ssescope
from ssescope.otel import OtelReporter
from ssescope.otel.names import DURATION_BUCKETS, TOKEN_BUCKETS, semconv_from_env

from .conftest import Sink
from .test_span import CHAT_OK, FACTS, timed

LATEST = {
    "gen_ai.client.inference.duration",
    "gen_ai.client.inference.time_to_first_chunk",
    "gen_ai.client.inference.time_per_output_chunk",
    "gen_ai.client.inference.usage.input_tokens",
    "gen_ai.client.inference.usage.output_tokens",
    "gen_ai.client.inference.operation.input_tokens",
    "gen_ai.client.inference.operation.output_tokens",
}
V141 = {
    "gen_ai.client.operation.duration",
    "gen_ai.client.operation.time_to_first_chunk",
    "gen_ai.client.operation.time_per_output_chunk",
    "gen_ai.client.token.usage",
}


def record(sink: Sink, report: ssescope.Report, **kw: object) -> dict[str, list[object]]:
    OtelReporter(sink.tracer_provider, sink.meter_provider, **kw)(report, FACTS)  # type: ignore[arg-type]
    return sink.metrics()


def test_the_current_names_are_emitted_by_default_with_the_conventions_buckets(
    sink: Sink, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SSESCOPE_OTEL_SEMCONV", raising=False)
    found = record(sink, timed(CHAT_OK, [0.2, 0.5, 0.9, 1.0, 1.1]))
    assert set(found) == LATEST
    (duration,) = found["gen_ai.client.inference.duration"]
    assert tuple(duration.explicit_bounds) == DURATION_BUCKETS  # type: ignore[attr-defined]
    assert duration.sum == pytest.approx(1.1)  # type: ignore[attr-defined]
    (ttfc,) = found["gen_ai.client.inference.time_to_first_chunk"]
    assert tuple(ttfc.explicit_bounds) == DURATION_BUCKETS  # type: ignore[attr-defined]
    assert ttfc.sum == pytest.approx(0.5)  # type: ignore[attr-defined]
    (tokens,) = found["gen_ai.client.inference.operation.input_tokens"]
    assert tuple(tokens.explicit_bounds) == TOKEN_BUCKETS  # type: ignore[attr-defined]
    (inputs,) = found["gen_ai.client.inference.usage.input_tokens"]
    assert inputs.value == 5  # type: ignore[attr-defined]
    assert dict(inputs.attributes)["gen_ai.token.modality"] == "unknown"  # type: ignore[attr-defined]


def test_time_per_output_chunk_has_one_observation_per_content_record_after_the_first(
    sink: Sink,
) -> None:
    # content records at 0.5, 0.9 and the terminal [DONE] at 1.1 (the role chunk and the
    # usage chunk carry none): the records the content-idle time counts
    (tpoc,) = record(sink, timed(CHAT_OK, [0.2, 0.5, 0.9, 1.0, 1.1]))[
        "gen_ai.client.inference.time_per_output_chunk"
    ]
    assert tpoc.count == 2  # type: ignore[attr-defined]
    assert tpoc.sum == pytest.approx(0.6)  # type: ignore[attr-defined]


def test_a_long_stream_observes_every_content_gap(sink: Sink) -> None:
    chunks = [
        b'data: {"id":"c","choices":[{"index":0,"delta":{"content":"w%d "}}]}\n\n' % i
        for i in range(200)
    ]
    body = (
        b"".join(chunks)
        + b'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    )
    report = timed(body, [0.01 * (i + 1) for i in range(202)])
    (tpoc,) = record(sink, report)["gen_ai.client.inference.time_per_output_chunk"]
    # 200 text records, then the finish chunk (no content) and the terminal [DONE]
    assert tpoc.count == 200  # type: ignore[attr-defined]
    assert tpoc.sum == pytest.approx(2.01)  # type: ignore[attr-defined]


def test_the_duration_of_a_cut_stream_carries_its_error_type(sink: Sink) -> None:
    cut = CHAT_OK.split(b"data: [DONE]")[0].rsplit(b"data:", 2)[0]
    (duration,) = record(sink, timed(cut, [0.1, 0.4]))["gen_ai.client.inference.duration"]
    assert dict(duration.attributes)["error.type"] == "ssescope.truncated"  # type: ignore[attr-defined]


def test_no_usage_counts_zero_and_records_no_token_histogram(sink: Sink) -> None:
    no_usage = b"".join(e + b"\n\n" for e in CHAT_OK.split(b"\n\n") if e and b"usage" not in e)
    found = record(sink, ssescope.inspect(no_usage))
    assert "gen_ai.client.inference.operation.input_tokens" not in found
    (inputs,) = found["gen_ai.client.inference.usage.input_tokens"]
    assert inputs.value == 0  # type: ignore[attr-defined]


def test_no_arrival_times_record_no_timing_metrics(sink: Sink) -> None:
    found = record(sink, ssescope.inspect(CHAT_OK))
    assert "gen_ai.client.inference.duration" not in found
    assert "gen_ai.client.inference.time_to_first_chunk" not in found
    assert "gen_ai.client.inference.time_per_output_chunk" not in found


def test_the_older_names_are_behind_an_option(sink: Sink) -> None:
    found = record(sink, timed(CHAT_OK, [0.2, 0.5, 0.9, 1.0, 1.1]), semconv="v1.41")
    assert set(found) == V141
    types = {dict(p.attributes)["gen_ai.token.type"] for p in found["gen_ai.client.token.usage"]}  # type: ignore[attr-defined]
    assert types == {"input", "output"}


def test_both_sets_at_once(sink: Sink) -> None:
    found = record(sink, timed(CHAT_OK, [0.2, 0.5, 0.9, 1.0, 1.1]), semconv="both")
    assert set(found) == LATEST | V141


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "latest"),
        ({"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental"}, "latest"),
        ({"SSESCOPE_OTEL_SEMCONV": "v1.41"}, "v1.41"),
        ({"SSESCOPE_OTEL_SEMCONV": "BOTH"}, "both"),
        ({"SSESCOPE_OTEL_SEMCONV": "nonsense"}, "latest"),
    ],
)
def test_the_names_follow_the_environment(env: dict[str, str], expected: str) -> None:
    assert semconv_from_env(env) == expected


@pytest.mark.parametrize("bounded", [False, True], ids=["unbounded", "bounded"])
def test_the_report_keeps_each_content_records_arrival_time(bounded: bool) -> None:
    pipeline = ssescope.Pipeline(bounded=bounded)
    events = [e + b"\n\n" for e in CHAT_OK.split(b"\n\n") if e]
    # the first two events in one chunk, then one a chunk
    pipeline.feed(events[0] + events[1], 0.5)
    for t, event in zip([0.9, 1.0, 1.1], events[2:], strict=True):
        pipeline.feed(event, t)
    pipeline.close(1.2)
    assert list(pipeline.report().timing.content_times) == [0.5, 0.9, 1.1]


def test_a_body_without_arrival_times_has_no_content_times() -> None:
    assert list(ssescope.inspect(CHAT_OK).timing.content_times) == []

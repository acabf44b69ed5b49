"""One span per stream, from the Report: names, attributes, status and events."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from opentelemetry.trace import SpanKind, StatusCode

import ssescope
from ssescope.otel import ExchangeFacts, OtelReporter
from ssescope.otel.attributes import ERROR_TYPES, provider_name

from .conftest import Sink

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

CHAT_OK = (
    b'data: {"id":"c1","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n'
    b'data: {"id":"c1","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n'
    b'data: {"id":"c1","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}\n\n'
    b'data: {"id":"c1","model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}\n\n'
    b"data: [DONE]\n\n"
)


def timed(body: bytes, times: list[float]) -> ssescope.Report:
    """The Report of ``body`` split at its blank lines, each event arriving at a time."""
    events = [e + b"\n\n" for e in body.split(b"\n\n") if e]
    assert len(events) == len(times)
    pipeline = ssescope.Pipeline()
    for event, t in zip(events, times, strict=True):
        pipeline.feed(event, t)
    pipeline.close(times[-1])
    return pipeline.report()


def one_span(sink: Sink, report: ssescope.Report, facts: ExchangeFacts | None = None, **kw: object):
    OtelReporter(sink.tracer_provider, sink.meter_provider, **kw)(report, facts)  # type: ignore[arg-type]
    (span,) = sink.finished()
    return span


FACTS = ExchangeFacts(
    start_ns=1_700_000_000_000_000_000,
    method="POST",
    url="https://api.openai.com/v1/chat/completions?api-key=sk-SECRET123456789",
    request_model="gpt-4o-mini",
)


def test_a_completed_stream_is_one_client_span_named_after_the_operation_and_model(
    sink: Sink,
) -> None:
    span = one_span(sink, timed(CHAT_OK, [0.2, 0.5, 0.9, 1.0, 1.1]), FACTS)
    attrs = dict(span.attributes or {})
    assert span.name == "chat gpt-4o-mini"
    assert span.kind is SpanKind.CLIENT
    assert span.status.status_code is StatusCode.UNSET
    assert attrs["gen_ai.operation.name"] == "chat"
    assert attrs["gen_ai.provider.name"] == "openai"
    assert attrs["gen_ai.request.model"] == "gpt-4o-mini"
    assert attrs["gen_ai.response.model"] == "gpt-4o-mini"
    assert attrs["gen_ai.response.id"] == "c1"
    assert attrs["gen_ai.request.stream"] is True
    assert attrs["gen_ai.response.finish_reasons"] == ("stop",)
    assert attrs["gen_ai.usage.input_tokens"] == 5
    assert attrs["gen_ai.usage.output_tokens"] == 2
    assert attrs["server.address"] == "api.openai.com"
    assert attrs["server.port"] == 443
    assert attrs["ssescope.verdict"] == "completed"
    assert "error.type" not in attrs
    # from the request's start to the end of the body
    assert FACTS.start_ns is not None
    assert span.start_time == FACTS.start_ns
    assert span.end_time == FACTS.start_ns + 1_100_000_000


def test_time_to_first_chunk_is_the_first_generated_content_not_the_first_byte_or_role_chunk(
    sink: Sink,
) -> None:
    # the role-only chunk arrives at 0.2 s, the first text at 0.5 s
    span = one_span(sink, timed(CHAT_OK, [0.2, 0.5, 0.9, 1.0, 1.1]), FACTS)
    attrs = dict(span.attributes or {})
    assert attrs["ssescope.time_to_first_byte"] == 0.2
    assert attrs["gen_ai.response.time_to_first_chunk"] == 0.5
    # the longest silence between content records: 0.5 -> 0.9
    assert attrs["ssescope.content_idle_max"] == pytest.approx(0.4)


def test_time_to_first_chunk_skips_ping_and_response_created_frames(sink: Sink) -> None:
    body = (
        b'event: message_start\ndata: {"type":"message_start","message":{"id":"m1","model":"claude-x","usage":{"input_tokens":3,"output_tokens":1}}}\n\n'
        b'event: ping\ndata: {"type":"ping"}\n\n'
        b'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n'
        b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n'
        b'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n'
        b'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n'
        b'event: message_stop\ndata: {"type":"message_stop"}\n\n'
    )
    span = one_span(sink, timed(body, [0.1, 0.3, 0.6, 1.4, 1.5, 1.6, 1.7]))
    attrs = dict(span.attributes or {})
    assert attrs["gen_ai.provider.name"] == "anthropic"
    assert attrs["gen_ai.response.time_to_first_chunk"] == 1.4
    assert attrs["gen_ai.response.finish_reasons"] == ("stop",)


def test_a_truncated_stream_is_an_error_with_finish_reason_error(sink: Sink) -> None:
    cut = CHAT_OK.split(b"data: [DONE]")[0].rsplit(b"data:", 2)[0]
    span = one_span(sink, timed(cut, [0.1, 0.4]), FACTS)
    attrs = dict(span.attributes or {})
    assert attrs["ssescope.verdict"] == "truncated"
    assert attrs["gen_ai.response.finish_reasons"] == ("error",)
    assert attrs["error.type"] == "ssescope.truncated"
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description == "the bytes ended without any terminal marker"


def test_a_cancelled_stream_is_an_error_with_what_had_arrived(sink: Sink) -> None:
    pipeline = ssescope.Pipeline()
    pipeline.feed(CHAT_OK.split(b"\n\n")[1] + b"\n\n", 0.3)
    pipeline.cancel()
    pipeline.close(0.5)
    span = one_span(sink, pipeline.report(), FACTS)
    attrs = dict(span.attributes or {})
    assert attrs["error.type"] == "ssescope.cancelled"
    assert attrs["gen_ai.response.finish_reasons"] == ("error",)
    assert attrs["gen_ai.response.time_to_first_chunk"] == 0.3
    assert span.status.status_code is StatusCode.ERROR


def test_a_stalled_stream_says_so(sink: Sink) -> None:
    cut = CHAT_OK.split(b"data: [DONE]")[0].rsplit(b"data:", 2)[0]
    span = one_span(sink, timed(cut, [0.1, 0.4]), ExchangeFacts(end="stalled"))
    assert dict(span.attributes or {})["error.type"] == "ssescope.stalled"


def test_a_provider_error_keeps_the_providers_own_error_type(sink: Sink) -> None:
    report = ssescope.inspect(FIXTURES / "anthropic" / "overloaded-error.sse")
    span = one_span(sink, report)
    attrs = dict(span.attributes or {})
    assert attrs["error.type"] == "overloaded_error"
    assert attrs["ssescope.verdict"] == "failed"
    assert span.status.status_code is StatusCode.ERROR


def test_an_http_error_without_an_error_type_is_its_status_code(sink: Sink) -> None:
    pipeline = ssescope.Pipeline(source=ssescope.SourceInfo(container="http", status=503))
    pipeline.feed(b"upstream unavailable")
    pipeline.close()
    span = one_span(sink, pipeline.report())
    assert dict(span.attributes or {})["error.type"] == "503"


def test_every_error_type_set_is_from_the_documented_list(sink: Sink) -> None:
    literal = {t for t in ERROR_TYPES if not t.startswith("<")}
    for path in sorted(FIXTURES.rglob("*.sse")):
        OtelReporter(sink.tracer_provider, sink.meter_provider)(ssescope.inspect(path))
    kinds = {dict(s.attributes or {}).get("error.type") for s in sink.finished()} - {None}
    assert kinds
    for kind in kinds:
        assert isinstance(kind, str), kind
        assert kind in literal or kind.replace("_", "").isalnum() or kind.isdigit(), kind


def test_usage_is_left_out_when_the_stream_reported_none(sink: Sink) -> None:
    no_usage = b"".join(e + b"\n\n" for e in CHAT_OK.split(b"\n\n") if e and b"usage" not in e)
    attrs = dict(one_span(sink, ssescope.inspect(no_usage)).attributes or {})
    assert not [k for k in attrs if k.startswith("gen_ai.usage.")]


def test_diagnostics_become_capped_events_errors_first(sink: Sink) -> None:
    report = ssescope.inspect(FIXTURES / "containers" / "interrupted.ssecap")
    assert len(report.diagnostics) >= 2
    span = one_span(sink, report, max_events=1)
    (event,) = span.events
    attrs = dict(span.attributes or {})
    assert event.name == "ssescope.diagnostic"
    severities = [d.severity for d in report.diagnostics]
    first = "error" if "error" in severities else "warning"
    assert dict(event.attributes or {})["ssescope.diagnostic.severity"] == first
    assert attrs["ssescope.diagnostics.events_dropped"] == len(report.diagnostics) - 1
    assert attrs["ssescope.diagnostics.warnings"] == severities.count("warning")
    assert attrs["ssescope.diagnostics.errors"] == severities.count("error")


def test_content_is_off_by_default(sink: Sink, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", raising=False)
    span = one_span(sink, ssescope.inspect(CHAT_OK), FACTS)
    flat = json.dumps(dict(span.attributes or {})) + json.dumps(
        [dict(e.attributes or {}) for e in span.events]
    )
    assert "Hello" not in flat
    assert "gen_ai.output.messages" not in flat


@pytest.mark.parametrize("value", ["true", "SPAN_ONLY", "span_and_event"])
def test_content_is_opt_in_through_the_conventions_variable(
    sink: Sink, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", value)
    span = one_span(sink, ssescope.inspect(CHAT_OK), FACTS)
    messages = json.loads(str(dict(span.attributes or {})["gen_ai.output.messages"]))
    assert messages == [{"role": "assistant", "parts": [{"type": "text", "content": "Hello"}]}]


def test_an_argument_overrides_the_variable(sink: Sink, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    span = one_span(sink, ssescope.inspect(CHAT_OK), FACTS, capture_content=False)
    assert "gen_ai.output.messages" not in dict(span.attributes or {})


def test_no_key_reaches_a_span_even_with_content_on(sink: Sink) -> None:
    span = one_span(sink, ssescope.inspect(CHAT_OK), FACTS, capture_content=True)
    flat = json.dumps(dict(span.attributes or {})) + span.name
    assert "sk-SECRET" not in flat


def test_the_provider_comes_from_the_host_for_openai_compatible_servers(sink: Sink) -> None:
    facts = ExchangeFacts(url="https://api.groq.com/openai/v1/chat/completions")
    span = one_span(sink, ssescope.inspect(CHAT_OK), facts)
    assert dict(span.attributes or {})["gen_ai.provider.name"] == "groq"


# The conventions' well-known gen_ai.provider.name values (semantic conventions 1.45 /
# opentelemetry-semantic-conventions 0.66b), what each wire protocol may map to.
WELL_KNOWN = {
    "openai",
    "gcp.gen_ai",
    "gcp.vertex_ai",
    "gcp.gemini",
    "anthropic",
    "cohere",
    "azure.ai.inference",
    "azure.ai.openai",
    "ibm.watsonx.ai",
    "aws.bedrock",
    "perplexity",
    "x_ai",
    "deepseek",
    "groq",
    "mistral_ai",
}


@pytest.mark.parametrize(
    ("protocol", "expected"),
    [
        ("realtime", "openai"),
        ("gemini-interactions", "gcp.gen_ai"),
        ("ollama", "ollama"),
        ("vercel-ui", "vercel_ai"),
        ("mcp", "_OTHER"),
        ("a2a", "_OTHER"),
        ("ag-ui", "_OTHER"),
        ("unknown", "_OTHER"),
    ],
)
def test_without_a_known_host_the_provider_comes_from_the_wire_protocol(
    protocol: str, expected: str
) -> None:
    report = ssescope.Report(provider=protocol)
    assert provider_name(report, ExchangeFacts(url="http://127.0.0.1:8080/v1")) == expected


def test_every_protocol_maps_to_a_well_known_value_or_says_why_not() -> None:
    custom = {"ollama", "vercel_ai", "_OTHER"}  # (no well-known value: docs/otel.md)
    for protocol in ssescope.providers.PROVIDERS:
        name = provider_name(ssescope.Report(provider=protocol), ExchangeFacts())
        assert name in WELL_KNOWN | custom, (protocol, name)


def test_a_span_without_a_start_time_ends_now(sink: Sink) -> None:
    import time

    before = time.time_ns()
    span = one_span(sink, timed(CHAT_OK, [0.2, 0.5, 0.9, 1.0, 1.1]))
    assert span.end_time is not None and span.start_time is not None
    assert span.end_time >= before
    assert span.end_time - span.start_time == 1_100_000_000


def test_a_failing_tracer_never_raises_into_the_caller(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        def get_tracer(self, *args: object, **kwargs: object) -> object:
            return self

        def start_span(self, *args: object, **kwargs: object) -> object:
            raise RuntimeError("exporter down")

    reporter = OtelReporter(Broken(), metrics=False)  # type: ignore[arg-type]
    reporter(ssescope.inspect(CHAT_OK))
    reporter(ssescope.inspect(CHAT_OK))
    warned = [r for r in caplog.records if r.name == "ssescope.otel"]
    assert len(warned) == 1

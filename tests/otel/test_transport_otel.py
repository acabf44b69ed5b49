"""The in-process transport's Reports as spans: the real openai SDK against ``ssescope serve``."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import openai
import pytest

import ssescope
from ssescope.otel import OtelReporter
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

from .conftest import Sink

LIVE = Path(__file__).resolve().parent.parent / "fixtures" / "live"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    """``ssescope serve`` over the live fixtures, one chunk per record, 20 ms apart."""
    app = make_app(
        load_captures(LIVE), ReplayOptions(chunk="original", delay="20"), log=io.StringIO()
    )
    with ServerThread(app) as running:
        yield running


def _client(server: ServerThread, sink: Sink) -> openai.OpenAI:
    reporter = OtelReporter(sink.tracer_provider, sink.meter_provider)
    # (httpx2: the client library the openai SDK is built on)
    transport = ssescope.Transport(httpx2.HTTPTransport(), on_report=reporter)
    return openai.OpenAI(
        base_url=server.url + "/openai_chat/v1",
        api_key="sk-test-0123456789abcdef",
        max_retries=0,
        http_client=httpx2.Client(transport=transport),  # type: ignore[arg-type]
    )


def _read(client: openai.OpenAI, fault: str) -> str:
    query = {"fault": fault} if fault else {}
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "hi"}],
        stream=True,
        extra_query=query,
    )
    text = ""
    try:
        for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                text += chunk.choices[0].delta.content
    except (httpx2.HTTPError, openai.APIError):
        pass
    return text


def test_a_stream_read_to_the_end_is_one_completed_span(server: ServerThread, sink: Sink) -> None:
    before = time.time_ns()
    with _client(server, sink) as client:
        text = _read(client, "")
    assert text
    (span,) = sink.finished()
    attrs = dict(span.attributes or {})
    assert attrs["ssescope.verdict"] == "completed"
    assert attrs["gen_ai.request.model"] == "gpt-4o-mini"
    assert attrs["server.address"] == "127.0.0.1"
    ttfc = attrs["gen_ai.response.time_to_first_chunk"]
    first_byte = attrs["ssescope.time_to_first_byte"]
    assert isinstance(ttfc, float) and isinstance(first_byte, float)
    # the first content comes after the first byte, records arrive 20 ms apart
    assert 0 < first_byte <= ttfc < 5
    # the span starts when the request did (Report.request.started), not when it ended
    assert span.start_time is not None and span.end_time is not None
    assert before <= span.start_time < span.end_time
    assert "sk-test" not in repr(attrs)


def test_a_client_timeout_is_a_cancelled_span(server: ServerThread, sink: Sink) -> None:
    with _client(server, sink) as client:
        _read(client.with_options(timeout=httpx2.Timeout(5.0, read=0.3)), "stall@record:3:2")
    (span,) = sink.finished()
    attrs = dict(span.attributes or {})
    assert attrs["ssescope.verdict"] == "cancelled"  # the client gave up on the stream
    assert attrs["error.type"] == "ssescope.cancelled"
    assert tuple(attrs["gen_ai.response.finish_reasons"]) == ("error",)  # type: ignore[arg-type]
    assert (span.status.description or "").startswith("the client hung up after ")


def test_a_cut_stream_is_a_truncated_span_with_its_error_type(
    server: ServerThread, sink: Sink
) -> None:
    with _client(server, sink) as client:
        _read(client, "cut@record:4")
    (span,) = sink.finished()
    attrs = dict(span.attributes or {})
    assert attrs["ssescope.verdict"] == "truncated"
    assert attrs["error.type"] == "ssescope.truncated"

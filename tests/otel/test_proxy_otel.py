"""``ssescope proxy --otel``: every judged exchange as a span, with the proxy's facts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from ssescope.cli import cli
from ssescope.otel import OtelReporter
from ssescope.otel.proxy import exchange_hook
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

from ..proxy.conftest import LIVE, Null
from ..proxy.upstream import Scripted, scripted_app
from .conftest import Sink

pytestmark = pytest.mark.network


@pytest.fixture(scope="module")
def replay() -> Iterator[ServerThread]:
    app = make_app(load_captures(LIVE), ReplayOptions(chunk="original", delay="20"), log=Null())
    with ServerThread(app) as running:
        yield running


@pytest.fixture(scope="module")
def scripted() -> Iterator[tuple[ServerThread, Scripted]]:
    state = Scripted()
    with ServerThread(scripted_app(state)) as running:
        yield running, state


@pytest.fixture
def proxied(
    sink: Sink, scripted: tuple[ServerThread, Scripted], replay: ServerThread
) -> Iterator[ProxyThread]:
    upstream, _state = scripted
    hook = exchange_hook(OtelReporter(sink.tracer_provider, sink.meter_provider))
    with ProxyThread(
        upstream.url,
        routes=[("/openai_chat", replay.url)],
        finish_grace=0.3,
        on_report=hook,
    ) as running:
        yield running


def test_a_proxied_stream_is_a_span_with_the_requests_model_and_start(
    proxied: ProxyThread, sink: Sink
) -> None:
    body = {"model": "gpt-4o-mini", "stream": True, "messages": []}
    headers = {"Authorization": "Bearer sk-proj-SECRET0123456789abcdef"}
    r = httpx.post(proxied.url + "/openai_chat/v1/chat/completions", json=body, headers=headers)
    assert r.status_code == 200
    proxied.flush()
    (span,) = sink.finished()
    attrs = dict(span.attributes or {})
    [ex] = proxied.registry.finished()
    assert span.name == "chat gpt-4o-mini"
    assert attrs["ssescope.verdict"] == ex.verdict == "completed"
    assert attrs["gen_ai.request.model"] == "gpt-4o-mini"
    assert attrs["http.request.method"] == "POST"
    assert attrs["gen_ai.response.time_to_first_chunk"] == pytest.approx(ex.first_content_s)
    assert span.start_time == int(ex.started.timestamp() * 1_000_000) * 1000
    assert "SECRET" not in str(attrs)


def test_a_client_that_hangs_up_is_a_cancelled_error_span(
    proxied: ProxyThread, sink: Sink, scripted: tuple[ServerThread, Scripted]
) -> None:
    _upstream, state = scripted
    state.endless_closed.clear()
    with (
        httpx.Client() as client,
        client.stream("POST", proxied.url + "/endless", json={"model": "m", "stream": True}) as r,
    ):
        for got, _piece in enumerate(r.iter_raw(), 1):
            if got == 3:
                break
    assert state.endless_closed.wait(5)
    proxied.flush()
    (span,) = sink.finished()
    attrs = dict(span.attributes or {})
    assert attrs["ssescope.verdict"] == "cancelled"
    assert attrs["error.type"] == "ssescope.cancelled"
    assert attrs["gen_ai.response.finish_reasons"] == ("error",)
    assert attrs["ssescope.end"] == "cancelled"


def test_a_request_that_is_not_a_model_call_is_not_exported(
    proxied: ProxyThread, sink: Sink
) -> None:
    httpx.post(proxied.url + "/json", json={"input": "x"})
    proxied.flush()
    assert sink.finished() == []


def test_the_proxy_command_checks_its_otel_endpoint(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["proxy", "--upstream", "http://127.0.0.1:9", "--otel-endpoint", "not a url"],
    )
    assert result.exit_code == 2
    assert "--otel-endpoint" in result.output


def test_a_gemini_model_is_taken_from_the_url_path() -> None:
    from datetime import datetime, timezone

    from ssescope.otel.proxy import exchange_facts
    from ssescope.proxy.exchange import Exchange

    ex = Exchange(
        1,
        "POST",
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=AIzaSECRET",
        datetime(2026, 12, 1, tzinfo=timezone.utc),
    )
    facts = exchange_facts(ex)
    assert facts.request_model == "gemini-2.5-flash"
    assert facts.url is not None and "AIzaSECRET" not in facts.url
    assert facts.start_ns == 1_796_083_200 * 10**9

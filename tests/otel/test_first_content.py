"""One first content everywhere: the proxy, its index, the Live view, ``inspect`` of the
capture, the in-process transport and the OpenTelemetry span all give the same time.

The stream opens with what is not content (``message_start``, a ``ping``, an empty
block start), then reasoning, then text: the first content is the reasoning.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import ssescope
from ssescope.api import feed_chunks, open_streams
from ssescope.otel import OtelReporter
from ssescope.otel.proxy import exchange_hook
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

from ..proxy.conftest import Null
from ..transport.clients import judged_client
from .conftest import Sink

pytestmark = pytest.mark.network

DELAY = 0.06  # between records, as served

_EVENTS = [
    ("message_start", {"type": "message_start", "message": {"id": "msg_1", "type": "message",
     "role": "assistant", "model": "claude-x", "content": [], "stop_reason": None,
     "usage": {"input_tokens": 3, "output_tokens": 1}}}),
    ("ping", {"type": "ping"}),
    ("content_block_start", {"type": "content_block_start", "index": 0,
     "content_block": {"type": "thinking", "thinking": ""}}),
    ("content_block_delta", {"type": "content_block_delta", "index": 0,
     "delta": {"type": "thinking_delta", "thinking": "Let me think."}}),
    ("content_block_delta", {"type": "content_block_delta", "index": 0,
     "delta": {"type": "signature_delta", "signature": "c2ln"}}),
    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
    ("content_block_start", {"type": "content_block_start", "index": 1,
     "content_block": {"type": "text", "text": ""}}),
    ("content_block_delta", {"type": "content_block_delta", "index": 1,
     "delta": {"type": "text_delta", "text": "Hello."}}),
    ("content_block_stop", {"type": "content_block_stop", "index": 1}),
    ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
     "usage": {"output_tokens": 9}}),
    ("message_stop", {"type": "message_stop"}),
]  # fmt: skip
REASONING = 3  # the record of the first thinking delta
TEXT = 7  # the record of the first text


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """``ssescope serve`` of the stream above, :data:`DELAY` between records."""
    path = tmp_path_factory.mktemp("stream") / "thinking.sse"
    path.write_text(
        "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in _EVENTS)
    )
    options = ReplayOptions(chunk="original", delay=str(int(DELAY * 1000)))
    with ServerThread(make_app(load_captures(path), options, log=Null())) as running:
        yield running


def _record_time(capture: bytes, record: int) -> float:
    """The arrival time the capture keeps for ``record``."""
    [stream] = open_streams(capture)
    pipeline = ssescope.Pipeline(source=stream.info, keep_records=True)
    feed_chunks(pipeline, stream.chunks)
    [found] = [r.time for r in pipeline.records if r.index == record]
    assert found is not None
    return found


def test_every_surface_gives_the_first_reasoning_as_the_first_content(
    upstream: ServerThread, sink: Sink, tmp_path: Path
) -> None:
    from starlette.testclient import TestClient

    from ssescope.web import create_app

    hook = exchange_hook(OtelReporter(sink.tracer_provider, sink.meter_provider))
    with ProxyThread(upstream.url, record=tmp_path, on_report=hook) as proxy:
        r = httpx.post(proxy.url + "/thinking/v1/messages", json={"model": "claude-x"})
        assert r.status_code == 200
        proxy.flush()
        [ex] = proxy.registry.finished()
    [line] = [json.loads(t) for t in (tmp_path / "index.jsonl").read_text().splitlines()]
    capture = Path(str(line["capture"])).read_bytes()
    inspected = ssescope.inspect(capture)
    first = inspected.timing.first_content_s
    assert first is not None
    # the reasoning's record: after the first byte (message_start) and the ping's, before
    # the text's (strictly; the served gaps of DELAY shrink when a loaded machine delays
    # the reading of one record and not the next)
    assert first == pytest.approx(_record_time(capture, REASONING))
    assert _record_time(capture, REASONING - 2) < first < _record_time(capture, TEXT)
    assert inspected.timing.first_byte_s is not None
    assert first > inspected.timing.first_byte_s
    # the proxy, its index, the Live view and the span
    assert ex.first_content_s == pytest.approx(first, abs=1e-6)
    assert line["first_content_s"] == pytest.approx(first, abs=1e-3)
    page = TestClient(create_app(live_dir=tmp_path), base_url="http://127.0.0.1")
    live = page.get(f"/api/live/{line['name']}/inspect").json()
    assert live["report"]["timing"]["first_content_s"] == pytest.approx(first, abs=1e-6)
    assert live["live"]["whole"]["first_content_s"] == line["first_content_s"]
    [span] = sink.finished()
    ttfc = (span.attributes or {})["gen_ai.response.time_to_first_chunk"]
    assert ttfc == pytest.approx(first, abs=1e-6)


def test_the_transport_times_the_same_first_content(upstream: ServerThread, sink: Sink) -> None:
    reports: list[ssescope.Report] = []
    reporter = OtelReporter(sink.tracer_provider, sink.meter_provider)

    def both(report: ssescope.Report) -> None:
        reports.append(report)
        reporter(report)

    transport = ssescope.Transport(on_report=both)
    with (
        judged_client(transport) as client,
        client.stream("POST", upstream.url + "/thinking/v1/messages", json={}) as r,
    ):
        body = r.read()
    assert body.count(b"message_stop") == 2  # (the event name and its type)
    [report] = reports
    first = report.timing.first_content_s
    assert first is not None and report.timing.first_byte_s is not None
    # the reasoning's record: after the first byte, and the first of the content records
    # (reasoning, its signature, the text), strictly before the text's (the served gaps of
    # DELAY shrink when a loaded machine delays the reading of one record and not the next)
    assert first > report.timing.first_byte_s
    content = list(report.timing.content_times)
    assert len(content) == 3 and first == content[0] < content[-1]
    assert report.timing.total_s is not None and first < report.timing.total_s
    [span] = sink.finished()
    assert (span.attributes or {})["gen_ai.response.time_to_first_chunk"] == first


def test_the_live_milestone_of_request_is_the_reports_first_content(
    upstream: ServerThread,
) -> None:
    from ..live.test_request_view import _on_a_terminal

    code, screen = _on_a_terminal(upstream.url + "/thinking/", "-d", "{}")
    assert code == 0
    live = re.search(r"^first content after (\d+\.\d{3}) s", screen, re.M)
    final = re.search(r"timing: .*first content (\d+\.\d{3})s", screen)
    assert live is not None and final is not None, screen
    assert live.group(1) == final.group(1)
    byte = re.search(r"^first byte after (\d+\.\d{3}) s", screen, re.M)
    assert byte is not None
    # the reasoning, three records after the first byte (not the text, seven after)
    assert float(live.group(1)) - float(byte.group(1)) < 5 * DELAY

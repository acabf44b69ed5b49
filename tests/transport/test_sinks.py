"""What happens with the Reports: several sinks, a log line, sampled captures, redaction."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import httpx2
import pytest

import ssescope
from ssescope.scan.inputs import index_files
from ssescope.serve.app import ServerThread
from ssescope.transport import CaptureSampler, LogReports, describe

from .clients import judged_client

pytestmark = pytest.mark.network

PATH = "/openai_chat/v1/chat/completions"
KEY = "sk-live-abcdef0123456789"


def _stream(client: httpx2.Client, server: ServerThread, query: str = "") -> bytes:
    headers = {"authorization": f"Bearer {KEY}", "x-api-key": KEY}
    url = server.url + PATH + f"?key={KEY}" + query
    with client.stream("POST", url, json={"model": "gpt-4o-mini"}, headers=headers) as r:
        return b"".join(r.iter_raw())


def test_several_sinks_each_get_the_same_report_and_a_failing_one_is_only_logged(
    server: ServerThread, caplog: pytest.LogCaptureFixture
) -> None:
    first: list[ssescope.Report] = []
    second: list[ssescope.Report] = []

    def broken(report: ssescope.Report) -> None:
        raise RuntimeError("a sink's own bug")

    transport = ssescope.Transport(on_report=[first.append, broken, second.append])
    with (
        caplog.at_level(logging.ERROR, "ssescope.transport"),
        judged_client(transport) as client,
    ):
        body = _stream(client, server)
    assert body  # the app got its bytes
    assert len(first) == len(second) == 1
    assert first[0] is second[0]
    assert "an on_report sink failed" in caplog.text


def test_the_log_sink_logs_only_verdicts_worse_than_its_threshold(
    server: ServerThread, caplog: pytest.LogCaptureFixture
) -> None:
    sink = LogReports("app.streams", worse_than="completed")
    with (
        caplog.at_level(logging.WARNING, "app.streams"),
        judged_client(ssescope.Transport(on_report=sink)) as client,
    ):
        _stream(client, server)
        assert not caplog.records
        _stream(client, server, "&fault=cut@record:4")
    assert len(caplog.records) == 1
    line = caplog.records[0].getMessage()
    assert "verdict=truncated" in line
    assert "model=gpt-4o-mini" in line
    assert "stream.missing-done" in line or "sse.unterminated-event" in line
    assert KEY not in line
    assert "key=[redacted]" in line


def test_the_log_sink_refuses_an_unknown_verdict() -> None:
    with pytest.raises(ValueError, match="unknown verdict"):
        LogReports(worse_than="fine")


def test_every_broken_stream_and_a_sample_of_the_rest_is_recorded_where_scan_reads_it(
    server: ServerThread, tmp_path: Path
) -> None:
    sampler = CaptureSampler(tmp_path, sample=0.0)
    reports: list[ssescope.Report] = []
    transport = ssescope.Transport(on_report=reports.append, record=sampler)
    with judged_client(transport) as client:
        _stream(client, server)
        _stream(client, server, "&fault=cut@record:4")
        _stream(client, server)
    assert [r.status for r in reports] == ["completed", "truncated", "completed"]
    files, errors = index_files(tmp_path)
    assert errors == []
    assert len(files) == 1 == len(sampler.saved)
    assert ssescope.inspect(files[0]).status == "truncated"
    text = Path(files[0]).read_text()
    assert KEY not in text
    assert "[redacted]" in text
    assert not list(tmp_path.glob(".*.part"))

    everything = CaptureSampler(tmp_path / "all", sample=1.0)
    with judged_client(ssescope.Transport(record=everything)) as client:
        _stream(client, server)
        _stream(client, server)
    files, _ = index_files(tmp_path / "all")
    assert len(files) == 2
    assert {ssescope.inspect(f).status for f in files} == {"completed"}


def test_a_recorded_capture_replays_to_the_report_the_transport_gave(
    server: ServerThread, tmp_path: Path
) -> None:
    reports: list[ssescope.Report] = []
    sampler = CaptureSampler(tmp_path, sample=1.0, memory=256)  # (spills to a part file)
    with judged_client(ssescope.Transport(on_report=reports.append, record=sampler)) as client:
        _stream(client, server, "&fault=cut@record:6")
    (capture,) = sampler.saved
    replayed = ssescope.inspect(capture)
    assert replayed.status == reports[0].status == "truncated"
    assert replayed.text == reports[0].text
    assert replayed.timing.first_content_s == pytest.approx(reports[0].timing.first_content_s)


def test_content_redaction_hashes_the_text_of_captures(
    server: ServerThread, tmp_path: Path
) -> None:
    sampler = CaptureSampler(tmp_path, sample=1.0, redact_content=True)
    reports: list[ssescope.Report] = []
    with judged_client(ssescope.Transport(on_report=reports.append, record=sampler)) as client:
        _stream(client, server)
    text = sampler.saved[0].read_text()
    assert reports[0].text
    assert reports[0].text.split()[0] not in text
    assert "sha256:" in text


def test_a_credential_the_server_echoes_is_scrubbed_from_the_report(
    tmp_path: Path,
) -> None:
    body = (
        b'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,'
        b'"delta":{"content":"your key ' + KEY.encode() + b' is fine"}}]}\n\n'
        b'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,'
        b'"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    )

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(
            200, headers={"content-type": "text/event-stream"}, stream=_Chunks(body, 7)
        )

    reports: list[ssescope.Report] = []
    sampler = CaptureSampler(tmp_path, sample=1.0)
    transport = ssescope.Transport(
        httpx2.MockTransport(handler), on_report=reports.append, record=sampler
    )
    with judged_client(transport) as client:
        got = client.post("http://127.0.0.1:9/v1/chat/completions", headers={"x-api-key": KEY})
    assert got.content == body  # the app gets the bytes as sent
    (report,) = reports
    assert KEY not in report.text
    assert "[redacted]" in report.text
    assert "http.secret-echoed" in {d.code for d in report.diagnostics}
    assert KEY not in sampler.saved[0].read_text()


class _Chunks(httpx2.SyncByteStream):
    def __init__(self, body: bytes, size: int) -> None:
        self._parts = [body[i : i + size] for i in range(0, len(body), size)]

    def __iter__(self) -> Any:
        yield from self._parts


def test_a_failing_engine_stops_judging_and_never_the_app(
    monkeypatch: pytest.MonkeyPatch, server: ServerThread
) -> None:
    def boom(self: Any, data: bytes, time: float | None = None) -> Any:
        raise RuntimeError("the engine broke")

    def boom_many(self: Any, chunks: Any, times: Any) -> Any:
        raise RuntimeError("the engine broke")

    # The transport feeds one chunk at a time or a batch: both entry points break.
    monkeypatch.setattr(ssescope.Pipeline, "feed", boom)
    monkeypatch.setattr(ssescope.Pipeline, "feed_many", boom_many)
    reports: list[ssescope.Report] = []
    with judged_client(ssescope.Transport(on_report=reports.append)) as client:
        body = _stream(client, server)
    monkeypatch.undo()
    assert ssescope.inspect(body).status == "completed"  # the app read the whole stream
    (report,) = reports
    stopped = [d for d in report.diagnostics if d.code == "stream.judging-stopped"]
    assert len(stopped) == 1
    assert "RuntimeError: the engine broke" in stopped[0].message
    assert "stream.judging-stopped" in describe(report)

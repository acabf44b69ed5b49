"""The httpx and aiohttp adapters feed the Pipeline live and build the Report."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import httpx
import pytest

from ssescope.events import Terminal, TextDelta
from ssescope.providers._base import AdapterOutput
from ssescope.serve.app import ServerThread
from ssescope.sources import aiohttp as live_aiohttp
from ssescope.sources import httpx as live_httpx

BODY = (Path(__file__).parent.parent / "fixtures" / "live" / "anthropic.sse").read_bytes()
TEXT = "Bonjour à tous 🎉."


class Recorder:
    """A capture sink that keeps what it was given."""

    def __init__(self) -> None:
        self.chunks: list[tuple[bytes, float]] = []
        self.end: str | None = None

    def write_chunk(self, data: bytes, time: float) -> None:
        self.chunks.append((data, time))

    def close(self, end: str | None = None, time: float | None = None) -> None:
        self.end = end


def pieces(body: bytes, size: int = 7) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


class SyncBody(httpx.SyncByteStream):
    def __init__(self, parts: list[bytes], fail: BaseException | None = None) -> None:
        self.parts = parts
        self.fail = fail

    def __iter__(self) -> Iterator[bytes]:
        yield from self.parts
        if self.fail is not None:
            raise self.fail


class AsyncBody(httpx.AsyncByteStream):
    def __init__(self, parts: list[bytes], fail: BaseException | None = None) -> None:
        self.parts = parts
        self.fail = fail

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for p in self.parts:
            yield p
        if self.fail is not None:
            raise self.fail


def run(
    mode: str,
    parts: list[bytes],
    *,
    status: int = 200,
    fail: BaseException | None = None,
    capture: Recorder | None = None,
) -> tuple[list[AdapterOutput], live_httpx.LiveStream | live_httpx.AsyncLiveStream]:
    """Stream ``parts`` through a MockTransport with the sync or async adapter."""
    if mode == "sync":
        transport = httpx.MockTransport(
            lambda request: httpx.Response(status, stream=SyncBody(parts, fail))
        )
        with httpx.Client(transport=transport) as client, client.stream("POST", "http://x/") as r:
            live = live_httpx.iter_events(r, capture=capture)
            events = list(live)
        return events, live

    async def main() -> tuple[list[AdapterOutput], live_httpx.AsyncLiveStream]:
        transport = httpx.MockTransport(
            lambda request: httpx.Response(status, stream=AsyncBody(parts, fail))
        )
        async with (
            httpx.AsyncClient(transport=transport) as client,
            client.stream("POST", "http://x/") as r,
        ):
            alive = live_httpx.aiter_events(r, capture=capture)
            return [e async for e in alive], alive

    return asyncio.run(main())


MODES = pytest.mark.parametrize("mode", ["sync", "async"], ids=["sync", "async"])


@MODES
def test_events_stream_out_and_the_report_is_built_at_the_end(mode: str) -> None:
    events, live = run(mode, pieces(BODY))
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == TEXT
    assert any(isinstance(e, Terminal) for e in events)
    report = live.report
    assert report is not None
    assert (report.status, report.text, report.bytes, report.http_status) == (
        "completed",
        TEXT,
        len(BODY),
        200,
    )
    assert report.to_dict()["source"]["container"] == "http"


@MODES
def test_arrival_times_give_every_timing_figure(mode: str) -> None:
    _, live = run(mode, pieces(BODY))
    t = live.report.timing if live.report else None
    assert t is not None
    assert t.first_byte_s is not None
    assert t.first_event_s is not None
    assert t.first_content_s is not None
    assert t.total_s is not None
    assert 0 <= t.first_byte_s <= t.first_event_s <= t.first_content_s <= t.total_s
    assert t.gap_histogram is not None
    assert sum(t.gap_histogram.values()) == live.report.records.total - 1  # type: ignore[union-attr]


def test_the_report_is_none_until_the_stream_is_exhausted() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=SyncBody([BODY])))
    with httpx.Client(transport=transport) as client, client.stream("GET", "http://x/") as r:
        live = live_httpx.iter_events(r)
        assert live.report is None
        next(live)
        assert live.report is None
        list(live)
        assert live.report is not None


@MODES
def test_every_chunk_is_teed_into_the_capture_with_its_time(mode: str) -> None:
    rec = Recorder()
    run(mode, pieces(BODY, 50), capture=rec)
    assert b"".join(c for c, _ in rec.chunks) == BODY
    times = [t for _, t in rec.chunks]
    assert times == sorted(times)
    assert rec.end == "eof"


@MODES
def test_a_dropped_connection_keeps_the_text_so_far_and_is_truncated(mode: str) -> None:
    cut = BODY[: BODY.index(b"tous")]
    _, live = run(mode, pieces(cut), fail=httpx.RemoteProtocolError("peer closed connection"))
    report = live.report
    assert report is not None
    assert report.status == "truncated"
    assert report.text == "Bonjour à"
    assert "stream.connection-error" in [d.code for d in report.diagnostics]


@MODES
def test_a_read_timeout_is_a_stall_that_truncates(mode: str) -> None:
    cut = BODY[: BODY.index(b"event: content_block_stop")]
    _, live = run(mode, [cut], fail=httpx.ReadTimeout("timed out"))
    report = live.report
    assert report is not None
    assert live.stalled
    assert report.status == "truncated"
    assert "timing.stall" in [d.code for d in report.diagnostics]


@MODES
def test_a_read_timeout_after_the_terminal_marker_keeps_the_status(mode: str) -> None:
    _, live = run(mode, [BODY], fail=httpx.ReadTimeout("timed out"))
    report = live.report
    assert report is not None
    assert not live.stalled
    assert report.status == "completed"
    assert "stream.open-after-finish" in [d.code for d in report.diagnostics]


def test_an_already_read_response_is_inspected_whole() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=BODY))
    with httpx.Client(transport=transport) as client:
        report = live_httpx.iter_events(client.get("http://x/")).run()
    assert (report.status, report.text) == ("completed", TEXT)


@MODES
def test_the_http_status_reaches_the_report(mode: str) -> None:
    _, live = run(
        mode, [b'{"error":{"type":"rate_limit_error","message":"slow down"}}'], status=429
    )
    assert live.report is not None
    assert live.report.http_status == 429


def test_closing_early_marks_the_response_cancelled() -> None:
    rec = Recorder()
    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, stream=SyncBody(pieces(BODY)))
    )
    with httpx.Client(transport=transport) as client, client.stream("GET", "http://x/") as r:
        live = live_httpx.iter_events(r, capture=rec)
        for ev in live:
            if isinstance(ev, TextDelta):
                break
        report = live.close()
    assert report.status == "cancelled"
    assert report.text == "Bonjour"
    assert rec.end == "cancelled"


def test_the_async_adapter_aborts_a_silent_stream_after_the_stall_time() -> None:
    head = BODY[: BODY.index(b"event: content_block_stop")]

    class Slow(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            yield head
            await asyncio.sleep(30)
            yield b""

    async def main() -> live_httpx.AsyncLiveStream:
        transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=Slow()))
        async with (
            httpx.AsyncClient(transport=transport) as client,
            client.stream("GET", "http://x/") as r,
        ):
            alive = live_httpx.aiter_events(r, stall=0.2)
            await alive.run()
            return alive

    alive = asyncio.run(main())
    assert alive.stalled
    assert alive.report is not None
    assert alive.report.status == "truncated"
    assert alive.report.text == "Bonjour à tous 🎉."
    stall = [d for d in alive.report.diagnostics if d.code == "timing.stall"]
    assert stall and stall[0].severity == "warning" and stall[0].form == "aborted"


@pytest.mark.network
def test_aiohttp_streams_from_a_loopback_server(server: ServerThread) -> None:
    rec = Recorder()

    async def main() -> live_aiohttp.AiohttpLiveStream:
        async with (
            aiohttp.ClientSession() as session,
            session.post(server.url + "/anthropic/v1/messages", json={}) as r,
        ):
            alive = live_aiohttp.aiter_events(r, capture=rec)
            texts = [e.text async for e in alive if isinstance(e, TextDelta)]
            assert "".join(texts) == TEXT
            return alive

    alive = asyncio.run(main())
    report = alive.report
    assert report is not None
    assert (report.status, report.text, report.http_status) == ("completed", TEXT, 200)
    assert report.timing.first_content_s is not None
    assert b"".join(c for c, _ in rec.chunks) == BODY


@pytest.mark.network
def test_aiohttp_aborts_a_stalled_stream(server: ServerThread) -> None:
    async def main() -> live_aiohttp.AiohttpLiveStream:
        async with aiohttp.ClientSession() as session:
            url = server.url + "/anthropic/?fault=stall@record:5:30"
            async with session.post(url) as r:
                alive = live_aiohttp.aiter_events(r, stall=0.3)
                await alive.run()
                return alive

    alive = asyncio.run(main())
    assert alive.stalled
    assert alive.report is not None
    assert alive.report.status == "truncated"
    assert alive.report.text == "Bonjour à"

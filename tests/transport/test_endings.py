"""Every way a stream can end gives exactly one Report, through httpx2 and httpx alike."""

from __future__ import annotations

import asyncio
import gc
import importlib
import re
from typing import Any

import pytest

import ssescope
from ssescope.serve.app import ServerThread

from .clients import judged_client

pytestmark = pytest.mark.network

LIBRARIES = ["httpx2", "httpx"]
PATH = "/openai_chat/v1/chat/completions"


def _client(library: str, reports: list[ssescope.Report], **kw: Any) -> Any:
    lib = importlib.import_module(library)
    return lib.Client(transport=ssescope.Transport(on_report=reports.append), **kw)


def _whole(server: ServerThread, query: str = "") -> bytes:
    """The bytes the server sends for ``query``, read without the transport."""
    import httpx2

    return httpx2.post(server.url + PATH + query, json={}).content


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_stream_read_to_its_end_gives_the_report_inspect_gives(
    library: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    with (
        _client(library, reports) as client,
        client.stream("POST", server.url + PATH, json={"model": "gpt-4o-mini"}) as r,
    ):
        body = b"".join(r.iter_raw())
        assert len(reports) == 1  # (at the end of the read, before the close)
    assert len(reports) == 1
    report = reports[0]
    expected = ssescope.inspect(body)
    assert report.status == expected.status == "completed"
    assert report.text == expected.text
    assert report.http_status == 200
    assert report.container == "http"
    assert report.request is not None
    assert report.request.method == "POST"
    assert report.request.model == "gpt-4o-mini"
    assert report.timing.first_byte_s is not None
    assert report.timing.first_content_s is not None
    assert report.timing.first_content_s >= report.timing.first_byte_s
    assert report.to_dict()["request"]["url"].endswith(PATH)


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_break_then_close_is_cancelled_with_what_arrived(
    library: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    with _client(library, reports) as client:
        with client.stream("POST", server.url + PATH, json={}) as r:
            for i, _ in enumerate(r.iter_raw()):
                if i == 3:
                    break
            assert len(reports) == 1  # (the loop's iterator closed at the break)
        assert len(reports) == 1
    report = reports[0]
    assert report.status == "cancelled"
    assert "closed the stream" in report.response.status_reason
    assert report.records.total >= 3
    assert report.bytes > 0


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_response_dropped_unread_is_cancelled_when_collected(
    library: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    client = _client(library, reports)
    request = client.build_request("POST", server.url + PATH, json={})
    response = client.send(request, stream=True)
    chunks = response.iter_raw()
    next(chunks)
    del chunks, response
    gc.collect()
    assert len(reports) == 1
    assert reports[0].status == "cancelled"
    assert reports[0].bytes > 0
    client.close()
    assert len(reports) == 1


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_read_timeout_is_cancelled_by_the_client_and_the_app_still_gets_its_exception(
    library: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    lib = importlib.import_module(library)
    url = server.url + PATH + "?fault=stall@record:3:2"
    with (
        _client(library, reports, timeout=lib.Timeout(5.0, read=0.3)) as client,
        pytest.raises(lib.ReadTimeout),
        client.stream("POST", url, json={}) as r,
    ):
        for _ in r.iter_raw():
            pass
    assert len(reports) == 1
    report = reports[0]
    assert report.status == "cancelled"  # the client gave up, as a proxy's client hangs up
    reason = report.response.status_reason or ""
    waited = re.fullmatch(r"the client hung up after (\d+\.\d) s without data", reason)
    assert waited is not None, reason
    assert 0.3 <= float(waited.group(1)) < 2.0  # (its read timeout, and the time to notice)
    assert report.records.total >= 3


@pytest.mark.parametrize("library", LIBRARIES)
def test_an_exception_in_the_apps_loop_is_cancelled_and_propagates(
    library: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    with (
        _client(library, reports) as client,
        pytest.raises(KeyError),
        client.stream("POST", server.url + PATH, json={}) as r,
    ):
        for _ in r.iter_raw():
            raise KeyError("the app's own bug")
    assert [r.status for r in reports] == ["cancelled"]


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_cut_stream_is_truncated_as_inspect_says(
    library: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    query = "?fault=cut@record:4"
    with _client(library, reports) as client:
        body = client.post(server.url + PATH + query, json={}).content
    assert body == _whole(server, query)
    assert len(reports) == 1
    assert reports[0].status == ssescope.inspect(body).status == "truncated"


@pytest.mark.parametrize("library", LIBRARIES)
def test_the_async_transport_reports_a_cancelled_task(
    library: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    lib = importlib.import_module(library)

    async def main() -> None:
        transport = ssescope.AsyncTransport(on_report=reports.append)
        async with lib.AsyncClient(transport=transport) as client:
            arrived = asyncio.Event()

            async def read() -> None:
                url = server.url + PATH + "?fault=stall@record:3:5"
                async with client.stream("POST", url, json={}) as r:
                    async for _ in r.aiter_raw():
                        arrived.set()

            task = asyncio.create_task(read())
            await arrived.wait()
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(main())
    assert len(reports) == 1
    assert reports[0].status == "cancelled"
    assert reports[0].records.total >= 1


@pytest.mark.parametrize("library", LIBRARIES)
def test_the_async_transport_reads_to_the_end_and_closes_early(
    library: str, server: ServerThread, reports: list[ssescope.Report]
) -> None:
    lib = importlib.import_module(library)

    async def main() -> None:
        transport = ssescope.AsyncTransport(on_report=reports.append)
        async with lib.AsyncClient(transport=transport) as client:
            async with client.stream("POST", server.url + PATH, json={}) as r:
                await r.aread()
            async with client.stream("POST", server.url + PATH, json={}) as r:
                async for _ in r.aiter_raw():
                    break

    asyncio.run(main())
    assert [r.status for r in reports] == ["completed", "cancelled"]


def test_a_response_that_is_not_a_stream_passes_through_untouched(
    server: ServerThread, reports: list[ssescope.Report]
) -> None:
    import httpx2

    calls: list[Any] = []

    class Inner(httpx2.BaseTransport):
        def handle_request(self, request: httpx2.Request) -> httpx2.Response:
            response = httpx2.Response(200, json={"ok": True})
            calls.append(response.stream)
            return response

    with judged_client(ssescope.Transport(Inner(), on_report=reports.append)) as c:
        response = c.get("http://127.0.0.1:9/v1/models")
    assert response.json() == {"ok": True}
    assert not reports
    assert len(calls) == 1


def test_an_http_error_answering_a_stream_request_is_failed(
    server: ServerThread, reports: list[ssescope.Report]
) -> None:

    with judged_client(ssescope.Transport(on_report=reports.append)) as client:
        response = client.post(
            server.url + PATH + "?fault=http-error:529", json={"stream": True, "model": "m"}
        )
        plain = client.post(server.url + PATH + "?fault=http-error:529", json={"model": "m"})
    assert response.status_code == plain.status_code == 529
    assert len(reports) == 1  # (the request that did not ask for a stream is not judged)
    assert reports[0].status == "failed"
    assert reports[0].http_status == 529

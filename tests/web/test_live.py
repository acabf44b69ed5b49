"""The Live view: the proxy's exchanges listed as they arrive, opened in the debugger view."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ssescope.proxy import ProxyThread
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from ssescope.web import create_app

LIVE = Path(__file__).resolve().parents[1] / "fixtures" / "live"


class _Null(io.StringIO):
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


@pytest.fixture(scope="module")
def slow_upstream() -> Iterator[ServerThread]:
    """The replay server, 150 ms between records: a stream lasts about 1.6 s."""
    app = make_app(load_captures(LIVE), ReplayOptions(chunk="original", delay="150"), log=_Null())
    with ServerThread(app) as running:
        yield running


def test_the_live_api_lists_finished_and_in_flight_exchanges(
    slow_upstream: ServerThread, tmp_path: Path
) -> None:
    from starlette.testclient import TestClient

    with ProxyThread(slow_upstream.url, record=tmp_path) as proxy:
        httpx.post(proxy.url + "/anthropic/v1/messages", json={"model": "claude"})
        proxy.flush()
        page = TestClient(create_app(live_dir=tmp_path), base_url="http://127.0.0.1")
        result: list[httpx.Response] = []
        thread = threading.Thread(
            target=lambda: result.append(httpx.post(proxy.url + "/openai_chat/v1/chat/completions"))
        )
        thread.start()
        try:
            for _ in range(200):
                listed = page.get("/api/live").json()["exchanges"]
                if len(listed) == 2 and listed[0]["live"] and listed[0]["capture_bytes"] > 300:
                    break
                threading.Event().wait(0.02)
            streaming, done = listed
            assert (
                streaming["live"] is True
                and streaming["path"] == "/openai_chat/v1/chat/completions"
            )
            assert streaming["status"] == 200 and streaming["verdict"] is None
            assert done["live"] is False and done["verdict"] == "completed"
            assert done["provider"] == "anthropic"
            partial = page.get("/api/live/" + streaming["name"])
            assert partial.status_code == 200 and partial.content.endswith(b"\n")
            assert b'"ssescope":"capture"' in partial.content.splitlines()[0]
        finally:
            thread.join()
        proxy.flush()
        finished = page.get("/api/live").json()["exchanges"]
        assert [e["verdict"] for e in finished] == ["completed", "completed"]
    assert page.get("/api/live/../index").status_code == 404
    assert page.get("/api/live/nothing-here").status_code == 404
    bare = TestClient(create_app(), base_url="http://127.0.0.1").get("/api/live").json()
    assert bare == {"dir": None, "exchanges": []}


@pytest.mark.browser
def test_the_live_view_lists_a_stream_while_it_streams_then_opens_it(
    browser: Any, slow_upstream: ServerThread, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    with ProxyThread(slow_upstream.url, record=tmp_path, web=True) as proxy:
        assert proxy.web_url is not None
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.goto(proxy.web_url + "/")
        page.wait_for_selector("body[data-live=on]")
        assert page.get_by_test_id("live-item").count() == 0
        result: list[httpx.Response] = []
        thread = threading.Thread(
            target=lambda: result.append(
                httpx.post(proxy.url + "/openai_chat/v1/chat/completions", json={"stream": True})
            )
        )
        thread.start()
        try:
            item = page.locator("[data-testid=live-item][data-live=true]")
            item.wait_for(timeout=5000)
            assert "/openai_chat/v1/chat/completions" in item.text_content()
            assert "streaming…" in item.text_content()
            item.click()
            page.wait_for_selector("body[data-live-opened-state=streaming]")
            page.wait_for_selector("body[data-state=ready]")
            assert page.get_by_test_id("verdict-container").text_content() == "ssecap"
            # the opened stream refreshes until it ends, then shows its verdict
            page.wait_for_selector("body[data-live-opened-state=finished]", timeout=10000)
            # (a locator wait: a polled string predicate would need eval, which the CSP blocks)
            expect(page.get_by_test_id("verdict-status")).to_have_text("completed", timeout=10000)
            assert page.get_by_test_id("verdict-provider").text_content() == "openai-chat"
            done = page.locator("[data-testid=live-item][data-live=false]")
            assert done.get_attribute("data-verdict") == "completed"
        finally:
            thread.join()
            context.close()
    assert result[0].status_code == 200

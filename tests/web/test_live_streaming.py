"""The Live view never judges a stream in flight: STREAMING, its age, its idle time so far
and its partial reply, with no verdict and no error-level finding until it ends; then the
verdict, without a reload."""

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
from ssescope.web.live import streaming_times

LIVE = Path(__file__).resolve().parents[1] / "fixtures" / "live"
STALL = "stall@record:4:3"  # 3 s of silence after a few text records


class _Null(io.StringIO):
    def write(self, text: str) -> int:
        return len(text)


@pytest.fixture(scope="module")
def upstream() -> Iterator[ServerThread]:
    """The replay server, 40 ms between records."""
    app = make_app(load_captures(LIVE), ReplayOptions(chunk="original", delay="40"), log=_Null())
    with ServerThread(app) as running:
        yield running


def test_streaming_times_are_the_age_and_the_time_since_the_last_write() -> None:
    start = 1_764_562_512.25  # 2025-12-01T04:15:12.25Z
    name = "20251201T041512.250000Z-post-v1-messages"
    assert streaming_times(name, start + 2.0, now=start + 5.0) == {"age_s": 5.0, "idle_s": 3.0}
    # a name without a time: no age; the idle time is never longer than the age
    assert streaming_times("other", start, now=start + 1.5) == {"age_s": None, "idle_s": 1.5}
    assert streaming_times(name, start - 9, now=start + 1.0)["idle_s"] == 1.0


def _stalled_then(
    browser: Any, upstream: ServerThread, tmp_path: Path, faults: list[str], tag: str
) -> str:
    from playwright.sync_api import expect

    with ProxyThread(upstream.url, record=tmp_path, web=True) as proxy:
        assert proxy.web_url is not None
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.goto(proxy.web_url + "/")
        page.wait_for_selector("body[data-live=on]")
        query = "&".join(f"fault={f}" for f in faults)
        url = proxy.url + "/openai_chat/v1/chat/completions?" + query
        thread = threading.Thread(target=lambda: httpx.post(url, json={"stream": True}, timeout=30))
        thread.start()
        try:
            item = page.locator("[data-testid=live-item][data-live=true]")
            item.wait_for(timeout=5000)
            item.click()
            page.wait_for_selector("body[data-live-opened-state=streaming]")
            status = page.get_by_test_id("verdict-status")
            expect(status).to_have_text("streaming", timeout=5000)
            # the stall: idle time grows, the partial reply is shown, nothing is judged
            expect(page.get_by_test_id("verdict-reason")).to_contain_text("so far", timeout=5000)
            expect(item).to_contain_text("idle", timeout=5000)
            page.wait_for_timeout(1500)
            reason = page.get_by_test_id("verdict-reason").text_content() or ""
            assert reason.startswith("streaming for ") and "no verdict until it ends" in reason
            assert "idle" in reason
            assert status.get_attribute("data-status") == "streaming"
            assert page.get_by_test_id("verdict-problems").text_content() == ""
            assert page.get_by_test_id("diagnostics-held").count() == 1
            errors = page.locator("[data-testid=diagnostic].sev-error")
            assert errors.count() == 0
            # nor a finding about its end (a missing [DONE]: it has not ended yet)
            assert "missing-done" not in (page.get_by_test_id("diagnostics").text_content() or "")
            assert "so far: still streaming" in (page.get_by_test_id("output").text_content() or "")
            shot = tmp_path / f"{tag}-streaming.png"
            page.screenshot(path=str(shot))
            assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            # it ends: the verdict comes without a reload
            page.wait_for_selector("body[data-live-opened-state=finished]", timeout=15000)
            expect(status).not_to_have_text("streaming", timeout=5000)
            final = status.text_content() or ""
            assert page.get_by_test_id("diagnostics-held").count() == 0
            findings = page.get_by_test_id("diagnostics").text_content() or ""
            assert ("missing-done" in findings) == (final == "truncated")
            page.screenshot(path=str(tmp_path / f"{tag}-ended.png"))
            done = page.locator("[data-testid=live-item][data-live=false]")
            expect(done).to_have_attribute("data-verdict", final, timeout=5000)
            return final
        finally:
            thread.join()
            context.close()


@pytest.mark.browser
def test_a_stream_that_stalls_then_completes_shows_streaming_then_completed(
    browser: Any, upstream: ServerThread, tmp_path: Path
) -> None:
    final = _stalled_then(browser, upstream, tmp_path, [STALL], "completes")
    assert final == "completed"


@pytest.mark.browser
def test_a_stream_that_stalls_then_is_cut_shows_streaming_then_truncated(
    browser: Any, upstream: ServerThread, tmp_path: Path
) -> None:
    final = _stalled_then(browser, upstream, tmp_path, [STALL, "cut@record:7"], "cut")
    assert final == "truncated"

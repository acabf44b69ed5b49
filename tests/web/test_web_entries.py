"""A capture holding several streams on the web page: the entries are listed, one is picked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ssescope.web import create_app

HAR = (
    Path(__file__).resolve().parents[1] / "fixtures" / "containers" / "devtools-several-streams.har"
)


def test_the_api_lists_the_entries_and_answers_for_the_one_asked(tmp_path: Path) -> None:
    client = TestClient(create_app(examples_dir=tmp_path), base_url="http://127.0.0.1:8765")
    first = client.post("/api/inspect", content=HAR.read_bytes()).json()
    assert [(e["index"], e["status"], e["provider"]) for e in first["entries"]] == [
        (1, "completed", "openai-chat"),
        (2, "truncated", "openai-chat"),
        (3, "completed", "anthropic"),
    ]
    assert first["entry"] == 0
    assert first["report"]["entry"]["index"] == 1
    third = client.post("/api/inspect?entry=2", content=HAR.read_bytes()).json()
    assert third["entry"] == 2
    assert third["report"]["outputs"][0]["text"] == "Bonjour"
    assert third["frames"][0]["event"] == "message_start"
    capture = client.post("/api/ssecap?entry=2", content=HAR.read_bytes())
    assert b"message_start" in capture.content
    assert b"chatcmpl" not in capture.content
    for bad in ("7", "x", "-1"):
        res = client.post(f"/api/inspect?entry={bad}", content=HAR.read_bytes())
        assert res.status_code == 400
        assert "entry" in res.json()["error"]


def test_an_input_holding_one_stream_lists_no_entries(tmp_path: Path) -> None:
    client = TestClient(create_app(examples_dir=tmp_path), base_url="http://127.0.0.1:8765")
    body = client.post("/api/inspect", content=b'data: {"type":"start"}\n\n').json()
    assert body["entries"] == []
    assert body["entry"] == 0


@pytest.mark.browser
def test_the_page_lists_every_stream_of_a_har_and_shows_the_one_picked(page: Any) -> None:
    page.get_by_test_id("file-input").set_input_files(str(HAR))
    page.wait_for_selector("body[data-state=ready][data-entry='0']")
    assert page.get_by_test_id("entries").is_visible()
    assert page.get_by_test_id("entry-count").text_content() == "3 streams"
    items = page.locator("[data-testid=entry-list] button")
    assert items.count() == 3
    second = page.get_by_test_id("entry-1")
    assert "#2" in second.text_content()
    assert "POST https://chat.example.test/api/openai/chat" in second.text_content()
    assert "truncated" in second.text_content()
    assert page.get_by_test_id("entry-0").get_attribute("aria-current") == "true"
    assert page.get_by_test_id("verdict-provider").text_content() == "openai-chat"
    assert page.get_by_test_id("verdict-status").text_content() == "completed"

    page.get_by_test_id("entry-2").click()
    page.wait_for_selector("body[data-state=ready][data-entry='2']")
    assert page.get_by_test_id("verdict-provider").text_content() == "anthropic"
    assert page.get_by_test_id("verdict-status").text_content() == "completed"
    assert "Bonjour" in page.get_by_test_id("outputs").text_content()
    assert page.get_by_test_id("entry-2").get_attribute("aria-current") == "true"
    assert page.get_by_test_id("entry-0").get_attribute("aria-current") is None

    page.get_by_test_id("entry-1").click()
    page.wait_for_selector("body[data-state=ready][data-entry='1']")
    assert page.get_by_test_id("verdict-status").text_content() == "truncated"


@pytest.mark.browser
def test_a_single_stream_hides_the_entry_list(page: Any) -> None:
    page.get_by_test_id("input-text").fill('data: {"type":"start"}\n\n')
    page.get_by_test_id("inspect").click()
    page.wait_for_selector("body[data-state=ready]")
    assert not page.get_by_test_id("entries").is_visible()

"""The web page on an AG-UI run pasted in: the verdict, the provider and the text, through
the one engine and the page as it is."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.browser

EVENTS: list[dict[str, Any]] = [
    {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"},
    {"type": "STATE_SNAPSHOT", "snapshot": {"step": 1}},
    {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Forty-two, "},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "as computed."},
    {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
]


def _paste(page: Any, events: list[dict[str, Any]]) -> None:
    text = "".join(f"data: {json.dumps(e)}\n\n" for e in events)
    page.get_by_test_id("input-text").fill(text)
    page.get_by_test_id("inspect").click()
    page.wait_for_selector("body[data-state=ready]")


def test_an_ag_ui_run_shows_its_verdict_provider_and_text(page: Any) -> None:
    _paste(page, [*EVENTS, {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}])
    assert page.get_by_test_id("verdict-status").text_content() == "completed"
    assert page.get_by_test_id("verdict-provider").text_content() == "ag-ui"
    assert page.get_by_test_id("text").text_content() == "Forty-two, as computed."


def test_an_ag_ui_run_cut_before_run_finished_shows_truncated(page: Any) -> None:
    _paste(page, EVENTS)
    assert page.get_by_test_id("verdict-status").text_content() == "truncated"
    assert page.get_by_test_id("verdict-provider").text_content() == "ag-ui"
    assert page.get_by_test_id("text").text_content() == "Forty-two, as computed."

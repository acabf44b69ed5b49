"""The web page on an A2A task pasted in: the agent fact line names the task's state, that
it asks for something (the question on hover) and its artifacts; a chat stream hides it."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _result(result: dict[str, Any]) -> str:
    return f"data: {json.dumps({'jsonrpc': '2.0', 'id': 1, 'result': result})}\n\n"


ASKING = "".join(
    _result(r)
    for r in (
        {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "submitted"}},
        {
            "kind": "artifact-update",
            "taskId": "t",
            "artifact": {"artifactId": "a1", "parts": [{"kind": "text", "text": "Draft"}]},
            "append": False,
            "lastChunk": False,
        },
        {
            "kind": "status-update",
            "taskId": "t",
            "contextId": "c",
            "status": {
                "state": "input-required",
                "message": {"role": "agent", "parts": [{"kind": "text", "text": "Which city?"}]},
            },
            "final": True,
        },
    )
)


def test_an_a2a_task_shows_its_state_ask_and_artifacts(page: Any) -> None:
    page.get_by_test_id("input-text").fill(ASKING)
    page.get_by_test_id("inspect").click()
    page.wait_for_selector("body[data-state=ready]")
    assert page.get_by_test_id("verdict-status").text_content() == "incomplete"
    agent = page.get_by_test_id("verdict-agent")
    assert agent.text_content() == "task input-required · asks · 1 artifact (1 without last chunk)"
    assert agent.get_attribute("title") == "input-required: Which city?\nartifact a1: 5 chars"


def test_a_chat_stream_hides_the_agent_fact(page: Any) -> None:
    page.get_by_test_id("example-select").select_option("cohere-tool-call-bad-record")
    page.wait_for_selector("body[data-state=ready]")
    assert page.get_by_test_id("verdict-agent").is_hidden()

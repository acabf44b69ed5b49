"""The web page's tool-call card lists what the request's schema says of the call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "toolschema"


def _upload(page: Any, name: str) -> None:
    data = (FIXTURES / name).read_bytes()
    page.get_by_test_id("file-input").set_input_files(
        files=[{"name": name, "mimeType": "application/octet-stream", "buffer": data}]
    )
    page.wait_for_selector("body[data-state=ready]")


def test_a_capture_with_its_request_shows_each_mismatch_on_the_call_s_card(page: Any) -> None:
    _upload(page, "chat-strict-mismatch.ssecap")
    notes = page.get_by_test_id("tool-schema").all_text_contents()
    assert notes == [
        "schema: $: Additional properties are not allowed ('country' was unexpected)"
        " (rule additionalProperties)",
        "schema: $.unit: 'kelvin' is not one of ['celsius', 'fahrenheit'] (rule enum)",
    ]


def test_a_call_of_a_tool_not_offered_says_so_and_a_matching_call_shows_nothing(
    page: Any,
) -> None:
    _upload(page, "responses-not-offered.ssecap")
    assert page.get_by_test_id("tool-schema").all_text_contents() == [
        "not offered: the request declares no tool of this name"
    ]
    _upload(page, "chat-matching.ssecap")
    assert page.get_by_test_id("tool-schema").count() == 0

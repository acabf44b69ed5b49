"""The official SDKs stream from ``ssescope serve`` and assemble what ssescope assembles."""

from __future__ import annotations

from pathlib import Path

import anthropic
import openai
import pytest

import ssescope
from ssescope.serve.app import ServerThread

pytestmark = pytest.mark.network

FIXTURES = Path(__file__).parent.parent / "fixtures" / "live"


def test_the_openai_sdk_assembles_the_same_text_as_ssescope(server: ServerThread) -> None:
    client = openai.OpenAI(base_url=server.url + "/openai_chat/v1", api_key="placeholder")
    stream = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}], stream=True
    )
    text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    report = ssescope.inspect(FIXTURES / "openai_chat.sse")
    assert text == report.text
    assert report.status == "completed"


def test_the_anthropic_sdk_assembles_the_same_text_as_ssescope(server: ServerThread) -> None:
    client = anthropic.Anthropic(base_url=server.url + "/anthropic", api_key="placeholder")
    with client.messages.stream(
        model="claude-3-5-haiku-latest",
        max_tokens=64,
        messages=[{"role": "user", "content": "hi"}],
    ) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    report = ssescope.inspect(FIXTURES / "anthropic.sse")
    assert text == report.text
    assert final.stop_reason == "end_turn"
    assert report.outputs[0].raw_finish_reason == "end_turn"


def test_the_anthropic_sdk_raises_on_the_injected_overloaded_error(server: ServerThread) -> None:
    client = anthropic.Anthropic(
        base_url=server.url + "/anthropic", api_key="placeholder", max_retries=0
    )
    with (
        pytest.raises(anthropic.APIStatusError, match="Overloaded"),
        client.messages.stream(
            model="claude-3-5-haiku-latest",
            max_tokens=64,
            messages=[{"role": "user", "content": "hi"}],
            extra_query={"fault": "error@record:5"},
        ) as stream,
    ):
        for _ in stream.text_stream:
            pass

"""``usage.missing`` is said only of protocols that carry token usage at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ssescope import inspect
from ssescope.providers.registry import PROVIDERS, knowledge

ROOT = Path(__file__).resolve().parents[2]
AGENT = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
AGENT = AGENT / "agent"

# a completed stream of each protocol without token usage
WITHOUT_USAGE = {
    "a2a": "a2a/local-v03-completed-artifact-chunks.sse",
    "mcp": "mcp-streamable-http/deepwiki-tools-list.sse",
    "ag-ui": "ag-ui/dotnet-reasoning-then-text.jsonl",
}


def test_the_protocols_without_usage_are_the_ones_named_here() -> None:
    assert {p for p in PROVIDERS if not knowledge(p).reports_usage} == set(WITHOUT_USAGE)


@pytest.mark.parametrize("provider", sorted(WITHOUT_USAGE))
def test_a_completed_stream_of_a_protocol_without_usage_is_not_told_it_is_missing(
    provider: str,
) -> None:
    path = AGENT / WITHOUT_USAGE[provider]
    if not path.is_file():
        pytest.skip(f"the real agent streams are not at {AGENT} (SSESCOPE_REAL_STREAMS)")
    report = inspect(path.read_bytes())
    assert report.provider == provider
    assert report.status == "completed"
    assert "usage.missing" not in [d.code for d in report.diagnostics]


def test_a_chat_stream_without_usage_is_still_told() -> None:
    body = (
        b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":'
        b'[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}\n\n'
        b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":'
        b'[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
        b"data: [DONE]\n\n"
    )
    report = inspect(body)
    assert report.status == "completed"
    assert "usage.missing" in [d.code for d in report.diagnostics]


def test_only_a_protocol_that_sends_usage_when_asked_is_told_how_to_ask() -> None:
    chat = inspect(
        b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":'
        b'[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\n'
        b"data: [DONE]\n\n"
    )
    (told,) = [d for d in chat.diagnostics if d.code == "usage.missing"]
    assert "stream_options.include_usage" in told.message
    assert told.args == {"field": "stream_options.include_usage"}
    askers = {p for p in PROVIDERS if knowledge(p).usage_request is not None}
    assert askers == {"openai-chat"}


def test_a_realtime_translation_session_is_not_told_about_stream_options() -> None:
    path = AGENT / "openai-realtime" / "translation-session-events.jsonl"
    if not path.is_file():
        pytest.skip(f"the real agent streams are not at {AGENT} (SSESCOPE_REAL_STREAMS)")
    report = inspect(path.read_bytes())
    assert report.provider == "realtime"
    (told,) = [d for d in report.diagnostics if d.code == "usage.missing"]
    assert told.message == "The response reported no token usage; none is estimated."
    assert "stream_options" not in told.message

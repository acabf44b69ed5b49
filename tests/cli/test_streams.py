"""Every bundled example and every real capture goes through inspect, frames and replay."""

from __future__ import annotations

import json

import pytest
from tests.cli.cli_helpers import EXAMPLES, STREAMS, run

EXAMPLE_FILES = sorted(p for p in EXAMPLES.iterdir() if p.suffix != ".py" and p.is_file())

# provider, status, exit code expected from each bundled example
EXPECTED = {
    "openai-chat-tool-call.sse": ("openai-chat", "completed", 0),
    "openai-responses-reasoning.sse": ("openai-responses", "completed", 0),
    "anthropic-thinking-tool-use.sse": ("anthropic", "completed", 0),
    "gemini-crlf.sse": ("gemini", "completed", 0),
    "ollama-chat.ndjson": ("ollama", "completed", 0),
    "cohere-chat.sse": ("cohere", "completed", 0),
    "bedrock-converse.jsonl": ("bedrock", "completed", 0),
    "vercel-ui.sse": ("vercel-ui", "completed", 0),
    "broken-openai-cut-mid-tool-call.sse": ("openai-chat", "truncated", 3),
    "broken-bad-json-record.sse": ("openai-chat", "completed", 0),
    "broken-crlf-keepalive.sse": ("openai-chat", "completed", 0),
    "broken-anthropic-overloaded.sse": ("anthropic", "failed", 4),
}


def test_every_bundled_example_has_an_expectation() -> None:
    assert {p.name for p in EXAMPLE_FILES} == set(EXPECTED)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_each_example_gives_its_provider_status_and_exit_code(path: object) -> None:
    result = run("inspect", "--json", str(path))
    provider, status, code = EXPECTED[path.name]  # type: ignore[attr-defined]
    data = json.loads(result.out)
    assert (data["provider"], data["status"], result.code) == (provider, status, code)


def test_strict_fails_the_example_with_a_bad_json_record() -> None:
    result = run("inspect", "--strict", "--example", "broken-bad-json-record")
    assert result.code == 5


def test_pretty_view_of_the_tool_call_example_shows_a_tool_card_and_usage() -> None:
    result = run("inspect", "--pretty", "--example", "openai-chat-tool-call")
    assert "get_weather" in result.out
    assert '"city": "Lyon"' in result.out
    assert "input_tokens" in result.out


REAL = sorted(p for p in STREAMS.rglob("*") if p.suffix in (".sse", ".jsonl", ".ndjson"))


@pytest.mark.skipif(not STREAMS.is_dir(), reason=f"no real captures at {STREAMS}")
@pytest.mark.parametrize("path", REAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_captures_give_a_report_and_a_status_exit_code(path: object) -> None:
    result = run("inspect", str(path))
    data = json.loads(result.out)
    assert data["schema"] == 1
    assert result.code in (0, 3, 4, 130)  # 130: a cancelled task (A2A)
    assert "Traceback" not in result.err

"""Through the command line: inputs that are not streams say what they are, in one line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.cli_helpers import run


def test_an_empty_file_says_it_is_empty_and_exits_3(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sse"
    empty.write_bytes(b"")
    result = run("inspect", str(empty), "--pretty", "--no-color")
    assert result.code == 3
    flat = " ".join(result.out.split())
    assert "truncated (the body is empty: no byte of a stream arrived)" in flat
    assert "stream.empty" in result.out


def test_an_html_page_and_plain_text_fail_with_one_line_saying_what_they_are(
    tmp_path: Path,
) -> None:
    page = tmp_path / "page.html"
    page.write_text("<html><head><title>Sign in</title></head><body>login</body></html>\n")
    result = run("inspect", str(page), "--json")
    assert result.code == 4
    report = json.loads(result.out)
    assert report["status_reason"] == "the body is an HTML page ('Sign in'), not a stream"
    text = run("inspect", "-", "--pretty", "--no-color", stdin=b"Internal Server Error\n")
    assert text.code == 4
    flat = " ".join(text.out.split())  # the terminal view wraps at 80 columns
    assert "failed (the body is plain text, not a stream: 'Internal Server Error')" in flat


def test_a_whole_chat_completion_is_inspected_and_says_it_was_not_streamed(
    tmp_path: Path,
) -> None:
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "gpt-4o-mini",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Hi!"},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
    }
    path = tmp_path / "completion.json"
    path.write_text(json.dumps(body, indent=2))
    result = run("inspect", str(path), "--pretty", "--no-color")
    assert result.code == 0
    flat = " ".join(result.out.split())
    assert "openai-chat · json · completed (a whole chat.completion, not streamed" in flat
    assert "Hi!" in result.out
    assert "stream.not-streamed" in result.out

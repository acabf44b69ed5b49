"""``ssescope scan`` against hostile corpora: what it prints, and inputs it must not lose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssescope.cli import main

OSC52 = "\x1b]52;c;cHduZWQ=\x07"
OSC0 = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
EVIL = f"{OSC52}{OSC0}{CLEAR}\x9b31m\u202e"


def openai(model: str, *, done: bool = True) -> bytes:
    """A one-chunk OpenAI Chat stream from ``model``; cut before its end unless ``done``."""
    chunk = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "model": model,
        "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}],
    }
    body = f"data: {json.dumps(chunk)}\n\n"
    if done:
        last = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        body += f"data: {json.dumps(last)}\n\ndata: [DONE]\n\n"
    return body.encode()


def no_raw_controls(text: str) -> None:
    """Fail when a control character from the corpus reached the screen."""
    for bad in ("\x07", "\x9b", "\u202e", "\x1b]", "\x1b[2J"):
        assert bad not in text, f"{bad!r} reached the screen"


def test_model_and_file_names_are_shown_as_text_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "markup.sse").write_bytes(openai("[/x]"))
    (corpus / "link.sse").write_bytes(openai("[link=https://evil.example]m[/link]"))
    (corpus / "evil.sse").write_bytes(openai(f"gpt-{EVIL}", done=False))
    (corpus / f"name{OSC0}{CLEAR}.sse").write_bytes(openai("gpt-x", done=False))
    (corpus / f"bad{OSC52}.sse").symlink_to(corpus / "nowhere")  # a row that is not read
    code = main(["scan", str(corpus), "--jobs", "1", "--color"])
    out, err = capsys.readouterr()
    assert code == 0, err
    no_raw_controls(out)
    assert "\x1b]8;" not in out  # no OSC 8 hyperlink
    assert "[/x]" in out and "[link=https://evil.example]m[/link]" in out
    assert "gpt-\\x1b]52;c;cHduZWQ=\\x07" in out
    assert "name\\x1b]0;pwned\\x07\\x1b[2J.sse" in out
    assert "bad\\x1b]52;c;cHduZWQ=\\x07.sse" in out

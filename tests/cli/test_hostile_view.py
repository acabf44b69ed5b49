"""Escape sequences from a stream never reach the terminal; long texts fold (``--full``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.cli.cli_helpers import run

from ssescope.visible import escape_json_text, visible

OSC52 = "\x1b]52;c;cHduZWQ=\x07"
OSC0 = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
C1 = "\x9b31m"
BIDI = "\u202e"
EVIL = f"{OSC52}{OSC0}{CLEAR}{C1}{BIDI}"


def _chunk(delta: dict[str, object], finish: str | None = None) -> str:
    chunk = {
        "id": f"chatcmpl-{EVIL}",
        "object": "chat.completion.chunk",
        "model": f"gpt-{EVIL}",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"event: message{EVIL}\ndata: {json.dumps(chunk)}\n\n"


@pytest.fixture
def evil_stream(tmp_path: Path) -> Path:
    call = {
        "index": 0,
        "id": f"call_{EVIL}",
        "type": "function",
        "function": {"name": f"get_{EVIL}", "arguments": json.dumps({"city": EVIL})},
    }
    body = (
        _chunk({"role": "assistant", "reasoning_content": f"thinking {EVIL}"})
        + _chunk({"refusal": f"no {EVIL}"})
        + _chunk({"content": f"text {EVIL}\nline two\tTab"})
        + _chunk({"tool_calls": [call]})
        + _chunk({}, finish=f"stop{EVIL}")
        + "data: [DONE]\n\n"
        + f"data: {{not json {EVIL}\n\n"
    )
    path = tmp_path / "evil.sse"
    path.write_text(body, encoding="utf-8")
    return path


def _no_raw_controls(text: str) -> None:
    for bad in ("\x1b", "\x07", "\x9b", BIDI):
        assert bad not in text, f"{bad!r} reached the screen"


@pytest.mark.parametrize(
    "args",
    [
        ["inspect", "--pretty"],
        ["inspect", "--pretty", "--no-color"],
        ["inspect", "--pretty", "--redact"],
        ["inspect", "--pretty", "--color"],
        ["frames"],
        ["frames", "--no-color"],
        ["frames", "--redact"],
    ],
)
def test_no_escape_sequence_from_the_stream_reaches_the_screen(
    evil_stream: Path, args: list[str]
) -> None:
    result = run(*args, str(evil_stream))
    assert result.code in (0, 3, 4), result.err
    if "--color" in args:  # rich's own styling is the only escape left
        out = result.out
        for code in ("\x1b[1m", "\x1b[0m", "\x1b[2m", "\x1b[3m"):
            out = out.replace(code, "")
        out = re.sub(r"\x1b\[[0-9;]*m", "", out)
        _no_raw_controls(out)
    else:
        _no_raw_controls(result.out)
    _no_raw_controls(result.err)
    if args[0] == "frames" and "--redact" in args:
        # the data is redacted; the event column (cut from the left) shows the escapes
        assert "\\x1b[2J" in result.out
    elif args[0] == "frames":  # previews are cut to the column's width
        assert "\\x1b]52;c" in result.out
    elif "--redact" not in args:
        assert "\\x1b]52;c;cHduZWQ=\\x07" in result.out
        assert "\\x1b[2J" in result.out
        assert "\\u202e" in result.out


def test_every_field_shows_its_escapes_in_the_inspect_view(evil_stream: Path) -> None:
    out = run("inspect", "--pretty", "--no-color", str(evil_stream)).out
    flat = "".join(out.split())
    seen = visible(EVIL).replace(" ", "")
    fields = ("gpt-", "chatcmpl-", "get_", "call_", "stop", "thinking", "no", "text")
    for field in (name + seen for name in fields):
        assert field in flat, field
    assert "line two" in out  # a line feed in the reply text stays a line feed
    card = next(line for line in out.splitlines() if '"city"' in line)
    # pretty-printed arguments keep their lines; JSON spells ESC out as \u001b
    assert card.strip(" │").startswith('"city": "\\u001b]52;c;')
    assert "\\n" not in out.split("line two")[0].split("text")[-1]


def test_json_output_escapes_every_control_character(evil_stream: Path) -> None:
    for args in (["inspect", "--json"], ["frames", "--jsonl"]):
        result = run(*args, str(evil_stream))
        _no_raw_controls(result.out)
        assert "\\u001b]52;c;cHduZWQ=\\u0007" in result.out
        assert "\\u009b" in result.out and "\\u202e" in result.out
    report = json.loads(run("inspect", "--json", str(evil_stream)).out)
    assert report["model"] == f"gpt-{EVIL}"  # the value itself is untouched


def test_check_shows_differences_with_escapes_visible(evil_stream: Path, tmp_path: Path) -> None:
    expected = tmp_path / "expected.txt"
    expected.write_text(f"other {EVIL}", encoding="utf-8")
    result = run("check", str(evil_stream), "--against", str(expected), "--no-color")
    assert result.code == 5
    _no_raw_controls(result.out)
    assert "\\x1b]0;pwned\\x07" in result.out


def test_visible_keeps_plain_text_and_spells_out_controls() -> None:
    assert visible("héllo wörld 🎉") == "héllo wörld 🎉"
    assert visible("a\nb\tc\rd") == "a\\nb\\tc\\rd"
    assert visible("a\nb\tc\rd", multiline=True) == "a\nb\tc\\rd"
    assert visible(EVIL) == "\\x1b]52;c;cHduZWQ=\\x07\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202e"
    assert visible("\x00\x7f\u2028") == "\\x00\\x7f\\u2028"
    assert json.loads(escape_json_text(json.dumps(EVIL, ensure_ascii=False))) == EVIL


def _long_stream(tmp_path: Path, text: str) -> Path:
    chunk = {
        "id": "c",
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}],
    }
    end = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    path = tmp_path / "long.sse"
    path.write_text(f"data: {json.dumps(chunk)}\n\ndata: {json.dumps(end)}\n\ndata: [DONE]\n\n")
    return path


def test_a_long_text_is_folded_with_a_count_unless_full(tmp_path: Path) -> None:
    size = 300_000
    path = _long_stream(tmp_path, "a" * (size - 1) + "Z")
    folded = run("inspect", "--pretty", "--no-color", str(path))
    assert folded.code == 0
    assert f"… {size - 20_000:,} more characters" in folded.out
    assert "Z" not in folded.out.replace("Z", "", 0).split("text", 1)[1].split("…")[0]
    assert folded.out.count("a") < 25_000
    whole = run("inspect", "--pretty", "--no-color", "--full", str(path))
    assert whole.code == 0
    assert "more characters" not in whole.out
    assert whole.out.count("a") >= size - 1
    assert "Z" in whole.out


def test_a_long_text_keeps_its_lines_in_the_folded_view(tmp_path: Path) -> None:
    path = _long_stream(tmp_path, "".join(f"line {i}\n" for i in range(20_000)))
    out = run("inspect", "--pretty", "--no-color", str(path)).out
    assert "line 0\nline 1\nline 2\n" in out
    assert "more characters" in out


def test_the_entries_of_a_har_show_their_urls_with_escapes_visible(tmp_path: Path) -> None:
    har = json.loads(
        (Path(__file__).parents[1] / "fixtures/containers/devtools-several-streams.har").read_text()
    )
    for entry in har["log"]["entries"]:
        entry["request"]["url"] += f"?q={EVIL}"
        entry["startedDateTime"] += OSC0
    path = tmp_path / "evil.har"
    path.write_text(json.dumps(har))
    result = run("inspect", "--pretty", "--no-color", str(path))
    assert result.code in (0, 3, 4), result.err
    _no_raw_controls(result.out)
    assert "streams in this har" in result.out
    assert "?q=\\x1b]52;c;cHduZWQ=\\x07" in result.out

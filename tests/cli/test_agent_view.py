"""``inspect`` shows an agent stream's task, what it asked for, its artifacts and its
notifications in a few lines, and ``--redact`` hides what they say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssescope.cli import main
from ssescope.cli.agent_view import SECTION_CHARS, agent_lines


def _sse(*results: object) -> bytes:
    return "".join(
        f"data: {json.dumps({'jsonrpc': '2.0', 'id': 1, 'result': r})}\n\n" for r in results
    ).encode()


def _status(state: str, text: str | None = None) -> dict[str, object]:
    status: dict[str, object] = {"state": state}
    if text is not None:
        status["message"] = {
            "kind": "message",
            "role": "agent",
            "parts": [{"kind": "text", "text": text}],
        }
    return {"kind": "status-update", "taskId": "t", "contextId": "c", "status": status}


ASKING = _sse(
    {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "submitted"}},
    _status("working", "Looking"),
    {
        "kind": "artifact-update",
        "taskId": "t",
        "artifact": {
            "artifactId": "draft",
            "name": "plan",
            "parts": [{"kind": "text", "text": "Step 1"}, {"kind": "data", "data": {}}],
        },
        "append": False,
        "lastChunk": False,
    },
    _status("input-required", "Which city do you mean?"),
)


def _inspect(tmp_path: Path, capsys: pytest.CaptureFixture[str], body: bytes, *flags: str) -> str:
    path = tmp_path / "stream.sse"
    path.write_bytes(body)
    main(["inspect", str(path), "--pretty", "--no-color", *flags])
    return capsys.readouterr().out


def test_inspect_shows_the_task_its_ask_and_its_artifacts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _inspect(tmp_path, capsys, ASKING)
    assert "task: input-required (submitted → working → input-required) · 2 messages" in out
    assert "asks (input-required): Which city do you mean?" in out
    assert "artifact draft 'plan': 1 text, 1 data · 6 chars · 1 chunk · last chunk not seen" in out
    redacted = _inspect(tmp_path, capsys, ASKING, "--redact")
    assert "Which city" not in redacted
    assert "asks (input-required): [redacted 23 chars sha256:" in redacted


def test_inspect_shows_the_notifications_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = (
        b'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"total":2}}\n\n'
        b'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"half way"}}\n\n'
        b'data: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}\n\n'
    )
    out = _inspect(tmp_path, capsys, body)
    line = "notifications: 2 (notifications/progress ×1, notifications/message ×1) · last: info: half way"
    assert line in out


def test_a_chat_stream_shows_no_agent_line() -> None:
    assert agent_lines({"state": None, "outputs": []}, full=False) == []


def test_long_asks_are_cut_unless_full_and_many_states_are_shortened() -> None:
    states = [{"state": f"s{i}", "record": i} for i in range(9)]
    task = {
        "state": "s8",
        "states": states,
        "messages": [],
        "asks": [{"record": 8, "state": "input-required", "text": "x" * 500}],
    }
    line, ask = agent_lines({"task": task}, full=False)
    assert line.plain == "task: s8 (s0 → s1 → … → s6 → s7 → s8)"
    assert ask.plain.endswith(f"… ({500 - SECTION_CHARS} more characters)")
    (_, whole) = agent_lines({"task": task}, full=True)
    assert whole.plain == "asks (input-required): " + "x" * 500

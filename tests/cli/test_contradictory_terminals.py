"""A terminal event whose own fields say otherwise: what the payload states wins, and a
``stream.contradictory-terminal`` warning names both. Through the library and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

import ssescope


def _named(*pairs: tuple[str, object]) -> bytes:
    return "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in pairs).encode()


def _responses(terminal: str, response: dict[str, object]) -> bytes:
    base = {"id": "resp_1", "object": "response", "output": []}
    return _named(
        (
            "response.created",
            {
                "type": "response.created",
                "sequence_number": 0,
                "response": {**base, "status": "in_progress"},
            },
        ),
        (
            "response.output_text.delta",
            {
                "type": "response.output_text.delta",
                "sequence_number": 1,
                "item_id": "msg_1",
                "output_index": 0,
                "content_index": 0,
                "delta": "The first",
            },
        ),
        (
            terminal,
            {"type": terminal, "sequence_number": 2, "response": {**base, **response}},
        ),
    )


INCOMPLETE = {
    "status": "incomplete",
    "incomplete_details": {"reason": "max_output_tokens"},
    "usage": {"input_tokens": 5, "output_tokens": 16, "total_tokens": 21},
}
FAILED = {"status": "failed", "error": {"code": "server_error", "message": "The model crashed."}}


def _anthropic(stop_delta: str, stop_event: dict[str, object]) -> bytes:
    return _named(
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "content": [],
                    "model": "claude-x",
                    "stop_reason": None,
                    "usage": {"input_tokens": 3, "output_tokens": 1},
                },
            },
        ),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "The first"},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_delta, "stop_sequence": None},
                "usage": {"output_tokens": 2},
            },
        ),
        ("message_stop", {"type": "message_stop", **stop_event}),
    )


def _gemini(*chunks: dict[str, object]) -> bytes:
    return "".join(f"data: {json.dumps(c)}\r\n\r\n" for c in chunks).encode()


def _candidate(parts: list[object], finish: str | None = None) -> dict[str, object]:
    cand: dict[str, object] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        cand["finishReason"] = finish
    return {"candidates": [cand], "responseId": "r1", "modelVersion": "gemini-3-pro"}


_OPEN = {"functionCall": {"name": "search", "willContinue": True}}
_ARGS = {
    "functionCall": {
        "partialArgs": [{"jsonPath": "$.q", "stringValue": "tides", "willContinue": True}],
        "willContinue": True,
    }
}

# name -> (body, provider, status, finish reason, raw finish reason)
CASES: dict[str, tuple[bytes, str, str, str, str]] = {
    "responses-completed-but-incomplete": (
        _responses("response.completed", INCOMPLETE),
        "openai-responses",
        "incomplete",
        "length",
        "max_output_tokens",
    ),
    "responses-completed-but-failed": (
        _responses("response.completed", FAILED),
        "openai-responses",
        "failed",
        "error",
        "failed",
    ),
    "responses-incomplete-but-completed": (
        _responses("response.incomplete", {"status": "completed"}),
        "openai-responses",
        "completed",
        "stop",
        "completed",
    ),
    "anthropic-message-stop-states-another-reason": (
        _anthropic("end_turn", {"stop_reason": "max_tokens"}),
        "anthropic",
        "incomplete",
        "length",
        "max_tokens",
    ),
    "anthropic-message-stop-states-it-in-a-message": (
        _anthropic("max_tokens", {"message": {"stop_reason": "end_turn"}}),
        "anthropic",
        "completed",
        "stop",
        "end_turn",
    ),
    "cohere-complete-with-an-error": (
        _named(
            (
                "message-start",
                {
                    "id": "m1",
                    "type": "message-start",
                    "delta": {"message": {"role": "assistant", "content": []}},
                },
            ),
            (
                "content-delta",
                {
                    "type": "content-delta",
                    "index": 0,
                    "delta": {"message": {"content": {"text": "The first"}}},
                },
            ),
            (
                "message-end",
                {
                    "type": "message-end",
                    "delta": {"finish_reason": "COMPLETE", "error": "internal server error"},
                },
            ),
        ),
        "cohere",
        "failed",
        "stop",
        "COMPLETE",
    ),
    "gemini-stop-with-the-call-in-progress": (
        _gemini(_candidate([_OPEN]), _candidate([_ARGS], "STOP")),
        "gemini",
        "incomplete",
        "stop",
        "STOP",
    ),
    "gemini-stop-after-the-call-said-more": (
        _gemini(_candidate([_OPEN]), _candidate([_ARGS]), _candidate([{"text": ""}], "STOP")),
        "gemini",
        "incomplete",
        "stop",
        "STOP",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_payloads_own_status_wins_with_a_warning(name: str) -> None:
    body, provider, status, finish, raw = CASES[name]
    report = ssescope.inspect(body)
    assert (report.provider, report.status) == (provider, status), report.status_reason
    out = report.outputs[0]
    assert (out.finish_reason, out.raw_finish_reason) == (finish, raw)
    found = [d for d in report.diagnostics if d.code == "stream.contradictory-terminal"]
    assert len(found) == 1
    assert found[0].severity == "warning"
    assert f"the response is {status}" in found[0].message
    # the same in any chunking
    again = ssescope.inspect(iter([body[i : i + 7] for i in range(0, len(body), 7)]))
    assert {**again.to_dict(), "source": None} == {**report.to_dict(), "source": None}


def test_a_failed_status_brings_its_error_and_exit_4(tmp_path: Path) -> None:
    path = tmp_path / "completed-failed.sse"
    path.write_bytes(CASES["responses-completed-but-failed"][0])
    result = run("inspect", str(path), "--json")
    assert result.code == 4
    report = json.loads(result.out)
    assert report["status"] == "failed"
    assert report["error"]["message"] == "The model crashed."
    assert "stream.contradictory-terminal" in [d["code"] for d in report["diagnostics"]]


def test_the_command_line_shows_incomplete_and_names_the_contradiction(tmp_path: Path) -> None:
    path = tmp_path / "completed-incomplete.sse"
    path.write_bytes(CASES["responses-completed-but-incomplete"][0])
    result = run("inspect", str(path), "--json")
    report = json.loads(result.out)
    assert report["status"] == "incomplete"
    assert report["status_reason"] == ("response.completed, status incomplete (max_output_tokens)")
    assert result.code == 0  # incomplete, not a failure: unless --fail-on incomplete
    assert run("inspect", str(path), "--fail-on", "incomplete", "--json").code == 6
    view = run("inspect", str(path), "--pretty", "--no-color")
    assert "stream.contradictory-" in view.out  # (the code column is cut to its width)


@pytest.mark.parametrize(
    "body",
    [
        _responses("response.completed", {"status": "completed"}),
        _responses("response.incomplete", INCOMPLETE),
        _anthropic("end_turn", {}),
        _anthropic("end_turn", {"stop_reason": "end_turn"}),
        _gemini(_candidate([{"functionCall": {"name": "f", "args": {}}}], "STOP")),
    ],
)
def test_a_terminal_event_that_agrees_with_itself_raises_nothing(body: bytes) -> None:
    report = ssescope.inspect(body)
    assert "stream.contradictory-terminal" not in [d.code for d in report.diagnostics]

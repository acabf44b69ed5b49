"""Refusals, [DONE] without a finish, paused turns, compaction, leaked reasoning,
cumulative deltas and provider-run tools, through the library and the CLI
(docs/verdicts.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.providers.oracle import REAL, feed
from tests.verdicts.helpers import anthropic_sse, chat_sse, cli_report, codes, library_report


def _chunk(delta: dict[str, Any], finish: str | None = None, index: int = 0) -> dict[str, Any]:
    return {"id": "c1", "choices": [{"index": index, "delta": delta, "finish_reason": finish}]}


def _text_chat(*pieces: str, finish: str | None = "stop") -> bytes:
    chunks: list[dict[str, Any] | str] = [_chunk({"content": p}) for p in pieces]
    if finish is not None:
        chunks.append(_chunk({}, finish))
    return chat_sse(*chunks, "[DONE]")


_START = {"type": "message_start", "message": {"id": "msg_1", "model": "c", "usage": {}}}


def _anthropic(stop_reason: str, *blocks: dict[str, Any], **delta: Any) -> bytes:
    return anthropic_sse(
        _START,
        *blocks,
        {"type": "message_delta", "delta": {"stop_reason": stop_reason, **delta}, "usage": {}},
        {"type": "message_stop"},
    )


# -- refusals ---------------------------------------------------------------------------

_CHAT_REFUSAL = chat_sse(
    _chunk({"role": "assistant", "content": None, "refusal": ""}),
    _chunk({"refusal": "I can't "}),
    _chunk({"refusal": "help with that."}),
    _chunk({}, "stop"),
    "[DONE]",
)
_RESPONSES_REFUSAL = "".join(
    f"event: {e['type']}\ndata: {json.dumps(e)}\n\n"
    for e in (
        {
            "type": "response.created",
            "response": {"id": "r", "status": "in_progress", "output": []},
        },
        {
            "type": "response.refusal.delta",
            "item_id": "m",
            "output_index": 0,
            "content_index": 0,
            "delta": "No.",
        },
        {
            "type": "response.completed",
            "response": {"id": "r", "status": "completed", "output": []},
        },
    )
).encode()
_ANTHROPIC_REFUSAL = _anthropic(
    "refusal",
    stop_details={"type": "refusal", "category": "cyber", "explanation": "Blocked by policy."},
)


@pytest.mark.parametrize(
    ("body", "provider"),
    [
        (_CHAT_REFUSAL, "openai-chat"),
        (_RESPONSES_REFUSAL, "openai-responses"),
        (_ANTHROPIC_REFUSAL, "anthropic"),
    ],
)
def test_a_refusal_is_incomplete_on_every_provider_and_fail_on_incomplete_catches_it(
    body: bytes, provider: str
) -> None:
    report = library_report(body)
    assert (report["provider"], report["status"]) == (provider, "incomplete")
    code, cli = cli_report(body, "--fail-on", "incomplete")
    assert cli["status"] == "incomplete"
    assert code == 6


def test_anthropic_s_refusal_explanation_is_shown() -> None:
    report = library_report(_ANTHROPIC_REFUSAL)
    assert report["status_reason"] == "message_stop (refusal: 'Blocked by policy.')"
    (shown,) = [d for d in report["diagnostics"] if d["code"] == "anthropic.refusal-explained"]
    assert (
        shown["message"]
        == "The model refused (stop_details category 'cyber'): 'Blocked by policy.'"
    )
    assert report["outputs"][0]["refusal"] == ""  # metadata, not refusal text


@pytest.mark.parametrize("name", ["openai-chat/refusal.sse", "openai-chat/refusal-logprobs.sse"])
def test_the_real_openai_refusals_are_incomplete(name: str) -> None:
    if not (REAL / name).is_file():
        pytest.skip(f"real captures not found at {REAL} (set SSESCOPE_REAL_STREAMS)")
    report = library_report((REAL / name).read_bytes())
    assert report["status"] == "incomplete"
    assert report["outputs"][0]["finish_reason"] == "stop"


# -- [DONE] without a finish reason -------------------------------------------------------


def test_done_without_any_finish_reason_is_incomplete_through_the_cli() -> None:
    code, report = cli_report(_text_chat("Half", finish=None), "--fail-on", "incomplete")
    assert report["status"] == "incomplete"
    assert report["status_reason"] == "[DONE] without any finish_reason"
    assert "stream.done-without-finish" in codes(report)
    assert code == 6


# -- paused turns and compaction --------------------------------------------------------


@pytest.mark.parametrize("stop_reason", ["pause_turn", "compaction"])
def test_a_paused_anthropic_turn_is_incomplete_and_says_what_to_do(stop_reason: str) -> None:
    code, report = cli_report(_anthropic(stop_reason), "--fail-on", "incomplete")
    assert report["status"] == "incomplete"
    out = report["outputs"][0]
    assert (out["finish_reason"], out["raw_finish_reason"]) == ("other", stop_reason)
    (paused,) = [d for d in report["diagnostics"] if d["code"] == "anthropic.turn-paused"]
    assert "Send the conversation back" in paused["message"]
    assert code == 6


def test_a_compaction_block_is_kept_with_its_encrypted_content() -> None:
    block = {"type": "compaction", "content": None, "encrypted_content": None}
    body = _anthropic(
        "end_turn",
        {"type": "content_block_start", "index": 0, "content_block": block},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "compaction_delta", "content": "Earlier ", "encrypted_content": "E1"},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "compaction_delta", "content": "talk.", "encrypted_content": "E2"},
        },
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "content_block_stop", "index": 1},
    )
    fed = feed(body)  # every chunking agrees
    out = fed.report["outputs"][0]
    assert out["compactions"] == [{"summary": "Earlier talk.", "encrypted_content": "E2"}]
    assert out["text"] == "Hi"
    assert "provider.unknown-event" not in fed.codes
    _, cli = cli_report(body)
    assert cli["outputs"][0]["compactions"] == out["compactions"]


def test_an_output_without_compaction_has_no_compactions_key() -> None:
    assert "compactions" not in library_report(_text_chat("Hi"))["outputs"][0]


# -- reasoning that leaked into the text ------------------------------------------------


@pytest.mark.parametrize(
    ("pieces", "form_words"),
    [
        (["<think>hm</think>", "Hi"], "a <think> tag"),
        (["<thinking>hm</thinking>Hi"], "a <thinking> tag"),
        (["<reasoning>hm</reasoning>Hi"], "a <reasoning> tag"),
        (["<|START_THINKING|>hm<|END_THINKING|>Hi"], "a <|START_THINKING|> tag"),
        (["<thi", "nking>hm</thinking>Hi"], "a <thinking> tag"),  # split across records
        (["so I answer</think>", "Hi"], "a closing </think> tag with no opening one"),
        (["hm<|END_THINKING|>Hi"], "a closing <|END_THINKING|> tag with no opening one"),
    ],
)
def test_reasoning_tags_in_the_text_are_reported(pieces: list[str], form_words: str) -> None:
    _, report = cli_report(_text_chat(*pieces))
    (leak,) = [d for d in report["diagnostics"] if d["code"] == "content.think-tag-in-text"]
    assert form_words in leak["message"]


def test_angle_brackets_that_are_no_reasoning_tag_are_not_reported() -> None:
    report = library_report(_text_chat("<b>bold</b> and <thinker>"))
    assert "content.think-tag-in-text" not in codes(report)


# -- cumulative text sent as deltas -----------------------------------------------------


def test_cumulative_deltas_are_reported_with_the_deduplicated_reading() -> None:
    fed = feed(_text_chat("Hello!", "Hello! How", "Hello! How can I help?"))
    out = fed.report["outputs"][0]
    assert out["text"] == "Hello!Hello! HowHello! How can I help?"
    assert out["deduplicated_text"] == "Hello! How can I help?"
    (warning,) = [d for d in fed.report["diagnostics"] if d["code"] == "content.cumulative-deltas"]
    assert warning["severity"] == "warning"
    assert "The 3 text deltas" in warning["message"]


@pytest.mark.parametrize(
    "pieces",
    [
        ["Hello", " world"],
        ["a", "ab"],  # two deltas are not enough to tell
        ["a", "ab", "abc", "x"],
        ["Hi", "Hi"],  # a repeat that adds nothing
    ],
)
def test_ordinary_deltas_are_not_cumulative(pieces: list[str]) -> None:
    report = library_report(_text_chat(*pieces))
    assert "content.cumulative-deltas" not in codes(report)
    assert "deduplicated_text" not in report["outputs"][0]


def test_a_long_cumulative_stream_is_found_across_folded_pieces() -> None:
    words = [f"w{i} " for i in range(3000)]
    pieces = ["".join(words[: i + 1]) for i in range(len(words))]
    report = library_report(_text_chat(*pieces))
    assert report["outputs"][0]["deduplicated_text"] == pieces[-1]
    _, cli = cli_report(_text_chat("Hel", "Hello", "Hello!"))
    assert cli["outputs"][0]["deduplicated_text"] == "Hello!"


# -- provider-run tools -----------------------------------------------------------------


def _bedrock_code_interpreter() -> bytes:
    lines = [
        {"messageStart": {"role": "assistant"}},
        {
            "contentBlockStart": {
                "contentBlockIndex": 0,
                "start": {
                    "toolUse": {
                        "toolUseId": "tooluse_1",
                        "name": "nova_code_interpreter",
                        "type": "server_tool_use",
                    }
                },
            }
        },
        {
            "contentBlockDelta": {
                "contentBlockIndex": 0,
                "delta": {"toolUse": {"input": '{"code": "1+1"}'}},
            }
        },
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {
            "contentBlockStart": {
                "contentBlockIndex": 1,
                "start": {
                    "toolResult": {
                        "toolUseId": "tooluse_1",
                        "type": "nova_code_interpreter_result",
                        "status": "success",
                    }
                },
            }
        },
        {
            "contentBlockDelta": {
                "contentBlockIndex": 1,
                "delta": {"toolResult": [{"text": '{"stdOut":"2","exitCode":0}'}]},
            }
        },
        {"contentBlockStop": {"contentBlockIndex": 1}},
        {"contentBlockDelta": {"contentBlockIndex": 2, "delta": {"text": "It is 2."}}},
        {"contentBlockStop": {"contentBlockIndex": 2}},
        {"messageStop": {"stopReason": "end_turn"}},
        {"metadata": {"usage": {"inputTokens": 9, "outputTokens": 4, "totalTokens": 13}}},
    ]
    return "\n".join(json.dumps(line) for line in lines).encode()


def test_a_bedrock_provider_run_tool_is_a_server_call_with_its_result() -> None:
    fed = feed(_bedrock_code_interpreter())
    report = fed.report
    assert (report["provider"], report["status"]) == ("bedrock", "completed")
    out = report["outputs"][0]
    (call,) = out["tool_calls"]
    assert (call["kind"], call["name"], call["input"]) == (
        "server",
        "nova_code_interpreter",
        {"code": "1+1"},
    )
    assert out["server_tool_results"] == [
        {
            "tool_use_id": "tooluse_1",
            "type": "nova_code_interpreter_result",
            "content": {"status": "success", "content": [{"text": '{"stdOut":"2","exitCode":0}'}]},
        }
    ]
    assert out["finish_reason"] == "stop"
    assert "provider.unknown-event" not in fed.codes


def test_a_bedrock_result_cut_before_its_block_ended_is_still_kept() -> None:
    body = b"\n".join(_bedrock_code_interpreter().split(b"\n")[:6])
    report = library_report(body)
    assert report["status"] == "truncated"
    (result,) = report["outputs"][0]["server_tool_results"]
    assert result["content"]["content"] == [{"text": '{"stdOut":"2","exitCode":0}'}]


def test_a_bedrock_client_tool_stays_a_function_call() -> None:
    body = _bedrock_code_interpreter().replace(b', "type": "server_tool_use"', b"")
    (call,) = library_report(body)["outputs"][0]["tool_calls"]
    assert call["kind"] == "function"


def test_responses_web_search_sits_where_anthropic_server_tool_use_sits() -> None:
    item = {
        "id": "ws_1",
        "type": "web_search_call",
        "status": "completed",
        "action": {"type": "search", "query": "sse"},
    }
    events = [
        {
            "type": "response.created",
            "response": {"id": "r", "status": "in_progress", "output": []},
        },
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**item, "status": "in_progress"},
        },
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {
            "type": "response.completed",
            "response": {"id": "r", "status": "completed", "output": [item]},
        },
    ]
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()
    _, report = cli_report(body)
    out = report["outputs"][0]
    (call,) = out["tool_calls"]
    assert (call["kind"], call["name"], call["id"]) == ("server", "web_search", "ws_1")
    assert call["input"] == {"action": {"type": "search", "query": "sse"}}
    assert [r["type"] for r in out["server_tool_results"]] == ["web_search_call"]
    assert out["finish_reason"] == "stop"  # not a client call


def test_the_human_view_shows_the_deduplicated_text_and_the_compaction_summary() -> None:
    from tests.cli.cli_helpers import run

    cumulative = run(
        "inspect", "--pretty", "--no-color", "-", stdin=_text_chat("Hel", "Hello", "Hello!")
    )
    assert "text without the repeated deltas\nHello!" in cumulative.out
    block = {"type": "compaction", "content": "Earlier talk.", "encrypted_content": "E"}
    body = _anthropic(
        "end_turn",
        {"type": "content_block_start", "index": 0, "content_block": block},
        {"type": "content_block_stop", "index": 0},
    )
    compacted = run("inspect", "--pretty", "--no-color", "-", stdin=body)
    assert "compaction summary\nEarlier talk." in compacted.out

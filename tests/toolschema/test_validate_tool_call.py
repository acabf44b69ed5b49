"""``ssescope.validate_tool_call`` with ssescope's own calls and real SDK objects."""

from __future__ import annotations

import builtins
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from anthropic.types import Message, MessageCreateParams, ToolUseBlock
from openai.types.chat import ChatCompletion, CompletionCreateParams
from openai.types.responses import ResponseCreateParams, ResponseFunctionToolCall

import ssescope
from ssescope.containers import CaptureWriter

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "days": {"type": "integer", "minimum": 1},
    },
    "required": ["city"],
}

CHAT_REQUEST: CompletionCreateParams = {
    "model": "gpt-test",
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
    "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": SCHEMA}}],
}

RESPONSES_REQUEST: ResponseCreateParams = {
    "model": "gpt-test",
    "input": "Weather in Paris?",
    "tools": [{"type": "function", "name": "get_weather", "parameters": SCHEMA, "strict": True}],
}

ANTHROPIC_REQUEST: MessageCreateParams = {
    "model": "claude-test",
    "max_tokens": 100,
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
    "tools": [{"name": "get_weather", "input_schema": SCHEMA}],
}


def chat_call(arguments: str, name: str = "get_weather") -> Any:
    """The first tool call of a Chat Completion, as the openai SDK parses it."""
    completion = ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-test",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": name, "arguments": arguments},
                            }
                        ],
                    },
                }
            ],
        }
    )
    calls = completion.choices[0].message.tool_calls
    assert calls is not None
    return calls[0]


def anthropic_call(value: dict[str, Any], name: str = "get_weather") -> ToolUseBlock:
    """The tool_use block of a Message, as the anthropic SDK parses it."""
    message = Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": name, "input": value}],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )
    block = message.content[0]
    assert isinstance(block, ToolUseBlock)
    return block


def codes(found: list[ssescope.Diagnostic]) -> list[str]:
    """The codes, in order."""
    return [d.code for d in found]


def test_an_openai_chat_tool_call_that_matches_gives_nothing() -> None:
    call = chat_call('{"city": "Paris", "unit": "celsius"}')
    assert ssescope.validate_tool_call(call, CHAT_REQUEST) == []


def test_an_openai_chat_tool_call_with_a_wrong_type_and_value_gives_each_path() -> None:
    call = chat_call('{"city": 75001, "days": 0}')
    found = ssescope.validate_tool_call(call, CHAT_REQUEST)
    assert codes(found) == ["tool.schema-mismatch", "tool.schema-mismatch"]
    assert [(d.args or {})["path"] for d in found] == ["$.city", "$.days"]
    assert [(d.args or {})["rule"] for d in found] == ["type", "minimum"]
    assert "call_1" in found[0].message
    assert found[0].record is None


def test_the_request_may_be_json_text_or_bytes() -> None:
    call = chat_call('{"unit": "celsius"}')
    for request in (json.dumps(CHAT_REQUEST), json.dumps(CHAT_REQUEST).encode()):
        (found,) = ssescope.validate_tool_call(call, request)
        assert "'city' is a required property" in found.message


def test_invalid_json_arguments_are_reported_as_such() -> None:
    (found,) = ssescope.validate_tool_call(chat_call('{"city": "Par'), CHAT_REQUEST)
    assert found.code == "tool.invalid-arguments"


def test_a_responses_function_call_is_held_to_strict_mode() -> None:
    call = ResponseFunctionToolCall(
        type="function_call", call_id="call_9", name="get_weather", arguments='{"city": "Paris"}'
    )
    found = ssescope.validate_tool_call(call, RESPONSES_REQUEST)
    # strict: every property is required, although the schema requires only the city
    assert {(d.args or {})["rule"] for d in found} == {"required"}
    assert all("strict mode" in d.message for d in found)
    assert "call_9" in found[0].message


def test_an_anthropic_tool_use_block_is_checked_on_its_input() -> None:
    block = anthropic_call({"city": "Paris", "unit": "kelvin"})
    (found,) = ssescope.validate_tool_call(block, ANTHROPIC_REQUEST)
    assert (found.args or {})["path"] == "$.unit"
    assert "'kelvin' is not one of" in found.message
    assert ssescope.validate_tool_call(anthropic_call({"city": "Paris"}), ANTHROPIC_REQUEST) == []


def test_a_call_of_a_tool_the_request_did_not_offer_is_reported() -> None:
    (found,) = ssescope.validate_tool_call(anthropic_call({}, "rm_rf"), ANTHROPIC_REQUEST)
    assert found.code == "tool.not-offered"
    assert "'rm_rf'" in found.message


def test_ssescope_s_own_cut_call_is_checked_on_its_partial_arguments() -> None:
    chunks: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"id": "m", "model": "c", "usage": {}}},
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather"},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"unit": 3, "city": "Pa'},
        },
    ]
    body = "".join(f"event: {c['type']}\ndata: {json.dumps(c)}\n\n" for c in chunks).encode()
    report = ssescope.inspect(body)
    (call,) = report.outputs[0].tool_calls
    assert call.complete is False
    found = ssescope.validate_tool_call(call, ANTHROPIC_REQUEST)
    # the finished value breaks two rules; the city the cut fell in is not held against it
    assert [(d.form, (d.args or {})["path"], (d.args or {})["rule"]) for d in found] == [
        ("cut", "$.unit", "enum"),
        ("cut", "$.unit", "type"),
    ]


def test_fine_grained_streaming_is_named_when_its_invalid_json_comes() -> None:
    request = json.loads(json.dumps(ANTHROPIC_REQUEST))
    headers = [("anthropic-beta", "fine-grained-tool-streaming-2025-05-14")]
    call = {"id": "toolu_2", "name": "get_weather", "arguments": '{"city": "Paris'}
    found = ssescope.validate_tool_call(call, request, headers=headers)
    assert codes(found) == ["tool.invalid-arguments", "tool.fine-grained-streaming"]
    assert "fine-grained-tool-streaming beta" in found[1].message


def test_a_pydantic_request_and_dict_calls_are_read() -> None:
    class Params:
        def model_dump(self, **_: Any) -> dict[str, Any]:
            return dict(CHAT_REQUEST)

    shapes: list[object] = [
        {"function": {"name": "get_weather", "arguments": '{"city": 1}'}},
        {"name": "get_weather", "input": {"city": 1}},
        {"name": "get_weather", "args": {"city": 1}},
    ]
    for call in shapes:
        (found,) = ssescope.validate_tool_call(call, Params())
        assert (found.args or {})["rule"] == "type"


def test_something_that_is_not_a_call_is_a_usage_error() -> None:
    with pytest.raises(ssescope.UsageError, match="takes a tool call"):
        ssescope.validate_tool_call(42, CHAT_REQUEST)


def test_without_jsonschema_the_call_is_reported_unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_jsonschema(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "jsonschema" or name.startswith("jsonschema."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    for name in [m for m in sys.modules if m == "jsonschema" or m.startswith("jsonschema.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(builtins, "__import__", no_jsonschema)
    (found,) = ssescope.validate_tool_call(chat_call('{"city": 1}'), CHAT_REQUEST)
    assert found.code == "tool.schema-unchecked"
    assert found.form == "no-jsonschema"
    assert "ssescope[schema]" in found.message


def test_an_invalid_schema_is_reported_unchecked_not_raised() -> None:
    request = {"tools": [{"name": "t", "input_schema": {"type": "int"}}]}
    (found,) = ssescope.validate_tool_call({"name": "t", "input": {}}, request)
    assert (found.code, found.form) == ("tool.schema-unchecked", "bad-schema")


def test_a_capture_s_calls_and_the_library_agree(tmp_path: Path) -> None:
    arguments = '{"city": "Paris", "days": "two"}'
    call = {"index": 0, "id": "call_1", "type": "function"}
    call["function"] = {"name": "get_weather", "arguments": arguments}
    chunk = {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}
    end = {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}
    body = f"data: {json.dumps(chunk)}\n\ndata: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode()
    path = tmp_path / "c.ssecap"
    request = {
        "method": "POST",
        "url": "https://x.example/v1/chat/completions",
        "body": CHAT_REQUEST,
    }
    with CaptureWriter(path, request=request, response_status=200) as capture:
        capture.write_chunk(body, 0.1)
    report = ssescope.inspect(path)
    in_report = [d.message for d in report.diagnostics if d.code == "tool.schema-mismatch"]
    (tool_call,) = report.outputs[0].tool_calls
    assert in_report == [d.message for d in ssescope.validate_tool_call(tool_call, CHAT_REQUEST)]
    assert len(in_report) == 1

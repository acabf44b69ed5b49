"""``ssescope check STREAM --against RESULT`` with the objects real clients build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli.cli_helpers import run
from tests.compare.clients import (
    STREAMS,
    anthropic_message,
    gemini_response,
    openai_chat_completion,
    openai_response,
)

pytestmark = pytest.mark.skipif(
    not (STREAMS / "EXPECTED.json").exists(),
    reason=f"real captures not found at {STREAMS} (set SSESCOPE_REAL_STREAMS)",
)

PARALLEL = "openai-chat/parallel-tool-calls.sse"


def _save(tmp_path: Path, name: str, value: object) -> str:
    path = tmp_path / name
    if isinstance(value, str):
        path.write_text(value)
    else:
        dump = getattr(value, "model_dump_json", None)
        path.write_text(dump() if callable(dump) else json.dumps(value))
    return str(path)


def _replayed(tmp_path: Path, name: str) -> str:
    """A JSONL capture as the wire carried it (an .sse capture is used as it is)."""
    from tests.compare.clients import stream_bytes

    if name.endswith(".sse"):
        return str(STREAMS / name)
    path = tmp_path / "stream.sse"
    path.write_bytes(stream_bytes(name))
    return str(path)


@pytest.mark.parametrize(
    ("build", "name", "shape"),
    [
        (openai_chat_completion, PARALLEL, "an openai ChatCompletion"),
        (
            openai_response,
            "lmstudio-responses/reasoning-text-tool-call-done-only.jsonl",
            "an openai Responses Response",
        ),
        (anthropic_message, "anthropic/thinking-signature.jsonl", "an anthropic Message"),
        (
            gemini_response,
            "gemini/function-call-thought-signature.jsonl",
            "a Gemini GenerateContentResponse",
        ),
    ],
)
def test_the_object_a_real_client_built_checks_out(
    tmp_path: Path, build: object, name: str, shape: str
) -> None:
    result = _save(tmp_path, "result.json", build(name))  # type: ignore[operator]
    checked = run("check", _replayed(tmp_path, name), "--against", result)
    assert checked.code == 0, checked.out + checked.err
    assert checked.out.startswith("same: text, ")
    assert f"(read as {shape})" in checked.out


def test_a_chat_completion_with_wrong_arguments_exits_5_and_names_them(tmp_path: Path) -> None:
    completion = openai_chat_completion(PARALLEL)
    completion.choices[0].message.tool_calls[
        0
    ].function.arguments = '{"city": "Edinburgh", "country": "UK", "units": "c"}'
    result = _save(tmp_path, "completion.json", completion)
    checked = run("check", str(STREAMS / PARALLEL), "--against", result, "--no-color")
    assert checked.code == 5
    assert checked.out.splitlines() == [
        "the result (an openai ChatCompletion) differs from the stream",
        "tool_calls differs",
        '  outputs[0].tool_calls[0].arguments.country: the result has "UK", the stream has "GB"',
    ]
    assert "prompt_tokens" not in checked.out


def test_check_json_prints_the_structured_differences(tmp_path: Path) -> None:
    message = anthropic_message("anthropic/text-then-tool-use.sse")
    message.content[1].input = {"location": "Paris", "unit": "celsius"}
    result = _save(tmp_path, "message.json", message)
    checked = run(
        "check", str(STREAMS / "anthropic/text-then-tool-use.sse"), "--against", result, "--json"
    )
    assert checked.code == 5
    data = json.loads(checked.out)
    assert data["stream"]["status"] == "completed"
    assert data["shape"] == "anthropic-message"
    assert data["same"] is False
    assert data["compared"] == ["text", "reasoning", "tool_calls", "finish_reason", "usage"]
    assert data["differences"] == [
        {
            "field": "tool_calls",
            "path": "outputs[0].tool_calls[0].arguments.unit",
            "message": 'the result has "celsius", the stream has no such key',
            "result": "celsius",
            "stream": None,
            "detail": [],
        }
    ]


def test_a_vercel_ai_sdk_result_file_is_checked(tmp_path: Path) -> None:
    # The AI SDK is a Node package: its result JSON is written in its documented shape.
    result = {
        "text": "",
        "toolCalls": [
            {
                "type": "tool-call",
                "toolCallId": "call_4XzlGBLtUe9dy3GVNV4jhq7h",
                "toolName": "get_weather",
                "input": {"city": "New York"},
            }
        ],
        "finishReason": "tool-calls",
        "usage": {"inputTokens": 44, "outputTokens": 16, "totalTokens": 60},
    }
    stream = str(STREAMS / "openai-chat/tool-call-single.sse")
    checked = run("check", stream, "--against", _save(tmp_path, "ai.json", result), "--no-color")
    assert checked.code == 5
    assert "(a Vercel AI SDK result)" in checked.out
    assert (
        '  outputs[0].tool_calls[0].arguments.city: the result has "New York", '
        'the stream has "New York City"' in checked.out.splitlines()
    )
    result["toolCalls"][0]["input"] = {"city": "New York City"}  # type: ignore[index]
    fixed = run("check", stream, "--against", _save(tmp_path, "ai2.json", result))
    assert fixed.code == 0
    assert "same: text, tool_calls, finish_reason, usage (read as a Vercel AI SDK result)" in (
        fixed.out
    )


def test_a_json_result_that_does_not_parse_is_a_usage_error(tmp_path: Path) -> None:
    broken = _save(tmp_path, "result.json", '{"text": "hello",}')
    checked = run("check", str(STREAMS / PARALLEL), "--against", broken)
    assert checked.code == 2
    assert "result.json is not valid JSON" in checked.err
    assert "line 1, column 18" in checked.err
    assert "Traceback" not in checked.err


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"text": "", "usage": "84"}, "the result's 'usage' must be an object, not a string"),
        (
            {"choices": [{"message": {"content": None}}], "usage": {"prompt_tokens": "84"}},
            "the result's 'usage.prompt_tokens' must be a number of tokens, not a string",
        ),
        ({"toolCalls": "none"}, "the result's 'toolCalls' must be a list, not a string"),
    ],
)
def test_a_wrongly_typed_result_is_a_one_line_usage_error(
    tmp_path: Path, result: object, message: str
) -> None:
    checked = run("check", str(STREAMS / PARALLEL), "--against", _save(tmp_path, "r.json", result))
    assert checked.code == 2
    assert checked.err == f"ssescope: error: {message}\n"


def test_a_plain_text_result_is_the_expected_text(tmp_path: Path) -> None:
    name = "anthropic/text-then-tool-use.sse"
    text = _save(tmp_path, "expected.txt", "I'll check the current weather in Paris for you.")
    assert run("check", str(STREAMS / name), "--against", text).code == 0
    wrong = _save(tmp_path, "wrong.txt", "I'll check the weather in Paris.")
    checked = run("check", str(STREAMS / name), "--against", wrong, "--no-color")
    assert checked.code == 5
    assert "text differs" in checked.out
    assert "+I'll check the current weather in Paris for you." in checked.out


def test_a_cut_stream_is_said_first_and_its_code_wins_over_the_comparison(
    tmp_path: Path,
) -> None:
    # the two tool calls' stream, cut in its first call's arguments
    cut = tmp_path / "cut.sse"
    cut.write_bytes((STREAMS / PARALLEL).read_bytes()[:3000])
    text = _save(tmp_path, "expected.txt", "")
    same = run("check", str(cut), "--against", text, "--no-color")
    assert same.code == 3  # the text agrees, but the reply is cut
    assert same.out.splitlines() == [
        "the stream itself is truncated: the bytes ended without any terminal marker; the "
        "client's result cannot be a whole reply",
        "same: text (read as an expected text)",
    ]
    data = json.loads(run("check", str(cut), "--against", text, "--json").out)
    assert data["stream"]["status"] == "truncated"
    assert data["same"] is True


@pytest.mark.parametrize(
    ("name", "body", "message"),
    [
        ("deep.json", "[" * 1000 + "]" * 1000, "deep.json nests JSON deeper than 128 levels"),
        (
            "deep-object.txt",
            '{"text": ' + "[" * 1000 + "]" * 1000 + "}",
            "deep-object.txt nests JSON deeper than 128 levels",
        ),
        ("fields.json", '{"text": ' + "[" * 200 + "]" * 200 + "}", "nests JSON deeper than 128"),
        (
            "usage.json",
            '{"text": "x", "usage": {"output_tokens": ' + "9" * 5000 + "}}",
            "usage.json holds an integer of 5,000 digits (at most 4,300 are read)",
        ),
    ],
)
def test_a_result_too_deep_or_with_a_huge_integer_is_a_usage_error(
    tmp_path: Path, name: str, body: str, message: str
) -> None:
    checked = run("check", str(STREAMS / PARALLEL), "--against", _save(tmp_path, name, body))
    assert checked.code == 2, checked.err
    assert message in checked.err and "internal error" not in checked.err
    assert checked.err.count("\n") == 1


def test_a_text_result_that_looks_like_a_deep_array_is_still_the_expected_text(
    tmp_path: Path,
) -> None:
    text = _save(tmp_path, "expected.txt", "[" * 2000)
    checked = run("check", str(STREAMS / PARALLEL), "--against", text, "--no-color")
    assert checked.code == 5 and "text differs" in checked.out

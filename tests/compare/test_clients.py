"""ssescope.compare: the final objects real clients build from real streams, read into
the Report's names and compared with what ssescope assembled from the same bytes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from tests.compare.clients import (
    STREAMS,
    anthropic_message,
    gemini_response,
    openai_chat_completion,
    openai_response,
    stream_bytes,
)

import ssescope
from ssescope.compare import (
    Difference,
    ExpectedReply,
    ResultError,
    compare_result,
    load_result,
    normalise_result,
)

pytestmark = pytest.mark.skipif(
    not (STREAMS / "EXPECTED.json").exists(),
    reason=f"real captures not found at {STREAMS} (set SSESCOPE_REAL_STREAMS)",
)

CLIENTS: list[tuple[Callable[[str], Any], str, str]] = [
    (openai_chat_completion, "openai-chat/parallel-tool-calls.sse", "openai-chat-completion"),
    (openai_chat_completion, "openai-chat/tool-call-single.sse", "openai-chat-completion"),
    (openai_chat_completion, "openai-chat/refusal.sse", "openai-chat-completion"),
    (openai_chat_completion, "openai-chat/n3-choices.sse", "openai-chat-completion"),
    (openai_chat_completion, "deepseek/reasoning-then-tool-call.jsonl", "openai-chat-completion"),
    (openai_chat_completion, "groq/tool-call-x_groq-usage.jsonl", "openai-chat-completion"),
    (openai_response, "openai-responses/custom-tool-no-seq.jsonl", "openai-response"),
    (openai_response, "openai-responses/web-search-url-citations.jsonl", "openai-response"),
    (openai_response, "xai-responses/reasoning-summary-text.jsonl", "openai-response"),
    (
        openai_response,
        "lmstudio-responses/reasoning-text-tool-call-done-only.jsonl",
        "openai-response",
    ),
    (anthropic_message, "anthropic/text-then-tool-use.sse", "anthropic-message"),
    (anthropic_message, "anthropic/thinking-signature.jsonl", "anthropic-message"),
    (anthropic_message, "anthropic/tool-no-args.jsonl", "anthropic-message"),
    (anthropic_message, "anthropic/web-search-citations.jsonl", "anthropic-message"),
    (anthropic_message, "anthropic/message-delta-input-tokens.jsonl", "anthropic-message"),
    (gemini_response, "gemini/function-call-thought-signature.jsonl", "gemini-generate-content"),
    (gemini_response, "gemini/text-trailing-signature-part.jsonl", "gemini-generate-content"),
]


def report_of(name: str) -> ssescope.Report:
    return ssescope.inspect(stream_bytes(name))


def paths(diffs: list[Difference]) -> list[str]:
    return [d.path for d in diffs]


# -- the real clients agree with the stream --------------------------------------------


@pytest.mark.parametrize(("build", "name", "shape"), CLIENTS, ids=[c[1] for c in CLIENTS])
def test_the_final_object_of_the_real_client_agrees_with_the_stream(
    build: Callable[[str], Any], name: str, shape: str
) -> None:
    result = build(name)
    report = report_of(name)
    expected = normalise_result(result)
    assert expected.shape == shape
    assert {"text", "tool_calls", "finish_reason"} <= set(expected.stated())
    assert compare_result(result, report) == []
    # its JSON form (what a test suite saves to a file) reads the same
    assert compare_result(json.loads(result.model_dump_json()), report) == []


def test_a_chat_completion_is_read_into_the_reports_names() -> None:
    expected = normalise_result(openai_chat_completion("openai-chat/parallel-tool-calls.sse"))
    output = expected.outputs[0]
    assert output.text == ""  # content null: no text
    assert [c.name for c in output.tool_calls or []] == ["GetWeatherArgs", "get_stock_price"]
    assert output.tool_calls is not None
    assert output.tool_calls[0].arguments == {"city": "Edinburgh", "country": "GB", "units": "c"}
    assert output.finish_reason == "tool_calls"
    assert expected.usage == {
        "input_tokens": 149,
        "output_tokens": 60,
        "total_tokens": 209,
        "reasoning_tokens": 0,
    }


def test_every_choice_of_a_chat_completion_is_compared_with_its_output() -> None:
    result = openai_chat_completion("openai-chat/n3-choices.sse")
    assert [o.index for o in normalise_result(result).outputs] == [0, 1, 2]
    result.choices[2].message.content = "changed"
    diffs = compare_result(result, report_of("openai-chat/n3-choices.sse"))
    assert paths(diffs) == ["outputs[2].text"]


# -- a client that got it wrong: the differences are named precisely -----------------------


def test_a_chat_completion_with_wrong_tool_arguments_and_text_names_each_difference() -> None:
    name = "openai-chat/parallel-tool-calls.sse"
    result = openai_chat_completion(name)
    message = result.choices[0].message
    message.content = "Checking the weather."
    message.tool_calls[
        0
    ].function.arguments = '{"units": "f", "city": "Edinburgh", "country": "GB", "days": 3}'
    message.tool_calls[1].function.arguments = '{"ticker": "AAPL"}'
    diffs = compare_result(result, report_of(name))
    by_path = {d.path: d for d in diffs}
    assert list(by_path) == [
        "outputs[0].text",
        "outputs[0].tool_calls[0].arguments.units",
        "outputs[0].tool_calls[0].arguments.days",
        "outputs[0].tool_calls[1].arguments.exchange",
    ]
    assert by_path["outputs[0].text"].message == (
        "the result has 21 chars, the stream 0; they differ from char 0: the result has "
        '"Checking the weather.", the stream ""'
    )
    assert by_path["outputs[0].tool_calls[0].arguments.units"].message == (
        'the result has "f", the stream has "c"'
    )
    assert by_path["outputs[0].tool_calls[0].arguments.days"].message == (
        "the result has 3, the stream has no such key"
    )
    assert by_path["outputs[0].tool_calls[1].arguments.exchange"].message == (
        'the stream has "NASDAQ", the result has no such key'
    )
    units = by_path["outputs[0].tool_calls[0].arguments.units"]
    assert (units.field, units.result, units.stream) == ("tool_calls", "f", "c")
    # usage is read from prompt_tokens/completion_tokens: it is no difference
    assert not [d for d in diffs if d.field == "usage"]


def test_argument_key_order_and_spacing_are_no_difference() -> None:
    name = "openai-chat/parallel-tool-calls.sse"
    result = openai_chat_completion(name)
    result.choices[0].message.tool_calls[
        0
    ].function.arguments = '{"units":"c","country":"GB","city":"Edinburgh"}'
    assert compare_result(result, report_of(name)) == []


def test_a_lost_tool_call_and_a_renamed_one_are_named() -> None:
    name = "openai-chat/parallel-tool-calls.sse"
    result = openai_chat_completion(name)
    result.choices[0].message.tool_calls[0].function.name = "get_weather"
    del result.choices[0].message.tool_calls[1]
    diffs = compare_result(result, report_of(name))
    assert [(d.path, d.message) for d in diffs] == [
        ("outputs[0].tool_calls", "the result has 1 tool call(s), the stream 2"),
        (
            "outputs[0].tool_calls[0].name",
            "the result calls 'get_weather', the stream 'GetWeatherArgs'",
        ),
        (
            "outputs[0].tool_calls[1]",
            "the stream has a call to 'get_stock_price' "
            '({"ticker": "AAPL", "exchange": "NASDAQ"}) that the result does not have',
        ),
    ]


def test_a_responses_response_with_wrong_arguments_and_usage_is_caught() -> None:
    name = "lmstudio-responses/reasoning-text-tool-call-done-only.jsonl"
    result = openai_response(name)
    call = next(item for item in result.output if item.type == "function_call")
    call.arguments = '{"location": "San José"}'
    result.usage.input_tokens = 100
    diffs = compare_result(result, report_of(name))
    assert [(d.path, d.message) for d in diffs] == [
        (
            "outputs[0].tool_calls[0].arguments.location",
            'the result has "San José", the stream has "San Francisco"',
        ),
        ("usage.input_tokens", "the result has 100, the stream 182"),
    ]


def test_an_anthropic_message_with_a_wrong_tool_input_and_text_is_caught() -> None:
    name = "anthropic/text-then-tool-use.sse"
    result = anthropic_message(name)
    result.content[0].text = "I'll check the current weather in Lyon for you."
    result.content[1].input = {"location": "Lyon"}
    diffs = compare_result(result, report_of(name))
    assert paths(diffs) == ["outputs[0].text", "outputs[0].tool_calls[0].arguments.location"]
    assert diffs[0].detail[-2:] == (
        "-I'll check the current weather in Lyon for you.",
        "+I'll check the current weather in Paris for you.",
    )
    assert diffs[1].message == 'the result has "Lyon", the stream has "Paris"'


def test_the_anthropic_client_completing_a_cut_tool_input_is_caught() -> None:
    # The stream stops mid-way through the tool input (max_tokens); the SDK's accumulator
    # still hands back a parsed input object. The stream's arguments are not JSON.
    name = "anthropic/max-tokens-mid-tool-input.sse"
    result = anthropic_message(name)
    assert isinstance(result.content[1].input, dict)
    diffs = compare_result(result, report_of(name))
    assert paths(diffs) == ["outputs[0].tool_calls[0].arguments"]
    assert "the stream's arguments are not valid JSON" in diffs[0].message
    assert "never ended" in diffs[0].message


def test_a_gemini_response_with_wrong_text_and_finish_reason_is_caught() -> None:
    from google.genai import types

    name = "gemini/text-trailing-signature-part.jsonl"
    result = gemini_response(name)
    assert result.candidates is not None
    result.candidates[0].content.parts[0].text = "There are **2** r's in strawberry."
    result.candidates[0].finish_reason = types.FinishReason.MAX_TOKENS
    diffs = compare_result(result, report_of(name))
    assert paths(diffs) == ["outputs[0].text", "outputs[0].finish_reason"]
    assert diffs[1].message == "the result has 'MAX_TOKENS', the stream 'stop' (raw 'STOP')"


# -- the Vercel AI SDK's result -----------------------------------------------------------
# The AI SDK is a Node package; its result is written here in the documented shape of
# generateText / streamText (v5: input, inputTokens; v4: args, promptTokens), with the
# values of the capture.


def _vercel_v5() -> dict[str, Any]:
    return {
        "text": "",
        "reasoningText": "The user is asking for the weather in San Francisco.",
        "toolCalls": [
            {
                "type": "tool-call",
                "toolCallId": "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
                "toolName": "weather",
                "input": {"location": "San Francisco"},
            }
        ],
        "finishReason": "tool-calls",
        "usage": {
            "inputTokens": 339,
            "outputTokens": 83,
            "totalTokens": 422,
            "reasoningTokens": 39,
            "cachedInputTokens": 320,
        },
        "response": {"id": "0a7f0b6f-ad56-4c51-bb51-3ed6bd3ec1c5", "modelId": "deepseek-reasoner"},
    }


def test_a_vercel_ai_sdk_result_is_read_and_compared() -> None:
    name = "deepseek/reasoning-then-tool-call.jsonl"
    report = report_of(name)
    result = _vercel_v5()
    result["reasoningText"] = report.outputs[0].reasoning
    expected = normalise_result(result)
    assert expected.shape == "vercel-ai-sdk"
    assert expected.outputs[0].finish_reason == "tool-calls"  # the SDK's word, read as such
    assert compare_result(result, report) == []
    result["finishReason"] = "stop"
    result["toolCalls"][0]["input"] = {"location": "SF"}
    result["usage"]["outputTokens"] = 44
    diffs = compare_result(result, report)
    assert [(d.path, d.message) for d in diffs] == [
        (
            "outputs[0].tool_calls[0].arguments.location",
            'the result has "SF", the stream has "San Francisco"',
        ),
        (
            "outputs[0].finish_reason",
            "the result has 'stop', the stream 'tool_calls' (raw 'tool_calls')",
        ),
        ("usage.output_tokens", "the result has 44, the stream 83"),
    ]


def test_a_vercel_ai_sdk_v4_result_and_its_reasoning_parts_are_read() -> None:
    name = "deepseek/reasoning-then-tool-call.jsonl"
    report = report_of(name)
    result = {
        "text": "",
        "reasoning": [{"type": "reasoning", "text": report.outputs[0].reasoning}],
        "toolCalls": [
            {
                "toolCallId": "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
                "toolName": "weather",
                "args": {"location": "San Francisco"},
            },
            {"toolCallId": "ws_1", "toolName": "web_search", "providerExecuted": True},
        ],
        "finishReason": "tool-calls",
        "usage": {"promptTokens": 339, "completionTokens": 83, "totalTokens": 422},
    }
    assert compare_result(result, report) == []


# -- ssescope's own Report, fields, text ----------------------------------------------------


def test_a_report_agrees_with_itself_as_an_object_and_as_json() -> None:
    report = report_of("openai-chat/parallel-tool-calls.sse")
    assert normalise_result(report).shape == "ssescope-report"
    assert compare_result(report, report) == []
    assert compare_result(report.to_dict(), report) == []
    other = report_of("openai-chat/tool-call-single.sse")
    assert "outputs[0].tool_calls" in paths(compare_result(other, report))


def test_only_what_the_result_states_is_compared() -> None:
    report = report_of("openai-chat/parallel-tool-calls.sse")
    assert compare_result({"finish_reason": "tool_calls"}, report) == []
    assert compare_result({"usage": {"input_tokens": 149}}, report) == []
    assert compare_result({"tool_calls": [{"name": "GetWeatherArgs"}, {}]}, report) == []
    assert normalise_result({"text": "x"}).stated() == ["text"]


def test_null_text_equals_the_empty_text() -> None:
    report = report_of("openai-chat/parallel-tool-calls.sse")
    assert report.outputs[0].text == ""
    assert compare_result({"text": None, "refusal": None}, report) == []
    assert compare_result("", report) == []
    diffs = compare_result({"text": None}, report_of("anthropic/text-then-tool-use.sse"))
    assert paths(diffs) == ["outputs[0].text"]


def test_a_capture_of_several_responses_is_compared_with_the_one_the_result_names() -> None:
    name = "openai-responses/reasoning-summary-function-calls-4-turns.jsonl"
    report = report_of(name)
    first, last = report.responses[0], report.responses[-1]
    call = first.outputs[0].tool_calls[0]
    result: dict[str, Any] = {
        "object": "response",
        "id": first.id,
        "status": "completed",
        "output": [
            {
                "type": "function_call",
                "call_id": call.id,
                "name": call.name,
                "arguments": call.arguments,
            }
        ],
    }
    # the first response is compared (its call agrees); its reasoning summary is
    # not in this result, which states an empty reasoning
    assert paths(compare_result(result, report)) == ["outputs[0].reasoning"]
    result["output"].insert(
        0,
        {
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": first.outputs[0].reasoning}],
        },
    )
    assert compare_result(result, report) == []
    result["id"] = last.id
    assert "outputs[0].tool_calls" in paths(compare_result(result, report))


# -- results that cannot be read -------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"text": "a", "usage": "lots"}, "the result's 'usage' must be an object, not a string"),
        ({"usage": [1]}, "the result's 'usage' must be an object, not a list"),
        ({"usage": {"input_tokens": "84"}}, "'usage.input_tokens' must be a number of tokens"),
        ({"text": 42}, "the result's 'text' must be a string or null, not a number"),
        ({"tool_calls": {"name": "f"}}, "the result's 'tool_calls' must be a list, not an object"),
        (
            {"choices": [{"message": {"tool_calls": [{"id": "c", "function": "f"}]}}]},
            "'choices[0].message.tool_calls[0].function' must be an object, not a string",
        ),
        (
            {"choices": [{"message": {}}], "usage": {"prompt_tokens": 1.5}},
            "'usage.prompt_tokens' must be a whole number of tokens",
        ),
        ({"candidates": [{"content": {"parts": "hi"}}]}, "'candidates[0].content.parts'"),
        ({"type": "message", "content": "hi"}, "the result's 'content' must be a list"),
        ({"nothing": 1}, "no known shape"),
        ([1, 2], "must be an object or a text, not a list"),
    ],
)
def test_a_wrongly_typed_result_is_a_clear_error(result: Any, message: str) -> None:
    report = report_of("openai-chat/tool-call-single.sse")
    with pytest.raises(ResultError) as caught:
        compare_result(result, report)
    assert message in str(caught.value)
    assert isinstance(caught.value, ssescope.UsageError)


def test_load_result_parses_json_and_refuses_a_broken_json_file() -> None:
    assert load_result(b'{"text": "a"}', "r.json") == {"text": "a"}
    assert load_result(b"plain text\n", "r.txt") == "plain text\n"
    assert load_result(b"[1]", "r.txt") == "[1]"
    with pytest.raises(ResultError, match=r"r\.json is not valid JSON: .* line 1, column 10"):
        load_result(b'{"text": }', "r.json")
    with pytest.raises(ResultError, match="not UTF-8"):
        load_result(b"\xff\xfe\x00", "r.txt")


def test_an_expected_reply_can_be_compared_directly() -> None:
    report = report_of("openai-chat/tool-call-single.sse")
    expected = normalise_result({"finish_reason": "length"})
    assert isinstance(expected, ExpectedReply)
    assert paths(compare_result(expected, report)) == ["outputs[0].finish_reason"]


# -- any JSON is read or refused with a clear message, never an internal error --------------

_KEYS = [
    "choices",
    "message",
    "content",
    "refusal",
    "tool_calls",
    "function",
    "name",
    "arguments",
    "custom",
    "input",
    "finish_reason",
    "usage",
    "prompt_tokens",
    "completion_tokens_details",
    "reasoning_tokens",
    "object",
    "output",
    "type",
    "summary",
    "text",
    "call_id",
    "status",
    "incomplete_details",
    "reason",
    "stop_reason",
    "candidates",
    "parts",
    "functionCall",
    "args",
    "thought",
    "usageMetadata",
    "promptTokenCount",
    "toolCalls",
    "toolName",
    "toolCallId",
    "finishReason",
    "reasoning",
    "reasoningText",
    "inputTokens",
    "outputTokenDetails",
    "outputs",
    "schema",
    "index",
    "id",
    "response",
    "function_call",
    "providerExecuted",
]
_TYPES = [
    "message",
    "response",
    "function_call",
    "reasoning",
    "output_text",
    "refusal",
    "tool_use",
    "thinking",
    "text",
    "custom_tool_call",
]


def _json_values() -> Any:
    from hypothesis import strategies as st

    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 300),
        st.floats(allow_nan=False, width=16),
        st.sampled_from(_TYPES),
        st.text(max_size=6),
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(_KEYS), inner, max_size=5),
        ),
        max_leaves=25,
    )


def test_any_json_result_is_compared_or_refused_with_a_result_error() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    report = report_of("openai-chat/parallel-tool-calls.sse")

    @settings(max_examples=150, deadline=None)
    @given(st.dictionaries(st.sampled_from(_KEYS), _json_values(), min_size=1, max_size=5))
    def check(result: dict[str, Any]) -> None:
        try:
            diffs = compare_result(result, report)
        except ResultError as exc:
            assert str(exc).startswith("the result")
            return
        for diff in diffs:
            json.dumps(diff.to_dict())
            assert diff.path and diff.message

    check()

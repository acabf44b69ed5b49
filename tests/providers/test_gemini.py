"""The Gemini adapter: records of every framing in, unified events and diagnostics out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.providers.oracle import (
    REAL,
    assert_facts,
    expected_problems,
    feed,
    feed_fixture,
    fixture_names,
    framing_of,
    real_expected,
)

from ssescope.diagnostics import Diagnostic
from ssescope.events import (
    Audio,
    Citation,
    Finish,
    ProviderError,
    ReasoningDelta,
    ReasoningMeta,
    ResponseStart,
    ServerToolResult,
    Terminal,
    TextDelta,
    ToolCall,
    Unknown,
    Usage,
)
from ssescope.framing.jsonarray import JSONArrayParser
from ssescope.framing.ndjson import NDJSONParser
from ssescope.framing.records import JSONRecord, SSEComment, SSEEvent
from ssescope.framing.sse import SSEParser
from ssescope.providers.gemini import GeminiAdapter, finish_status, map_finish_reason

FIXTURES = Path(__file__).parents[1] / "fixtures" / "gemini"
_PARSERS: dict[str, Any] = {"sse": SSEParser, "ndjson": NDJSONParser, "json-array": JSONArrayParser}


def frame(data: bytes, framing: str) -> tuple[list[SSEEvent | JSONRecord], list[Diagnostic]]:
    parser = _PARSERS[framing]()
    got = parser.feed(data) + parser.close()
    records = [r for r in got if isinstance(r, (SSEEvent, JSONRecord))]
    diags = [r for r in got if isinstance(r, Diagnostic)]
    assert all(isinstance(r, (SSEEvent, JSONRecord, SSEComment, Diagnostic)) for r in got)
    return records, diags


def run(data: bytes, framing: str) -> list[Any]:
    records, _ = frame(data, framing)
    adapter = GeminiAdapter(framing)
    out: list[Any] = []
    for record in records:
        out += adapter.feed(record)
    out += adapter.close()
    return out


def run_fixture(name: str) -> list[Any]:
    path = FIXTURES / name
    return run(path.read_bytes(), framing_of(path.name))


def events(out: list[Any]) -> list[Any]:
    return [e for e in out if not isinstance(e, Diagnostic)]


def codes(out: list[Any]) -> list[str]:
    return [d.code for d in out if isinstance(d, Diagnostic)]


def of_type(out: list[Any], cls: type) -> list[Any]:
    return [e for e in out if isinstance(e, cls)]


def sse(*chunks: object) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\r\n\r\n" for c in chunks)


def chunk(parts: list[object] | None = None, finish: str | None = None, **extra: object) -> dict:
    cand: dict[str, object] = {}
    if parts is not None:
        cand["content"] = {"role": "model", "parts": parts}
    if finish is not None:
        cand["finishReason"] = finish
    return {"candidates": [cand], "responseId": extra.pop("rid", "r1"), **extra}


# -- the fixtures, one quirk each ---------------------------------------------------------


def test_sse_chunks_with_crlf_give_reasoning_text_signature_usage_and_a_completed_terminal() -> (
    None
):
    out = run_fixture("thought-text-stop.sse")
    assert codes(out) == []
    usage_1 = {
        "input_tokens": 12,
        "output_tokens": None,
        "total_tokens": 12,
        "reasoning_tokens": None,
        "cached_input_tokens": None,
    }
    usage_2: dict[str, Any] = {
        "input_tokens": 12,
        "output_tokens": 9,
        "total_tokens": 51,
        "reasoning_tokens": 30,
        "cached_input_tokens": 4,
    }
    raw_1: dict[str, Any] = {"promptTokenCount": 12, "totalTokenCount": 12}
    raw_2: dict[str, Any] = {
        "promptTokenCount": 12,
        "candidatesTokenCount": 9,
        "thoughtsTokenCount": 30,
        "cachedContentTokenCount": 4,
        "totalTokenCount": 51,
    }
    assert out == [
        ResponseStart(0, "resp-gem-1", "gemini-2.5-flash"),
        ReasoningDelta(0, 0, "**Counting letters**\n", None, "summary"),
        Usage(0, usage_1, raw_1, "usageMetadata"),
        TextDelta(1, 0, "Hello"),
        Usage(1, usage_1, raw_1, "usageMetadata"),
        TextDelta(2, 0, ", world."),
        Usage(2, usage_1, raw_1, "usageMetadata"),
        ReasoningMeta(3, 0, None, "c2lnLTE="),
        Finish(3, 0, "stop", "STOP"),
        Usage(3, usage_2, raw_2, "usageMetadata"),
        Terminal(3, "completed", "finishReason STOP"),
    ]


@pytest.mark.parametrize("name", ["thought-text-stop.json", "thought-text-stop.jsonl"])
def test_the_json_array_and_jsonl_forms_give_the_same_events_as_sse(name: str) -> None:
    assert run_fixture(name) == run_fixture("thought-text-stop.sse")


def test_an_empty_text_part_carrying_only_a_signature_adds_no_text() -> None:
    out = run(sse(chunk([{"text": "", "thoughtSignature": "sig"}], "STOP")), "sse")
    assert of_type(out, TextDelta) == []
    assert of_type(out, ReasoningMeta) == [ReasoningMeta(0, 0, None, "sig")]


def test_whole_no_argument_and_streamed_function_calls_each_become_one_tool_call() -> None:
    out = run_fixture("function-calls.json")
    assert codes(out) == []
    assert of_type(out, ToolCall) == [
        ToolCall(0, 0, 0, "fc-1", "get_weather", '{"city":"Paris","units":"metric"}'),
        ToolCall(1, 0, 1, None, "list_files", "{}"),
        ToolCall(
            6,
            0,
            2,
            None,
            "place_order",
            '{"items":[{"sku":"A-17","qty":2},{"sku":"B-4"}],"express":true,"note":null}',
        ),
    ]
    assert of_type(out, ReasoningMeta) == [ReasoningMeta(0, 0, None, "c2lnLTI=")]
    assert events(out)[-2:] == [
        Usage(
            7,
            {
                "input_tokens": 40,
                "output_tokens": 22,
                "total_tokens": 62,
                "reasoning_tokens": None,
                "cached_input_tokens": None,
            },
            {"promptTokenCount": 40, "candidatesTokenCount": 22, "totalTokenCount": 62},
            "usageMetadata",
        ),
        Terminal(7, "completed", "finishReason STOP"),
    ]


def test_max_tokens_is_a_length_finish_and_an_incomplete_response() -> None:
    out = run_fixture("max-tokens.jsonl")
    assert of_type(out, Finish) == [Finish(1, 0, "length", "MAX_TOKENS")]
    assert of_type(out, Terminal) == [Terminal(1, "incomplete", "finishReason MAX_TOKENS")]
    assert feed_fixture("gemini", "max-tokens.jsonl").output["text"] == "The quick brown fox"


def test_a_safety_finish_is_a_content_filter_and_keeps_the_text_already_sent() -> None:
    out = run_fixture("safety-finish.sse")
    assert of_type(out, Finish) == [Finish(1, 0, "content_filter", "SAFETY")]
    assert of_type(out, Terminal) == [Terminal(1, "incomplete", "finishReason SAFETY")]
    assert feed_fixture("gemini", "safety-finish.sse").output["text"] == "I can explain"


def test_a_blocked_prompt_without_candidates_ends_as_content_filter_and_incomplete() -> None:
    out = run_fixture("prompt-blocked.sse")
    assert codes(out) == ["gemini.prompt-blocked"]
    assert events(out) == [
        ResponseStart(0, "resp-blocked", "gemini-2.5-flash"),
        Finish(0, 0, "content_filter", "PROHIBITED_CONTENT"),
        Usage(
            0,
            {
                "input_tokens": 7,
                "output_tokens": None,
                "total_tokens": 7,
                "reasoning_tokens": None,
                "cached_input_tokens": None,
            },
            {"promptTokenCount": 7, "totalTokenCount": 7},
            "usageMetadata",
        ),
        Terminal(0, "incomplete", "prompt blocked (PROHIBITED_CONTENT)"),
    ]


def test_an_error_written_without_data_prefix_mid_stream_fails_the_response() -> None:
    data = (FIXTURES / "error-unprefixed.sse").read_bytes()
    _, framing_diags = frame(data, "sse")
    assert [d.code for d in framing_diags] == ["sse.unprefixed-json"]
    out = run(data, "sse")
    assert codes(out) == ["provider.error"]
    error: dict[str, Any] = {
        "code": 503,
        "message": "The model is overloaded. Please try again later.",
        "status": "UNAVAILABLE",
    }
    assert events(out)[1:] == [
        TextDelta(0, 0, "Once upon"),
        ProviderError(
            1, "UNAVAILABLE", "The model is overloaded. Please try again later.", "503", error
        ),
        Terminal(1, "failed", "error 503 UNAVAILABLE"),
    ]


def test_an_array_wrapped_error_body_is_a_provider_error_and_a_failed_terminal() -> None:
    out = run_fixture("error-array.json")
    assert codes(out) == ["provider.error"]
    assert [type(e) for e in events(out)] == [ProviderError, Terminal]
    assert of_type(out, ProviderError)[0].error_type == "RESOURCE_EXHAUSTED"
    assert of_type(out, Terminal) == [Terminal(0, "failed", "error 429 RESOURCE_EXHAUSTED")]


def test_an_error_array_in_one_sse_record_is_read_element_by_element() -> None:
    out = run(b'data: [{"error": {"code": 500, "message": "boom"}}]\n\n', "sse")
    assert of_type(out, ProviderError) == [
        ProviderError(0, None, "boom", "500", {"code": 500, "message": "boom"})
    ]


def test_a_plain_string_error_is_still_a_provider_error() -> None:
    out = run(b'data: {"error": "upstream closed"}\n\n', "sse")
    assert of_type(out, ProviderError) == [
        ProviderError(0, None, "upstream closed", None, "upstream closed")
    ]


def test_a_malformed_function_call_finish_fails_the_response_and_quotes_the_message() -> None:
    out = run_fixture("malformed-function-call.jsonl")
    assert of_type(out, Finish) == [Finish(0, 0, "error", "MALFORMED_FUNCTION_CALL")]
    assert of_type(out, Terminal) == [Terminal(0, "failed", "finishReason MALFORMED_FUNCTION_CALL")]
    (problem,) = [d for d in out if isinstance(d, Diagnostic)]
    assert problem.code == "gemini.tool-call-failed"
    assert "print(default_api.search(q=))" in problem.message


def test_two_candidates_stay_separate_and_the_terminal_waits_for_both() -> None:
    out = run_fixture("two-candidates.sse")
    report = feed_fixture("gemini", "two-candidates.sse").report
    assert [(o["text"], o["finish_reason"]) for o in report["outputs"]] == [
        ("Red apples", "stop"),
        ("Blue berries and", "length"),
    ]
    assert of_type(out, Terminal) == [Terminal(2, "incomplete", "finishReason MAX_TOKENS, STOP")]


def test_a_stream_without_finish_reason_has_no_terminal_and_is_diagnosed_at_close() -> None:
    out = run_fixture("truncated.sse")
    assert of_type(out, Terminal) == []
    (problem,) = [d for d in out if isinstance(d, Diagnostic)]
    assert (problem.code, problem.severity, problem.record) == (
        "gemini.no-finish-reason",
        "warning",
        1,
    )
    assert feed_fixture("gemini", "truncated.sse").report["status"] == "truncated"


def test_code_execution_and_media_parts_are_known_and_never_text() -> None:
    out = run_fixture("code-execution-media.jsonl")
    assert codes(out) == ["gemini.inline-data"]
    assert of_type(out, ToolCall) == [
        ToolCall(
            0,
            0,
            0,
            None,
            "code_execution",
            '{"language":"PYTHON","code":"print(2 + 2)"}',
            "server",
        )
    ]
    assert of_type(out, ServerToolResult) == [
        ServerToolResult(
            1, 0, None, "code_execution_result", {"outcome": "OUTCOME_OK", "output": "4\n"}
        )
    ]
    assert of_type(out, Audio) == [Audio(3, 0, "AAAAAA==", None, "audio/L16;rate=24000")]
    assert feed_fixture("gemini", "code-execution-media.jsonl").output["text"] == "The answer is 4."
    (inline,) = [d for d in out if isinstance(d, Diagnostic)]
    assert "'image/png'" in inline.message
    assert "iVBOR" not in inline.message


def test_a_chunk_after_the_finish_is_passed_on_after_the_terminal_without_a_new_start() -> None:
    out = run_fixture("after-finish.jsonl")
    assert [type(e) for e in events(out)] == [
        ResponseStart,
        TextDelta,
        Finish,
        Terminal,
        TextDelta,
    ]


def test_a_new_response_id_after_the_terminal_starts_a_new_response() -> None:
    out = run(sse(chunk([{"text": "a"}], "STOP"), chunk([{"text": "b"}], "STOP", rid="r2")), "sse")
    assert of_type(out, ResponseStart) == [ResponseStart(0, "r1"), ResponseStart(1, "r2")]
    assert len(of_type(out, Terminal)) == 2


def test_a_streamed_call_cut_by_the_finish_is_reported_unfinished_before_the_finish() -> None:
    out = run_fixture("streamed-args-unterminated.jsonl")
    assert codes(out) == ["gemini.unterminated-function-call", "stream.contradictory-terminal"]
    assert [type(e) for e in events(out)] == [ResponseStart, ToolCall, Finish, Terminal]
    assert of_type(out, ToolCall) == [
        ToolCall(2, 0, 0, None, "search", '{"query":"tide times"}', complete=False)
    ]


def test_a_streamed_call_open_at_the_end_of_the_body_is_emitted_unfinished_at_close() -> None:
    body = sse(
        chunk([{"functionCall": {"name": "f", "willContinue": True}}]),
        chunk(
            [
                {
                    "functionCall": {
                        "partialArgs": [{"jsonPath": "$.a", "numberValue": 1}],
                        "willContinue": True,
                    }
                }
            ]
        ),
    )
    out = run(body, "sse")
    assert of_type(out, ToolCall) == [ToolCall(1, 0, 0, None, "f", '{"a":1}', complete=False)]
    assert codes(out) == ["gemini.unterminated-function-call", "gemini.no-finish-reason"]


def test_a_fragment_without_will_continue_ends_the_streamed_call() -> None:
    body = sse(
        chunk([{"functionCall": {"name": "f", "willContinue": True}}]),
        chunk([{"functionCall": {"partialArgs": [{"jsonPath": "$.b", "boolValue": False}]}}]),
        chunk([{"text": ""}], "STOP"),
    )
    out = run(body, "sse")
    assert of_type(out, ToolCall) == [ToolCall(1, 0, 0, None, "f", '{"b":false}')]
    assert codes(out) == ["gemini.function-call-end-inferred"]


def test_a_new_call_while_a_streamed_call_is_open_leaves_the_first_unfinished() -> None:
    body = sse(
        chunk([{"functionCall": {"name": "f", "willContinue": True}}]),
        chunk([{"functionCall": {"name": "g", "args": {"x": 1}}}]),
        chunk([{"text": ""}], "STOP"),
    )
    out = run(body, "sse")
    assert of_type(out, ToolCall) == [
        ToolCall(1, 0, 0, None, "f", "{}", complete=False),
        ToolCall(1, 0, 1, None, "g", '{"x":1}'),
    ]
    assert codes(out) == ["gemini.unterminated-function-call"]


def test_quoted_keys_and_string_pieces_build_the_arguments_in_first_seen_order() -> None:
    fragments = [
        {"jsonPath": "$['a b'].c", "stringValue": "x", "willContinue": True},
        {"jsonPath": "$.z", "numberValue": 1.5},
        {"jsonPath": "$['a b'].c", "stringValue": "y"},
        {"jsonPath": '$["q\\"k"]', "stringValue": "v"},
        {"jsonPath": "$.list[2]", "stringValue": "third"},
    ]
    body = sse(
        chunk([{"functionCall": {"name": "f", "willContinue": True, "id": "c1"}}]),
        chunk([{"functionCall": {"partialArgs": fragments, "willContinue": True}}]),
        chunk([{"functionCall": {}}]),
    )
    out = run(body, "sse")
    assert of_type(out, ToolCall) == [
        ToolCall(
            2, 0, 0, "c1", "f", '{"a b":{"c":"xy"},"z":1.5,"q\\"k":"v","list":[null,null,"third"]}'
        )
    ]
    assert codes(out) == ["gemini.no-finish-reason"]


@pytest.mark.parametrize(
    "fragment",
    [
        {"jsonPath": "items[0]", "stringValue": "x"},
        {"jsonPath": "$.a[", "stringValue": "x"},
        {"stringValue": "x"},
        {"jsonPath": "$.a"},
        "not an object",
        {"jsonPath": "$.s[0]", "stringValue": "x"},
        {"jsonPath": "$.s.k", "stringValue": "x"},
    ],
)
def test_a_bad_partial_args_fragment_is_skipped_with_a_diagnostic(fragment: object) -> None:
    body = sse(
        chunk([{"functionCall": {"name": "f", "willContinue": True}}]),
        chunk(
            [
                {
                    "functionCall": {
                        "partialArgs": [{"jsonPath": "$.s", "stringValue": "ok"}, fragment],
                        "willContinue": True,
                    }
                }
            ]
        ),
        chunk([{"functionCall": {}}]),
    )
    out = run(body, "sse")
    assert "gemini.invalid-partial-args" in codes(out)
    assert of_type(out, ToolCall) == [ToolCall(2, 0, 0, None, "f", '{"s":"ok"}')]


def test_argument_fragments_without_a_named_call_are_kept_in_a_nameless_call() -> None:
    body = sse(
        chunk(
            [
                {
                    "functionCall": {
                        "partialArgs": [{"jsonPath": "$.a", "stringValue": "1"}],
                        "willContinue": True,
                    }
                }
            ]
        ),
        chunk([{"functionCall": {}}]),
    )
    out = run(body, "sse")
    assert codes(out)[0] == "gemini.orphan-partial-args"
    assert of_type(out, ToolCall) == [ToolCall(1, 0, 0, None, None, '{"a":"1"}')]


def test_an_empty_function_call_with_no_open_call_is_ignored_with_a_note() -> None:
    out = run(sse(chunk([{"functionCall": {}}], "STOP")), "sse")
    assert of_type(out, ToolCall) == []
    assert codes(out) == ["gemini.stray-function-call-end"]


def test_citations_and_grounding_metadata_become_citations_once_each() -> None:
    out = run_fixture("citations-grounding.sse")
    cites = of_type(out, Citation)
    assert [c.citation for c in cites] == [
        {"startIndex": 0, "endIndex": 31, "uri": "https://example.org/eiffel"},
        {
            "groundingMetadata": {
                "webSearchQueries": ["eiffel tower height"],
                "groundingChunks": [
                    {"web": {"uri": "https://example.org/eiffel", "title": "example.org"}}
                ],
            }
        },
    ]
    repeated = sse(
        chunk([{"text": "a"}], citationMetadata={}),
        *[
            {
                "candidates": [
                    {"citationMetadata": {"citations": [{"startIndex": 0, "uri": "u"}]}}
                ],
                "responseId": "r1",
            }
        ]
        * 2,
    )
    assert len(of_type(run(repeated, "sse"), Citation)) == 1


def test_a_part_of_an_unknown_kind_is_passed_on_as_unknown() -> None:
    out = run(sse(chunk([{"hologram": {"x": 1}, "thoughtSignature": "s"}], "STOP")), "sse")
    assert of_type(out, Unknown) == [
        Unknown(0, "part.hologram", {"hologram": {"x": 1}, "thoughtSignature": "s"})
    ]
    assert of_type(out, ReasoningMeta) == [ReasoningMeta(0, 0, None, "s")]


def test_usage_metadata_without_token_counts_emits_no_usage() -> None:
    out = run(sse(chunk([{"text": "a"}], usageMetadata={"trafficType": "ON_DEMAND"})), "sse")
    assert of_type(out, Usage) == []


def test_a_missing_candidate_index_means_candidate_zero() -> None:
    out = run(sse({"candidates": [{"content": {"parts": [{"text": "x"}]}, "index": "1"}]}), "sse")
    assert of_type(out, TextDelta) == [TextDelta(0, 0, "x")]


def test_invalid_json_is_diagnosed_and_the_stream_goes_on() -> None:
    body = b"data: {not json\r\n\r\n" + sse(chunk([{"text": "ok"}], "STOP"))
    out = run(body, "sse")
    assert codes(out) == ["json.invalid"]
    assert_facts(feed(body, "gemini", "sse"), {"text": "ok", "status": "completed"})


def test_a_done_marker_added_by_a_proxy_is_noted_and_ignored() -> None:
    body = sse(chunk([{"text": "ok"}], "STOP")) + b"data: [DONE]\r\n\r\n"
    assert codes(run(body, "sse")) == ["gemini.unexpected-done"]
    assert feed(body, "gemini", "sse").report["status"] == "completed"


@pytest.mark.parametrize(
    "data", [b"data: 42\n\n", b'data: "text"\n\n', b'data: {"candidates": 3}\n\n']
)
def test_json_that_is_not_a_response_object_is_skipped_with_a_diagnostic(data: bytes) -> None:
    out = run(data, "sse")
    assert "gemini.unexpected-json" in codes(out)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("STOP", ("stop", "completed")),
        ("MAX_TOKENS", ("length", "incomplete")),
        ("SAFETY", ("content_filter", "incomplete")),
        ("RECITATION", ("content_filter", "incomplete")),
        ("BLOCKLIST", ("content_filter", "incomplete")),
        ("PROHIBITED_CONTENT", ("content_filter", "incomplete")),
        ("SPII", ("content_filter", "incomplete")),
        ("IMAGE_SAFETY", ("content_filter", "incomplete")),
        ("IMAGE_PROHIBITED_CONTENT", ("content_filter", "incomplete")),
        ("MALFORMED_FUNCTION_CALL", ("error", "failed")),
        ("UNEXPECTED_TOOL_CALL", ("error", "failed")),
        ("TOO_MANY_TOOL_CALLS", ("error", "failed")),
        ("LANGUAGE", ("other", "incomplete")),
        ("OTHER", ("other", "incomplete")),
        ("SOMETHING_NEW", ("other", "incomplete")),
    ],
)
def test_finish_reasons_map_to_the_unified_reason_and_status(raw: str, expected: tuple) -> None:
    assert (map_finish_reason(raw), finish_status(raw)) == expected


# -- robustness ---------------------------------------------------------------------------

FIXTURE_FILES = sorted(FIXTURES.iterdir())


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.name)
def test_cutting_a_fixture_at_every_record_boundary_never_raises(path: Path) -> None:
    framing = framing_of(path.name)
    records, _ = frame(path.read_bytes(), framing)
    for cut in range(len(records) + 1):
        adapter = GeminiAdapter(framing)
        out: list[Any] = []
        for record in records[:cut]:
            out += adapter.feed(record)
        out += adapter.close()
        assert all(e.record <= max(cut - 1, 0) for e in out if not isinstance(e, Diagnostic))


_KEYS = st.sampled_from(
    [
        "candidates",
        "content",
        "parts",
        "text",
        "thought",
        "thoughtSignature",
        "functionCall",
        "name",
        "args",
        "id",
        "willContinue",
        "partialArgs",
        "jsonPath",
        "stringValue",
        "numberValue",
        "finishReason",
        "index",
        "usageMetadata",
        "promptTokenCount",
        "error",
        "promptFeedback",
        "blockReason",
        "inlineData",
        "data",
        "mimeType",
        "citationMetadata",
        "citations",
    ]
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 3),
    st.sampled_from(["", "$.a", "$.a[0].b", "$[", "STOP", "SAFETY", "x", "audio/wav"]),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_JSON, max_size=6))
def test_arbitrary_json_records_never_raise(values: list[Any]) -> None:
    for framing in ("sse", "ndjson"):
        adapter = GeminiAdapter(framing)
        for i, value in enumerate(values):
            adapter.feed(JSONRecord(i, json.dumps(value), 0, 1))
        adapter.close()


# -- every fixture through the one oracle: the Report, in every chunking --------------------

# provider (when not detected), status and every diagnostic of the Report of each fixture
REPORTS: dict[str, tuple[str, list[str]]] = {
    "after-finish.jsonl": ("completed", ["stream.events-after-terminal", "usage.missing"]),
    "citations-grounding.sse": ("completed", ["usage.missing"]),
    "code-execution-media.jsonl": ("completed", ["gemini.inline-data"]),
    "error-array.json": ("failed", ["provider.error"]),
    "error-unprefixed.sse": ("failed", ["sse.unprefixed-json", "provider.error"]),
    "function-calls.json": ("completed", []),
    "malformed-function-call.jsonl": ("failed", ["gemini.tool-call-failed"]),
    "max-tokens.jsonl": ("incomplete", []),
    "prompt-blocked.sse": ("incomplete", ["gemini.prompt-blocked"]),
    "safety-finish.sse": ("incomplete", ["usage.missing"]),
    # STOP while the streamed call said more would come: the reply is cut short
    "streamed-args-unterminated.jsonl": (
        "incomplete",
        [
            "gemini.unterminated-function-call",
            "stream.contradictory-terminal",
            "tool.incomplete",
            "usage.missing",
        ],
    ),
    "thought-text-stop.json": ("completed", []),
    "thought-text-stop.jsonl": ("completed", []),
    "thought-text-stop.sse": ("completed", []),
    "truncated.sse": ("truncated", ["gemini.no-finish-reason"]),
    "two-candidates.sse": ("incomplete", []),
}


def test_every_fixture_has_its_report_stated() -> None:
    assert set(fixture_names("gemini")) == set(REPORTS)


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_each_fixture_gives_its_report_in_every_chunking(name: str) -> None:
    fed = feed_fixture("gemini", name, "auto", framing="auto")
    status, report_codes = REPORTS[name]
    assert_facts(fed, {"provider": "gemini", "framing": framing_of(name), "status": status})
    assert_facts(fed, {"codes": report_codes})
    assert fed.event_codes == [
        *(d.code for d in frame((FIXTURES / name).read_bytes(), framing_of(name))[1]),
        *codes(run_fixture(name)),
    ]


# -- the real captures --------------------------------------------------------------------

REAL_NAMES: list[Any] = (
    sorted(real_expected("gemini"))
    if (REAL / "EXPECTED.json").is_file()
    else [
        pytest.param(
            "absent",
            marks=pytest.mark.skip(
                reason=f"real captures not found at {REAL} (set SSESCOPE_REAL_STREAMS)"
            ),
        )
    ]
)


def test_every_gemini_capture_in_expected_is_checked() -> None:
    assert len(real_expected("gemini")) == 4


@pytest.mark.parametrize("form", ["ndjson", "sse", "json-array"])
@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_gemini_capture_gives_the_expected_facts(name: str, form: str) -> None:
    expected = real_expected("gemini")[name]
    assert expected["framing"] == "ndjson"
    lines = (REAL / name).read_bytes().splitlines()
    if form == "sse":  # the alt=sse wire form: CRLF, no terminator event
        data = b"".join(b"data: " + line + b"\r\n\r\n" for line in lines)
    elif form == "json-array":  # the wire form without alt=sse
        data = b"[" + b",\r\n".join(lines) + b"]"
    else:
        data = b"\n".join(lines) + b"\n"
    fed = feed(data)
    problems = expected_problems(fed.report, {**expected, "framing": form})
    assert not problems, "\n".join(problems)

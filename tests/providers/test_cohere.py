"""The Cohere v2 chat stream adapter: SSE events and JSONL dumps in, unified events out."""

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
    Citation,
    Finish,
    ProviderError,
    ReasoningDelta,
    ResponseStart,
    Terminal,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    Unknown,
    Usage,
)
from ssescope.framing.ndjson import NDJSONParser
from ssescope.framing.records import JSONRecord, SSEComment, SSEEvent
from ssescope.framing.sse import SSEParser
from ssescope.providers.cohere import CohereAdapter, finish_status, map_finish_reason

FIXTURES = Path(__file__).parents[1] / "fixtures" / "cohere"


def frame(data: bytes, framing: str) -> tuple[list[SSEEvent | JSONRecord], list[Diagnostic]]:
    parser = SSEParser() if framing == "sse" else NDJSONParser()
    got = parser.feed(data) + parser.close()
    assert all(isinstance(r, (SSEEvent, JSONRecord, SSEComment, Diagnostic)) for r in got)
    return (
        [r for r in got if isinstance(r, (SSEEvent, JSONRecord))],
        [r for r in got if isinstance(r, Diagnostic)],
    )


def run(data: bytes, framing: str) -> list[Any]:
    records, _ = frame(data, framing)
    adapter = CohereAdapter(framing)
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


def sse(*objs: dict[str, Any], named: bool = True) -> bytes:
    parts = []
    for obj in objs:
        head = f"event: {obj.get('type')}\n" if named else ""
        parts.append(f"{head}data: {json.dumps(obj)}\n\n")
    return "".join(parts).encode()


USAGE_RAW: dict[str, Any] = {
    "billed_units": {"input_tokens": 10, "output_tokens": 6},
    "tokens": {"input_tokens": 210, "output_tokens": 9},
    "cached_tokens": 192,
}
USAGE_VALUES = {
    "input_tokens": 210,
    "output_tokens": 9,
    "total_tokens": None,
    "reasoning_tokens": None,
    "cached_input_tokens": 192,
}


# -- the fixtures -------------------------------------------------------------------------


def test_thinking_then_text_parts_give_reasoning_and_text_by_content_index() -> None:
    out = run_fixture("thinking-text.sse")
    assert codes(out) == []
    assert events(out) == [
        ResponseStart(0, "b1e0c6a2-0000-4000-8000-000000000001"),
        ReasoningDelta(2, 0, "Simple", 0),
        ReasoningDelta(3, 0, " sum.", 0),
        TextDelta(6, 0, "2 + 2", 1),
        TextDelta(7, 0, " = 4.", 1),
        Finish(10, 0, "stop", "COMPLETE"),
        Usage(10, USAGE_VALUES, USAGE_RAW, "message-end usage.tokens"),
        Terminal(10, "completed", "message-end COMPLETE"),
    ]


def test_the_jsonl_dump_gives_the_same_events_as_the_sse_wire() -> None:
    assert run_fixture("thinking-text.jsonl") == run_fixture("thinking-text.sse")


def test_tool_plan_and_tool_calls_keyed_by_the_top_level_index() -> None:
    out = run_fixture("tool-plan-calls.sse")
    assert codes(out) == []
    assert events(out)[1:] == [
        ReasoningDelta(1, 0, "I will look up", "tool_plan", "plan"),
        ReasoningDelta(2, 0, " the weather.", "tool_plan", "plan"),
        ToolCallDelta(3, 0, 0, "get_weather_a1", "get_weather", None, "function"),
        ToolCallDelta(4, 0, 0, arguments='{"city": '),
        ToolCallDelta(5, 0, 0, arguments='"Oslo"}'),
        ToolCallEnd(6, 0, 0),
        ToolCallDelta(7, 0, 1, "get_time_b2", "get_time", None, "function"),
        ToolCallEnd(8, 0, 1),
        Finish(9, 0, "tool_calls", "TOOL_CALL"),
        Usage(9, USAGE_VALUES, USAGE_RAW, "message-end usage.tokens"),
        Terminal(9, "completed", "message-end TOOL_CALL"),
    ]
    calls = feed_fixture("cohere", "tool-plan-calls.sse").output["tool_calls"]
    assert [(c["name"], c["input"], c["complete"]) for c in calls] == [
        ("get_weather", {"city": "Oslo"}, True),
        ("get_time", {}, True),
    ]


def test_citation_start_becomes_a_citation_on_its_content_part() -> None:
    out = run_fixture("citations.sse")
    (cite,) = of_type(out, Citation)
    assert cite.part == 0
    assert isinstance(cite.citation, dict)
    assert cite.citation["text"] == "Oslo is cold."
    assert codes(out) == []


def test_max_tokens_is_a_length_finish_and_an_incomplete_response() -> None:
    out = run_fixture("max-tokens.jsonl")
    assert of_type(out, Finish) == [Finish(3, 0, "length", "MAX_TOKENS")]
    assert of_type(out, Terminal) == [Terminal(3, "incomplete", "message-end MAX_TOKENS")]


def test_an_error_finish_fails_the_response_and_keeps_the_partial_text() -> None:
    out = run_fixture("error-finish.sse")
    assert of_type(out, Finish) == [Finish(3, 0, "error", "ERROR")]
    assert of_type(out, Terminal) == [Terminal(3, "failed", "message-end ERROR")]
    assert of_type(out, Usage) == []
    assert feed_fixture("cohere", "error-finish.sse").output["text"] == "Partial"


def test_a_stream_without_message_end_has_no_terminal_and_is_diagnosed_at_close() -> None:
    out = run_fixture("truncated.sse")
    assert of_type(out, Terminal) == []
    (problem,) = [d for d in out if isinstance(d, Diagnostic)]
    assert (problem.code, problem.severity, problem.record) == (
        "cohere.missing-message-end",
        "warning",
        2,
    )


def test_events_after_message_end_pass_through_and_a_done_marker_is_tolerated() -> None:
    out = run_fixture("done-and-after-end.sse")
    assert codes(out) == []
    assert [type(e) for e in events(out)] == [
        ResponseStart,
        TextDelta,
        Finish,
        Usage,
        Terminal,
        TextDelta,
    ]
    assert of_type(out, Finish) == [Finish(4, 0, "stop", "STOP_SEQUENCE")]


def test_the_json_type_wins_over_a_different_sse_event_name() -> None:
    out = run_fixture("mismatched-event-name.sse")
    assert codes(out) == ["cohere.event-name-mismatch"]
    assert [type(e) for e in events(out)] == [
        ResponseStart,
        TextDelta,
        Finish,
        Usage,
        Terminal,
    ]


def test_the_sse_event_name_is_used_when_the_json_has_no_type() -> None:
    body = b'event: tool-plan-delta\ndata: {"delta": {"message": {"tool_plan": "plan"}}}\n\n'
    assert events(run(body, "sse")) == [ReasoningDelta(0, 0, "plan", "tool_plan", "plan")]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("COMPLETE", ("stop", "completed")),
        ("STOP_SEQUENCE", ("stop", "completed")),
        ("TOOL_CALL", ("tool_calls", "completed")),
        ("MAX_TOKENS", ("length", "incomplete")),
        ("ERROR", ("error", "failed")),
        ("TIMEOUT", ("error", "failed")),
        ("SOMETHING_NEW", ("other", "completed")),
    ],
)
def test_finish_reasons_map_to_the_unified_reason_and_status(raw: str, expected: tuple) -> None:
    assert (map_finish_reason(raw), finish_status(raw)) == expected


def test_usage_falls_back_to_billed_units_when_tokens_are_absent() -> None:
    end = {
        "type": "message-end",
        "delta": {
            "finish_reason": "COMPLETE",
            "usage": {"billed_units": {"input_tokens": 8.0, "output_tokens": 50}},
        },
    }
    (usage,) = of_type(run(sse(end), "sse"), Usage)
    assert usage.source == "message-end usage.billed_units"
    assert usage.values["input_tokens"] is None  # 8.0 is not a JSON integer: one policy
    assert usage.values["output_tokens"] == 50


def test_message_end_without_finish_reason_is_completed_with_a_warning() -> None:
    out = run(sse({"type": "message-end", "delta": {}}), "sse")
    assert codes(out) == ["cohere.missing-finish-reason"]
    assert of_type(out, Terminal) == [Terminal(0, "completed", "message-end")]


def test_an_error_string_at_message_end_is_a_provider_error() -> None:
    end = {"type": "message-end", "delta": {"finish_reason": "ERROR", "error": "internal failure"}}
    out = run(sse(end), "sse")
    assert codes(out) == ["provider.error"]
    assert of_type(out, ProviderError) == [
        ProviderError(0, "ERROR", "internal failure", None, "internal failure")
    ]
    assert of_type(out, Terminal) == [Terminal(0, "failed", "message-end ERROR")]


def test_an_error_body_without_type_fails_the_response() -> None:
    out = run(b'data: {"id": "e1", "message": "invalid api token"}\n\n', "sse")
    assert codes(out) == ["provider.error"]
    assert [type(e) for e in events(out)] == [ProviderError, Terminal]


def test_a_stream_error_event_fails_the_response() -> None:
    out = run(sse({"type": "stream-error", "message": "timeout"}), "sse")
    assert of_type(out, Terminal) == [Terminal(0, "failed", "error")]


def test_unknown_event_types_and_typeless_objects_are_unknown() -> None:
    out = run(sse({"type": "brand-new", "x": 1}) + b'data: {"x": 1}\n\n', "sse")
    assert [(e.event_type, e.record) for e in of_type(out, Unknown)] == [
        ("brand-new", 0),
        ("(no type)", 1),
    ]


def test_a_tool_call_list_is_tolerated_in_a_start_event() -> None:
    start = {
        "type": "tool-call-start",
        "index": 0,
        "delta": {
            "message": {"tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{}"}}]}
        },
    }
    assert events(run(sse(start), "sse")) == [ToolCallDelta(0, 0, 0, "c", "f", "{}")]


def test_invalid_json_is_diagnosed_and_the_stream_goes_on() -> None:
    body = b"data: {oops\n\n" + b"".join(
        b"data: " + line + b"\n\n"
        for line in (FIXTURES / "max-tokens.jsonl").read_bytes().splitlines()
    )
    out = run(body, "sse")
    assert codes(out) == ["json.invalid"]
    assert feed(body, "cohere", "sse").report["status"] == "incomplete"


def test_json_that_is_not_an_object_is_skipped_with_a_diagnostic() -> None:
    assert codes(run(b"data: [1, 2]\n\n", "sse")) == ["cohere.unexpected-json"]


# -- robustness ---------------------------------------------------------------------------

FIXTURE_FILES = sorted(FIXTURES.iterdir())


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.name)
def test_cutting_a_fixture_at_every_record_boundary_never_raises(path: Path) -> None:
    framing = framing_of(path.name)
    records, _ = frame(path.read_bytes(), framing)
    for cut in range(len(records) + 1):
        adapter = CohereAdapter(framing)
        out: list[Any] = []
        for record in records[:cut]:
            out += adapter.feed(record)
        out += adapter.close()
        assert all(e.record < max(cut, 1) for e in events(out))


_KEYS = st.sampled_from(
    [
        "type",
        "index",
        "delta",
        "message",
        "content",
        "text",
        "thinking",
        "tool_plan",
        "tool_calls",
        "function",
        "arguments",
        "name",
        "id",
        "citations",
        "content_index",
        "finish_reason",
        "usage",
        "tokens",
        "billed_units",
        "input_tokens",
        "cached_tokens",
        "error",
    ]
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1, 3),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(
        [
            "",
            "message-start",
            "content-start",
            "content-delta",
            "tool-call-start",
            "tool-call-delta",
            "tool-call-end",
            "citation-start",
            "message-end",
            "thinking",
            "COMPLETE",
            "x",
        ]
    ),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_JSON, max_size=6))
def test_arbitrary_json_records_never_raise(values: list[Any]) -> None:
    adapter = CohereAdapter("ndjson")
    for i, value in enumerate(values):
        adapter.feed(JSONRecord(i, json.dumps(value), 0, 1))
    adapter.close()


# -- every fixture through the one oracle: the Report, in every chunking --------------------

# status and every diagnostic of the Report (aggregator ones too) of each fixture
REPORTS: dict[str, tuple[str, list[str]]] = {
    "citations.sse": ("completed", []),
    "done-and-after-end.sse": ("completed", ["stream.events-after-terminal"]),
    "error-finish.sse": ("failed", []),
    "max-tokens.jsonl": ("incomplete", []),
    "mismatched-event-name.sse": ("completed", ["cohere.event-name-mismatch"]),
    "thinking-text.jsonl": ("completed", []),
    "thinking-text.sse": ("completed", []),
    "tool-plan-calls.sse": ("completed", ["tool.empty-arguments"]),  # get_time's ""
    "truncated.sse": ("truncated", ["cohere.missing-message-end"]),
}


def test_every_fixture_has_its_report_stated() -> None:
    assert set(fixture_names("cohere")) == set(REPORTS)


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_each_fixture_gives_its_report_in_every_chunking(name: str) -> None:
    fed = feed_fixture("cohere", name, framing="auto")
    status, report_codes = REPORTS[name]
    assert_facts(fed, {"provider": "cohere", "framing": framing_of(name), "status": status})
    assert_facts(fed, {"codes": report_codes})
    assert fed.event_codes == codes(run_fixture(name))


# -- the real captures --------------------------------------------------------------------

REAL_NAMES = ["cohere/parallel-tool-calls-tool-plan.jsonl", "cohere/thinking-content.jsonl"]


def test_every_cohere_capture_in_expected_is_checked() -> None:
    assert sorted(real_expected("cohere")) == REAL_NAMES


@pytest.mark.parametrize("form", ["ndjson", "sse"])
@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_cohere_capture_gives_the_expected_facts(name: str, form: str) -> None:
    expected = real_expected("cohere")[name]
    assert expected["framing"] == "ndjson"
    lines = (REAL / name).read_bytes().splitlines()
    if form == "sse":  # the wire form: event name + data, type repeated in the JSON
        data = b"".join(
            b"event: " + json.loads(line)["type"].encode() + b"\ndata: " + line + b"\n\n"
            for line in lines
        )
    else:
        data = b"\n".join(lines) + b"\n"
    fed = feed(data)
    problems = expected_problems(fed.report, {**expected, "framing": form})
    assert not problems, "\n".join(problems)
    assert fed.of_type(Unknown) == []

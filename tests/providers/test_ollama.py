"""The Ollama adapter: /api/chat and /api/generate NDJSON lines (or the same in SSE) in,
unified events out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.providers.oracle import assert_facts, feed_fixture, fixture_names, framing_of

from ssescope.diagnostics import Diagnostic
from ssescope.events import (
    Finish,
    ProviderError,
    ReasoningDelta,
    ResponseStart,
    Terminal,
    TextDelta,
    ToolCall,
    Unknown,
    Usage,
)
from ssescope.framing.ndjson import NDJSONParser
from ssescope.framing.records import JSONRecord, SSEComment, SSEEvent
from ssescope.framing.sse import SSEParser
from ssescope.providers.ollama import OllamaAdapter, finish_status, map_finish_reason

FIXTURES = Path(__file__).parents[1] / "fixtures" / "ollama"

MODEL = "qwen3:8b"
METRICS: dict[str, Any] = {
    "total_duration": 5191566416,
    "load_duration": 2154458,
    "prompt_eval_count": 26,
    "prompt_eval_duration": 383809000,
    "eval_count": 298,
    "eval_duration": 4799921000,
}
USAGE = {
    "input_tokens": 26,
    "output_tokens": 298,
    "total_tokens": None,
    "reasoning_tokens": None,
    "cached_input_tokens": None,
}


def run(data: bytes, framing: str) -> list[Any]:
    parser = SSEParser() if framing == "sse" else NDJSONParser()
    got = parser.feed(data) + parser.close()
    assert all(isinstance(r, (SSEEvent, JSONRecord, SSEComment, Diagnostic)) for r in got)
    adapter = OllamaAdapter(framing)
    out: list[Any] = []
    for record in got:
        if isinstance(record, (SSEEvent, JSONRecord)):
            out += adapter.feed(record)
    out += adapter.close()
    return out


def run_fixture(name: str) -> list[Any]:
    path = FIXTURES / name
    return run(path.read_bytes(), framing_of(path.name))


def lines(*objs: object) -> bytes:
    return b"".join(json.dumps(o).encode() + b"\n" for o in objs)


def events(out: list[Any]) -> list[Any]:
    return [e for e in out if not isinstance(e, Diagnostic)]


def codes(out: list[Any]) -> list[str]:
    return [d.code for d in out if isinstance(d, Diagnostic)]


def of_type(out: list[Any], cls: type) -> list[Any]:
    return [e for e in out if isinstance(e, cls)]


# -- the fixtures -------------------------------------------------------------------------


def test_chat_thinking_then_content_then_done_stop_is_completed_with_usage() -> None:
    out = run_fixture("chat-thinking-stop.ndjson")
    assert codes(out) == []
    assert out == [
        ResponseStart(0, None, MODEL),
        ReasoningDelta(0, 0, "The user wants"),
        ReasoningDelta(1, 0, " a greeting."),
        TextDelta(2, 0, "Hello"),
        TextDelta(3, 0, " there!"),
        Usage(4, USAGE, METRICS, "done line metrics"),
        Finish(4, 0, "stop", "stop"),
        Terminal(4, "completed", "done (stop)"),
    ]


def test_whole_tool_calls_become_tool_calls_with_compact_arguments_and_own_indexes() -> None:
    out = run_fixture("chat-tool-calls.ndjson")
    assert codes(out) == []
    assert of_type(out, ToolCall) == [
        ToolCall(1, 0, 0, "call_k2d8", "get_temperature", '{"city":"New York"}'),
        ToolCall(2, 0, 1, None, "get_temperature", '{"city":"London"}'),
        ToolCall(2, 0, 2, None, "get_time", "{}"),
    ]
    assert of_type(out, Terminal) == [Terminal(3, "completed", "done (stop)")]


def test_generate_lines_give_text_and_a_length_done_is_incomplete() -> None:
    out = run_fixture("generate-length.ndjson")
    assert codes(out) == []
    assert feed_fixture("ollama", "generate-length.ndjson").output["text"] == "That's a fantastic"
    assert events(out)[-3:] == [
        Usage(2, USAGE, METRICS, "done line metrics"),
        Finish(2, 0, "length", "length"),
        Terminal(2, "incomplete", "done (length)"),
    ]


def test_an_error_line_mid_stream_fails_the_response_and_keeps_the_text() -> None:
    out = run_fixture("generate-error.ndjson")
    assert codes(out) == ["provider.error"]
    assert feed_fixture("ollama", "generate-error.ndjson").output["text"] == " Yes."
    message = "an error was encountered while running the model"
    assert events(out)[-2:] == [
        ProviderError(2, None, message, None, message),
        Terminal(2, "failed", "error line"),
    ]


def test_a_stream_without_done_has_no_terminal_and_is_diagnosed_at_close() -> None:
    out = run_fixture("generate-truncated.ndjson")
    assert of_type(out, Terminal) == []
    (problem,) = [d for d in out if isinstance(d, Diagnostic)]
    assert (problem.code, problem.severity, problem.record) == ("ollama.missing-done", "warning", 1)


def test_an_empty_done_reason_means_the_runner_connection_closed() -> None:
    out = run_fixture("connection-closed.ndjson")
    assert codes(out) == ["ollama.connection-closed"]
    assert of_type(out, Finish) == [Finish(1, 0, "other", "")]
    assert of_type(out, Terminal) == [Terminal(1, "incomplete", "done (connection closed)")]


def test_a_model_load_reply_is_completed_with_reason_other_and_a_note() -> None:
    out = run_fixture("load.ndjson")
    assert codes(out) == ["ollama.model-management"]
    assert events(out) == [
        ResponseStart(0, None, MODEL),
        Finish(0, 0, "other", "load"),
        Terminal(0, "completed", "done (load)"),
    ]


def test_the_same_lines_in_sse_are_read_the_same_way() -> None:
    out = run_fixture("chat-stop.sse")
    assert codes(out) == []
    assert feed_fixture("ollama", "chat-stop.sse").output["text"] == "Hi!"
    assert of_type(out, Terminal) == [Terminal(1, "completed", "done (stop)")]
    tolerated = run((FIXTURES / "chat-stop.sse").read_bytes() + b"data: [DONE]\n\n", "sse")
    assert tolerated == out


def test_a_line_after_done_starts_a_new_response() -> None:
    out = run_fixture("after-done.ndjson")
    assert [type(e) for e in events(out)] == [
        ResponseStart,
        TextDelta,
        Usage,
        Finish,
        Terminal,
        ResponseStart,
        TextDelta,
        Usage,
        Finish,
        Terminal,
    ]


def test_an_error_line_after_done_belongs_to_the_finished_response() -> None:
    out = run(
        lines({"response": "a", "done": True, "done_reason": "stop"}, {"error": "late"}), "ndjson"
    )
    assert [type(e) for e in events(out)] == [
        ResponseStart,
        TextDelta,
        Finish,
        Terminal,
        ProviderError,
        Terminal,
    ]


def test_done_without_done_reason_is_completed_with_a_note() -> None:
    out = run(lines({"model": MODEL, "response": "ok", "done": True}), "ndjson")
    assert codes(out) == ["ollama.missing-done-reason"]
    assert of_type(out, Finish) == []
    assert of_type(out, Terminal) == [Terminal(0, "completed", "done")]


def test_string_arguments_from_a_proxy_are_kept_as_sent() -> None:
    call = {"function": {"name": "f", "arguments": '{"a": 1}'}}
    out = run(
        lines({"message": {"content": "", "tool_calls": [call, "bad"]}, "done": False}), "ndjson"
    )
    assert of_type(out, ToolCall) == [ToolCall(0, 0, 0, None, "f", '{"a": 1}')]
    assert codes(out) == ["ollama.invalid-tool-call", "ollama.missing-done"]


def test_an_object_error_is_read_like_an_openai_error() -> None:
    out = run(lines({"error": {"message": "model not found", "type": "not_found"}}), "ndjson")
    assert of_type(out, ProviderError) == [
        ProviderError(
            0,
            "not_found",
            "model not found",
            None,
            {"message": "model not found", "type": "not_found"},
        )
    ]


def test_a_line_of_unknown_shape_is_unknown_and_invalid_json_is_diagnosed() -> None:
    out = run(b'{"status": "pulling manifest"}\n{oops\n[1]\n', "ndjson")
    assert [(e.event_type, e.record) for e in of_type(out, Unknown)] == [("(unrecognised line)", 0)]
    assert codes(out) == ["json.invalid", "ollama.unexpected-json", "ollama.missing-done"]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("stop", ("stop", "completed")),
        ("length", ("length", "incomplete")),
        ("load", ("other", "completed")),
        ("unload", ("other", "completed")),
        ("", ("other", "incomplete")),
        ("something-new", ("other", "completed")),
    ],
)
def test_done_reasons_map_to_the_unified_reason_and_status(raw: str, expected: tuple) -> None:
    assert (map_finish_reason(raw), finish_status(raw)) == expected


# -- every fixture through the one oracle: the Report, in every chunking --------------------

# status, every diagnostic (aggregator ones too) and text of the Report of each fixture
REPORTS: dict[str, tuple[str, list[str], str]] = {
    "after-done.ndjson": ("completed", ["stream.multiple-responses"], "Two."),
    "chat-stop.sse": ("completed", [], "Hi!"),
    "chat-thinking-stop.ndjson": ("completed", [], "Hello there!"),
    "chat-tool-calls.ndjson": ("completed", [], ""),
    "connection-closed.ndjson": ("incomplete", ["ollama.connection-closed"], "Half"),
    "generate-error.ndjson": ("failed", ["provider.error"], " Yes."),
    "generate-length.ndjson": ("incomplete", [], "That's a fantastic"),
    "generate-truncated.ndjson": ("truncated", ["ollama.missing-done"], "Once upon"),
    "load.ndjson": ("completed", ["ollama.model-management", "usage.missing"], ""),
}


def test_every_fixture_has_its_report_stated() -> None:
    assert set(fixture_names("ollama")) == set(REPORTS)


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_each_fixture_gives_its_report_in_every_chunking(name: str) -> None:
    fed = feed_fixture("ollama", name, framing="auto")
    status, report_codes, text = REPORTS[name]
    assert_facts(fed, {"provider": "ollama", "framing": framing_of(name), "status": status})
    assert_facts(fed, {"codes": report_codes, "text": text})
    assert fed.event_codes == codes(run_fixture(name))


# -- robustness ---------------------------------------------------------------------------

FIXTURE_FILES = sorted(FIXTURES.iterdir())


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.name)
def test_cutting_a_fixture_at_every_record_boundary_never_raises(path: Path) -> None:
    framing = framing_of(path.name)
    parser = SSEParser() if framing == "sse" else NDJSONParser()
    got = parser.feed(path.read_bytes()) + parser.close()
    records = [r for r in got if isinstance(r, (SSEEvent, JSONRecord))]
    for cut in range(len(records) + 1):
        adapter = OllamaAdapter(framing)
        out: list[Any] = []
        for record in records[:cut]:
            out += adapter.feed(record)
        out += adapter.close()
        assert all(e.record < max(cut, 1) for e in events(out))


_KEYS = st.sampled_from(
    [
        "model",
        "message",
        "content",
        "thinking",
        "tool_calls",
        "function",
        "arguments",
        "name",
        "index",
        "id",
        "response",
        "done",
        "done_reason",
        "prompt_eval_count",
        "eval_count",
        "error",
    ]
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1, 3),
    st.sampled_from(["", "stop", "length", "load", "x"]),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_JSON, max_size=6))
def test_arbitrary_json_lines_never_raise(values: list[Any]) -> None:
    adapter = OllamaAdapter("ndjson")
    for i, value in enumerate(values):
        adapter.feed(JSONRecord(i, json.dumps(value), 0, 1))
    adapter.close()

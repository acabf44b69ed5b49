"""The Vercel AI SDK UI-message stream adapter: records in, unified events out."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.providers.oracle import assemble, assert_facts, feed_fixture, framing_of

from ssescope.diagnostics import Diagnostic
from ssescope.events import (
    Citation,
    Finish,
    ProviderError,
    ReasoningDelta,
    ResponseStart,
    ServerToolResult,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallEnd,
    Unknown,
    Usage,
)
from ssescope.framing.ndjson import NDJSONParser
from ssescope.framing.records import JSONRecord, SSEEvent
from ssescope.framing.sse import SSEParser
from ssescope.providers.registry import make_adapter
from ssescope.providers.vercel_ui import VercelUIAdapter

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "vercel_ui"
DOC = ROOT / "docs" / "diagnostics" / "vercel-ui.md"


# -- helpers ----------------------------------------------------------------------------


def records(body: bytes, framing: str = "sse") -> list[SSEEvent | JSONRecord]:
    """The data records of a body, cut by the real framers."""
    parser = SSEParser() if framing == "sse" else NDJSONParser()
    out = parser.feed(body) + parser.close()
    return [r for r in out if isinstance(r, (SSEEvent, JSONRecord))]


def run(body: bytes | str, framing: str = "sse") -> list[Any]:
    """Everything the adapter emits for a whole body."""
    if isinstance(body, str):
        body = body.encode()
    adapter = VercelUIAdapter(framing)
    out: list[Any] = []
    for record in records(body, framing):
        out.extend(adapter.feed(record))
    out.extend(adapter.close())
    return out


def sse(*chunks: dict[str, Any], done: bool = True) -> str:
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks)
    return body + ("data: [DONE]\n\n" if done else "")


def jsonl(*chunks: dict[str, Any]) -> str:
    return "".join(json.dumps(c) + "\n" for c in chunks)


def events_of(out: list[Any]) -> list[Any]:
    return [o for o in out if not isinstance(o, Diagnostic)]


def codes(out: list[Any]) -> list[str]:
    return [o.code for o in out if isinstance(o, Diagnostic)]


def reply(out: list[Any]) -> dict[str, Any]:
    """The first response, as the real aggregator folds ``out`` (a Report dict)."""
    return assemble(out)[0]


START = {"type": "start", "messageId": "msg-1"}


# -- text and reasoning --------------------------------------------------------------------


def test_text_and_reasoning_deltas_are_keyed_by_their_part_id() -> None:
    out = run(
        sse(
            START,
            {"type": "reasoning-start", "id": "r"},
            {"type": "reasoning-delta", "id": "r", "delta": "Hm."},
            {"type": "reasoning-end", "id": "r"},
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "Hi"},
            {"type": "text-end", "id": "t"},
            done=False,
        )
    )
    assert out == [
        ResponseStart(0, "msg-1", None),
        ReasoningDelta(2, 0, "Hm.", ("reasoning", "r", 0), "text"),
        TextDelta(5, 0, "Hi", ("text", "t", 0)),
    ]


def test_a_reused_part_id_opens_a_new_part_so_the_text_keeps_its_order() -> None:
    out = run(
        sse(
            {"type": "text-start", "id": "txt-0"},
            {"type": "text-delta", "id": "txt-0", "delta": "A"},
            {"type": "text-end", "id": "txt-0"},
            {"type": "text-start", "id": "txt-1"},
            {"type": "text-delta", "id": "txt-1", "delta": "B"},
            {"type": "text-start", "id": "txt-0"},
            {"type": "text-delta", "id": "txt-0", "delta": "C"},
            done=False,
        )
    )
    assert [e.part for e in out] == [
        ("text", "txt-0", 0),
        ("text", "txt-1", 0),
        ("text", "txt-0", 1),
    ]
    assert reply(out)["outputs"][0]["text"] == "ABC"


def test_a_delta_for_a_part_that_never_started_is_kept_and_diagnosed() -> None:
    out = run(sse({"type": "text-delta", "id": "x", "delta": "orphan"}, done=False))
    assert codes(out) == ["vercel-ui.part-not-started"]
    assert events_of(out) == [TextDelta(0, 0, "orphan", ("text", "x", 0))]


def test_a_delta_that_is_not_a_string_is_diagnosed_and_skipped() -> None:
    out = run(sse({"type": "text-start", "id": "t"}, {"type": "text-delta", "id": "t", "delta": 3}))
    assert codes(out)[0] == "vercel-ui.invalid-field"


# -- tools ---------------------------------------------------------------------------------


def test_a_streamed_tool_call_is_named_at_its_start_and_ended_by_its_available_input() -> None:
    out = run(
        sse(
            {"type": "tool-input-start", "toolCallId": "c1", "toolName": "weather"},
            {"type": "tool-input-delta", "toolCallId": "c1", "inputTextDelta": '{"city":'},
            {"type": "tool-input-delta", "toolCallId": "c1", "inputTextDelta": '"Oslo"}'},
            {
                "type": "tool-input-available",
                "toolCallId": "c1",
                "toolName": "weather",
                "input": {"city": "Oslo"},
            },
            {"type": "tool-output-available", "toolCallId": "c1", "output": {"tempC": 3}},
            done=False,
        )
    )
    assert out == [
        ToolCallDelta(0, 0, id="c1", name="weather"),
        ToolCallDelta(1, 0, id="c1", arguments='{"city":'),
        ToolCallDelta(2, 0, id="c1", arguments='"Oslo"}'),
        ToolCallEnd(3, 0, id="c1", arguments='{"city":"Oslo"}', name="weather"),
        ServerToolResult(4, 0, "c1", "tool-output-available", {"tempC": 3}),
    ]


def test_available_input_without_a_start_is_a_whole_call() -> None:
    chunk = {
        "type": "tool-input-available",
        "toolCallId": "c2",
        "toolName": "f",
        "input": {"a": [1, "é"]},
    }
    assert run(sse(chunk, done=False)) == [
        ToolCall(0, 0, id="c2", name="f", arguments='{"a":[1,"é"]}')
    ]


def test_provider_executed_calls_are_server_calls_in_every_fragment() -> None:
    out = run(
        sse(
            {
                "type": "tool-input-start",
                "toolCallId": "s",
                "toolName": "web_search",
                "providerExecuted": True,
            },
            {"type": "tool-input-delta", "toolCallId": "s", "inputTextDelta": "{}"},
            done=False,
        )
    )
    assert [e.kind for e in out] == ["server", "server"]
    whole = {
        "type": "tool-input-available",
        "toolCallId": "w",
        "toolName": "x",
        "input": {},
        "providerExecuted": True,
    }
    assert run(sse(whole, done=False))[0].kind == "server"


def test_an_input_error_ends_the_call_with_the_input_as_sent_and_is_diagnosed() -> None:
    out = run(
        sse(
            {"type": "tool-input-start", "toolCallId": "c3", "toolName": "math"},
            {"type": "tool-input-delta", "toolCallId": "c3", "inputTextDelta": '{"x":'},
            {
                "type": "tool-input-error",
                "toolCallId": "c3",
                "toolName": "math",
                "input": '{"x":',
                "errorText": "bad JSON",
            },
            done=False,
        )
    )
    assert codes(out) == ["vercel-ui.tool-input-error"]
    assert events_of(out)[-1] == ToolCallEnd(2, 0, id="c3", arguments='{"x":', name="math")
    assert "'bad JSON'" in out[2].message


def test_tool_outputs_errors_denials_and_preliminary_results_are_tool_results() -> None:
    out = run(
        sse(
            {"type": "tool-output-available", "toolCallId": "c", "output": 1, "preliminary": True},
            {"type": "tool-output-error", "toolCallId": "c", "errorText": "Timed out"},
            {"type": "tool-output-denied", "toolCallId": "d"},
            done=False,
        )
    )
    assert events_of(out) == [
        ServerToolResult(0, 0, "c", "tool-output-preliminary", 1),
        ServerToolResult(1, 0, "c", "tool-output-error", "Timed out"),
        ServerToolResult(2, 0, "d", "tool-output-denied", None),
    ]
    assert codes(out) == ["vercel-ui.tool-output-error"]


def test_a_tool_delta_without_a_start_is_kept_and_diagnosed() -> None:
    out = run(
        sse({"type": "tool-input-delta", "toolCallId": "g", "inputTextDelta": "{}"}, done=False)
    )
    assert codes(out) == ["vercel-ui.part-not-started"]
    assert events_of(out) == [ToolCallDelta(0, 0, id="g", arguments="{}")]


@pytest.mark.parametrize(
    "chunk",
    [
        {"type": "tool-input-start", "toolName": "f"},
        {"type": "tool-input-delta", "toolCallId": 1, "inputTextDelta": "x"},
        {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": None},
        {"type": "tool-input-available", "input": {}},
    ],
)
def test_tool_chunks_with_ill_typed_ids_or_deltas_are_diagnosed(chunk: dict[str, Any]) -> None:
    out = run(sse(chunk, done=False))
    assert codes(out) == ["vercel-ui.invalid-field"]
    assert events_of(out) == []


# -- sources, data and other known chunks ----------------------------------------------------


def test_sources_are_citations_kept_as_sent() -> None:
    url: dict[str, Any] = {
        "type": "source-url",
        "sourceId": "s1",
        "url": "https://e.x",
        "title": "E",
    }
    doc: dict[str, Any] = {
        "type": "source-document",
        "sourceId": "s2",
        "mediaType": "application/pdf",
        "title": "R",
    }
    assert run(sse(url, doc, done=False)) == [Citation(0, 0, url), Citation(1, 0, doc)]


def test_steps_data_files_and_approvals_are_known_and_emit_nothing() -> None:
    quiet: list[dict[str, Any]] = [
        {"type": "start-step"},
        {"type": "finish-step"},
        {"type": "text-end", "id": "t"},
        {"type": "reasoning-end", "id": "r"},
        {"type": "data-weather", "id": "w", "data": {"t": 1}},
        {"type": "data-notice", "data": "x", "transient": True},
        {"type": "file", "url": "data:,x", "mediaType": "text/plain"},
        {"type": "reasoning-file", "url": "data:,x", "mediaType": "text/plain"},
        {"type": "custom", "kind": "app.progress"},
        {"type": "tool-approval-request", "approvalId": "a", "toolCallId": "c"},
        {"type": "tool-approval-response", "approvalId": "a", "approved": True},
        {"type": "message-metadata", "messageMetadata": {"createdAt": 1}},
    ]
    assert run(sse(*quiet, done=False)) == []


def test_an_unknown_chunk_type_is_passed_on_as_unknown() -> None:
    chunk: dict[str, Any] = {"type": "brand-new", "x": 1}
    assert run(sse(chunk, done=False)) == [Unknown(0, "brand-new", chunk)]


def test_reset_step_is_noted() -> None:
    out = run(sse({"type": "reset-step"}, done=False))
    assert codes(out) == ["vercel-ui.reset-step"]
    assert out[0].severity == "info"


def test_start_gives_the_message_id_and_a_model_named_in_its_metadata() -> None:
    chunk = {"type": "start", "messageId": "m", "messageMetadata": {"model": "gpt-x"}}
    assert run(sse(chunk, done=False)) == [ResponseStart(0, "m", "gpt-x")]
    assert run(sse({"type": "start"}, done=False)) == [ResponseStart(0, None, None)]


# -- errors, malformed records --------------------------------------------------------------


def test_an_error_chunk_is_a_provider_error_with_its_diagnostic() -> None:
    chunk: dict[str, Any] = {"type": "error", "errorText": "Overloaded"}
    out = run(sse(chunk, done=False))
    assert events_of(out) == [ProviderError(0, None, "Overloaded", None, chunk)]
    assert codes(out) == ["provider.error"]
    assert reply(out)["status"] == "failed"


def test_malformed_records_are_diagnosed_and_the_stream_goes_on() -> None:
    body = (
        'data: {"type":\n\n'
        'data: 0:"legacy"\n\n'
        "data: [1]\n\n"
        'data: {"delta":"x"}\n\n'
        'data: {"type":7}\n\n'
        + sse(
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "ok"},
            done=False,
        )
    )
    out = run(body)
    assert codes(out) == [
        "json.invalid",
        "vercel-ui.legacy-data-stream",
        "vercel-ui.not-an-object",
        "vercel-ui.missing-type",
        "vercel-ui.missing-type",
    ]
    assert events_of(out) == [TextDelta(6, 0, "ok", ("text", "t", 0))]


# -- finish, usage and end markers ------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "unified", "status"),
    [
        ("stop", "stop", "completed"),
        ("tool-calls", "tool_calls", "completed"),
        ("length", "length", "incomplete"),
        ("content-filter", "content_filter", "incomplete"),
        ("error", "error", "failed"),
        ("other", "other", "completed"),
        ("unknown", "other", "completed"),
    ],
)
def test_finish_reasons_map_to_unified_reasons_and_the_done_marker_to_a_status(
    raw: str, unified: str, status: str
) -> None:
    out = run(sse({"type": "finish", "finishReason": raw}))
    assert out == [
        Finish(0, 0, unified, raw),  # type: ignore[arg-type]
        Terminal(1, status, f"[DONE] (finish reason {raw})"),  # type: ignore[arg-type]
    ]


def test_a_finish_without_reason_is_completed_at_the_done_marker() -> None:
    assert run(sse({"type": "finish"})) == [Terminal(1, "completed", "[DONE]")]


def test_an_undefined_finish_reason_is_other_and_diagnosed() -> None:
    out = run(sse({"type": "finish", "finishReason": "sleepy"}))
    assert codes(out) == ["vercel-ui.unknown-finish-reason"]
    assert Finish(0, 0, "other", "sleepy") in out


def test_a_finish_reason_that_is_not_a_string_is_diagnosed() -> None:
    out = run(sse({"type": "finish", "finishReason": 3}))
    assert codes(out) == ["vercel-ui.invalid-field"]
    assert events_of(out) == [Terminal(1, "completed", "[DONE]")]


def test_without_sse_framing_the_finish_chunk_is_the_end_marker() -> None:
    out = run(jsonl({"type": "finish", "finishReason": "length"}), "ndjson")
    assert out == [
        Finish(0, 0, "length", "length"),
        Terminal(0, "incomplete", "finish (finish reason length)"),
    ]


def test_on_the_sse_wire_a_finish_without_done_marker_is_diagnosed_at_close() -> None:
    out = run(sse({"type": "finish", "finishReason": "stop"}, done=False))
    assert events_of(out) == [Finish(0, 0, "stop", "stop")]
    assert codes(out) == ["stream.missing-done"]
    assert out[-1].record == 0
    assert reply(out)["status"] == "truncated"


def test_a_done_marker_without_finish_is_diagnosed_and_ends_nothing() -> None:
    out = run(
        sse({"type": "text-start", "id": "t"}, {"type": "text-delta", "id": "t", "delta": "x"})
    )
    assert codes(out) == ["stream.done-without-finish"]
    assert not [e for e in out if isinstance(e, Terminal)]


def test_abort_ends_the_response_as_cancelled_and_the_done_marker_adds_nothing() -> None:
    out = run(sse({"type": "abort", "reason": "user"}, {"type": "finish"}))
    assert events_of(out) == [Terminal(0, "cancelled", "abort (user)")]
    assert codes(out) == []
    assert run(sse({"type": "abort"}, done=False)) == [Terminal(0, "cancelled", "abort")]


def test_chunks_after_the_done_marker_are_still_mapped() -> None:
    out = run(
        sse({"type": "finish"})
        + sse({"type": "text-delta", "id": "t", "delta": "late"}, done=False)
    )
    assert isinstance(out[0], Terminal)
    assert TextDelta(2, 0, "late", ("text", "t", 0)) in out


USAGE_V5 = {
    "inputTokens": 10,
    "outputTokens": 7,
    "totalTokens": 17,
    "reasoningTokens": 3,
    "cachedInputTokens": 2,
}
USAGE_V6 = {
    "inputTokens": {"total": 10, "noCache": 8, "cacheRead": 2},
    "outputTokens": {"total": 7, "text": 4, "reasoning": 3},
    "totalTokens": 17,
}
USAGE_V6_DETAILS = {
    "inputTokens": 10,
    "outputTokens": 7,
    "totalTokens": 17,
    "inputTokenDetails": {"cacheReadTokens": 2},
    "outputTokenDetails": {"reasoningTokens": 3},
}
NORMALISED: dict[str, Any] = {
    "input_tokens": 10,
    "output_tokens": 7,
    "total_tokens": 17,
    "reasoning_tokens": 3,
    "cached_input_tokens": 2,
}


@pytest.mark.parametrize(
    "usage", [USAGE_V5, USAGE_V6, USAGE_V6_DETAILS], ids=["v5", "v6", "v6-details"]
)
@pytest.mark.parametrize(
    ("chunk_of", "source"),
    [
        (
            lambda u: {"type": "finish", "messageMetadata": {"usage": u}},
            "finish.messageMetadata.usage",
        ),
        (
            lambda u: {"type": "finish", "messageMetadata": {"totalUsage": u}},
            "finish.messageMetadata.totalUsage",
        ),
        (lambda u: {"type": "finish", "usage": u}, "finish.usage"),
        (
            lambda u: {"type": "message-metadata", "messageMetadata": {"usage": u}},
            "messageMetadata.usage",
        ),
        (lambda u: {"type": "start", "messageMetadata": u}, "start.messageMetadata"),
    ],
    ids=["finish-metadata", "finish-total-usage", "finish", "message-metadata", "start-flat"],
)
def test_usage_is_read_from_metadata_in_every_sdk_shape(
    usage: dict[str, Any], chunk_of: Any, source: str
) -> None:
    out = run(sse(chunk_of(usage), done=False))
    usages = [e for e in out if isinstance(e, Usage)]
    assert usages == [Usage(0, NORMALISED, usage, source)]


def test_metadata_without_token_counts_gives_no_usage() -> None:
    out = run(
        sse({"type": "finish", "messageMetadata": {"usage": {"inputTokens": "many"}, "x": 1}})
    )
    assert not [e for e in out if isinstance(e, Usage)]


def test_close_reports_nothing_for_a_cut_stream() -> None:
    adapter = VercelUIAdapter("sse")
    for record in records(sse(START, {"type": "text-start", "id": "t"}, done=False).encode()):
        adapter.feed(record)
    assert adapter.close() == []


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=6,
)
CHUNK_TYPES = st.sampled_from(
    [
        "start",
        "text-start",
        "text-delta",
        "reasoning-delta",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-available",
        "tool-input-error",
        "tool-output-available",
        "tool-output-error",
        "message-metadata",
        "finish",
        "error",
        "abort",
    ]
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "id": JSON_VALUES,
        "delta": JSON_VALUES,
        "toolCallId": JSON_VALUES,
        "toolName": JSON_VALUES,
        "inputTextDelta": JSON_VALUES,
        "input": JSON_VALUES,
        "output": JSON_VALUES,
        "errorText": JSON_VALUES,
        "finishReason": JSON_VALUES,
        "messageMetadata": JSON_VALUES,
        "usage": JSON_VALUES,
        "reason": JSON_VALUES,
    },
)


# Drawing the shaped chunks is nearly all of the cost: each draw is read in both framings.
@settings(max_examples=75, deadline=None)
@given(st.lists(st.tuples(CHUNK_TYPES, FIELDS), max_size=8))
def test_any_sequence_of_shaped_chunks_never_raises(
    chunks: list[tuple[str, dict[str, Any]]],
) -> None:
    run(sse(*({"type": t, **f} for t, f in chunks)))
    run(jsonl(*({"type": t, **f} for t, f in chunks)), "ndjson")


# -- fixtures ----------------------------------------------------------------------------

FIXTURE_FACTS: dict[str, dict[str, Any]] = {
    "text-reasoning.sse": {
        "text": "Hello, world.",
        "reasoning": "Think first.",
        "status": "completed",
        "finish_reason": "stop",
    },
    "tools-multistep.sse": {
        "text": "Checking. Cold: 3 °C.",
        "status": "completed",
        "tool_calls": {
            "call-1": {"name": "weather", "arguments": '{"city":"Oslo"}', "complete": True}
        },
    },
    "server-tools-and-errors.sse": {"status": "failed", "finish_reason": "error"},
    "abort.sse": {"text": "Partial", "status": "cancelled", "finish_reason": None},
    "length.jsonl": {"text": "A long", "status": "incomplete", "finish_reason": "length"},
    "content-filter.jsonl": {
        "text": "I",
        "status": "incomplete",
        "finish_reason": "content_filter",
    },
    "missing-done.sse": {"text": "Done?", "status": "truncated", "finish_reason": "stop"},
    "done-without-finish.sse": {"text": "Cut", "status": "truncated"},
    "v5-finish-without-reason.sse": {
        "text": "Hilate",
        "status": "completed",
        "finish_reason": None,
    },
    "truncated.sse": {
        "status": "truncated",
        "tool_calls": {"call-t": {"name": "search", "arguments": '{"q":"ss', "complete": False}},
    },
    "malformed.sse": {
        "text": "orphan",
        "reasoning": "hm",
        "status": "completed",
        "finish_reason": "other",
    },
}

FIXTURE_CODES: dict[str, list[str]] = {
    "server-tools-and-errors.sse": [
        "vercel-ui.tool-input-error",
        "vercel-ui.tool-output-error",
        "provider.error",
    ],
    "missing-done.sse": ["stream.missing-done"],
    "done-without-finish.sse": ["stream.done-without-finish"],
    "malformed.sse": [
        "json.invalid",
        "vercel-ui.legacy-data-stream",
        "vercel-ui.not-an-object",
        "vercel-ui.missing-type",
        "vercel-ui.part-not-started",
        "vercel-ui.invalid-field",
        "vercel-ui.part-not-started",
        "vercel-ui.part-not-started",
        "vercel-ui.reset-step",
        "vercel-ui.unknown-finish-reason",
    ],
}


def fixture_body(name: str) -> tuple[bytes, str]:
    path = FIXTURES / name
    return path.read_bytes(), ("sse" if path.suffix == ".sse" else "ndjson")


def test_every_fixture_has_its_facts_listed() -> None:
    assert sorted(p.name for p in FIXTURES.iterdir()) == sorted(FIXTURE_FACTS)


@pytest.mark.parametrize("name", sorted(FIXTURE_FACTS))
def test_fixture_gives_its_facts_and_only_its_diagnostics_in_every_chunking(name: str) -> None:
    body, framing = fixture_body(name)
    out = run(body, framing)
    assert codes(out) == FIXTURE_CODES.get(name, [])
    unknown = [e.event_type for e in out if isinstance(e, Unknown)]
    assert unknown == (["brand-new-chunk"] if name == "malformed.sse" else [])
    fed = feed_fixture("vercel_ui", name, framing="auto")
    want = dict(FIXTURE_FACTS[name])
    stated_calls = want.pop("tool_calls", {})
    assert_facts(fed, {"provider": "vercel-ui", "framing": framing_of(name), **want})
    calls = {c["id"]: c for c in fed.output["tool_calls"]}
    for call_id, call in stated_calls.items():
        assert {k: calls[call_id][k] for k in call} == call
    for code in FIXTURE_CODES.get(name, []):
        assert code in fed.codes


def test_the_multistep_fixture_gives_citations_usage_and_the_tool_result() -> None:
    out = run(*fixture_body("tools-multistep.sse"))
    assert len([e for e in out if isinstance(e, Citation)]) == 2
    assert [e.values["cached_input_tokens"] for e in out if isinstance(e, Usage)] == [10]
    assert [e.content for e in out if isinstance(e, ServerToolResult)] == [{"tempC": 3}]


def test_the_server_tools_fixture_keeps_every_call_and_result() -> None:
    out = run(*fixture_body("server-tools-and-errors.sse"))
    calls = feed_fixture("vercel_ui", "server-tools-and-errors.sse").output["tool_calls"]
    assert sorted(call["id"] for call in calls) == ["call-2", "call-3", "call-4", "ws-1"]
    assert all(call["complete"] for call in calls)
    results = [(e.tool_use_id, e.result_type) for e in out if isinstance(e, ServerToolResult)]
    assert results == [
        ("ws-1", "tool-output-available"),
        ("call-2", "tool-output-denied"),
        ("call-4", "tool-output-preliminary"),
        ("call-4", "tool-output-error"),
    ]


@pytest.mark.parametrize("name", sorted(FIXTURE_FACTS))
def test_cutting_a_fixture_at_every_record_boundary_never_raises(name: str) -> None:
    body, framing = fixture_body(name)
    all_records = records(body, framing)
    for cut in range(len(all_records) + 1):
        adapter = VercelUIAdapter(framing)
        for record in all_records[:cut]:
            adapter.feed(record)
        adapter.close()


def test_the_registry_builds_this_adapter() -> None:
    adapter = make_adapter("vercel-ui", "sse")
    assert isinstance(adapter, VercelUIAdapter)
    assert adapter.name == "vercel-ui"


def test_every_diagnostic_code_of_the_module_is_documented() -> None:
    text = "".join(
        p.read_text()
        for p in sorted((ROOT / "src" / "ssescope" / "providers" / "vercel_ui").glob("*.py"))
    )
    emitted = set(re.findall(r'"((?:vercel-ui|provider|stream)\.[a-z-]+)"', text))
    pages = "".join(p.read_text() for p in (ROOT / "docs" / "diagnostics").glob("*.md"))
    documented = set(re.findall(r"^### `([^`]+)`", pages, re.MULTILINE))
    assert emitted
    assert emitted <= documented


# -- end to end (framer + adapter + aggregator) ---------------------------------------------


def test_a_v5_message_inspected_end_to_end_has_its_text_usage_and_status() -> None:
    import ssescope

    body = sse(
        START,
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "Hi"},
        {"type": "text-end", "id": "t"},
        {"type": "finish", "messageMetadata": {"totalUsage": USAGE_V5}},
    ).encode()
    report = ssescope.inspect(body, provider="vercel-ui").to_dict()
    assert (report["status"], report["id"], report["outputs"][0]["text"]) == (
        "completed",
        "msg-1",
        "Hi",
    )
    assert {k: report["usage"][k] for k in NORMALISED} == NORMALISED

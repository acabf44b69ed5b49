"""The OpenAI Responses adapter: records in, unified events and diagnostics out."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.providers.oracle import (
    REAL,
    assemble,
    assert_facts,
    expected_problems,
    feed,
    feed_fixture,
    framing_of,
    real_expected,
)

from ssescope.codes.spec import declared
from ssescope.diagnostics import Diagnostic
from ssescope.events import (
    Audio,
    Citation,
    Finish,
    ProviderError,
    ReasoningDelta,
    ReasoningMeta,
    RefusalDelta,
    ResponseStart,
    ServerToolResult,
    Snapshot,
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
from ssescope.providers.openai_responses import OpenAIResponsesAdapter
from ssescope.providers.openai_responses import codes as responses_codes
from ssescope.providers.registry import make_adapter

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "openai_responses"
DOC = ROOT / "docs" / "diagnostics" / "openai-responses.md"


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
    adapter = OpenAIResponsesAdapter(framing)
    out: list[Any] = []
    for record in records(body, framing):
        out.extend(adapter.feed(record))
    out.extend(adapter.close())
    return out


def sse(*events: dict[str, Any], named: bool = True) -> str:
    """An SSE body, one event per JSON object (with its ``event:`` line unless told)."""
    parts = []
    for event in events:
        line = f"data: {json.dumps(event)}\n\n"
        parts.append(f"event: {event['type']}\n{line}" if named else line)
    return "".join(parts)


def events_of(out: list[Any]) -> list[Any]:
    return [o for o in out if not isinstance(o, Diagnostic)]


def codes(out: list[Any]) -> list[str]:
    return [o.code for o in out if isinstance(o, Diagnostic)]


def fixture_body(name: str) -> tuple[bytes, str]:
    path = FIXTURES / name
    return path.read_bytes(), ("sse" if path.suffix == ".sse" else "ndjson")


def text_of(out: list[Any]) -> str:
    """The text of the first response's first output, as the real aggregator folds ``out``."""
    text: str = assemble(out)[0]["outputs"][0]["text"]
    return text


CREATED = {"type": "response.created", "response": {"id": "resp_1", "model": "m", "output": []}}


def completed(output: list[Any] | None = None, **response: Any) -> dict[str, Any]:
    body = {"id": "resp_1", "status": "completed", "output": output or [], **response}
    return {"type": "response.completed", "response": body}


def delta(text: str, item: str = "msg_1", ci: int = 0) -> dict[str, Any]:
    return {
        "type": "response.output_text.delta",
        "item_id": item,
        "output_index": 0,
        "content_index": ci,
        "delta": text,
    }


# -- text, framing and event names -----------------------------------------------------


def test_text_deltas_are_text_of_their_item_and_content_part() -> None:
    out = run(sse(CREATED, delta("Hel"), delta("lo"), delta("!", ci=1)))
    assert out == [
        ResponseStart(0, "resp_1", "m"),
        TextDelta(1, 0, "Hel", (0, 0)),
        TextDelta(2, 0, "lo", (0, 0)),
        TextDelta(3, 0, "!", (0, 1)),
    ]


def test_the_event_line_is_optional_and_gives_the_same_events() -> None:
    body = [CREATED, delta("a"), completed([{"id": "msg_1", "type": "message", "content": []}])]
    plain, named = run(sse(*body, named=False)), run(sse(*body))
    assert events_of(plain) == events_of(named)
    assert codes(plain) == codes(named) == []


def test_an_event_name_that_differs_from_the_json_type_is_reported_and_the_type_wins() -> None:
    body = "event: response.text.delta\ndata: " + json.dumps(delta("x")) + "\n\n"
    out = run(body)
    assert codes(out) == ["openai-responses.event-name-mismatch"]
    assert events_of(out) == [TextDelta(0, 0, "x", (0, 0))]
    diagnostic = out[0]
    assert diagnostic.severity == "warning"
    assert "'response.text.delta'" in diagnostic.message
    assert diagnostic.record == 0
    assert diagnostic.offset == 0


def test_a_record_without_type_uses_its_event_name_or_is_skipped() -> None:
    named = 'event: response.output_text.delta\ndata: {"item_id":"m","delta":"x"}\n\n'
    out = run(named)
    assert codes(out) == ["openai-responses.missing-type"]
    assert events_of(out) == [TextDelta(0, 0, "x", ("m", None))]
    unnamed = run('data: {"delta":"x"}\n\n')
    assert codes(unnamed) == ["openai-responses.missing-type"]
    assert unnamed[0].severity == "warning"
    assert unnamed[0].form == "skipped"
    assert events_of(unnamed) == []


def test_invalid_json_and_non_object_records_are_diagnosed_and_the_stream_goes_on() -> None:
    out = run('data: {"type":\n\ndata: [1]\n\n' + sse(delta("ok")))
    assert codes(out) == ["json.invalid", "openai-responses.not-an-object"]
    assert events_of(out) == [TextDelta(2, 0, "ok", (0, 0))]


def test_a_done_marker_added_by_a_proxy_is_noted_and_ignored() -> None:
    out = run(sse(CREATED, completed()) + "data: [DONE]\n\n")
    assert codes(out) == ["openai-responses.done-marker"]
    assert out[-1].severity == "info"
    assert [type(e) for e in events_of(out)] == [ResponseStart, Finish, Terminal]


def test_an_unknown_event_type_is_passed_on_as_unknown() -> None:
    event: dict[str, Any] = {"type": "response.new_thing.delta", "delta": "?"}
    assert run(sse(event)) == [Unknown(0, "response.new_thing.delta", event)]


def test_content_part_added_and_status_events_are_known_and_emit_nothing() -> None:
    quiet: list[dict[str, Any]] = [
        {"type": "response.queued", "response": {"status": "queued"}},
        {"type": "response.content_part.added", "item_id": "m", "content_index": 0, "part": {}},
        {"type": "response.reasoning_summary_part.added", "item_id": "r", "summary_index": 0},
        {"type": "response.web_search_call.searching", "item_id": "ws", "output_index": 1},
        {"type": "response.code_interpreter_call.interpreting", "item_id": "c"},
        {"type": "response.image_generation_call.partial_image", "partial_image_b64": "x"},
        {"type": "response.mcp_list_tools.failed", "item_id": "l"},
        {"type": "response.shell_call_command.delta", "delta": "ls"},
        {"type": "response.apply_patch_call_operation_diff.done", "diff": ""},
        {"type": "response.audio.done"},
    ]
    out = run(sse(*quiet))
    assert out == []


# -- reasoning ---------------------------------------------------------------------------


def test_reasoning_summary_deltas_are_keyed_by_summary_index_and_snapshotted_once() -> None:
    def ev(kind: str, si: int, **kw: Any) -> dict[str, Any]:
        return {"type": kind, "item_id": "rs_1", "output_index": 0, "summary_index": si, **kw}

    out = run(
        sse(
            ev("response.reasoning_summary_text.delta", 0, delta="A"),
            ev("response.reasoning_summary_text.delta", 1, delta="B"),
            ev("response.reasoning_summary_text.done", 0, text="A"),
            ev(
                "response.reasoning_summary_part.done",
                0,
                part={"type": "summary_text", "text": "A"},
            ),
            ev(
                "response.reasoning_summary_part.done",
                1,
                part={"type": "summary_text", "text": "B"},
            ),
        )
    )
    assert out == [
        ReasoningDelta(0, 0, "A", (0, "summary", 0), "summary"),
        ReasoningDelta(1, 0, "B", (0, "summary", 1), "summary"),
        Snapshot(2, 0, "reasoning", "A", (0, "summary", 0)),
        Snapshot(4, 0, "reasoning", "B", (0, "summary", 1)),
    ]


def test_raw_reasoning_text_is_keyed_by_content_index_apart_from_the_summary() -> None:
    base = {"item_id": "rs_1", "output_index": 0, "content_index": 0}
    out = run(
        sse(
            {"type": "response.reasoning_text.delta", **base, "delta": "think"},
            {"type": "response.reasoning_text.done", **base, "text": "think"},
            {
                "type": "response.content_part.done",
                **base,
                "part": {"type": "reasoning_text", "text": "think"},
            },
        )
    )
    assert out == [
        ReasoningDelta(0, 0, "think", (0, 0), "text"),
        Snapshot(1, 0, "reasoning", "think", (0, 0)),
    ]


def test_encrypted_reasoning_is_kept_once_from_the_finished_item() -> None:
    added = {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": {"id": "rs_1", "type": "reasoning", "encrypted_content": "early"},
    }
    item = {"id": "rs_1", "type": "reasoning", "encrypted_content": "final", "summary": []}
    done = {"type": "response.output_item.done", "output_index": 0, "item": item}
    out = run(sse(CREATED, added, done, completed([item])))
    metas = [e for e in out if isinstance(e, ReasoningMeta)]
    assert metas == [ReasoningMeta(2, 0, 0, encrypted="final")]


# -- refusal, annotations, audio ------------------------------------------------------------


def test_refusal_deltas_are_refusal_and_its_done_event_a_snapshot() -> None:
    base = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    out = run(
        sse(
            {"type": "response.refusal.delta", **base, "delta": "No."},
            {"type": "response.refusal.done", **base, "refusal": "No."},
        )
    )
    assert out == [
        RefusalDelta(0, 0, "No.", (0, 0)),
        Snapshot(1, 0, "refusal", "No.", (0, 0)),
    ]


def test_annotations_become_citations_and_are_not_repeated_by_the_finished_part() -> None:
    annotation: dict[str, Any] = {
        "type": "url_citation",
        "url": "https://e.x",
        "start_index": 0,
        "end_index": 1,
    }
    base = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    part = {"type": "output_text", "text": "A", "annotations": [annotation]}
    out = run(
        sse(
            {
                "type": "response.output_text.annotation.added",
                **base,
                "annotation_index": 0,
                "annotation": annotation,
            },
            {"type": "response.content_part.done", **base, "part": part},
        )
    )
    assert out == [
        Citation(0, 0, annotation, (0, 0)),
        Snapshot(1, 0, "text", "A", (0, 0)),
    ]


def test_annotations_that_only_the_finished_part_carries_become_citations() -> None:
    annotation: dict[str, Any] = {
        "type": "file_citation",
        "file_id": "f",
        "filename": "a.pdf",
        "index": 3,
    }
    part = {"type": "output_text", "text": "A", "annotations": [annotation]}
    event = {
        "type": "response.content_part.done",
        "item_id": "msg_1",
        "content_index": 0,
        "part": part,
    }
    assert run(sse(event)) == [
        Snapshot(0, 0, "text", "A", ("msg_1", 0)),
        Citation(0, 0, annotation, ("msg_1", 0)),
    ]


def test_audio_and_transcript_deltas_are_audio_never_text() -> None:
    out = run(
        sse(
            {"type": "response.audio.delta", "item_id": "m", "delta": "UklG"},
            {"type": "response.audio.transcript.delta", "item_id": "m", "delta": "Hi"},
        )
    )
    assert out == [Audio(0, 0, data="UklG", id="m"), Audio(1, 0, transcript="Hi", id="m")]


# -- tool calls ----------------------------------------------------------------------------

FC_ADDED = {
    "type": "response.output_item.added",
    "output_index": 1,
    "item": {
        "id": "fc_1",
        "type": "function_call",
        "call_id": "call_1",
        "name": "f",
        "arguments": "",
    },
}
FC_ITEM = {
    "id": "fc_1",
    "type": "function_call",
    "call_id": "call_1",
    "name": "f",
    "arguments": '{"a":1}',
    "status": "completed",
}


def test_a_streamed_function_call_is_named_by_call_id_and_indexed_by_output_index() -> None:
    base = {"item_id": "fc_1", "output_index": 1}
    out = run(
        sse(
            FC_ADDED,
            {"type": "response.function_call_arguments.delta", **base, "delta": '{"a":'},
            {"type": "response.function_call_arguments.delta", **base, "delta": "1}"},
            {"type": "response.function_call_arguments.done", **base, "arguments": '{"a":1}'},
            {"type": "response.output_item.done", "output_index": 1, "item": FC_ITEM},
        )
    )
    assert out == [
        ToolCallDelta(0, 0, index=1, id="call_1", name="f", call_type="function"),
        ToolCallDelta(1, 0, index=1, arguments='{"a":'),
        ToolCallDelta(2, 0, index=1, arguments="1}"),
        ToolCallEnd(3, 0, index=1, arguments='{"a":1}'),
    ]


def test_arguments_sent_only_in_the_done_event_end_the_call_with_them() -> None:
    done = {
        "type": "response.function_call_arguments.done",
        "item_id": "fc_1",
        "output_index": 1,
        "arguments": '{"a":1}',
    }
    out = run(sse(FC_ADDED, done))
    assert out[-1] == ToolCallEnd(1, 0, index=1, arguments='{"a":1}')


def test_arguments_sent_only_in_the_finished_item_end_the_call_with_them() -> None:
    out = run(
        sse(FC_ADDED, {"type": "response.output_item.done", "output_index": 1, "item": FC_ITEM})
    )
    assert out[-1] == ToolCallEnd(1, 0, index=1, arguments='{"a":1}')


def test_a_finished_call_item_that_was_never_announced_is_a_whole_call() -> None:
    out = run(sse({"type": "response.output_item.done", "output_index": 1, "item": FC_ITEM}))
    assert out == [ToolCall(0, 0, index=1, id="call_1", name="f", arguments='{"a":1}')]


def test_argument_deltas_without_an_announced_item_are_named_by_the_finished_item() -> None:
    base = {"item_id": "fc_1", "output_index": 1}
    out = run(
        sse(
            {"type": "response.function_call_arguments.delta", **base, "delta": '{"a":1}'},
            {"type": "response.output_item.done", "output_index": 1, "item": FC_ITEM},
        )
    )
    assert out == [
        ToolCallDelta(0, 0, index=1, arguments='{"a":1}'),
        ToolCallDelta(1, 0, index=1, id="call_1", name="f", call_type="function"),
        ToolCallEnd(1, 0, index=1, arguments='{"a":1}'),
    ]


def test_an_item_without_call_id_is_named_by_its_item_id() -> None:
    item = {"id": "fc_9", "type": "function_call", "name": "f", "arguments": ""}
    out = run(sse({"type": "response.output_item.added", "output_index": 0, "item": item}))
    assert out == [ToolCallDelta(0, 0, index=0, id="fc_9", name="f", call_type="function")]


def test_a_custom_tool_call_is_freeform_text() -> None:
    item = {
        "id": "ctc_1",
        "type": "custom_tool_call",
        "call_id": "call_c",
        "name": "sql",
        "input": "",
    }
    base = {"item_id": "ctc_1", "output_index": 0}
    out = run(
        sse(
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {"type": "response.custom_tool_call_input.delta", **base, "delta": "SELECT 1"},
            {"type": "response.custom_tool_call_input.done", **base, "input": "SELECT 1"},
        )
    )
    assert out == [
        ToolCallDelta(
            0, 0, index=0, id="call_c", name="sql", call_type="custom", kind="custom", format="text"
        ),
        ToolCallDelta(1, 0, index=0, arguments="SELECT 1", kind="custom", format="text"),
        ToolCallEnd(2, 0, index=0, arguments="SELECT 1"),
    ]


def test_an_mcp_call_is_an_mcp_kind_call_whose_finished_item_is_a_server_result() -> None:
    item = {
        "id": "mcp_1",
        "type": "mcp_call",
        "name": "search",
        "server_label": "d",
        "arguments": "",
    }
    final: dict[str, Any] = {**item, "arguments": "{}", "output": "ok", "status": "completed"}
    base = {"item_id": "mcp_1", "output_index": 0}
    out = run(
        sse(
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {"type": "response.mcp_call_arguments.delta", **base, "delta": "{}"},
            {"type": "response.mcp_call_arguments.done", **base, "arguments": "{}"},
            {"type": "response.mcp_call.completed", **base},
            {"type": "response.output_item.done", "output_index": 0, "item": final},
        )
    )
    assert out == [
        ToolCallDelta(0, 0, index=0, id="mcp_1", name="search", call_type="mcp", kind="mcp"),
        ToolCallDelta(1, 0, index=0, arguments="{}", kind="mcp"),
        ToolCallEnd(2, 0, index=0, arguments="{}"),
        ServerToolResult(4, 0, "mcp_1", "mcp_call", final),
    ]


def test_built_in_tool_items_are_server_calls_and_results_not_client_calls() -> None:
    item: dict[str, Any] = {
        "id": "ws_1",
        "type": "web_search_call",
        "status": "completed",
        "action": {"type": "search"},
    }
    out = run(
        sse(
            CREATED,
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {"id": "ws_1", "type": "web_search_call"},
            },
            {"type": "response.web_search_call.completed", "item_id": "ws_1", "output_index": 0},
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            completed([item]),
        )
    )
    assert [e for e in out if isinstance(e, ServerToolResult)] == [
        ServerToolResult(3, 0, "ws_1", "web_search_call", item)
    ]
    # listed among the tool calls as Anthropic's server_tool_use is, tagged "server"
    assert [e for e in out if isinstance(e, (ToolCall, ToolCallDelta, ToolCallEnd))] == [
        ToolCall(3, 0, 0, "ws_1", "web_search", '{"action":{"type":"search"}}', "server")
    ]
    assert out[-2] == Finish(4, 0, "stop", "completed")


# -- lifecycle ----------------------------------------------------------------------------

USAGE: dict[str, Any] = {
    "input_tokens": 10,
    "input_tokens_details": {"cached_tokens": 2},
    "output_tokens": 5,
    "output_tokens_details": {"reasoning_tokens": 3},
    "total_tokens": 15,
}


def test_completed_gives_usage_finish_stop_and_a_completed_terminal() -> None:
    out = run(sse(CREATED, completed(usage=USAGE)))
    assert out == [
        ResponseStart(0, "resp_1", "m"),
        Usage(
            1,
            {
                "input_tokens": 10,
                "output_tokens": 5,
                "total_tokens": 15,
                "reasoning_tokens": 3,
                "cached_input_tokens": 2,
            },
            USAGE,
            "response.completed",
        ),
        Finish(1, 0, "stop", "completed"),
        Terminal(1, "completed", "response.completed"),
    ]


def test_a_completed_response_with_client_calls_finishes_with_tool_calls() -> None:
    out = run(sse(CREATED, FC_ADDED, completed([FC_ITEM])))
    assert Finish(2, 0, "tool_calls", "completed") in out


@pytest.mark.parametrize(
    ("reason", "unified"),
    [("max_output_tokens", "length"), ("content_filter", "content_filter"), ("other", "other")],
)
def test_incomplete_gives_the_reason_and_an_incomplete_terminal(reason: str, unified: str) -> None:
    event = {
        "type": "response.incomplete",
        "response": {
            "status": "incomplete",
            "incomplete_details": {"reason": reason},
            "output": [],
        },
    }
    out = run(sse(CREATED, event))
    assert out[-2:] == [
        Finish(1, 0, unified, reason),  # type: ignore[arg-type]
        Terminal(1, "incomplete", f"response.incomplete ({reason})"),
    ]


def test_failed_reports_the_error_finish_error_and_a_failed_terminal() -> None:
    error: dict[str, Any] = {"code": "server_error", "message": "Boom"}
    event = {
        "type": "response.failed",
        "response": {"status": "failed", "error": error, "output": []},
    }
    out = run(sse(CREATED, event))
    assert events_of(out)[1:] == [
        ProviderError(1, None, "Boom", "server_error", error),
        Finish(1, 0, "error", "failed"),
        Terminal(1, "failed", "response.failed"),
    ]
    assert codes(out) == ["provider.error"]


@pytest.mark.parametrize(
    "error_event",
    [
        {"type": "error", "code": "server_error", "message": "Boom", "param": None},
        {
            "type": "error",
            "error": {"type": "server_error", "code": "server_error", "message": "Boom"},
        },
    ],
    ids=["fields-at-top-level", "nested-under-error"],
)
def test_an_error_event_of_either_shape_is_a_provider_error_reported_once(
    error_event: dict[str, Any],
) -> None:
    failed = {
        "type": "response.failed",
        "response": {"status": "failed", "error": {"code": "server_error", "message": "Boom"}},
    }
    out = run(sse(CREATED, error_event, failed))
    errors = [e for e in out if isinstance(e, ProviderError)]
    assert len(errors) == 1
    assert (errors[0].message, errors[0].code, errors[0].record) == ("Boom", "server_error", 1)
    assert codes(out) == ["provider.error"]
    assert out[-1] == Terminal(2, "failed", "response.failed")


def test_a_later_different_error_is_reported_too() -> None:
    failed = {"type": "response.failed", "response": {"error": {"code": "other", "message": "Two"}}}
    out = run(sse({"type": "error", "message": "One"}, failed))
    assert [e.message for e in out if isinstance(e, ProviderError)] == ["One", "Two"]


@pytest.mark.parametrize(
    "event",
    [
        {"type": "response.cancelled", "response": {"status": "cancelled"}},
        {"type": "response.canceled", "response": {}},
        {"type": "response.completed", "response": {"status": "cancelled"}},
        {"type": "response.failed", "response": {"status": "cancelled"}},
    ],
)
def test_a_cancelled_response_ends_with_a_cancelled_terminal(event: dict[str, Any]) -> None:
    out = run(sse(CREATED, event))
    assert out[-2] == Finish(1, 0, "other", "cancelled")
    assert out[-1].status == "cancelled"


def test_a_stream_without_response_created_still_starts_a_response() -> None:
    out = run(
        sse({"type": "response.in_progress", "response": {"id": "r", "model": "m"}}, completed())
    )
    assert out[0] == ResponseStart(0, "r", "m")
    assert out[-1] == Terminal(1, "completed", "response.completed")


def test_each_response_created_starts_a_new_response_and_resets_the_state() -> None:
    out = run(sse(CREATED, FC_ADDED, completed(), CREATED, completed()))
    assert [type(e).__name__ for e in out].count("ResponseStart") == 2
    # the second response has no client calls: its finish is "stop"
    assert out[-2] == Finish(4, 0, "stop", "completed")


def test_close_adds_nothing_even_when_the_stream_was_cut() -> None:
    adapter = OpenAIResponsesAdapter("sse")
    for record in records(sse(CREATED, delta("x")).encode()):
        adapter.feed(record)
    assert adapter.close() == []


# -- sequence numbers, snapshots, final output --------------------------------------------


def test_sequence_numbers_that_skip_or_go_back_are_diagnosed() -> None:
    body = [
        {**CREATED, "sequence_number": 0},
        {**delta("a"), "sequence_number": 1},
        {**delta("b"), "sequence_number": 4},
        {**delta("c"), "sequence_number": 2},
        {**delta("d"), "sequence_number": "x"},
        {**delta("e"), "sequence_number": 3},
    ]
    out = run(sse(*body))
    gaps = [o for o in out if isinstance(o, Diagnostic)]
    assert [(g.code, g.record) for g in gaps] == [
        ("openai-responses.sequence-gap", 2),
        ("openai-responses.sequence-gap", 3),
        ("openai-responses.sequence-gap", 4),
    ]
    assert "skips ahead" in gaps[0].message
    assert "goes back" in gaps[1].message
    assert len(events_of(out)) == 6


def test_sequence_numbers_restart_with_each_response_and_may_be_absent() -> None:
    body = [
        {**CREATED, "sequence_number": 0},
        {**completed(), "sequence_number": 1},
        {**CREATED, "sequence_number": 0},
        delta("no number"),
        {**completed([{"id": "msg_1", "type": "message", "content": []}]), "sequence_number": 1},
    ]
    assert codes(run(sse(*body))) == []


def test_an_empty_final_output_after_deltas_is_diagnosed_and_the_deltas_kept() -> None:
    out = run(sse(CREATED, delta("kept"), completed([])))
    assert codes(out) == ["openai-responses.empty-final-output"]
    assert text_of(out) == "kept"
    assert not [e for e in out if isinstance(e, Snapshot)]


def test_an_empty_final_output_without_deltas_is_not_diagnosed() -> None:
    assert codes(run(sse(CREATED, completed([])))) == []


def test_the_final_output_supplies_what_no_delta_or_done_event_gave() -> None:
    message = {
        "id": "msg_1",
        "type": "message",
        "content": [{"type": "output_text", "text": "Hi", "annotations": []}],
    }
    reasoning = {
        "id": "rs_1",
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "S"}],
    }
    out = run(sse(CREATED, completed([reasoning, message, FC_ITEM])))
    assert events_of(out)[1:4] == [
        Snapshot(1, 0, "reasoning", "S", (0, "summary", 0)),
        Snapshot(1, 0, "text", "Hi", (1, 0)),
        ToolCall(1, 0, index=2, id="call_1", name="f", arguments='{"a":1}'),
    ]
    assert out[-2] == Finish(1, 0, "tool_calls", "completed")


def test_snapshots_already_given_are_not_repeated_by_later_restatements() -> None:
    message = {"id": "msg_1", "type": "message", "content": [{"type": "output_text", "text": "ab"}]}
    done = {
        "type": "response.output_text.done",
        "item_id": "msg_1",
        "output_index": 0,
        "content_index": 0,
        "text": "ab",
    }
    out = run(
        sse(
            delta("ab"),
            done,
            {"type": "response.output_item.done", "output_index": 0, "item": message},
            completed([message]),
        )
    )
    assert [e for e in out if isinstance(e, Snapshot)] == [Snapshot(1, 0, "text", "ab", (0, 0))]


# -- robustness -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "event",
    [
        {"type": "response.output_text.delta", "delta": 5},
        {"type": "response.output_text.delta", "delta": "x", "item_id": ["a"], "content_index": {}},
        {"type": "response.refusal.delta", "delta": None},
        {"type": "response.reasoning_summary_text.delta", "delta": []},
        {"type": "response.reasoning_text.delta"},
        {"type": "response.output_text.done", "text": 3},
        {"type": "response.audio.delta", "delta": 1},
        {"type": "response.audio.transcript.delta"},
        {"type": "response.function_call_arguments.delta", "delta": {}},
        {"type": "response.function_call_arguments.done", "arguments": {"a": 1}},
        {"type": "response.output_item.added", "item": "nope"},
        {"type": "response.output_item.added", "item": {"type": 3}},
        {"type": "response.output_item.done", "item": {"type": "message", "content": "x"}},
        {
            "type": "response.output_item.done",
            "item": {"type": "reasoning", "summary": [1], "content": [2]},
        },
        {"type": "response.content_part.done", "part": "x"},
        {"type": "response.completed", "response": "nope"},
        {
            "type": "response.completed",
            "response": {"output": [1, None], "usage": {"input_tokens": True}},
        },
        {"type": "response.incomplete", "response": {"incomplete_details": "x"}},
        {"type": "response.failed", "response": {"error": "x"}},
        {"type": "error", "error": "x"},
        {"type": "error", "message": {"nested": 1}, "code": 5},
    ],
)
def test_ill_typed_fields_never_crash(event: dict[str, Any]) -> None:
    out = run(sse(event))
    for item in out:
        if isinstance(item, Diagnostic):
            assert item.message.endswith(".")


def test_object_arguments_in_a_done_event_are_compact_json() -> None:
    done = {
        "type": "response.function_call_arguments.done",
        "item_id": "fc_1",
        "output_index": 1,
        "arguments": {"a": 1},
    }
    out = run(sse(FC_ADDED, done))
    assert out[-1] == ToolCallEnd(1, 0, index=1, arguments='{"a":1}')


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=8,
)
EVENT_TYPES = st.sampled_from(
    [
        "response.created",
        "response.output_text.delta",
        "response.output_text.done",
        "response.output_item.added",
        "response.output_item.done",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.custom_tool_call_input.done",
        "response.content_part.done",
        "response.reasoning_summary_part.done",
        "response.output_text.annotation.added",
        "response.completed",
        "response.incomplete",
        "response.failed",
        "error",
    ]
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "item_id": JSON_VALUES,
        "output_index": JSON_VALUES,
        "content_index": JSON_VALUES,
        "summary_index": JSON_VALUES,
        "delta": JSON_VALUES,
        "text": JSON_VALUES,
        "arguments": JSON_VALUES,
        "item": JSON_VALUES,
        "part": JSON_VALUES,
        "response": JSON_VALUES,
        "error": JSON_VALUES,
        "sequence_number": JSON_VALUES,
    },
)


# Drawing the shaped events is nearly all of the cost: each draw is read on the SSE wire,
# named and not, and as a JSONL dump.
@settings(max_examples=75, deadline=None)
@given(st.lists(st.tuples(EVENT_TYPES, FIELDS), max_size=8))
def test_any_sequence_of_shaped_events_never_raises(
    events: list[tuple[str, dict[str, Any]]],
) -> None:
    objs = [{"type": t, **f} for t, f in events]
    run(sse(*objs, named=False))
    run(sse(*objs))
    run("".join(json.dumps(o) + "\n" for o in objs), "ndjson")


# -- fixtures ----------------------------------------------------------------------------

FIXTURE_FACTS: dict[str, list[dict[str, Any]]] = {
    "text-annotation.sse": [
        {
            "status": "completed",
            "text": "Paris is the capital.",
            "finish_reason": "stop",
            "citations": 1,
        }
    ],
    "reasoning-summary-data-only.sse": [
        {
            "status": "completed",
            "text": "4",
            "reasoning": "**Plan**\n\nAdd.**Check**\n\nDone.",
            "usage": {"reasoning_tokens": 24},
        }
    ],
    "function-calls-streamed.sse": [
        {
            "status": "completed",
            "finish_reason": "tool_calls",
            "tool_calls": [
                {
                    "id": "call_a",
                    "name": "get_weather",
                    "arguments": '{"city":"Oslo"}',
                    "complete": True,
                    "kind": "function",
                },
                {
                    "id": "call_b",
                    "name": "get_time",
                    "arguments": "{}",
                    "complete": True,
                    "kind": "function",
                },
            ],
        }
    ],
    "done-only-arguments.jsonl": [
        {
            "status": "completed",
            "reasoning": "User wants weather.",
            "finish_reason": "tool_calls",
            "tool_calls": [
                {
                    "id": "call_9",
                    "name": "weather",
                    "arguments": '{"location":"Rome"}',
                    "complete": True,
                    "kind": "function",
                }
            ],
        }
    ],
    "tools-custom-mcp-builtin.sse": [
        {
            "status": "completed",
            "finish_reason": "tool_calls",
            "results": 3,
            "tool_calls": [
                {
                    "id": "mcp_1",
                    "name": "search",
                    "arguments": '{"q":"sse"}',
                    "complete": True,
                    "kind": "mcp",
                },
                {
                    "id": "ws_1",
                    "name": "web_search",
                    "arguments": '{"action":{"type":"search","query":"sse spec"}}',
                    "complete": True,
                    "kind": "server",
                },
                {
                    "id": "call_sql",
                    "name": "run_sql",
                    "arguments": "SELECT 1",
                    "complete": True,
                    "kind": "custom",
                },
            ],
        }
    ],
    "builtin-tools-audio.sse": [
        {
            "status": "completed",
            "finish_reason": "stop",  # provider-run tools are not client calls
            "tool_calls": [
                {
                    "id": "fs_1",
                    "name": "file_search",
                    "arguments": '{"queries":["q"]}',
                    "kind": "server",
                },
                {
                    "id": "ci_1",
                    "name": "code_interpreter",
                    "arguments": '{"code":"print(1)","container_id":"cntr_1"}',
                    "kind": "server",
                },
                {"id": "ig_1", "name": "image_generation", "arguments": "{}", "kind": "server"},
            ],
            "results": 3,
        }
    ],
    "refusal.sse": [
        {
            "status": "incomplete",  # refusal text: incomplete on every provider
            "refusal": "I can't help with that.",
            "text": "",
        }
    ],
    "incomplete-max-output-tokens.sse": [
        {
            "status": "incomplete",
            "text": "Once upon",
            "finish_reason": "length",
            "raw_finish_reason": "max_output_tokens",
        }
    ],
    "incomplete-content-filter.sse": [
        {"status": "incomplete", "text": "Step one:", "finish_reason": "content_filter"}
    ],
    "error-then-failed.sse": [
        {"status": "failed", "text": "Hel", "finish_reason": "error", "raw_finish_reason": "failed"}
    ],
    "error-nested.jsonl": [{"status": "failed", "finish_reason": "error"}],
    "cancelled.sse": [{"status": "cancelled", "text": "Working", "raw_finish_reason": "cancelled"}],
    "proxy-quirks.sse": [{"status": "completed", "text": "Hello world"}],
    "truncated.sse": [
        {
            "status": "truncated",
            "finish_reason": None,
            "tool_calls": [
                {
                    "id": "call_t",
                    "name": "lookup",
                    "arguments": '{"id": 4',
                    "complete": False,
                    "kind": "function",
                }
            ],
        }
    ],
    "two-responses.jsonl": [
        {"id": "resp_a", "status": "completed", "text": "One!"},
        {"id": "resp_b", "status": "completed", "text": "Two"},
    ],
    "malformed.sse": [{"status": "completed", "text": "named only by the event lineok"}],
}

FIXTURE_CODES: dict[str, list[str]] = {
    "error-then-failed.sse": ["provider.error"],
    "error-nested.jsonl": ["provider.error"],
    "proxy-quirks.sse": [
        "openai-responses.sequence-gap",
        "openai-responses.event-name-mismatch",
        "openai-responses.empty-final-output",
        "openai-responses.done-marker",
    ],
    "malformed.sse": [
        "json.invalid",
        "openai-responses.not-an-object",
        "openai-responses.missing-type",
        "openai-responses.missing-type",
        "openai-responses.invalid-field",
        "openai-responses.empty-final-output",
    ],
}


def test_every_fixture_has_its_facts_listed() -> None:
    assert sorted(p.name for p in FIXTURES.iterdir()) == sorted(FIXTURE_FACTS)


_RESPONSE_KEYS = ("id", "status", "usage")
_COUNTS = {"citations": "citations", "results": "server_tool_results"}


def _as_report(want: dict[str, Any]) -> dict[str, Any]:
    """A fixture's stated facts of one response, in the Report's shape (counts left out)."""
    output = {k: v for k, v in want.items() if k not in _RESPONSE_KEYS and k not in _COUNTS}
    return {**{k: want[k] for k in _RESPONSE_KEYS if k in want}, "outputs": [output]}


@pytest.mark.parametrize("name", sorted(FIXTURE_FACTS))
def test_fixture_gives_its_facts_and_only_its_diagnostics_in_every_chunking(name: str) -> None:
    body, framing = fixture_body(name)
    out = run(body, framing)
    assert codes(out) == FIXTURE_CODES.get(name, [])
    assert not [e for e in out if isinstance(e, Unknown) and name != "malformed.sse"]
    fed = feed_fixture("openai_responses", name, framing="auto")
    assert_facts(fed, {"provider": "openai-responses", "framing": framing_of(name)})
    expected = FIXTURE_FACTS[name]
    if len(expected) == 1:
        assert "responses" not in fed.report
        assert_facts(fed, _as_report(expected[0]))
    else:
        assert_facts(fed, {"responses": [_as_report(want) for want in expected]})
    responses = fed.report.get("responses") or [fed.report]
    for got, want in zip(responses, expected, strict=True):
        for key, field in _COUNTS.items():
            if key in want:
                assert len(got["outputs"][0][field]) == want[key], key
    for code in FIXTURE_CODES.get(name, []):
        assert code in fed.codes


def test_the_malformed_fixture_passes_an_unknown_event_type_on() -> None:
    body, framing = fixture_body("malformed.sse")
    unknown = [e.event_type for e in run(body, framing) if isinstance(e, Unknown)]
    assert unknown == ["response.future_feature.delta"]


@pytest.mark.parametrize("name", sorted(FIXTURE_FACTS))
def test_cutting_a_fixture_at_every_record_boundary_never_raises(name: str) -> None:
    body, framing = fixture_body(name)
    all_records = records(body, framing)
    for cut in range(len(all_records) + 1):
        adapter = OpenAIResponsesAdapter(framing)
        for record in all_records[:cut]:
            adapter.feed(record)
        adapter.close()


def test_the_registry_builds_this_adapter() -> None:
    adapter = make_adapter("openai-responses", "sse")
    assert isinstance(adapter, OpenAIResponsesAdapter)
    assert adapter.name == "openai-responses"


def test_every_diagnostic_code_of_the_package_is_documented() -> None:
    emitted = {code.name for code in declared(responses_codes)[0]}
    pages = "".join(p.read_text() for p in (ROOT / "docs" / "diagnostics").glob("*.md"))
    documented = set(re.findall(r"^### `([^`]+)`", pages, re.MULTILINE))
    assert emitted
    assert emitted <= documented


# -- real captures --------------------------------------------------------------------------


def _expected_entries() -> list[str]:
    return sorted(real_expected("openai-responses")) if (REAL / "EXPECTED.json").exists() else []


def _replays(path: Path) -> dict[str, tuple[bytes, str]]:
    """The capture as stored (JSONL) and replayed on the SSE wire, with and without
    ``event:`` lines (the README's replay instructions)."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    named = "".join(f"event: {json.loads(line)['type']}\ndata: {line}\n\n" for line in lines)
    data_only = "".join(f"data: {line}\n\n" for line in lines)
    return {
        "ndjson": (path.read_bytes(), "ndjson"),
        "sse-named": (named.encode(), "sse"),
        "sse-data-only": (data_only.encode(), "sse"),
    }


@pytest.mark.parametrize("replay", ["ndjson", "sse-named", "sse-data-only"])
@pytest.mark.parametrize("name", _expected_entries() or ["(none)"])
def test_real_capture_gives_the_expected_facts(name: str, replay: str) -> None:
    if name == "(none)":
        pytest.skip(f"real captures not found at {REAL} (set SSESCOPE_REAL_STREAMS)")
    entry = real_expected("openai-responses")[name]
    body, framing = _replays(REAL / name)[replay]
    fed = feed(body)
    problems = expected_problems(fed.report, {**entry, "framing": framing})
    assert not problems, "\n".join(problems)
    emitted = set(fed.event_codes)
    own = {c for c in entry.get("expect_diagnostics", []) if c.startswith("provider.")}
    assert own <= emitted
    assert not fed.of_type(Unknown)
    assert emitted <= {"provider.error"}


# -- gateways that re-issue item ids on every event -----------------------------------------


class _Relabel:
    """Give every event a new item id, as some gateways do (the positions stay)."""

    def __init__(self) -> None:
        self.n = 0

    def fresh(self, prefix: str = "item") -> str:
        self.n += 1
        return f"{prefix}_gw{self.n}"

    def event(self, event: dict[str, Any]) -> dict[str, Any]:
        event = json.loads(json.dumps(event))
        if isinstance(event.get("item_id"), str):
            event["item_id"] = self.fresh(event["item_id"].split("_")[0])
        item = event.get("item")
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            item["id"] = self.fresh(item["id"].split("_")[0])
        response = event.get("response")
        if isinstance(response, dict) and isinstance(response.get("output"), list):
            for output_item in response["output"]:
                if isinstance(output_item, dict) and isinstance(output_item.get("id"), str):
                    output_item["id"] = self.fresh(output_item["id"].split("_")[0])
        return event


def _relabelled(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` as such a gateway passes them on: no id is ever used twice."""
    relabel = _Relabel()
    return [relabel.event(e) for e in events]


def _gateway_stream() -> list[dict[str, Any]]:
    """A reasoning item (summary and raw text), a message and a function call, with every
    restatement the protocol has."""
    rs = {"item_id": "rs_1", "output_index": 0}
    msg = {"item_id": "msg_1", "output_index": 1, "content_index": 0}
    fc = {"item_id": "fc_1", "output_index": 2}
    reasoning = {
        "id": "rs_1",
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "Plan."}],
        "content": [{"type": "reasoning_text", "text": "Think."}],
    }
    message = {
        "id": "msg_1",
        "type": "message",
        "content": [{"type": "output_text", "text": "Hello world", "annotations": []}],
    }
    call = {
        "id": "fc_1",
        "type": "function_call",
        "call_id": "call_1",
        "name": "f",
        "arguments": '{"a":1}',
        "status": "completed",
    }
    return [
        CREATED,
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**reasoning, "summary": [], "content": []},
        },
        {"type": "response.reasoning_summary_text.delta", **rs, "summary_index": 0, "delta": "Pl"},
        {"type": "response.reasoning_summary_text.delta", **rs, "summary_index": 0, "delta": "an."},
        {"type": "response.reasoning_summary_text.done", **rs, "summary_index": 0, "text": "Plan."},
        {
            "type": "response.reasoning_summary_part.done",
            **rs,
            "summary_index": 0,
            "part": {"type": "summary_text", "text": "Plan."},
        },
        {"type": "response.reasoning_text.delta", **rs, "content_index": 0, "delta": "Think."},
        {"type": "response.reasoning_text.done", **rs, "content_index": 0, "text": "Think."},
        {"type": "response.output_item.done", "output_index": 0, "item": reasoning},
        {
            "type": "response.output_item.added",
            "output_index": 1,
            "item": {**message, "content": []},
        },
        {"type": "response.output_text.delta", **msg, "delta": "Hello"},
        {"type": "response.output_text.delta", **msg, "delta": " world"},
        {"type": "response.output_text.done", **msg, "text": "Hello world"},
        {"type": "response.content_part.done", **msg, "part": message["content"][0]},
        {"type": "response.output_item.done", "output_index": 1, "item": message},
        {
            "type": "response.output_item.added",
            "output_index": 2,
            "item": {**call, "arguments": ""},
        },
        {"type": "response.function_call_arguments.delta", **fc, "delta": '{"a":'},
        {"type": "response.function_call_arguments.delta", **fc, "delta": "1}"},
        {"type": "response.function_call_arguments.done", **fc, "arguments": '{"a":1}'},
        {"type": "response.output_item.done", "output_index": 2, "item": call},
        completed(
            [reasoning, message, call],
            usage={"input_tokens": 5, "output_tokens": 9, "total_tokens": 14},
        ),
    ]


def test_item_ids_reissued_on_every_event_never_repeat_the_content() -> None:
    import ssescope

    body = sse(*_relabelled(_gateway_stream())).encode()
    report = ssescope.inspect(body, provider="openai-responses").to_dict()
    output = report["outputs"][0]
    assert report["status"] == "completed"
    assert output["text"] == "Hello world"
    assert output["reasoning"] == "Plan.Think."
    assert [(c["id"], c["name"], c["arguments"]) for c in output["tool_calls"]] == [
        ("call_1", "f", '{"a":1}')
    ]
    assert output["finish_reason"] == "tool_calls"
    changed = [d for d in report["diagnostics"] if d["code"] == "openai-responses.item-id-changed"]
    assert len(changed) == 3  # once per item, however many events relabel it
    assert all(d["severity"] == "warning" for d in changed)
    assert "output item 0" in changed[0]["message"]
    assert "'rs_gw1'" in changed[0]["message"]
    assert [d["code"] for d in report["diagnostics"]] == [d["code"] for d in changed]


def test_with_stable_ids_the_same_stream_is_quiet_and_identical() -> None:
    import ssescope

    stable = ssescope.inspect(sse(*_gateway_stream()).encode(), provider="openai-responses")
    relabelled = ssescope.inspect(
        sse(*_relabelled(_gateway_stream())).encode(),
        provider="openai-responses",
    )
    assert stable.to_dict()["diagnostics"] == []
    assert stable.to_dict()["outputs"] == relabelled.to_dict()["outputs"]


def test_an_id_change_is_reported_at_the_event_that_first_changes_it() -> None:
    body = sse(delta("a", item="msg_1"), delta("b", item="msg_2"), delta("c", item="msg_3"))
    out = run(body)
    assert codes(out) == ["openai-responses.item-id-changed"]
    assert out[1].record == 1
    assert "'msg_2'" in out[1].message and "'msg_1'" in out[1].message
    assert text_of(out) == "abc"


def test_items_without_positions_are_still_told_apart_by_their_ids() -> None:
    def bare(text: str, item: str) -> dict[str, Any]:
        return {
            "type": "response.output_text.delta",
            "item_id": item,
            "content_index": 0,
            "delta": text,
        }

    def done(text: str, item: str) -> dict[str, Any]:
        return {
            "type": "response.output_text.done",
            "item_id": item,
            "content_index": 0,
            "text": text,
        }

    out = run(sse(bare("a", "m1"), bare("b", "m2"), done("a", "m1"), done("b", "m2")))
    assert codes(out) == []
    assert text_of(out) == "ab"


def test_an_id_met_first_without_a_position_keeps_its_key_when_the_position_comes() -> None:
    bare = {
        "type": "response.output_text.delta",
        "item_id": "m1",
        "content_index": 0,
        "delta": "ab",
    }
    done = {
        "type": "response.output_text.done",
        "item_id": "m1",
        "output_index": 0,
        "content_index": 0,
        "text": "ab",
    }
    out = run(sse(bare, done))
    assert codes(out) == []
    assert text_of(out) == "ab"
    assert [e.part for e in out if isinstance(e, Snapshot)] == [("m1", 0)]


def _real_responses_entries() -> list[str]:
    if not (REAL / "EXPECTED.json").exists():
        return []
    expected = json.loads((REAL / "EXPECTED.json").read_text())
    return sorted(
        k
        for k, v in expected.items()
        if v.get("provider") == "openai-responses" and k.endswith(".jsonl")
    )


@pytest.mark.parametrize("name", _real_responses_entries() or ["(none)"])
def test_a_real_capture_relabelled_by_a_gateway_assembles_the_same_reply(name: str) -> None:
    if name == "(none)":
        pytest.skip(f"real captures not found at {REAL} (set SSESCOPE_REAL_STREAMS)")
    import ssescope

    lines = [json.loads(line) for line in (REAL / name).read_text().splitlines() if line.strip()]
    relabel = _Relabel()
    relabelled = "".join(f"data: {json.dumps(relabel.event(e))}\n\n" for e in lines).encode()
    original = ssescope.inspect(REAL / name, provider="openai-responses").to_dict()
    gateway = ssescope.inspect(relabelled, provider="openai-responses").to_dict()
    for before, after in zip(
        original.get("responses") or [original], gateway.get("responses") or [gateway], strict=True
    ):
        assert after["status"] == before["status"]
        for key in ("text", "reasoning", "refusal", "finish_reason"):
            assert after["outputs"][0][key] == before["outputs"][0][key], key
        # (a provider-run tool's call has no id but its item id, which the gateway changed)
        assert [
            (c["id"] if c["kind"] != "server" else None, c["name"], c["arguments"])
            for c in after["outputs"][0]["tool_calls"]
        ] == [
            (c["id"] if c["kind"] != "server" else None, c["name"], c["arguments"])
            for c in before["outputs"][0]["tool_calls"]
        ]
    before_codes = [d["code"] for d in original["diagnostics"]]
    after_codes = [
        d["code"] for d in gateway["diagnostics"] if d["code"] != "openai-responses.item-id-changed"
    ]
    assert after_codes == before_codes


def test_the_command_line_shows_a_relabelled_stream_once_and_names_the_id_change(
    tmp_path: Path,
) -> None:
    from tests.cli.cli_helpers import run as run_cli

    path = tmp_path / "gateway.sse"
    path.write_text(sse(*_relabelled(_gateway_stream())))
    result = run_cli("inspect", str(path), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["provider"] == "openai-responses"
    assert report["outputs"][0]["text"] == "Hello world"
    assert report["outputs"][0]["reasoning"] == "Plan.Think."
    codes_seen = [d["code"] for d in report["diagnostics"]]
    assert codes_seen == ["openai-responses.item-id-changed"] * 3
    terminal = run_cli("inspect", str(path), "--no-color")
    assert terminal.code == 0
    assert terminal.out.count("Hello world") == 1
    assert "openai-responses.item-id-changed" in terminal.out + terminal.err

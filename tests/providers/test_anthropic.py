"""The Anthropic Messages adapter: records in, unified events and diagnostics out.

Unit tests feed records built by the real framers and assert the exact events. Fixture
and real-capture tests go through the shared oracle (``oracle.py``): the whole Pipeline in
every chunking, its Report checked against the facts each fixture states.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.providers.oracle import (
    assert_expected,
    assert_facts,
    feed_fixture,
    fixture_names,
    framing_of,
    real_expected,
)

from ssescope.codes import PROVIDER_ERROR
from ssescope.codes.spec import declared
from ssescope.diagnostics import Diagnostic
from ssescope.events import (
    Citation,
    Finish,
    ProviderError,
    ReasoningDelta,
    ReasoningMeta,
    ResponseStart,
    ServerToolResult,
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
from ssescope.providers.anthropic import AnthropicAdapter, map_finish_reason
from ssescope.providers.anthropic import codes as anthropic_codes
from ssescope.providers.registry import make_adapter

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "anthropic"


# -- helpers ----------------------------------------------------------------------------


def frame(body: bytes, framing: str) -> list[Any]:
    """Records and framing diagnostics of ``body``."""
    parser = SSEParser() if framing == "sse" else NDJSONParser()
    return parser.feed(body) + parser.close()


def run(body: bytes, framing: str = "sse") -> list[Any]:
    """Framing diagnostics, adapter events and diagnostics, in stream order."""
    adapter = AnthropicAdapter(framing)
    out: list[Any] = []
    for item in frame(body, framing):
        if isinstance(item, (SSEEvent, JSONRecord)):
            out.extend(adapter.feed(item))
        elif not isinstance(item, SSEComment):
            out.append(item)
    out.extend(adapter.close())
    return out


def events(body: bytes, framing: str = "sse") -> list[Any]:
    """Only the unified events."""
    return [e for e in run(body, framing) if not isinstance(e, Diagnostic)]


def codes(items: list[Any]) -> list[str]:
    return [d.code for d in items if isinstance(d, Diagnostic)]


def sse(*objs: dict[str, Any], names: bool = True) -> bytes:
    """An SSE body with one event per object (``event:`` = its type unless ``names`` is off)."""
    parts = []
    for obj in objs:
        head = f"event: {obj['type']}\n" if names else ""
        parts.append(f"{head}data: {json.dumps(obj)}\n\n")
    return "".join(parts).encode()


def jsonl(*objs: dict[str, Any]) -> bytes:
    return "".join(json.dumps(o) + "\n" for o in objs).encode()


def message_start(mid: str = "msg_1", **usage: int) -> dict[str, Any]:
    return {
        "type": "message_start",
        "message": {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [],
            "usage": usage or {"input_tokens": 10, "output_tokens": 1},
        },
    }


def block_start(index: int, **block: Any) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def delta(index: int, **d: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": d}


def block_stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def message_delta(reason: str | None, **usage: int) -> dict[str, Any]:
    return {
        "type": "message_delta",
        "delta": {"stop_reason": reason, "stop_sequence": None},
        "usage": usage or {"output_tokens": 5},
    }


STOP = {"type": "message_stop"}


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


# -- unit: exact events -----------------------------------------------------------------


def test_the_adapter_is_registered_under_its_provider_name() -> None:
    adapter = make_adapter("anthropic", "sse")
    assert isinstance(adapter, AnthropicAdapter)
    assert adapter.name == "anthropic"


def test_message_start_gives_the_response_start_and_its_usage() -> None:
    body = sse(message_start("msg_a", input_tokens=450, cache_read_input_tokens=7, output_tokens=1))
    assert events(body) == [
        ResponseStart(0, "msg_a", "claude-x"),
        Usage(
            0,
            {"input_tokens": 450, "output_tokens": 1, "cached_input_tokens": 7},
            {"input_tokens": 450, "cache_read_input_tokens": 7, "output_tokens": 1},
            "message_start",
        ),
    ]


def test_text_deltas_are_keyed_by_block_index() -> None:
    body = sse(
        message_start(),
        block_start(0, type="text", text=""),
        delta(0, type="text_delta", text="Hel"),
        {"type": "ping"},
        delta(0, type="text_delta", text="lo"),
        block_stop(0),
    )
    got = events(body)[2:]
    assert got == [TextDelta(2, 0, "Hel", 0), TextDelta(4, 0, "lo", 0)]


def test_a_text_block_that_starts_with_text_and_citations_keeps_them() -> None:
    cite: dict[str, Any] = {"type": "char_location", "cited_text": "x"}
    body = sse(message_start(), block_start(3, type="text", text="Pre", citations=[cite]))
    assert events(body)[2:] == [TextDelta(1, 0, "Pre", 3), Citation(1, 0, cite, 3)]


def test_thinking_deltas_are_reasoning_and_the_signature_is_reasoning_meta() -> None:
    body = sse(
        message_start(),
        block_start(0, type="thinking", thinking="", signature=""),
        delta(0, type="thinking_delta", thinking="Hmm."),
        delta(0, type="signature_delta", signature="SIG=="),
        block_stop(0),
    )
    assert events(body)[2:] == [
        ReasoningDelta(2, 0, "Hmm.", 0),
        ReasoningMeta(3, 0, 0, signature="SIG=="),
    ]


def test_a_redacted_thinking_block_is_kept_as_opaque_reasoning() -> None:
    body = sse(message_start(), block_start(1, type="redacted_thinking", data="EmwK"))
    assert events(body)[2:] == [ReasoningMeta(1, 0, 1, redacted="EmwK")]


def test_tool_use_gives_identity_then_fragments_then_an_end() -> None:
    body = sse(
        message_start(),
        block_start(1, type="tool_use", id="toolu_1", name="get", input={}),
        delta(1, type="input_json_delta", partial_json=""),
        delta(1, type="input_json_delta", partial_json='{"a":'),
        delta(1, type="input_json_delta", partial_json="1}"),
        block_stop(1),
    )
    assert events(body)[2:] == [
        ToolCallDelta(1, 0, 1, "toolu_1", "get"),
        ToolCallDelta(3, 0, 1, arguments='{"a":'),
        ToolCallDelta(4, 0, 1, arguments="1}"),
        ToolCallEnd(5, 0, 1, "toolu_1"),
    ]


def test_server_tool_use_is_a_server_call_and_its_result_comes_whole() -> None:
    content: list[Any] = [{"type": "web_search_result", "url": "https://example.com"}]
    body = sse(
        message_start(),
        block_start(0, type="server_tool_use", id="srvtoolu_1", name="web_search", input={}),
        delta(0, type="input_json_delta", partial_json='{"query":"q"}'),
        block_stop(0),
        block_start(1, type="web_search_tool_result", tool_use_id="srvtoolu_1", content=content),
        block_stop(1),
    )
    assert events(body)[2:] == [
        ToolCallDelta(1, 0, 0, "srvtoolu_1", "web_search", kind="server"),
        ToolCallDelta(2, 0, 0, arguments='{"query":"q"}', kind="server"),
        ToolCallEnd(3, 0, 0, "srvtoolu_1"),
        ServerToolResult(4, 0, "srvtoolu_1", "web_search_tool_result", content),
    ]


def test_a_tool_block_started_with_its_whole_input_ends_with_that_input() -> None:
    body = sse(
        message_start(),
        block_start(0, type="tool_use", id="toolu_w", name="set", input={"mode": "é", "n": 2}),
        block_stop(0),
    )
    assert events(body)[2:] == [
        ToolCallDelta(1, 0, 0, "toolu_w", "set"),
        ToolCallEnd(2, 0, 0, "toolu_w", '{"mode":"é","n":2}'),
    ]


def test_fragments_win_over_a_start_input_object() -> None:
    body = sse(
        message_start(),
        block_start(0, type="tool_use", id="toolu_w", name="set", input={"stale": True}),
        delta(0, type="input_json_delta", partial_json="{}"),
        block_stop(0),
    )
    assert events(body)[-1] == ToolCallEnd(3, 0, 0, "toolu_w", None)


def test_citations_delta_is_a_citation_of_its_block() -> None:
    cite: dict[str, Any] = {"type": "web_search_result_location", "url": "https://example.com"}
    body = sse(
        message_start(),
        block_start(2, type="text", text=""),
        delta(2, type="citations_delta", citation=cite),
    )
    assert events(body)[2:] == [Citation(2, 0, cite, 2)]


@pytest.mark.parametrize(
    ("raw", "reason", "status"),
    [
        ("end_turn", "stop", "completed"),
        ("stop_sequence", "stop", "completed"),
        ("tool_use", "tool_calls", "completed"),
        ("max_tokens", "length", "incomplete"),
        ("model_context_window_exceeded", "length", "incomplete"),
        ("refusal", "refusal", "incomplete"),
        ("brand_new_reason", "other", "completed"),
    ],
)
def test_each_stop_reason_gives_its_finish_and_terminal_status(
    raw: str, reason: str, status: str
) -> None:
    body = sse(message_start(), message_delta(raw, output_tokens=9), STOP)
    assert events(body)[2:] == [
        Finish(1, 0, reason, raw),  # type: ignore[arg-type]
        Usage(1, {"output_tokens": 9}, {"output_tokens": 9}, "message_delta"),
        Terminal(2, status, f"message_stop ({raw})"),  # type: ignore[arg-type]
    ]
    assert map_finish_reason(raw) == reason


@pytest.mark.parametrize("raw", ["pause_turn", "compaction"])
def test_a_paused_turn_is_incomplete_with_what_the_client_must_do(raw: str) -> None:
    body = sse(message_start(), message_delta(raw, output_tokens=9), STOP)
    got = run(body)
    assert [e for e in got if not isinstance(e, Diagnostic)][2:] == [
        Finish(1, 0, "other", raw),
        Usage(1, {"output_tokens": 9}, {"output_tokens": 9}, "message_delta"),
        Terminal(2, "incomplete", f"message_stop ({raw})"),
    ]
    (paused,) = [e for e in got if isinstance(e, Diagnostic)]
    assert (paused.code, paused.severity, paused.record) == ("anthropic.turn-paused", "warning", 1)
    assert "Send the conversation back" in paused.message
    assert map_finish_reason(raw) == "other"


def test_message_delta_usage_restating_input_and_cache_fields_is_reported_whole() -> None:
    usage: dict[str, Any] = {"input_tokens": 61, "cache_read_input_tokens": 3, "output_tokens": 2}
    body = sse(message_start(), {"type": "message_delta", "delta": {}, "usage": usage})
    assert events(body)[2:] == [
        Usage(
            1,
            {"input_tokens": 61, "cached_input_tokens": 3, "output_tokens": 2},
            usage,
            "message_delta",
        )
    ]


def test_stop_details_of_a_refusal_is_not_refusal_text() -> None:
    body = jsonl(
        message_start(),
        {
            "type": "message_delta",
            "delta": {
                "stop_reason": "refusal",
                "stop_details": {"type": "refusal", "explanation": "Blocked."},
            },
            "usage": {"output_tokens": 5},
        },
        STOP,
    )
    got = events(body, "ndjson")
    assert not [e for e in got if isinstance(e, (TextDelta, ReasoningDelta))]
    assert Finish(1, 0, "refusal", "refusal") in got
    assert got[-1] == Terminal(2, "incomplete", "message_stop (refusal: 'Blocked.')")
    (shown,) = [e for e in run(body, "ndjson") if isinstance(e, Diagnostic)]
    assert (shown.code, shown.severity) == ("anthropic.refusal-explained", "info")
    assert shown.message == "The model refused (stop_details category 'none given'): 'Blocked.'"


def test_an_error_event_is_a_provider_error_and_a_failed_terminal() -> None:
    err: dict[str, Any] = {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "Overloaded", "details": None},
        "request_id": "req_1",
    }
    items = run(sse(message_start(), err))
    assert items[2:] == [
        ProviderError(1, "overloaded_error", "Overloaded", None, err),
        Diagnostic(
            PROVIDER_ERROR,
            "The provider reported an error in record 1: overloaded_error: 'Overloaded'.",
            items[3].offset,
            1,
        ),
        Terminal(1, "failed", "error (overloaded_error)"),
    ]


def test_an_error_event_whose_data_is_not_json_still_fails_the_response() -> None:
    items = run(b"event: error\ndata: upstream exploded\n\n")
    assert codes(items) == ["json.invalid", "provider.error"]
    errors = [e for e in items if isinstance(e, ProviderError)]
    assert errors == [ProviderError(0, None, "upstream exploded", None, None)]
    assert isinstance(items[-1], Terminal)
    assert items[-1].status == "failed"


def test_an_error_object_without_an_event_name_is_recognised_by_its_type() -> None:
    body = sse({"type": "error", "error": {"type": "api_error", "message": "boom"}}, names=False)
    got = events(body)
    assert [type(e) for e in got] == [ProviderError, Terminal]


def test_an_event_named_error_with_another_json_type_is_still_an_error() -> None:
    body = b'event: error\ndata: {"type": "message_stop"}\n\n'
    items = run(body)
    assert codes(items) == ["anthropic.event-name-mismatch", "provider.error"]
    assert isinstance(items[-1], Terminal)
    assert items[-1].status == "failed"


def test_ping_is_known_and_produces_nothing() -> None:
    assert run(sse({"type": "ping"})) == []


def test_whitespace_padding_inside_the_json_is_valid() -> None:
    body = b'event: message_stop\ndata: {"type":"message_stop"          }\n\n'
    items = run(body)
    assert "json.invalid" not in codes(items)
    assert isinstance(items[-1], Terminal)


def test_an_event_name_that_differs_from_the_json_type_is_reported_and_the_type_wins() -> None:
    body = (
        b"event: content_block_start\n"
        b'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}\n\n'
    )
    items = run(body)
    assert codes(items)[0] == "anthropic.event-name-mismatch"
    assert TextDelta(0, 0, "x", 0) in items


def test_unknown_event_block_and_delta_types_become_unknown_and_the_stream_goes_on() -> None:
    body = jsonl(
        message_start(),
        {"type": "brand_new_event"},
        block_start(0, type="hologram"),
        block_start(1, type="text", text=""),
        delta(1, type="sparkle_delta", sparkle="*"),
        delta(1, type="text_delta", text="ok"),
    )
    got = events(body, "ndjson")[2:]
    assert [e.event_type for e in got if isinstance(e, Unknown)] == [
        "brand_new_event",
        "content_block_start:hologram",
        "content_block_delta:sparkle_delta",
    ]
    assert got[-1] == TextDelta(5, 0, "ok", 1)


def test_a_repeated_identical_message_start_is_reported_and_ignored() -> None:
    items = run(jsonl(message_start("msg_d"), message_start("msg_d")), "ndjson")
    assert codes(items) == ["anthropic.duplicate-message-start", "anthropic.missing-message-stop"]
    assert sum(isinstance(e, ResponseStart) for e in items) == 1
    assert sum(isinstance(e, Usage) for e in items) == 1


def test_a_message_start_with_a_new_id_mid_message_is_a_splice_kept_in_arrival_order() -> None:
    body = jsonl(
        message_start("msg_a"),
        block_start(0, type="text", text=""),
        delta(0, type="text_delta", text="A"),
        block_start(1, type="tool_use", id="toolu_a", name="t", input={}),
        message_start("msg_b"),
        block_start(0, type="text", text=""),
        delta(0, type="text_delta", text="B"),
        block_start(1, type="tool_use", id="toolu_b", name="t", input={}),
        delta(1, type="input_json_delta", partial_json="{}"),
        block_stop(1),
    )
    items = run(body, "ndjson")
    assert codes(items) == ["anthropic.spliced-message", "anthropic.missing-message-stop"]
    assert sum(isinstance(e, ResponseStart) for e in items) == 1
    got = [e for e in items if isinstance(e, (TextDelta, ToolCallDelta, ToolCallEnd))]
    # the second message's blocks are shifted past those already used (0 and 1)
    assert got == [
        TextDelta(2, 0, "A", 0),
        ToolCallDelta(3, 0, 1, "toolu_a", "t"),
        TextDelta(6, 0, "B", 2),
        ToolCallDelta(7, 0, 3, "toolu_b", "t"),
        ToolCallDelta(8, 0, 3, arguments="{}"),
        ToolCallEnd(9, 0, 3, "toolu_b"),
    ]


def test_a_message_start_after_message_stop_starts_a_new_response() -> None:
    body = jsonl(message_start("msg_a"), message_delta("end_turn"), STOP, message_start("msg_b"))
    items = run(body, "ndjson")
    assert codes(items) == ["anthropic.missing-message-stop"]
    starts = [e for e in items if isinstance(e, ResponseStart)]
    assert [s.id for s in starts] == ["msg_a", "msg_b"]


def test_events_after_message_stop_are_still_emitted() -> None:
    body = jsonl(
        message_start(), message_delta("end_turn"), STOP, delta(0, type="text_delta", text="late")
    )
    assert events(body, "ndjson")[-1] == TextDelta(3, 0, "late", 0)


def test_message_stop_without_a_stop_reason_is_completed_but_reported() -> None:
    items = run(jsonl(message_start(), STOP), "ndjson")
    assert codes(items) == ["anthropic.stop-without-reason"]
    assert items[-1] == Terminal(1, "completed", "message_stop (no stop_reason)")


def test_the_end_of_the_stream_before_message_stop_is_reported_without_a_terminal() -> None:
    items = run(jsonl(message_start(), message_delta("end_turn")), "ndjson")
    assert codes(items) == ["anthropic.missing-message-stop"]
    assert not [e for e in items if isinstance(e, Terminal)]
    assert "'end_turn'" in items[-1].message


def test_content_before_any_message_start_is_reported_once() -> None:
    body = jsonl(
        block_start(0, type="text", text=""), delta(0, type="text_delta", text="x"), block_stop(0)
    )
    items = run(body, "ndjson")
    assert codes(items) == ["anthropic.missing-message-start"]
    assert TextDelta(1, 0, "x", 0) in items


def test_a_delta_for_a_block_never_started_is_reported_and_still_applied() -> None:
    items = run(jsonl(message_start(), delta(4, type="text_delta", text="x")), "ndjson")
    assert codes(items)[0] == "anthropic.delta-without-start"
    assert TextDelta(1, 0, "x", 4) in items


def test_a_delta_of_the_wrong_type_for_its_block_is_reported_once() -> None:
    body = jsonl(
        message_start(),
        block_start(0, type="text", text=""),
        delta(0, type="thinking_delta", thinking="a"),
        delta(0, type="thinking_delta", thinking="b"),
    )
    items = run(body, "ndjson")
    assert codes(items).count("anthropic.delta-type-mismatch") == 1
    assert ReasoningDelta(3, 0, "b", 0) in items


def test_a_block_started_twice_or_stopped_twice_or_stopped_unopened_is_reported() -> None:
    body = jsonl(
        message_start(),
        block_start(0, type="text", text=""),
        block_start(0, type="text", text=""),
        block_stop(0),
        block_stop(0),
        block_stop(7),
    )
    assert codes(run(body, "ndjson"))[:3] == [
        "anthropic.block-restarted",
        "anthropic.block-stopped-twice",
        "anthropic.stop-without-start",
    ]


def test_a_tool_fragment_without_an_index_is_reported_and_goes_to_the_open_call() -> None:
    body = jsonl(
        message_start(),
        block_start(0, type="tool_use", id="toolu_1", name="t", input={}),
        {
            "type": "content_block_delta",
            "delta": {"type": "input_json_delta", "partial_json": "{}"},
        },
    )
    items = run(body, "ndjson")
    assert codes(items)[:2] == ["anthropic.missing-index", "tool.missing-index"]
    assert ToolCallDelta(2, 0, None, arguments="{}") in items


def test_invalid_json_is_reported_and_the_stream_goes_on() -> None:
    body = b"data: {not json\n\n" + sse(message_start(), names=False)
    items = run(body)
    assert codes(items)[0] == "json.invalid"
    assert ResponseStart(1, "msg_1", "claude-x") in items


@pytest.mark.parametrize(
    ("obj", "code"),
    [
        ([1, 2], "anthropic.unexpected-json"),
        ({"no": "type"}, "anthropic.missing-type"),
        ({"type": "message_start", "message": "nope"}, "anthropic.malformed-event"),
        ({"type": "content_block_start", "index": 0}, "anthropic.malformed-event"),
        (
            {"type": "content_block_start", "index": 0, "content_block": {"type": 5}},
            "anthropic.malformed-event",
        ),
        ({"type": "content_block_delta", "index": 0, "delta": 3}, "anthropic.malformed-event"),
        (
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta"}},
            "anthropic.malformed-event",
        ),
        (
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": 1},
            },
            "anthropic.malformed-event",
        ),
        (
            {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta"}},
            "anthropic.malformed-event",
        ),
        (
            {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta"}},
            "anthropic.malformed-event",
        ),
        ({"type": "message_delta", "delta": []}, "anthropic.malformed-event"),
        ({"type": "message_delta", "delta": {"stop_reason": 3}}, "anthropic.invalid-stop-reason"),
        ({"type": "message_delta", "usage": {"output_tokens": "9"}}, "anthropic.invalid-usage"),
        ({"type": "message_delta", "usage": 12}, "anthropic.invalid-usage"),
    ],
)
def test_malformed_events_become_diagnostics(obj: Any, code: str) -> None:
    items = run(jsonl(message_start(), obj), "ndjson")
    assert code in codes(items)


def test_diagnostics_point_at_their_record_and_byte_offset() -> None:
    body = sse(message_start("msg_d"), message_start("msg_d"))
    items = run(body)
    dup = next(d for d in items if isinstance(d, Diagnostic))
    assert dup.record == 1
    assert dup.offset == body.index(b"event: message_start", 1)


# -- fixtures: the reply each one yields -------------------------------------------------

FIXTURE_FACTS: dict[str, dict[str, Any]] = {
    "text-then-tool.sse": {
        "status": "completed",
        "text": "Checking the weather in Zürich.",
        "finish_reason": "tool_calls",
        "raw_finish_reason": "tool_use",
        "tool_calls": [
            {
                "arguments": '{"city": "Zürich", "unit": "c"}',
                "complete": True,
                "id": "toolu_01Weather",
                "input": {"city": "Zürich", "unit": "c"},
                "name": "get_weather",
            }
        ],
        "usage": {"input_tokens": 25, "output_tokens": 42, "cached_input_tokens": 10},
    },
    "thinking-redacted.sse": {
        "status": "completed",
        "text": "2 + 2 = 4.",
        "reasoning": "Two plus two is four.",
        "finish_reason": "stop",
        "tool_calls": [],
    },
    "server-tool-citations.sse": {
        "status": "incomplete",  # pause_turn: the client must send it back to go on
        "text": "The Ginza store reopens Friday.",
        "raw_finish_reason": "pause_turn",
        "finish_reason": "other",
        "tool_calls": [
            {
                "arguments": '{"query": "ginza news"}',
                "complete": True,
                "id": "srvtoolu_01Search",
                "input": {"query": "ginza news"},
                "name": "web_search",
            }
        ],
        "usage": {"input_tokens": 900, "output_tokens": 77, "cached_input_tokens": 0},
    },
    "max-tokens-mid-tool.sse": {
        "status": "incomplete",
        "text": "Writing the file.",
        "finish_reason": "length",
        "tool_calls": [
            {
                "arguments": '{"name": "a.txt", "body": "lorem',
                "complete": False,
                "id": "toolu_01Cut",
                "input": None,
                "name": "make_file",
            }
        ],
    },
    "refusal.sse": {
        "status": "incomplete",
        "text": "",
        "finish_reason": "refusal",
        "usage": {"input_tokens": 18, "output_tokens": 5},
    },
    "overloaded-error.sse": {"status": "failed", "text": "Partial ", "finish_reason": None},
    "truncated.sse": {"status": "truncated", "text": "Half a sent", "finish_reason": None},
    "after-stop.sse": {"status": "completed", "text": "Done. Extra."},
    "stop-sequence-data-only.sse": {
        "status": "completed",
        "text": "one, two, ",
        "raw_finish_reason": "stop_sequence",
    },
    "name-mismatch-invalid-json.sse": {"status": "completed", "text": "Hello there"},
    "duplicate-message-start.jsonl": {"status": "completed", "text": "Once."},
    "spliced-message-start.jsonl": {
        "status": "completed",
        "text": "First try second try.",
        "finish_reason": "tool_calls",
        "tool_calls": [
            {
                "arguments": '{"q": "x',
                "complete": False,
                "id": "toolu_01A",
                "input": None,
                "name": "lookup",
            },
            {
                "arguments": '{"q": "y"}',
                "complete": True,
                "id": "toolu_01B",
                "input": {"q": "y"},
                "name": "lookup",
            },
        ],
    },
    "unknown-types.jsonl": {
        "status": "completed",
        "text": "Still here.",
        "compactions": [{"summary": "Summary so far.", "encrypted_content": None}],
    },
    "tool-start-input-mcp.jsonl": {
        "status": "completed",
        "tool_calls": [
            {
                "arguments": '{"mode":"fast","level":3}',
                "complete": True,
                "id": "toolu_01Whole",
                "input": {"mode": "fast", "level": 3},
                "name": "set_mode",
            },
            {
                "arguments": '{"term":"sse"}',
                "complete": True,
                "id": "mcptoolu_01",
                "input": {"term": "sse"},
                "name": "search_docs",
            },
        ],
    },
    "context-window-exceeded.jsonl": {
        "status": "incomplete",
        "finish_reason": "length",
        "raw_finish_reason": "model_context_window_exceeded",
    },
}

FIXTURE_CODES: dict[str, list[str]] = {
    "text-then-tool.sse": [],
    "thinking-redacted.sse": [],
    "server-tool-citations.sse": ["anthropic.turn-paused"],
    "max-tokens-mid-tool.sse": [],
    "refusal.sse": ["anthropic.refusal-explained"],
    "overloaded-error.sse": ["provider.error"],
    "truncated.sse": ["anthropic.missing-message-stop"],
    "after-stop.sse": [],
    "stop-sequence-data-only.sse": [],
    "name-mismatch-invalid-json.sse": ["anthropic.event-name-mismatch", "json.invalid"],
    "duplicate-message-start.jsonl": ["anthropic.duplicate-message-start"],
    "spliced-message-start.jsonl": ["anthropic.spliced-message"],
    "unknown-types.jsonl": [],
    "tool-start-input-mcp.jsonl": [],
    "context-window-exceeded.jsonl": [],
}


# what the Report of each fixture says: its status and every diagnostic, aggregator ones too
E2E: dict[str, tuple[str, list[str]]] = {
    "after-stop.sse": ("completed", ["stream.events-after-terminal"]),
    "context-window-exceeded.jsonl": ("incomplete", []),
    "duplicate-message-start.jsonl": ("completed", ["anthropic.duplicate-message-start"]),
    "max-tokens-mid-tool.sse": ("incomplete", ["tool.incomplete"]),
    "name-mismatch-invalid-json.sse": (
        "completed",
        ["anthropic.event-name-mismatch", "json.invalid"],
    ),
    "overloaded-error.sse": ("failed", ["provider.error"]),
    "refusal.sse": ("incomplete", ["anthropic.refusal-explained"]),
    "server-tool-citations.sse": ("incomplete", ["anthropic.turn-paused"]),
    "spliced-message-start.jsonl": (
        "completed",
        ["anthropic.spliced-message", "tool.incomplete"],
    ),
    "stop-sequence-data-only.sse": ("completed", []),
    "text-then-tool.sse": ("completed", []),
    "thinking-redacted.sse": ("completed", []),
    "tool-start-input-mcp.jsonl": ("completed", []),
    "truncated.sse": ("truncated", ["anthropic.missing-message-stop"]),
    "two-responses.jsonl": ("incomplete", ["stream.multiple-responses"]),
    "unknown-types.jsonl": ("completed", ["provider.unknown-event"] * 3),
}


def test_every_fixture_file_has_expectations() -> None:
    names = set(fixture_names("anthropic"))
    assert names - {"two-responses.jsonl"} == set(FIXTURE_FACTS) == set(FIXTURE_CODES)
    assert names == set(E2E)


@pytest.mark.parametrize("name", fixture_names("anthropic"))
def test_each_fixture_yields_its_reply_in_every_chunking(name: str) -> None:
    fed = feed_fixture("anthropic", name, framing="auto")
    status, report_codes = E2E[name]
    assert_facts(fed, {"provider": "anthropic", "framing": framing_of(name), "status": status})
    assert_facts(fed, {"codes": report_codes, **FIXTURE_FACTS.get(name, {})})
    if name in FIXTURE_FACTS:
        assert "responses" not in fed.report
        assert fed.event_codes == FIXTURE_CODES[name]


def test_the_thinking_fixture_keeps_its_signature_and_redacted_block() -> None:
    fed = feed_fixture("anthropic", "thinking-redacted.sse")
    assert [(m.signature, m.redacted) for m in fed.of_type(ReasoningMeta)] == [
        ("EqQBSigA==", None),
        (None, "EmwKAhgBEgy3va3pzix/LafPsn4a"),
    ]
    assert_facts(
        fed,
        {
            "reasoning": "Two plus two is four.",
            "reasoning_signature": "EqQBSigA==",
            "redacted_reasoning": 1,
        },
    )


def test_the_search_fixture_keeps_its_server_call_result_and_citation() -> None:
    fed = feed_fixture("anthropic", "server-tool-citations.sse")
    assert [r.result_type for r in fed.of_type(ServerToolResult)] == ["web_search_tool_result"]
    (out,) = fed.report["outputs"]
    assert [(t["name"], t["kind"], t["input"]) for t in out["tool_calls"]] == [
        ("web_search", "server", {"query": "ginza news"})
    ]
    assert len(out["server_tool_results"]) == 1
    assert out["citations"][0]["url"] == "https://example.com/ginza"


def test_two_messages_in_one_capture_are_two_responses() -> None:
    fed = feed_fixture("anthropic", "two-responses.jsonl")
    responses = fed.report["responses"]
    assert [(r["id"], r["status"], r["outputs"][0]["text"]) for r in responses] == [
        ("msg_01One", "completed", "First."),
        ("msg_01Two", "incomplete", "Second."),
    ]
    assert {k: v for k, v in responses[1]["usage"].items() if k.endswith("_tokens") and v} == {
        "input_tokens": 7,
        "output_tokens": 3,
    }


ALL_FIXTURES = fixture_names("anthropic")


@pytest.mark.parametrize("name", ALL_FIXTURES)
def test_cutting_a_fixture_at_any_record_boundary_never_raises(name: str) -> None:
    body = fixture(name)
    framing = framing_of(name)
    ends = [r.end for r in frame(body, framing) if isinstance(r, (SSEEvent, JSONRecord))]
    for end in [0, *ends]:
        items = run(body[:end], framing)
        assert all(isinstance(i, Diagnostic) or hasattr(i, "record") for i in items)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
event_types = st.sampled_from(
    [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "error",
        "ping",
    ]
)
fields = st.sampled_from(
    ["message", "index", "content_block", "delta", "usage", "error", "type", "text", "id"]
)


# Drawing is nearly all of the cost, and each draw is already read in both framings.
@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(event_types, st.dictionaries(fields, json_values, max_size=4)),
        max_size=8,
    )
)
def test_arbitrary_event_shapes_never_raise(stream: list[tuple[str, dict[str, Any]]]) -> None:
    objs = [{**body, "type": etype} for etype, body in stream]
    for framing, body in (("ndjson", jsonl(*objs)), ("sse", sse(*objs))):
        items = run(body, framing)
        assert all(isinstance(i, Diagnostic) or hasattr(i, "record") for i in items)


# -- real captures: EXPECTED.json facts --------------------------------------------------


REAL_NAMES = [
    "anthropic/max-tokens-mid-tool-input.sse",
    "anthropic/message-delta-input-tokens.jsonl",
    "anthropic/refusal-stop-details.jsonl",
    "anthropic/spliced-message-start.jsonl",
    "anthropic/text-then-tool-use.sse",
    "anthropic/thinking-signature.jsonl",
    "anthropic/tool-no-args.jsonl",
    "anthropic/web-search-citations.jsonl",
]


def test_every_anthropic_capture_in_expected_is_checked() -> None:
    assert sorted(real_expected("anthropic")) == REAL_NAMES


@pytest.mark.parametrize("name", REAL_NAMES)
def test_each_real_anthropic_capture_gives_the_expected_facts(name: str) -> None:
    assert_expected(name)


def test_the_report_of_the_spliced_fixture_keeps_both_messages_in_arrival_order() -> None:
    (out,) = feed_fixture("anthropic", "spliced-message-start.jsonl").report["outputs"]
    assert out["text"] == "First try second try."
    assert [(t["id"], t["complete"], t["input"]) for t in out["tool_calls"]] == [
        ("toolu_01A", False, None),
        ("toolu_01B", True, {"q": "y"}),
    ]


def test_every_anthropic_code_the_adapter_raises_is_documented() -> None:
    import re

    doc = (ROOT / "docs" / "diagnostics" / "anthropic.md").read_text()
    raised = {code.name for code in declared(anthropic_codes)[0]}
    documented = set(re.findall(r"^### `(anthropic\.[a-z-]+)`$", doc, re.MULTILINE))
    assert raised
    assert raised == documented

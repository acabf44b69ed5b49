"""The OpenAI Chat Completions adapter: chunks in, unified events and diagnostics out.

Streams are framed with the real framers. Where a test states what a whole stream
assembles to, it asks the shared oracle (``oracle.py``): fixtures and real captures go
through the whole Pipeline in every chunking, and events a unit test holds are folded by
the real aggregator.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.providers.oracle import (
    REAL,
    assemble,
    assert_expected,
    assert_facts,
    feed_fixture,
    framing_of,
    real_expected,
)

import ssescope
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
    Snapshot,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallsEnd,
    Unknown,
    Usage,
)
from ssescope.framing import JSONArrayParser, NDJSONParser, SSEParser
from ssescope.framing.records import JSONRecord, SSEEvent
from ssescope.providers.openai_chat import OpenAIChatAdapter, map_finish_reason
from ssescope.providers.registry import make_adapter

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "openai_chat"
REPO = Path(__file__).resolve().parents[2]

# ----------------------------------------------------------------------------- helpers


def records(body: bytes, framing: str) -> list[SSEEvent | JSONRecord]:
    """Frame ``body`` with the real framer; keep the data records only."""
    parser: Any = {"sse": SSEParser, "ndjson": NDJSONParser, "json-array": JSONArrayParser}[
        framing
    ]()
    out = parser.feed(body) + parser.close()
    return [r for r in out if isinstance(r, (SSEEvent, JSONRecord))]


def run(body: bytes | str, framing: str = "sse") -> list[Any]:
    """Feed a whole body through the adapter; return every event and diagnostic."""
    if isinstance(body, str):
        body = body.encode()
    adapter = OpenAIChatAdapter(framing)
    out: list[Any] = []
    for rec in records(body, framing):
        out.extend(adapter.feed(rec))
    out.extend(adapter.close())
    return out


def sse(*chunks: Any) -> bytes:
    """An SSE body: each chunk (an object, or a raw data string) as one ``data:`` event."""
    parts = []
    for c in chunks:
        data = c if isinstance(c, str) else json.dumps(c)
        parts.append(f"data: {data}\n\n")
    return "".join(parts).encode()


def chunk(*choices: Any, cid: str = "chatcmpl-1", **extra: Any) -> dict[str, Any]:
    """A ``chat.completion.chunk`` with the given choices."""
    return {
        "id": cid,
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": list(choices),
        **extra,
    }


def choice(finish: str | None = None, index: int = 0, **delta: Any) -> dict[str, Any]:
    """One choice entry with ``delta`` fields."""
    return {"index": index, "delta": delta, "finish_reason": finish}


def codes(events: list[Any]) -> list[str]:
    """Codes of the diagnostics among ``events``, in order."""
    return [e.code for e in events if isinstance(e, Diagnostic)]


def non_diag(events: list[Any]) -> list[Any]:
    """The events among ``events`` (diagnostics left out)."""
    return [e for e in events if not isinstance(e, Diagnostic)]


def calls_of(events: list[Any]) -> list[dict[str, Any]]:
    """The tool calls of the first output, as the real aggregator assembles ``events``."""
    (response,) = assemble(events)
    keys = ("name", "id", "arguments", "input", "complete")
    return [{k: t[k] for k in keys} for t in response["outputs"][0]["tool_calls"]]


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def out_facts(
    text: str = "",
    finish: str | None = "stop",
    raw: str | None = None,
    *,
    index: int = 0,
    reasoning: str = "",
    refusal: str = "",
    calls: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "index": index,
        "text": text,
        "reasoning": reasoning,
        "refusal": refusal,
        "finish_reason": finish,
        "raw_finish_reason": raw if raw is not None else finish,
        "tool_calls": calls or [],
    }


def call(
    name: str | None, cid: str | None, arguments: str, complete: bool = True
) -> dict[str, Any]:
    value = None
    if complete:
        try:
            value = json.loads(arguments) if arguments else {}
        except ValueError:
            value = None
    return {"name": name, "id": cid, "arguments": arguments, "input": value, "complete": complete}


def usage(
    i: int | None = None,
    o: int | None = None,
    t: int | None = None,
    r: int | None = None,
    c: int | None = None,
) -> dict[str, int | None]:
    return {
        "input_tokens": i,
        "output_tokens": o,
        "total_tokens": t,
        "reasoning_tokens": r,
        "cached_input_tokens": c,
    }


# ----------------------------------------------------------------------------- unit tests


def test_the_registry_builds_this_adapter_for_openai_chat() -> None:
    adapter = make_adapter("openai-chat", "sse")
    assert isinstance(adapter, OpenAIChatAdapter)
    assert adapter.name == "openai-chat"


def test_a_plain_text_stream_maps_to_exact_events() -> None:
    body = sse(
        chunk(choice(role="assistant", content="", refusal=None)),
        chunk(choice(content="Hi")),
        chunk(choice("stop")),
        chunk(usage={"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}),
        "[DONE]",
    )
    events = run(body)
    assert events == [
        ResponseStart(0, "chatcmpl-1", "m"),
        TextDelta(1, 0, "Hi"),
        Finish(2, 0, "stop", "stop"),
        Usage(
            3,
            usage(3, 1, 4),
            {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
            "usage chunk",
        ),
        Terminal(4, "completed", "[DONE] after finish_reason 0: stop"),
    ]


def test_tool_call_fragments_pass_identity_as_sent_and_end_at_the_finish() -> None:
    body = sse(
        chunk(
            choice(
                role="assistant",
                tool_calls=[
                    {
                        "index": 0,
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "f", "arguments": ""},
                    }
                ],
            )
        ),
        chunk(choice(tool_calls=[{"index": 0, "id": "", "function": {"arguments": '{"a":1}'}}])),
        chunk(choice("tool_calls")),
        "[DONE]",
    )
    assert non_diag(run(body)) == [
        ResponseStart(0, "chatcmpl-1", "m"),
        ToolCallDelta(0, 0, 0, "call_1", "f", "", "function"),
        ToolCallDelta(1, 0, 0, "", None, '{"a":1}', None),
        Finish(2, 0, "tool_calls", "tool_calls"),
        ToolCallsEnd(2, 0),
        Terminal(3, "completed", "[DONE] after finish_reason 0: tool_calls"),
    ]


def test_a_length_finish_leaves_tool_calls_open() -> None:
    body = sse(
        chunk(choice(tool_calls=[{"index": 0, "id": "c", "function": {"name": "f"}}])),
        chunk(choice("length")),
        "[DONE]",
    )
    events = run(body)
    assert not any(isinstance(e, ToolCallsEnd) for e in events)
    assert [e.status for e in events if isinstance(e, Terminal)] == ["incomplete"]


def test_finish_reasons_map_to_unified_values_and_keep_the_raw_one() -> None:
    assert map_finish_reason("stop") == "stop"
    assert map_finish_reason("length") == "length"
    assert map_finish_reason("tool_calls") == "tool_calls"
    assert map_finish_reason("function_call") == "tool_calls"
    assert map_finish_reason("content_filter") == "content_filter"
    assert map_finish_reason("eos") == "stop"
    assert map_finish_reason("end_turn") == "stop"
    assert map_finish_reason("error") == "error"
    assert map_finish_reason("abort") == "other"
    events = run(sse(chunk(choice("eos")), "[DONE]"))
    assert Finish(0, 0, "stop", "eos") in events


def test_an_unknown_finish_reason_is_other_with_an_info_diagnostic() -> None:
    events = run(sse(chunk(choice("weird")), "[DONE]"))
    assert Finish(0, 0, "other", "weird") in events
    assert "openai-chat.unknown-finish-reason" in codes(events)
    assert [e.status for e in events if isinstance(e, Terminal)] == ["completed"]


def test_an_empty_string_finish_reason_is_no_finish() -> None:
    events = run(sse(chunk(choice("", content="x")), "[DONE]"))
    assert not any(isinstance(e, Finish) for e in events)
    assert "stream.done-without-finish" in codes(events)


def test_done_without_any_finish_is_incomplete_with_a_warning() -> None:
    events = run(sse(chunk(choice(content="x")), "[DONE]"))
    terminal = next(e for e in events if isinstance(e, Terminal))
    assert (terminal.status, terminal.reason) == ("incomplete", "[DONE] without any finish_reason")
    diag = next(e for e in events if isinstance(e, Diagnostic))
    assert (diag.code, diag.severity, diag.record) == ("stream.done-without-finish", "warning", 1)


def test_done_before_one_choice_finished_is_incomplete() -> None:
    events = run(sse(chunk(choice("stop", content="a"), choice(index=1, content="b")), "[DONE]"))
    terminal = next(e for e in events if isinstance(e, Terminal))
    assert terminal.status == "incomplete"
    assert terminal.reason == "[DONE] after finish_reason 0: stop, before choice 1 got one"


def test_refusal_text_with_finish_stop_is_incomplete() -> None:
    events = run(sse(chunk(choice(refusal="I can't help.")), chunk(choice("stop")), "[DONE]"))
    terminal = next(e for e in events if isinstance(e, Terminal))
    assert terminal.status == "incomplete"
    assert terminal.reason == "[DONE] after finish_reason 0: stop; choice 0 refused (refusal text)"
    assert Finish(1, 0, "stop", "stop") in events


def test_an_empty_refusal_in_the_role_chunk_is_no_refusal() -> None:
    events = run(sse(chunk(choice(refusal="", content="Hi")), chunk(choice("stop")), "[DONE]"))
    assert [e.status for e in events if isinstance(e, Terminal)] == ["completed"]


def test_done_before_one_of_two_choices_finished_names_that_choice() -> None:
    events = run(sse(chunk(choice("stop", content="a"), choice(index=1, content="b")), "[DONE]"))
    diag = next(e for e in events if isinstance(e, Diagnostic))
    assert diag.code == "stream.done-without-finish"
    assert "choice 1" in diag.message


def test_a_finish_without_done_on_sse_gives_missing_done_and_no_terminal() -> None:
    events = run(sse(chunk(choice("stop", content="a"))))
    assert not any(isinstance(e, Terminal) for e in events)
    assert codes(events) == ["stream.missing-done"]


def test_an_sse_stream_cut_before_any_finish_gives_missing_done() -> None:
    events = run(sse(chunk(choice(content="a"))))
    assert codes(events) == ["stream.missing-done"]
    assert "before choice 0" in events[-1].message


def test_an_empty_sse_stream_gives_missing_done_without_a_location() -> None:
    events = run(b": only a comment\n\n")
    assert len(events) == 1
    assert (events[0].code, events[0].record, events[0].offset) == (
        "stream.missing-done",
        None,
        None,
    )


def test_jsonl_framing_ends_when_every_choice_finished() -> None:
    body = b"\n".join(
        json.dumps(c).encode()
        for c in (chunk(choice(content="a")), chunk(choice("length")), chunk(usage={}))
    )
    events = run(body, "ndjson")
    assert isinstance(events[-1], Terminal)
    assert events[-1].status == "incomplete"
    assert events[-1].record == 2


def test_jsonl_framing_without_a_finish_has_no_terminal() -> None:
    body = json.dumps(chunk(choice(content="a"))).encode()
    events = run(body, "ndjson")
    assert not any(isinstance(e, Terminal) for e in events)
    assert codes(events) == ["openai-chat.missing-finish"]


def test_a_done_line_inside_jsonl_is_still_the_end_marker() -> None:
    body = json.dumps(chunk(choice("stop", content="a"))).encode() + b"\n[DONE]\n"
    events = run(body, "ndjson")
    assert [e for e in events if isinstance(e, Terminal)] == [
        Terminal(1, "completed", "[DONE] after finish_reason 0: stop")
    ]


def test_an_error_frame_is_a_provider_error_and_a_failed_terminal() -> None:
    err: dict[str, Any] = {"message": "boom", "type": "server_error", "param": None, "code": None}
    events = run(sse(chunk(choice(content="a")), {"error": err}))
    assert events[-3:-1] == [
        ProviderError(1, "server_error", "boom", None, err),
        events[-2],
    ]
    assert events[-2].code == "provider.error"
    assert events[-2].severity == "error"
    assert events[-1] == Terminal(1, "failed", "error chunk")


def test_a_string_error_frame_is_read_too() -> None:
    events = run(sse({"error": "rate limited"}))
    assert ProviderError(0, None, "rate limited", None, "rate limited") in events
    assert codes(events) == ["provider.error"]


def test_a_vllm_error_object_fails_the_response() -> None:
    obj: dict[str, Any] = {
        "object": "error",
        "message": "too long",
        "type": "BadRequestError",
        "code": 400,
    }
    events = run(sse(obj))
    assert events[0] == ProviderError(0, "BadRequestError", "too long", "400", obj)
    assert events[-1] == Terminal(0, "failed", "error chunk")


def test_an_sse_error_event_with_plain_text_data_is_a_provider_error() -> None:
    events = run(b"event: error\ndata: upstream gone\n\n")
    assert events[0] == ProviderError(0, None, "upstream gone", None, "upstream gone")
    assert events[-1] == Terminal(0, "failed", "event: error")


def test_done_after_an_error_frame_adds_nothing() -> None:
    events = run(sse({"error": {"message": "x"}}, "[DONE]"))
    assert [type(e).__name__ for e in events] == ["ProviderError", "Diagnostic", "Terminal"]


def test_a_choice_level_error_fails_the_response_at_done() -> None:
    c = choice("error", content="")
    c["error"] = {"code": 502, "message": "upstream"}
    events = run(sse(chunk(c), "[DONE]"))
    assert ProviderError(0, None, "upstream", "502", {"code": 502, "message": "upstream"}) in events
    assert events[-1].status == "failed"


def test_a_second_done_is_diagnosed() -> None:
    events = run(sse(chunk(choice("stop")), "[DONE]", "[DONE]"))
    assert codes(events) == ["openai-chat.duplicate-done"]


def test_done_with_trailing_text_is_read_as_done() -> None:
    events = run(sse(chunk(choice("stop")), "[DONE] extra"))
    assert codes(events) == ["openai-chat.malformed-done"]
    assert isinstance(events[-1], Terminal)


def test_invalid_json_is_reported_and_the_stream_goes_on() -> None:
    events = run(sse(chunk(choice(content="a")), '{"choices": [', chunk(choice("stop")), "[DONE]"))
    assert codes(events) == ["json.invalid"]
    assert events[-1].status == "completed"


def test_an_empty_data_record_is_ignored_with_an_info() -> None:
    events = run(b"data:\n\n" + sse(chunk(choice("stop")), "[DONE]"))
    assert codes(events) == ["openai-chat.empty-data"]


def test_a_non_object_record_is_unknown() -> None:
    events = run(sse("[1, 2]", chunk(choice("stop")), "[DONE]"))
    assert codes(events) == ["openai-chat.invalid-shape"]
    assert Unknown(0, "json-list", [1, 2]) in events


def test_an_object_without_chunk_fields_is_unknown_by_its_type() -> None:
    events = run(sse({"type": "ping"}, chunk(choice("stop")), "[DONE]"))
    assert events[0] == Unknown(0, "ping", {"type": "ping"})


def test_wrong_types_everywhere_are_diagnosed_not_raised() -> None:
    body = sse(
        chunk("not a choice"),
        {"id": "chatcmpl-1", "choices": {"index": 0}},
        {"id": "chatcmpl-1", "choices": [], "usage": [1]},
        chunk({"index": "0", "delta": "text"}),
        chunk({"index": 0, "delta": {"content": 5}, "finish_reason": 3}),
        chunk(choice(tool_calls={"index": 0, "id": "c", "function": {"name": "f"}})),
        chunk(choice(tool_calls=[7, {"index": "x", "id": 9, "function": "f"}])),
        chunk(choice(function_call="f", reasoning_details="r", reasoning=3)),
        chunk(choice("stop")),
        "[DONE]",
    )
    events = run(body)
    assert set(codes(events)) == {
        "openai-chat.invalid-shape",
        "openai-chat.tool-id-not-string",
        "tool.missing-index",
        "tool.calls-under-stop",  # (the calls end with finish_reason "stop")
    }
    assert events[-1].status == "completed"


def test_a_tool_call_dict_instead_of_a_list_is_read_as_one_entry() -> None:
    events = run(sse(chunk(choice(tool_calls={"index": 0, "id": "c", "function": {"name": "f"}}))))
    assert ToolCallDelta(0, 0, 0, "c", "f", None, None) in events


def test_reasoning_content_and_reasoning_with_the_same_text_count_once() -> None:
    events = run(sse(chunk(choice(reasoning_content="abc", reasoning="abc"))))
    assert [e for e in events if isinstance(e, ReasoningDelta)] == [ReasoningDelta(0, 0, "abc")]


def test_reasoning_fields_that_differ_are_both_kept_with_an_info() -> None:
    events = run(sse(chunk(choice(reasoning_content="ab", reasoning="cd"))))
    assert [e for e in events if isinstance(e, ReasoningDelta)] == [ReasoningDelta(0, 0, "abcd")]
    assert "openai-chat.reasoning-fields-differ" in codes(events)


def test_reasoning_details_text_equal_to_reasoning_is_not_counted_twice() -> None:
    details = [{"type": "reasoning.text", "text": "abc", "signature": "s1"}]
    events = run(sse(chunk(choice(reasoning="abc", reasoning_details=details))))
    assert non_diag(events)[1:] == [
        ReasoningDelta(0, 0, "abc", None, "text"),
        ReasoningMeta(0, 0, None, "s1"),
    ]
    assert codes(events) == ["stream.missing-done"]


def test_a_summary_detail_equal_to_reasoning_is_kind_summary() -> None:
    details = [{"type": "reasoning.summary", "summary": "sum"}]
    events = run(sse(chunk(choice(reasoning="sum", reasoning_details=details))))
    assert ReasoningDelta(0, 0, "sum", None, "summary") in events


def test_reasoning_details_alone_give_text_summary_and_encrypted_pieces() -> None:
    details = [
        {"type": "reasoning.text", "text": "t"},
        {"type": "reasoning.summary", "summary": "s"},
        {"type": "reasoning.encrypted", "data": "enc"},
        {"type": "reasoning.other"},
        "junk",
    ]
    events = run(sse(chunk(choice(reasoning_details=details))))
    assert non_diag(events)[1:] == [
        ReasoningDelta(0, 0, "t", None, "text"),
        ReasoningDelta(0, 0, "s", None, "summary"),
        ReasoningMeta(0, 0, None, None, None, "enc"),
    ]
    assert "openai-chat.unknown-reasoning-detail" in codes(events)


def test_reasoning_that_differs_from_its_details_keeps_reasoning() -> None:
    details = [{"type": "reasoning.text", "text": "other"}]
    events = run(sse(chunk(choice(reasoning="abc", reasoning_details=details))))
    assert [e.text for e in events if isinstance(e, ReasoningDelta)] == ["abc"]
    assert "openai-chat.reasoning-fields-differ" in codes(events)


def test_mistral_content_arrays_split_thinking_from_text() -> None:
    content = [
        {"type": "thinking", "thinking": [{"type": "text", "text": "hm"}, "and"]},
        {"type": "thinking", "thinking": "so"},
        {"type": "text", "text": "ok"},
        "plain",
        {"type": "reference", "reference_ids": [1]},
        {"type": "image_url", "image_url": "x"},
        3,
    ]
    events = run(sse(chunk(choice(content=content))))
    assert non_diag(events)[1:] == [
        ReasoningDelta(0, 0, "hm"),
        ReasoningDelta(0, 0, "and"),
        ReasoningDelta(0, 0, "so"),
        TextDelta(0, 0, "ok"),
        TextDelta(0, 0, "plain"),
        Citation(0, 0, {"type": "reference", "reference_ids": [1]}),
    ]
    assert "openai-chat.unknown-content-part" in codes(events)


def test_refusal_deltas_are_kept_apart_from_text() -> None:
    events = run(sse(chunk(choice(content=None, refusal="No."))))
    assert RefusalDelta(0, 0, "No.") in events
    assert not any(isinstance(e, TextDelta) for e in events)


def test_audio_deltas_become_audio_events_not_text() -> None:
    audio = {"id": "a1", "data": "QUJD", "transcript": "hi", "format": "pcm16"}
    events = run(sse(chunk(choice(audio=audio))))
    assert Audio(0, 0, "QUJD", "hi", "pcm16", "a1") in events
    assert not any(isinstance(e, TextDelta) for e in events)


def test_logprobs_of_any_shape_are_ignored() -> None:
    for lp in ({"content": [{"token": "a"}], "refusal": None}, "bad", [1], None):
        c = choice(content="a")
        c["logprobs"] = lp
        assert non_diag(run(sse(chunk(c))))[1:] == [TextDelta(0, 0, "a")]


def test_delta_annotations_become_citations() -> None:
    ann: dict[str, Any] = {
        "type": "url_citation",
        "url_citation": {"url": "https://x.test", "start_index": 0},
    }
    events = run(sse(chunk(choice(annotations=[ann]))))
    assert Citation(0, 0, ann) in events


def test_a_message_snapshot_is_a_snapshot_not_an_append() -> None:
    c = choice(content="b")
    c["message"] = {"role": "assistant", "content": "ab", "reasoning_content": "r"}
    events = run(sse(chunk(c)))
    assert non_diag(events)[1:] == [
        TextDelta(0, 0, "b"),
        Snapshot(0, 0, "text", "ab"),
        Snapshot(0, 0, "reasoning", "r"),
    ]


def test_a_whole_completion_in_a_stream_gives_snapshots_and_whole_calls() -> None:
    obj = {
        "id": "chatcmpl-9",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "refusal": "no",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
    }
    events = run(json.dumps(obj).encode(), "ndjson")
    assert non_diag(events) == [
        ResponseStart(0, "chatcmpl-9", None),
        Snapshot(0, 0, "refusal", "no"),
        ToolCall(0, 0, 0, "c1", "f", "{}"),
        Finish(0, 0, "tool_calls", "tool_calls"),
        ToolCallsEnd(0, 0),
        Terminal(
            0,
            "incomplete",  # the message carries refusal text
            "a whole chat.completion, not streamed (finish_reason 0: tool_calls);"
            " choice 0 refused (refusal text)",
        ),
    ]
    assert [d.code for d in events if isinstance(d, Diagnostic)] == ["stream.not-streamed"]


def test_a_legacy_completions_text_choice_is_text() -> None:
    obj = {"id": "cmpl-1", "object": "text_completion", "choices": [{"index": 0, "text": "hey"}]}
    assert TextDelta(0, 0, "hey") in run(sse(obj))


def test_usage_maps_names_without_arithmetic() -> None:
    u: dict[str, Any] = {
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "total_tokens": 99,
        "prompt_tokens_details": {"cached_tokens": 2},
        "completion_tokens_details": {"reasoning_tokens": 3},
    }
    events = run(sse(chunk(usage=u)))
    assert Usage(0, usage(10, 5, 99, 3, 2), u, "usage chunk") in events


def test_deepseek_cache_hit_tokens_are_cached_input_when_details_are_absent() -> None:
    u: dict[str, Any] = {
        "prompt_tokens": 10,
        "prompt_cache_hit_tokens": 7,
        "prompt_cache_miss_tokens": 3,
    }
    events = run(sse(chunk(choice("stop"), usage=u)))
    assert Usage(0, usage(10, None, None, None, 7), u, "finish chunk") in events


def test_usage_numbers_that_are_not_integers_are_absent() -> None:
    u: dict[str, Any] = {"prompt_tokens": "10", "completion_tokens": 4.0, "total_tokens": True}
    events = run(sse(chunk(usage=u)))
    assert Usage(0, usage(), u, "usage chunk") in events


def test_groq_x_groq_usage_is_its_own_usage_source() -> None:
    u: dict[str, Any] = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
    events = run(sse(chunk(choice("stop"), x_groq={"id": "req", "usage": u})))
    assert Usage(0, usage(1, 2, 3), u, "x_groq.usage") in events


def test_usage_on_a_content_chunk_has_source_chunk() -> None:
    u: dict[str, Any] = {"prompt_tokens": 1}
    events = run(sse(chunk(choice(content="a"), usage=u)))
    assert Usage(0, usage(1), u, "chunk") in events


def test_top_level_citations_are_emitted_once_each() -> None:
    body = sse(
        chunk(choice(content="a"), citations=["u1"]),
        chunk(choice(content="b"), citations=["u1", "u2"]),
        chunk(choice("stop"), citations=["u1", "u2"]),
    )
    events = run(body)
    assert [e for e in events if isinstance(e, Citation)] == [
        Citation(0, 0, "u1"),
        Citation(1, 0, "u2"),
    ]


def test_search_results_are_citations_when_citations_are_absent() -> None:
    res = [{"title": "A", "url": "https://a.test"}, {"title": "A", "url": "https://a.test"}]
    events = run(sse(chunk(choice(content="a"), search_results=res)))
    assert [e.citation for e in events if isinstance(e, Citation)] == [res[0]]


def test_the_perplexity_done_chunk_is_an_end_marker_and_done_after_it_is_quiet() -> None:
    done = chunk(choice("stop", role="assistant", content=""))
    done["object"] = "chat.completion.done"
    events = run(sse(chunk(choice(content="a")), done, "[DONE]"))
    assert [e for e in events if isinstance(e, Terminal)] == [
        Terminal(1, "completed", "The chat.completion.done chunk after finish_reason 0: stop")
    ]
    assert codes(events) == []


def test_an_azure_prompt_filter_chunk_starts_nothing_and_flags_filtered_categories() -> None:
    first = {
        "choices": [],
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        "prompt_filter_results": [
            {"prompt_index": 0, "content_filter_results": {"hate": {"filtered": True}}}
        ],
    }
    events = run(sse(first, chunk(choice(content="a"))))
    assert events[0].code == "openai-chat.content-filtered"
    assert events[1] == ResponseStart(1, "chatcmpl-1", "m")


def test_an_unexpected_object_type_is_read_as_a_chunk_with_an_info() -> None:
    c = chunk(choice(content="a"))
    c["object"] = "chat.completion.delta"
    events = run(sse(c))
    assert TextDelta(0, 0, "a") in events
    assert "openai-chat.unexpected-object" in codes(events)


def test_a_choice_without_index_uses_its_position() -> None:
    events = run(sse(chunk({"delta": {"content": "a"}}, {"delta": {"content": "b"}})))
    assert [e for e in events if isinstance(e, TextDelta)] == [
        TextDelta(0, 0, "a"),
        TextDelta(0, 1, "b"),
    ]
    assert codes(events).count("openai-chat.missing-choice-index") == 1


def test_a_chunk_without_id_still_starts_the_response() -> None:
    events = run(sse({"choices": [choice(content="a")]}))
    assert events[0] == ResponseStart(0, None, None)


def test_a_new_id_while_choices_are_open_is_diagnosed_and_kept() -> None:
    events = run(sse(chunk(choice(content="a")), chunk(choice(content="b"), cid="other")))
    assert [type(e).__name__ for e in events].count("ResponseStart") == 1
    assert "openai-chat.id-changed" in codes(events)
    assert TextDelta(1, 0, "b") in events


def test_a_new_id_after_every_choice_finished_on_jsonl_ends_the_first_response() -> None:
    body = b"\n".join(
        json.dumps(c).encode()
        for c in (chunk(choice("stop", content="a")), chunk(choice("stop", content="b"), cid="two"))
    )
    events = run(body, "ndjson")
    assert non_diag(events) == [
        ResponseStart(0, "chatcmpl-1", "m"),
        TextDelta(0, 0, "a"),
        Finish(0, 0, "stop", "stop"),
        Terminal(1, "completed", "every choice finished (0: stop) before the next response"),
        ResponseStart(1, "two", "m"),
        TextDelta(1, 0, "b"),
        Finish(1, 0, "stop", "stop"),
        Terminal(1, "completed", "every choice finished (0: stop); ndjson framing has no [DONE]"),
    ]


def test_a_new_id_after_every_choice_finished_on_sse_reports_the_missing_done() -> None:
    events = run(sse(chunk(choice("stop")), chunk(choice("stop"), cid="two"), "[DONE]"))
    assert codes(events) == ["stream.missing-done"]
    assert [e.id for e in events if isinstance(e, ResponseStart)] == ["chatcmpl-1", "two"]


# -- tool-call irregularities (PROVIDER_FORMATS §1.7 catalogue)


def tool_events(*chunks: Any) -> list[Any]:
    return run(sse(*chunks, chunk(choice("tool_calls")), "[DONE]"))


def tc(**entry: Any) -> dict[str, Any]:
    return choice(tool_calls=[entry])


def test_catalogue_1_a_whole_call_in_one_chunk_is_one_fragment_then_ended() -> None:
    events = tool_events(
        chunk(tc(index=0, id="c", type="function", function={"name": "f", "arguments": "{}"}))
    )
    assert ToolCallDelta(0, 0, 0, "c", "f", "{}", "function") in events
    assert ToolCallsEnd(1, 0) in events
    assert codes(events) == []


def test_catalogue_2_a_missing_index_is_passed_as_none_and_diagnosed_once() -> None:
    events = tool_events(
        chunk(tc(id="c1", function={"name": "f", "arguments": "{"})),
        chunk(tc(function={"arguments": "}"})),
    )
    assert ToolCallDelta(1, 0, None, None, None, "}", None) in events
    assert codes(events) == ["tool.missing-index"]
    assert calls_of(events) == [call("f", "c1", "{}")]


def test_catalogue_3_an_index_reused_with_a_new_id_starts_a_new_call() -> None:
    events = tool_events(
        chunk(tc(index=0, id="a", function={"name": "f", "arguments": "{}"})),
        chunk(tc(index=0, id="b", function={"name": "g", "arguments": "{}"})),
    )
    assert codes(events) == ["openai-chat.tool-index-reused"]
    assert calls_of(events) == [
        call("f", "a", "{}"),
        call("g", "b", "{}"),
    ]


def test_catalogue_4_two_entries_with_one_index_in_a_chunk_are_both_applied() -> None:
    c = choice(
        tool_calls=[
            {"index": 0, "id": "a", "function": {"name": "f"}},
            {"index": 0, "function": {"arguments": "{}"}},
        ]
    )
    events = tool_events(chunk(c))
    assert codes(events) == ["openai-chat.duplicate-tool-index"]
    assert calls_of(events) == [call("f", "a", "{}")]


def test_catalogue_5_repeated_and_empty_ids_are_passed_as_sent() -> None:
    events = tool_events(
        chunk(tc(index=0, id="a", function={"name": "f", "arguments": "{"})),
        chunk(tc(index=0, id="a", function={"arguments": '"k":'})),
        chunk(tc(index=0, id="", function={"arguments": "1}"})),
    )
    assert ToolCallDelta(1, 0, 0, "a", None, '"k":', None) in events
    assert ToolCallDelta(2, 0, 0, "", None, "1}", None) in events
    assert codes(events) == []
    assert calls_of(events) == [call("f", "a", '{"k":1}')]


def test_catalogue_6_a_name_that_is_not_a_string_is_diagnosed_and_absent() -> None:
    events = tool_events(
        chunk(tc(index=0, id="a", function={"name": "f", "arguments": "{}"})),
        chunk(tc(index=0, function={"name": {"x": 1}})),
        chunk(tc(index=0, function={"name": ""})),
        chunk(tc(index=0, function={"name": None})),
        chunk(tc(index=0, function={"name": "f"})),
    )
    assert codes(events) == ["openai-chat.tool-name-not-string"]
    assert ToolCallDelta(1, 0, 0, None, None, None, None) in events
    assert ToolCallDelta(2, 0, 0, None, "", None, None) in events
    assert calls_of(events) == [call("f", "a", "{}")]


def test_catalogue_7_a_type_after_the_arguments_is_passed_on() -> None:
    events = tool_events(
        chunk(tc(index=0, id="a", function={"name": "f", "arguments": "{}"})),
        chunk(tc(index=0, type="function")),
    )
    assert ToolCallDelta(1, 0, 0, None, None, None, "function") in events


def test_catalogue_8_a_name_that_arrives_later_names_the_call() -> None:
    events = tool_events(
        chunk(tc(index=0, id="a", function={"arguments": "{}"})),
        chunk(tc(index=0, function={"name": "late"})),
    )
    assert calls_of(events) == [call("late", "a", "{}")]


def test_catalogue_9_interleaved_parallel_calls_are_diagnosed_once() -> None:
    events = tool_events(
        chunk(tc(index=0, id="a", function={"name": "f", "arguments": "{"})),
        chunk(tc(index=1, id="b", function={"name": "g", "arguments": "{"})),
        chunk(tc(index=0, function={"arguments": "}"})),
        chunk(tc(index=1, function={"arguments": "}"})),
    )
    assert codes(events) == ["openai-chat.tool-calls-interleaved"]
    assert calls_of(events) == [
        call("f", "a", "{}"),
        call("g", "b", "{}"),
    ]


def test_catalogue_10_a_first_index_other_than_zero_is_diagnosed_and_kept() -> None:
    events = tool_events(chunk(tc(index=3, id="a", function={"name": "f", "arguments": "{}"})))
    assert ToolCallDelta(0, 0, 3, "a", "f", "{}", None) in events
    assert codes(events) == ["openai-chat.tool-index-gap"]


def test_catalogue_11_the_parallel_wrapper_is_diagnosed_and_kept_as_sent() -> None:
    args = '{"tool_uses":[]}'
    events = tool_events(
        chunk(tc(index=0, id="a", function={"name": "multi_tool_use.parallel", "arguments": args}))
    )
    assert codes(events) == ["openai-chat.parallel-wrapper"]
    assert calls_of(events) == [call("multi_tool_use.parallel", "a", args)]


def test_arguments_sent_as_an_object_become_compact_json() -> None:
    events = tool_events(
        chunk(tc(index=0, id="a", function={"name": "f", "arguments": {"k": "é"}}))
    )
    assert ToolCallDelta(0, 0, 0, "a", "f", '{"k":"é"}', None) in events
    assert codes(events) == ["openai-chat.tool-arguments-not-string"]


def test_a_legacy_function_call_is_a_call_without_index_or_id() -> None:
    events = run(
        sse(
            chunk(choice(function_call={"name": "f", "arguments": ""})),
            chunk(choice(function_call={"arguments": "{}"})),
            chunk(choice("function_call")),
            "[DONE]",
        )
    )
    assert non_diag(events)[1:] == [
        ToolCallDelta(0, 0, None, None, "f", "", None),
        ToolCallDelta(1, 0, None, None, None, "{}", None),
        Finish(2, 0, "tool_calls", "function_call"),
        ToolCallsEnd(2, 0),
        Terminal(3, "completed", "[DONE] after finish_reason 0: function_call"),
    ]


def test_a_custom_tool_call_is_freeform_text() -> None:
    events = tool_events(
        chunk(tc(index=0, id="a", type="custom", custom={"name": "py", "input": "x"}))
    )
    assert ToolCallDelta(0, 0, 0, "a", "py", "x", "custom", "custom", "text") in events


# ----------------------------------------------------------------------------- fixtures

_FIXTURE_FACTS: dict[str, dict[str, Any]] = {
    "text-usage-done.sse": {
        "status": "completed",
        "outputs": [out_facts("Hello")],
        "usage": usage(12, 2, 14, 0, 4),
        "diagnostics": [],
    },
    "length-choices-null-usage.sse": {
        "status": "incomplete",
        "outputs": [out_facts("Once upon a time", "length")],
        "usage": usage(5, 3, 8),
        "diagnostics": [],
    },
    "length-mid-tool-call.sse": {
        "status": "incomplete",
        "outputs": [
            out_facts(
                finish="length",
                calls=[call("write_file", "call_L1", '{"path": "a.txt", "text": "lo', False)],
            )
        ],
        "usage": usage(20, 16, 36),
        "diagnostics": [],
    },
    "azure-content-filter.sse": {
        "status": "incomplete",
        "outputs": [out_facts("The battle began", "content_filter")],
        "usage": usage(30, 4, 34),
        "diagnostics": ["openai-chat.content-filtered"],
    },
    "tool-call-irregularities.sse": {
        "status": "completed",
        "outputs": [
            out_facts(
                finish="tool_calls",
                calls=[
                    call("search", "call_a", '{"q":"x"}'),
                    call("lookup", "call_b", '{"k":1}'),
                    call("search", "call_c", '{"q":"y"}'),
                ],
            )
        ],
        "usage": usage(50, 40, 90),
        "diagnostics": [
            "openai-chat.tool-index-gap",
            "openai-chat.duplicate-tool-index",
            "openai-chat.tool-calls-interleaved",
            "openai-chat.tool-name-not-string",
            "openai-chat.tool-arguments-not-string",
            "openai-chat.tool-index-reused",
        ],
    },
    "parallel-wrapper.sse": {
        "status": "completed",
        "outputs": [
            out_facts(
                finish="tool_calls",
                calls=[
                    call(
                        "multi_tool_use.parallel",
                        "call_P1",
                        '{"tool_uses":[{"recipient_name":"functions.get_weather","parameters":{"city":"Oslo"}},'
                        '{"recipient_name":"functions.get_weather","parameters":{"city":"Bergen"}}]}',
                    )
                ],
            )
        ],
        "usage": usage(),
        "diagnostics": ["openai-chat.parallel-wrapper"],
    },
    "legacy-function-call.sse": {
        "status": "completed",
        "outputs": [
            out_facts(
                finish="tool_calls",
                raw="function_call",
                calls=[call("get_time", None, '{"tz": "UTC"}')],
            )
        ],
        "usage": usage(),
        "diagnostics": [],
    },
    "n2-text-and-tool.sse": {
        "status": "completed",
        "outputs": [
            out_facts("Sunny today."),
            out_facts(
                finish="tool_calls",
                index=1,
                calls=[call("weather", "call_N1", '{"city":"Rome"}')],
            ),
        ],
        "usage": usage(40, 18, 58),
        "diagnostics": [],
    },
    "openrouter-reasoning-details.sse": {
        "status": "completed",
        "outputs": [out_facts("42", reasoning="Let me think. Summary.")],
        "usage": usage(14, 30, 44, 20, 0),
        "diagnostics": [],
    },
    "openrouter-error-finish.sse": {
        "status": "failed",
        "outputs": [out_facts("Partial", "error")],
        "usage": usage(),
        "diagnostics": ["provider.error"],
    },
    "error-frame.sse": {
        "status": "failed",
        "outputs": [out_facts("Hi", None)],
        "usage": usage(),
        "diagnostics": ["provider.error"],
    },
    "vllm-error-object.sse": {
        "status": "failed",
        "outputs": [],
        "usage": usage(),
        "diagnostics": ["provider.error"],
    },
    "event-error.sse": {
        "status": "failed",
        "outputs": [out_facts("Work", None)],
        "usage": usage(),
        "diagnostics": ["provider.error"],
    },
    "done-without-finish.sse": {
        "status": "incomplete",
        "outputs": [out_facts("Half done", None)],
        "usage": usage(),
        "diagnostics": ["stream.done-without-finish"],
    },
    "finish-without-done.sse": {
        "status": "truncated",
        "outputs": [out_facts("Bye")],
        "usage": usage(),
        "diagnostics": ["stream.missing-done"],
    },
    "truncated-mid-tool-call.sse": {
        "status": "truncated",
        "outputs": [
            out_facts(finish=None, calls=[call("save", "call_T1", '{"note": "remem', False)])
        ],
        "usage": usage(),
        "diagnostics": ["stream.missing-done"],
    },
    "events-after-done.sse": {
        "status": "completed",
        "outputs": [out_facts("Done. Extra")],
        "usage": usage(),
        "diagnostics": ["openai-chat.duplicate-done"],
    },
    "audio.sse": {
        "status": "completed",
        "outputs": [out_facts()],
        "usage": usage(8, 40, 48, 0),
        "diagnostics": [],
    },
    "two-responses.sse": {
        "status": "incomplete",
        "outputs": [out_facts("Second", "length")],
        "usage": usage(),
        "diagnostics": [],
    },
    "invalid-json-mid-stream.sse": {
        "status": "completed",
        "outputs": [out_facts("AC")],
        "usage": usage(),
        "diagnostics": ["json.invalid"],
    },
    "custom-tool.sse": {
        "status": "completed",
        "outputs": [
            out_facts(
                finish="tool_calls",
                calls=[
                    {
                        "name": "run_python",
                        "id": "call_X1",
                        "arguments": "print(1 + 1)",
                        "input": None,
                        "complete": True,
                    }
                ],
            )
        ],
        "usage": usage(),
        "diagnostics": [],
    },
    "vllm-duplicate-index-continuous-usage.sse": {
        "status": "completed",
        "outputs": [
            out_facts(
                finish="tool_calls",
                reasoning="Need a tool.",
                calls=[call("lookup", "functions.lookup:0", '{"id": 7}')],
            )
        ],
        "usage": usage(9, 11, 20),
        "diagnostics": ["openai-chat.duplicate-tool-index"],
    },
    "ollama-index-reuse.sse": {
        "status": "completed",
        "outputs": [
            out_facts(
                finish="tool_calls",
                calls=[
                    call("add_task", "call_o1", '{"t":"a"}'),
                    call("add_idea", "call_o2", '{"i":"b"}'),
                ],
            )
        ],
        "usage": usage(30, 20, 50),
        "diagnostics": ["openai-chat.tool-index-reused"],
    },
    "perplexity-citations.jsonl": {
        "status": "completed",
        "outputs": [out_facts("Paris is the capital [1][2].")],
        "usage": usage(6, 7, 13),
        "diagnostics": [],
    },
    "mistral-content-array-tools.jsonl": {
        "status": "completed",
        "outputs": [
            out_facts(
                "Checking.",
                "tool_calls",
                reasoning="Two cities, two calls.",
                calls=[
                    call("weather", "aB3dE5gH7", '{"city": "Paris"}'),
                    call("weather", "zY9xW8vU7", '{"city": "Lyon"}'),
                ],
            )
        ],
        "usage": usage(60, 35, 95),
        "diagnostics": ["tool.missing-index"],
    },
    "groq-reasoning-x-groq.jsonl": {
        "status": "completed",
        "outputs": [
            out_facts(
                finish="tool_calls",
                reasoning="User wants time.",
                calls=[call("now", "k3j2h1g0f", "{}")],
            )
        ],
        "usage": usage(80, 25, 105),
        "diagnostics": [],
    },
    "deepseek-cache-hit-usage.jsonl": {
        "status": "completed",
        "outputs": [out_facts("4", reasoning="Simple.")],
        "usage": usage(12, 9, 21, 7, 8),
        "diagnostics": [],
    },
    "no-finish.jsonl": {
        "status": "truncated",
        "outputs": [out_facts("Cut here", None)],
        "usage": usage(),
        "diagnostics": ["openai-chat.missing-finish"],
    },
    "json-array.json": {
        "status": "completed",
        "outputs": [out_facts("Array")],
        "usage": usage(3, 2, 5),
        "diagnostics": [],
    },
}


def test_every_fixture_file_has_stated_facts() -> None:
    assert sorted(p.name for p in FIXTURES.iterdir()) == sorted(_FIXTURE_FACTS)


# Diagnostics the aggregator adds on top of the adapter's, per fixture.
_E2E_ONLY = {
    "custom-tool.sse": {"usage.missing"},
    "done-without-finish.sse": {"usage.missing"},
    "events-after-done.sse": {"usage.missing", "stream.events-after-terminal"},
    "invalid-json-mid-stream.sse": {"usage.missing"},
    "legacy-function-call.sse": {"usage.missing"},
    "length-mid-tool-call.sse": {"tool.incomplete"},
    "parallel-wrapper.sse": {"usage.missing"},
    "truncated-mid-tool-call.sse": {"tool.incomplete", "sse.unterminated-event"},
    "two-responses.sse": {"usage.missing", "stream.multiple-responses"},
}


@pytest.mark.parametrize("name", sorted(_FIXTURE_FACTS))
def test_fixture_assembles_to_its_stated_facts_in_every_chunking(name: str) -> None:
    want = _FIXTURE_FACTS[name]
    assert codes(run(fixture(name), framing_of(name))) == want["diagnostics"]
    fed = feed_fixture("openai_chat", name, "auto", framing="auto")
    stated_usage = want["usage"] if any(v is not None for v in want["usage"].values()) else None
    assert_facts(
        fed,
        {
            "provider": "openai-chat",
            "framing": framing_of(name),
            "status": want["status"],
            "usage": stated_usage,
            "outputs": want["outputs"],
        },
    )
    assert set(fed.codes) == set(want["diagnostics"]) | _E2E_ONLY.get(name, set())
    json.dumps(fed.report)


@pytest.mark.parametrize("name", sorted(_FIXTURE_FACTS))
def test_cutting_a_fixture_at_every_record_boundary_never_raises(name: str) -> None:
    framing = framing_of(name)
    recs = records(fixture(name), framing)
    for cut in range(len(recs) + 1):
        adapter = OpenAIChatAdapter(framing)
        events: list[Any] = []
        for rec in recs[:cut]:
            events.extend(adapter.feed(rec))
        events.extend(adapter.close())
        terminals = [e for e in events if isinstance(e, Terminal)]
        assert len(terminals) <= 2
        if cut < len(recs) and framing == "sse" and not terminals:
            assert "stream.missing-done" in codes(events)


def test_the_perplexity_fixture_emits_each_citation_once() -> None:
    events = run(fixture("perplexity-citations.jsonl"), "ndjson")
    assert [e.citation for e in events if isinstance(e, Citation)] == [
        "https://example.org/a",
        "https://example.org/b",
    ]
    assert sum(isinstance(e, Usage) for e in events) == 4


def test_the_openrouter_fixture_keeps_signature_and_encrypted_reasoning() -> None:
    events = run(fixture("openrouter-reasoning-details.sse"))
    metas = [e for e in events if isinstance(e, ReasoningMeta)]
    assert [(m.signature, m.encrypted) for m in metas] == [
        ("sig-abc", None),
        (None, "ZW5jcnlwdGVk"),
    ]
    assert [e.kind for e in events if isinstance(e, ReasoningDelta)] == ["text", "text", "summary"]


def test_the_audio_fixture_keeps_audio_out_of_the_text() -> None:
    fed = feed_fixture("openai_chat", "audio.sse")
    assert "".join(e.data or "" for e in fed.of_type(Audio)) == "UklGRg==AAAA"
    assert fed.output["text"] == ""
    assert (fed.output["audio"]["transcript"], fed.output["audio"]["bytes"]) == ("Hello", 7)


def test_the_two_responses_fixture_gives_two_responses() -> None:
    fed = feed_fixture("openai_chat", "two-responses.sse")
    first, second = fed.report["responses"]
    assert (first["id"], second["id"]) == ("chatcmpl-one", "chatcmpl-two")
    assert_facts(fed, {"responses": [{"status": "completed", "outputs": [out_facts("First")]}, {}]})


def test_the_events_after_done_fixture_leaves_events_after_the_terminal() -> None:
    events = non_diag(run(fixture("events-after-done.sse")))
    (end,) = [i for i, e in enumerate(events) if isinstance(e, Terminal)]
    assert len(events) - end - 1 == 1
    assert (
        "stream.events-after-terminal" in feed_fixture("openai_chat", "events-after-done.sse").codes
    )


def test_the_error_fixtures_carry_the_provider_message() -> None:
    errors = [
        e
        for name in ("error-frame.sse", "openrouter-error-finish.sse", "vllm-error-object.sse")
        for e in run(fixture(name))
        if isinstance(e, ProviderError)
    ]
    assert [(e.error_type, e.message, e.code) for e in errors] == [
        ("server_error", "The server had an error while processing your request.", None),
        (None, "Provider disconnected", "server_error"),
        ("BadRequestError", "This model's maximum context length is 4096 tokens.", "400"),
    ]


# ----------------------------------------------------------------------------- robustness

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
_value = st.one_of(_json, st.sampled_from(["", "stop", "length", "error", "[DONE]"]))
_tool = st.fixed_dictionaries(
    {},
    optional={
        "index": st.one_of(st.integers(-1, 3), _json),
        "id": st.one_of(st.sampled_from(["", "a", "b"]), _json),
        "type": _value,
        "function": st.one_of(
            st.fixed_dictionaries(
                {}, optional={"name": _value, "arguments": st.one_of(st.text(max_size=4), _json)}
            ),
            _json,
        ),
        "custom": _json,
    },
)
_delta = st.fixed_dictionaries(
    {},
    optional={
        "content": st.one_of(_value, st.lists(_json, max_size=3)),
        "reasoning": _value,
        "reasoning_content": _value,
        "reasoning_details": st.one_of(
            st.lists(
                st.fixed_dictionaries(
                    {
                        "type": st.sampled_from(
                            ["reasoning.text", "reasoning.summary", "reasoning.encrypted", "x"]
                        )
                    },
                    optional={
                        "text": _value,
                        "summary": _value,
                        "data": _value,
                        "signature": _value,
                    },
                ),
                max_size=3,
            ),
            _json,
        ),
        "refusal": _value,
        "tool_calls": st.one_of(st.lists(_tool, max_size=3), _json),
        "function_call": st.one_of(st.fixed_dictionaries({}, optional={"name": _value}), _json),
        "audio": _json,
        "annotations": _json,
    },
)
_choice = st.fixed_dictionaries(
    {},
    optional={
        "index": st.one_of(st.integers(0, 2), _json),
        "delta": st.one_of(_delta, _json),
        "finish_reason": _value,
        "message": _json,
        "error": _json,
        "content_filter_results": _json,
        "text": _value,
    },
)
_chunk = st.fixed_dictionaries(
    {},
    optional={
        "id": st.one_of(st.sampled_from(["", "x", "y"]), _json),
        "object": st.one_of(
            st.sampled_from(["chat.completion.chunk", "chat.completion.done", "error", ""]), _json
        ),
        "choices": st.one_of(st.lists(st.one_of(_choice, _json), max_size=3), _json),
        "usage": _json,
        "x_groq": _json,
        "citations": _json,
        "search_results": _json,
        "prompt_filter_results": _json,
        "error": _json,
        "model": _json,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(_chunk, st.just("[DONE]"), st.just("{oops"), _json), max_size=6),
    st.sampled_from(["sse", "ndjson"]),
)
def test_arbitrary_chunk_shapes_never_raise(chunks: list[Any], framing: str) -> None:
    adapter = OpenAIChatAdapter(framing)
    events: list[Any] = []
    for i, c in enumerate(chunks):
        data = c if isinstance(c, str) else json.dumps(c)
        rec = SSEEvent(i, "message", data, "", None, i, i + 1)
        events.extend(adapter.feed(rec))
    events.extend(adapter.close())
    for e in events:
        if isinstance(e, Diagnostic):
            assert e.message.endswith((".", ")"))
        else:
            assert e.record < len(chunks)
    for response in assemble(events):
        assert response["status"] in {"completed", "incomplete", "failed", "truncated"}


# ----------------------------------------------------------------------------- real captures

_REAL_DIRS = (
    "openai-chat",
    "azure-openai",
    "deepseek",
    "groq",
    "alibaba-dashscope",
    "xai",
    "mistral",
    "moonshot",
    "perplexity",
)


def _expected() -> dict[str, Any]:
    return real_expected("openai-chat") if (REAL / "EXPECTED.json").is_file() else {}


_EXPECTED = _expected()


def test_every_real_capture_of_this_provider_has_an_expectation() -> None:
    if not REAL.is_dir():
        pytest.skip(f"real captures not found at {REAL} (set SSESCOPE_REAL_STREAMS)")
    files = sorted(
        f"{d}/{p.name}" for d in _REAL_DIRS if (REAL / d).is_dir() for p in (REAL / d).iterdir()
    )
    assert sorted(_EXPECTED) == files


@pytest.mark.parametrize("name", sorted(_EXPECTED) or ["<none>"])
def test_real_capture_assembles_to_the_expected_facts(name: str) -> None:
    if not _EXPECTED:
        pytest.skip(f"real captures not found at {REAL} (set SSESCOPE_REAL_STREAMS)")
    assert _EXPECTED[name]["framing"] == framing_of(name)
    fed = assert_expected(name)
    assert not [
        c for c in fed.codes if c.startswith("openai-chat.") and c != "openai-chat.content-filtered"
    ]


# ----------------------------------------------------------------------------- end to end


def test_the_two_responses_fixture_reports_both_responses() -> None:
    report = ssescope.inspect(fixture("two-responses.sse"), provider="openai-chat")
    assert [(r.id, r.status) for r in report.responses] == [
        ("chatcmpl-one", "completed"),
        ("chatcmpl-two", "incomplete"),
    ]


def test_the_perplexity_fixture_reports_each_citation_once() -> None:
    report = ssescope.inspect(fixture("perplexity-citations.jsonl"), provider="openai-chat")
    assert report.response.outputs[0].citations == [
        "https://example.org/a",
        "https://example.org/b",
    ]


def test_the_openrouter_fixture_reports_signature_and_encrypted_reasoning() -> None:
    report = ssescope.inspect(fixture("openrouter-reasoning-details.sse"), provider="openai-chat")
    out = report.response.outputs[0]
    assert (out.reasoning_signature, out.encrypted_reasoning) == ("sig-abc", 1)


def test_the_audio_fixture_reports_a_transcript_and_no_text() -> None:
    report = ssescope.inspect(fixture("audio.sse"), provider="openai-chat")
    out = report.response.outputs[0]
    assert out.text == ""
    assert out.audio is not None
    assert out.audio.transcript == "Hello"


def test_an_error_frame_is_the_reports_error() -> None:
    report = ssescope.inspect(fixture("error-frame.sse"), provider="openai-chat")
    assert report.response.error is not None
    assert report.response.error["type"] == "server_error"


def test_a_usage_chunk_with_another_id_after_the_finish_stays_in_the_response() -> None:
    u = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    events = run(sse(chunk(choice("stop", content="a")), chunk(cid="other", usage=u), "[DONE]"))
    assert [type(e).__name__ for e in events].count("ResponseStart") == 1
    assert codes(events) == ["openai-chat.id-changed"]
    assert events[-1] == Terminal(2, "completed", "[DONE] after finish_reason 0: stop")


def test_the_parallel_wrapper_is_reported_once_per_call_even_if_its_name_repeats() -> None:
    name = "multi_tool_use.parallel"
    events = tool_events(
        chunk(tc(index=0, id="a", function={"name": name, "arguments": "{"})),
        chunk(tc(index=0, function={"name": name, "arguments": "}"})),
        chunk(tc(index=1, id="b", function={"name": name, "arguments": "{}"})),
    )
    assert codes(events) == ["openai-chat.parallel-wrapper", "openai-chat.parallel-wrapper"]

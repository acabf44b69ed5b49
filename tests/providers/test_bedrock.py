"""The Bedrock ConverseStream adapter, in the binary event-stream form and the decoded form.

Binary bodies are built with ``eventstream.encode_message``; the committed fixtures are
written by ``tests/fixtures/bedrock/make_fixtures.py`` (checked below to be current).
Fixture and real-capture tests go through the shared oracle (``oracle.py``): the whole
Pipeline in every chunking, its Report checked against the facts each fixture states.
"""

from __future__ import annotations

import base64
import binascii
import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.providers.oracle import (
    assert_expected,
    assert_facts,
    feed,
    feed_fixture,
    framing_of,
    real_expected,
)

import ssescope
from ssescope.codes.spec import declared
from ssescope.diagnostics import Diagnostic
from ssescope.events import (
    Citation,
    Finish,
    ProviderError,
    ReasoningDelta,
    ReasoningMeta,
    ResponseStart,
    Terminal,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    Unknown,
    Usage,
)
from ssescope.framing.eventstream import EventStreamParser, encode_message
from ssescope.framing.framer import Framer
from ssescope.framing.ndjson import NDJSONParser
from ssescope.framing.records import JSONRecord, SSEEvent
from ssescope.framing.sse import SSEParser
from ssescope.providers.bedrock import BedrockAdapter, map_finish_reason
from ssescope.providers.bedrock import codes as bedrock_codes
from ssescope.providers.registry import make_adapter

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "bedrock"
REAL = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))


def _load_maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bedrock_make_fixtures", FIXTURES / "make_fixtures.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKER = _load_maker()


# -- helpers ----------------------------------------------------------------------------


def msg(etype: str, payload: Any, mtype: str = "event") -> bytes:
    """One binary event-stream message."""
    key = ":event-type" if mtype == "event" else ":exception-type"
    headers = {":message-type": mtype, key: etype, ":content-type": "application/json"}
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return encode_message(headers, data)


def parser_for(framing: str) -> Any:
    if framing == "aws-eventstream":
        return EventStreamParser()
    if framing == "sse":
        return SSEParser()
    return NDJSONParser()


def run(body: bytes, framing: str = "aws-eventstream") -> list[Any]:
    """Framing diagnostics, adapter events and diagnostics, in stream order."""
    parser = parser_for(framing)
    adapter = BedrockAdapter(framing)
    out: list[Any] = []
    for item in parser.feed(body) + parser.close():
        if isinstance(item, (SSEEvent, JSONRecord)):
            out.extend(adapter.feed(item))
        elif isinstance(item, Diagnostic):
            out.append(item)
    out.extend(adapter.close())
    return out


def events(body: bytes, framing: str = "aws-eventstream") -> list[Any]:
    return [e for e in run(body, framing) if not isinstance(e, Diagnostic)]


def codes(items: list[Any]) -> list[str]:
    return [d.code for d in items if isinstance(d, Diagnostic)]


def jsonl(*objs: dict[str, Any]) -> bytes:
    return "".join(json.dumps(o) + "\n" for o in objs).encode()


# -- the committed fixtures are what the script writes -----------------------------------


def test_the_committed_fixtures_are_what_make_fixtures_writes() -> None:
    built = MAKER.build()
    on_disk = {p.name for p in FIXTURES.iterdir() if p.suffix in {".bin", ".jsonl"}}
    assert on_disk == set(built)
    for name, data in built.items():
        assert (FIXTURES / name).read_bytes() == data, name


# -- unit: exact events -----------------------------------------------------------------


def test_the_adapter_is_registered_under_its_provider_name() -> None:
    adapter = make_adapter("bedrock", "aws-eventstream")
    assert isinstance(adapter, BedrockAdapter)
    assert adapter.name == "bedrock"


def test_a_binary_converse_stream_maps_to_events_and_ignores_padding() -> None:
    body = b"".join(
        [
            msg("messageStart", {"role": "assistant", "p": "abcdef"}),
            msg(
                "contentBlockDelta",
                {"contentBlockIndex": 0, "delta": {"text": "Hi"}, "p": "ab"},
            ),
            msg("contentBlockStop", {"contentBlockIndex": 0, "p": "abc"}),
            msg("messageStop", {"stopReason": "end_turn", "p": "a"}),
            msg(
                "metadata",
                {
                    "usage": {"inputTokens": 3, "outputTokens": 1, "totalTokens": 4},
                    "metrics": {"latencyMs": 9},
                    "p": "abcd",
                },
            ),
        ]
    )
    assert run(body) == [
        ResponseStart(0),
        TextDelta(1, 0, "Hi", 0),
        Finish(3, 0, "stop", "end_turn"),
        Terminal(3, "completed", "messageStop (end_turn)"),
        Usage(
            4,
            {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4},
            {"inputTokens": 3, "outputTokens": 1, "totalTokens": 4},
            "metadata",
        ),
    ]


def test_a_tool_use_block_gives_identity_fragments_and_an_end() -> None:
    body = jsonl(
        {"messageStart": {"role": "assistant"}},
        {
            "contentBlockStart": {
                "contentBlockIndex": 1,
                "start": {"toolUse": {"toolUseId": "tooluse_1", "name": "get"}},
            }
        },
        {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": ""}}}},
        {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": "{}"}}}},
        {"contentBlockStop": {"contentBlockIndex": 1}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
    )
    assert events(body, "ndjson")[1:] == [
        ToolCallDelta(1, 0, 1, "tooluse_1", "get"),
        ToolCallDelta(3, 0, 1, arguments="{}"),
        ToolCallEnd(4, 0, 1, "tooluse_1"),
    ]


def test_reasoning_content_gives_reasoning_a_signature_and_redacted_data() -> None:
    body = jsonl(
        {
            "contentBlockDelta": {
                "contentBlockIndex": 0,
                "delta": {"reasoningContent": {"text": "Think."}},
            }
        },
        {
            "contentBlockDelta": {
                "contentBlockIndex": 0,
                "delta": {"reasoningContent": {"signature": "SIG"}},
            }
        },
        {
            "contentBlockDelta": {
                "contentBlockIndex": 1,
                "delta": {"reasoningContent": {"redactedContent": "UkVE"}},
            }
        },
    )
    assert events(body, "ndjson") == [
        ReasoningDelta(0, 0, "Think.", 0),
        ReasoningMeta(1, 0, 0, signature="SIG"),
        ReasoningMeta(2, 0, 1, redacted="UkVE"),
    ]


def test_a_citation_delta_is_a_citation_of_its_block() -> None:
    cite: dict[str, Any] = {"location": {"documentChar": {"start": 0, "end": 4}}, "title": "doc"}
    body = jsonl({"contentBlockDelta": {"contentBlockIndex": 2, "delta": {"citation": cite}}})
    assert events(body, "ndjson") == [Citation(0, 0, cite, 2)]


@pytest.mark.parametrize(
    ("raw", "reason", "status"),
    [
        ("end_turn", "stop", "completed"),
        ("stop_sequence", "stop", "completed"),
        ("tool_use", "tool_calls", "completed"),
        ("max_tokens", "length", "incomplete"),
        ("model_context_window_exceeded", "length", "incomplete"),
        ("guardrail_intervened", "content_filter", "incomplete"),
        ("content_filtered", "content_filter", "incomplete"),
        ("something_new", "other", "completed"),
    ],
)
def test_each_stop_reason_gives_its_finish_and_terminal_status(
    raw: str, reason: str, status: str
) -> None:
    body = msg("messageStart", {"role": "assistant"}) + msg("messageStop", {"stopReason": raw})
    assert events(body)[1:] == [
        Finish(1, 0, reason, raw),  # type: ignore[arg-type]
        Terminal(1, status, f"messageStop ({raw})"),  # type: ignore[arg-type]
    ]
    assert map_finish_reason(raw) == reason


@pytest.mark.parametrize(
    "etype",
    [
        "internalServerException",
        "modelStreamErrorException",
        "serviceUnavailableException",
        "throttlingException",
        "validationException",
    ],
)
def test_each_exception_frame_fails_the_response(etype: str) -> None:
    body = msg("messageStart", {"role": "assistant"}) + msg(
        etype, {"message": "It broke."}, "exception"
    )
    items = run(body)
    assert items[1] == ProviderError(1, etype, "It broke.", None, {"message": "It broke."})
    assert codes(items) == ["provider.error"]
    assert items[-1] == Terminal(1, "failed", etype)


def test_a_model_stream_error_keeps_the_original_status_code() -> None:
    payload: dict[str, Any] = {
        "message": "Model error",
        "originalStatusCode": 424,
        "originalMessage": "x",
    }
    items = run(jsonl({"modelStreamErrorException": payload}), "ndjson")
    assert items[0] == ProviderError(0, "modelStreamErrorException", "Model error", "424", payload)


def test_an_exception_frame_whose_payload_is_not_json_still_fails_the_response() -> None:
    items = run(msg("throttlingException", b"Rate exceeded", "exception"))
    assert codes(items) == ["json.invalid", "provider.error"]
    assert ProviderError(0, "throttlingException", "Rate exceeded", None, None) in items


def test_an_error_message_type_frame_fails_the_response() -> None:
    frame = encode_message({":message-type": "error"}, b"")
    items = run(frame)
    assert [type(i) for i in items] == [ProviderError, Diagnostic, Terminal]


def test_metadata_after_message_stop_is_usage_after_the_terminal() -> None:
    body = jsonl(
        {"messageStart": {"role": "assistant"}},
        {"messageStop": {"stopReason": "end_turn"}},
        {
            "metadata": {
                "usage": {
                    "inputTokens": 5,
                    "outputTokens": 2,
                    "totalTokens": 7,
                    "cacheReadInputTokens": 4,
                    "cacheWriteInputTokens": 1,
                }
            }
        },
    )
    got = events(body, "ndjson")
    assert isinstance(got[2], Terminal)
    assert isinstance(got[3], Usage)
    assert got[3].values == {
        "input_tokens": 5,
        "output_tokens": 2,
        "total_tokens": 7,
        "cached_input_tokens": 4,
    }
    assert got[3].record == 2


def test_a_second_message_start_before_message_stop_is_reported_and_ignored() -> None:
    body = jsonl({"messageStart": {"role": "assistant"}}, {"messageStart": {"role": "assistant"}})
    items = run(body, "ndjson")
    assert codes(items) == ["bedrock.duplicate-message-start", "bedrock.missing-message-stop"]
    assert sum(isinstance(e, ResponseStart) for e in items) == 1


def test_a_message_start_after_message_stop_starts_a_new_response() -> None:
    body = jsonl(
        {"messageStart": {"role": "assistant"}},
        {"messageStop": {"stopReason": "end_turn"}},
        {"messageStart": {"role": "assistant"}},
        {"messageStop": {"stopReason": "max_tokens"}},
    )
    responses = feed(body, "bedrock", "ndjson").report["responses"]
    assert [r["status"] for r in responses] == ["completed", "incomplete"]


def test_message_stop_without_a_stop_reason_is_reported() -> None:
    items = run(jsonl({"messageStop": {}}), "ndjson")
    assert codes(items) == ["bedrock.stop-without-reason"]
    assert items[-1] == Terminal(0, "completed", "messageStop (no stopReason)")


def test_unknown_events_and_delta_kinds_become_unknown_and_the_stream_goes_on() -> None:
    body = jsonl(
        {"newThing": {"x": 1}},
        {"contentBlockStart": {"contentBlockIndex": 0, "start": {"image": {}}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"hologram": "x"}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "ok"}}},
    )
    got = events(body, "ndjson")
    assert [e.event_type for e in got if isinstance(e, Unknown)] == [
        "newThing",
        "contentBlockStart:image",
        "contentBlockDelta:hologram",
    ]
    assert got[-1] == TextDelta(3, 0, "ok", 0)


def test_a_padding_key_beside_the_event_in_the_decoded_form_is_ignored() -> None:
    body = jsonl({"messageStart": {"role": "assistant"}, "p": "abc"})
    assert events(body, "ndjson") == [ResponseStart(0)]


def test_an_sse_rewrapping_that_names_the_event_type_is_read() -> None:
    body = (
        b'event: messageStart\ndata: {"role": "assistant"}\n\n'
        b'event: contentBlockDelta\ndata: {"contentBlockDelta": '
        b'{"contentBlockIndex": 0, "delta": {"text": "Hi"}}}\n\n'
        b'event: throttlingException\ndata: {"message": "slow down"}\n\n'
    )
    got = events(body, "sse")
    assert got[:2] == [ResponseStart(0), TextDelta(1, 0, "Hi", 0)]
    assert isinstance(got[2], ProviderError)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (jsonl({}), "bedrock.unexpected-json"),
        (b"[1, 2]\n", "bedrock.unexpected-json"),
        (b"{oops\n", "json.invalid"),
        (jsonl({"messageStop": "end_turn"}), "bedrock.malformed-event"),
        (jsonl({"contentBlockStart": {"start": 3}}), "bedrock.malformed-event"),
        (jsonl({"contentBlockDelta": {"delta": []}}), "bedrock.malformed-event"),
        (jsonl({"contentBlockDelta": {"delta": {"text": 3}}}), "bedrock.malformed-event"),
        (jsonl({"contentBlockDelta": {"delta": {"toolUse": {}}}}), "bedrock.malformed-event"),
        (
            jsonl({"contentBlockDelta": {"delta": {"reasoningContent": "x"}}}),
            "bedrock.malformed-event",
        ),
        (jsonl({"metadata": {"usage": 5}}), "bedrock.invalid-usage"),
        (jsonl({"metadata": {"usage": {"inputTokens": "5"}}}), "bedrock.invalid-usage"),
        (jsonl({"chunk": {"bytes": 5}}), "bedrock.malformed-event"),
        (jsonl({"chunk": {"bytes": "not base64!"}}), "bedrock.invalid-chunk"),
        (
            jsonl({"chunk": {"bytes": base64.b64encode(b"{nope").decode()}}),
            "bedrock.invalid-chunk",
        ),
    ],
)
def test_malformed_input_becomes_diagnostics(body: bytes, code: str) -> None:
    assert code in codes(run(body, "ndjson"))


def test_an_empty_event_payload_is_an_empty_object() -> None:
    items = run(encode_message({":message-type": "event", ":event-type": "messageStart"}, b""))
    assert items == [ResponseStart(0), *items[1:]]
    assert codes(items) == ["bedrock.missing-message-stop"]


def test_a_chunk_of_another_model_family_is_unknown() -> None:
    inner = base64.b64encode(json.dumps({"generation": "Hi"}).encode()).decode()
    got = events(jsonl({"chunk": {"bytes": inner}}), "ndjson")
    assert got == [Unknown(0, "chunk", {"generation": "Hi"})]


# -- the binary framing's failure paths, through the adapter -----------------------------


def _fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def test_a_message_crc_mismatch_is_reported_and_the_message_still_read() -> None:
    body = bytearray(_fixture("text-then-tool.bin"))
    first = int.from_bytes(body[0:4], "big")
    body[first - 1] ^= 0xFF  # the last byte of the first message's CRC
    items = run(bytes(body))
    assert codes(items) == ["eventstream.crc-mismatch"]
    assert items[1] == ResponseStart(0)
    assert feed(bytes(body), "bedrock", "aws-eventstream").report["status"] == "completed"


def test_a_prelude_crc_mismatch_is_reported_and_the_message_still_read() -> None:
    body = bytearray(_fixture("guardrail.bin"))
    body[8] ^= 0x01  # the prelude CRC of the first message
    items = run(bytes(body))
    assert codes(items) == ["eventstream.crc-mismatch"]
    assert ResponseStart(0) in items


def test_a_payload_byte_flip_shows_as_a_crc_mismatch_and_invalid_json() -> None:
    one = msg("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "Hi"}})
    bad = bytearray(one)
    bad[-6] = ord("{")  # inside the payload, before the message CRC
    items = run(msg("messageStart", {"role": "assistant"}) + bytes(bad))
    assert codes(items)[:2] == ["eventstream.crc-mismatch", "json.invalid"]
    assert codes(items)[-1] == "bedrock.missing-message-stop"


def test_a_body_cut_inside_the_metadata_message_is_complete_without_usage() -> None:
    body = _fixture("text-then-tool.bin")
    ends = _message_ends(body)
    items = run(body[: ends[-2] + 20])  # 20 bytes into the last message (metadata)
    assert codes(items) == ["eventstream.truncated-message"]
    assert not [e for e in items if isinstance(e, Usage)]
    report = feed(body[: ends[-2] + 20], "bedrock", "aws-eventstream").report
    # messageStop had arrived: the reply is complete, only the usage is missing
    assert report["status"] == "completed"
    assert report["usage"] is None


def test_a_body_cut_before_message_stop_has_no_terminal() -> None:
    body = _fixture("text-then-tool.bin")
    ends = _message_ends(body)
    items = run(body[: ends[3] + 5])
    assert codes(items) == ["eventstream.truncated-message", "bedrock.missing-message-stop"]
    assert not [e for e in items if isinstance(e, Terminal)]
    assert feed(body[: ends[3] + 5], "bedrock", "aws-eventstream").report["status"] == "truncated"


def test_an_impossible_length_stops_framing_and_the_response_is_truncated() -> None:
    body = msg("messageStart", {"role": "assistant"}) + b"\xff\xff\xff\xff" + b"\x00" * 12
    items = run(body)
    assert "eventstream.bad-prelude" in codes(items)
    assert feed(body, "bedrock", "aws-eventstream").report["status"] == "truncated"


def test_the_framer_detects_the_binary_fixtures() -> None:
    framer = Framer("auto")
    out = framer.feed(_fixture("reasoning.bin")) + framer.close()
    assert any(isinstance(r, JSONRecord) and r.event == "event:messageStart" for r in out)


def test_a_bool_and_an_int_header_are_read() -> None:
    # headers of other value types must not derail the message
    hdr = b"\x05:flag\x00" + b"\x04:int\x04\x00\x00\x00\x07"
    hdr += b"\x0d:message-type\x07\x00\x05event" + b"\x0b:event-type\x07\x00\x0cmessageStart"
    payload = b'{"role":"assistant"}'
    total = 12 + len(hdr) + len(payload) + 4
    prelude = total.to_bytes(4, "big") + len(hdr).to_bytes(4, "big")
    prelude += binascii.crc32(prelude).to_bytes(4, "big")
    raw = prelude + hdr + payload
    raw += binascii.crc32(raw).to_bytes(4, "big")
    assert events(raw) == [ResponseStart(0)]


def _message_ends(body: bytes) -> list[int]:
    ends = []
    pos = 0
    while pos < len(body):
        pos += int.from_bytes(body[pos : pos + 4], "big")
        ends.append(pos)
    return ends


# -- fixtures: the reply each one yields, in both forms ----------------------------------

FIXTURE_FACTS: dict[str, dict[str, Any]] = {
    "text-then-tool": {
        "status": "completed",
        "text": "Let me look that up for you.",
        "finish_reason": "tool_calls",
        "raw_finish_reason": "tool_use",
        "tool_calls": [
            {
                "id": "tooluse_Fx01",
                "name": "get_weather",
                "arguments": '{"city":"Zürich"}',
                "complete": True,
            }
        ],
        "usage": {
            "input_tokens": 120,
            "output_tokens": 35,
            "total_tokens": 155,
            "cached_input_tokens": 100,
        },
    },
    "reasoning": {
        "status": "completed",
        "text": "There are 3.",
        "reasoning": "Count the letters: three r's.",
        "finish_reason": "stop",
        "usage": {"input_tokens": 51, "output_tokens": 94, "total_tokens": 145},
    },
    "guardrail": {
        "status": "incomplete",
        "text": "I can help with",
        "finish_reason": "content_filter",
        "raw_finish_reason": "guardrail_intervened",
    },
    "max-tokens": {
        "status": "incomplete",
        "finish_reason": "length",
        "tool_calls": [
            {
                "id": "tooluse_Fx02",
                "name": "make_file",
                "arguments": '{"body":"lorem ip',
                "complete": False,
            }
        ],
    },
    "throttled": {"status": "failed", "text": "Par", "finish_reason": None},
    "model-stream-error": {"status": "failed", "text": "Hal", "finish_reason": None},
    "invoke-model-anthropic": {
        "status": "completed",
        "text": "Hi!",
        "finish_reason": "stop",
        "raw_finish_reason": "end_turn",
        "usage": {"input_tokens": 12, "output_tokens": 3},
    },
}

FIXTURE_CODES = {
    "throttled": ["provider.error"],
    "model-stream-error": ["provider.error"],
}


# what the Report of each fixture says: its status and every diagnostic
E2E: dict[str, tuple[str, list[str]]] = {
    "text-then-tool": ("completed", []),
    "reasoning": ("completed", []),
    "guardrail": ("incomplete", []),
    "max-tokens": ("incomplete", ["tool.incomplete"]),
    "throttled": ("failed", ["provider.error"]),
    "model-stream-error": ("failed", ["provider.error"]),
    "invoke-model-anthropic": ("completed", []),
}


def test_every_fixture_stream_has_expectations() -> None:
    assert set(MAKER.STREAMS) == set(FIXTURE_FACTS) == set(E2E)


@pytest.mark.parametrize("form", ["bin", "jsonl"])
@pytest.mark.parametrize("name", sorted(FIXTURE_FACTS))
def test_each_fixture_yields_its_reply_in_both_forms_in_every_chunking(
    name: str, form: str
) -> None:
    fed = feed_fixture("bedrock", f"{name}.{form}", framing="auto")
    status, report_codes = E2E[name]
    assert_facts(fed, {"provider": "bedrock", "framing": framing_of(f"{name}.{form}")})
    assert_facts(fed, {"status": status, "codes": report_codes, **FIXTURE_FACTS[name]})
    assert fed.output["text"] == FIXTURE_FACTS[name].get("text", "")
    assert "responses" not in fed.report
    assert fed.event_codes == FIXTURE_CODES.get(name, [])


def test_both_forms_of_each_fixture_give_the_same_events() -> None:
    for name in MAKER.STREAMS:
        binary = events(_fixture(f"{name}.bin"))
        decoded = events(_fixture(f"{name}.jsonl"), "ndjson")
        assert len(binary) == len(decoded), name
        for b, d in zip(binary, decoded, strict=True):
            assert type(b) is type(d), name
            if not isinstance(b, (Usage, Unknown, ProviderError)):
                assert b == d, name


def test_the_reasoning_fixture_keeps_its_signature_and_redacted_block() -> None:
    fed = feed_fixture("bedrock", "reasoning.bin")
    metas = fed.of_type(ReasoningMeta)
    assert [m.signature for m in metas if m.signature] == ["EqQBCkgIARABGAIiQSig=="]
    assert [m.redacted for m in metas if m.redacted] == ["RWRhY3RlZCByZWFzb25pbmc="]
    assert_facts(fed, {"reasoning_signature": "EqQBCkgIARABGAIiQSig==", "redacted_reasoning": 1})


def test_the_throttled_fixture_reports_the_exception_message() -> None:
    fed = feed_fixture("bedrock", "throttled.bin")
    assert [(e.error_type, e.message) for e in fed.of_type(ProviderError)] == [
        ("throttlingException", "Too many requests, please wait.")
    ]
    assert_facts(
        fed,
        {"error": {"type": "throttlingException", "message": "Too many requests, please wait."}},
    )


def test_anthropic_chunks_are_decoded_and_the_invocation_metrics_become_usage() -> None:
    got = events(_fixture("invoke-model-anthropic.bin"))
    assert got[0] == ResponseStart(0, "msg_bdrk_01Fx", "claude-sonnet-4-5")
    metrics = [e for e in got if isinstance(e, Usage)][-1]
    assert metrics.source == "amazon-bedrock-invocationMetrics"
    assert metrics.values == {"input_tokens": 12, "output_tokens": 3}


def test_an_anthropic_stream_cut_inside_bedrock_chunks_reports_the_missing_message_stop() -> None:
    body = _fixture("invoke-model-anthropic.bin")
    ends = _message_ends(body)
    items = run(body[: ends[3]])
    assert codes(items) == ["anthropic.missing-message-stop"]


ALL_FIXTURES = sorted(p.name for p in FIXTURES.iterdir() if p.suffix in {".bin", ".jsonl"})


@pytest.mark.parametrize("name", ALL_FIXTURES)
def test_cutting_a_fixture_at_any_byte_never_raises(name: str) -> None:
    body = _fixture(name)
    framing = "aws-eventstream" if name.endswith(".bin") else "ndjson"
    step = 7 if framing == "aws-eventstream" else 1
    for end in range(0, len(body) + 1, step):
        items = run(body[:end], framing)
        assert all(isinstance(i, Diagnostic) or hasattr(i, "record") for i in items)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
event_names = st.sampled_from(
    [
        "messageStart",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
        "chunk",
        "throttlingException",
    ]
)
fields = st.sampled_from(
    ["contentBlockIndex", "start", "delta", "stopReason", "usage", "bytes", "message", "p"]
)


# Drawing is nearly all of the cost, and each draw is already read in both forms.
@settings(max_examples=75, deadline=None)
@given(
    st.lists(st.tuples(event_names, st.dictionaries(fields, json_values, max_size=4)), max_size=8)
)
def test_arbitrary_payload_shapes_never_raise(stream: list[tuple[str, dict[str, Any]]]) -> None:
    binary = b"".join(
        msg(name, body, "exception" if name.endswith("Exception") else "event")
        for name, body in stream
    )
    decoded = jsonl(*({name: body} for name, body in stream))
    for framing, body in (("aws-eventstream", binary), ("ndjson", decoded)):
        items = run(body, framing)
        assert all(isinstance(i, Diagnostic) or hasattr(i, "record") for i in items)


# -- real capture: EXPECTED.json facts ---------------------------------------------------


def test_the_real_bedrock_capture_gives_the_expected_facts() -> None:
    names = sorted(real_expected("bedrock"))
    assert names == ["bedrock/reasoning-signature.jsonl"]
    for name in names:
        fed = assert_expected(name)
        assert fed.output["reasoning_signature"].startswith("Ep0CCkgIC")


# -- end to end: the Report of a whole body ------------------------------------------------


def test_the_usage_that_follows_message_stop_is_in_the_report_without_a_late_event_diagnostic() -> (
    None
):
    data = ssescope.inspect(_fixture("text-then-tool.bin")).to_dict()
    assert data["usage"]["total_tokens"] == 155
    assert data["usage"]["cached_input_tokens"] == 100
    assert data["diagnostics"] == []


def test_a_truncated_binary_body_reports_truncation_end_to_end() -> None:
    body = _fixture("reasoning.bin")
    ends = _message_ends(body)
    data = ssescope.inspect(body[: ends[5] + 9], provider="bedrock").to_dict()
    assert data["status"] == "truncated"
    codes_ = [d["code"] for d in data["diagnostics"]]
    assert "eventstream.truncated-message" in codes_
    assert "bedrock.missing-message-stop" in codes_


def test_a_corrupted_length_field_leaves_the_response_truncated_with_a_framing_diagnostic() -> None:
    body = bytearray(_fixture("text-then-tool.bin"))
    second = _message_ends(bytes(body))[0]
    body[second + 1] ^= 0x01  # the second message now claims 64 KiB more than it has
    items = run(bytes(body))
    assert any(c.startswith("eventstream.") for c in codes(items))
    assert items[0] == ResponseStart(0)
    fed = feed(bytes(body), "bedrock", "aws-eventstream")
    assert fed.report["status"] == "truncated"
    assert any(c.startswith("eventstream.") for c in fed.codes)


def test_every_bedrock_code_the_adapter_raises_is_documented() -> None:
    import re

    doc = (ROOT / "docs" / "diagnostics" / "bedrock.md").read_text()
    raised = {code.name for code in declared(bedrock_codes)[0]}
    documented = set(re.findall(r"^### `(bedrock\.[a-z-]+)`$", doc, re.MULTILINE))
    assert raised
    assert raised == documented

"""Quirk presets: each has its provider's wire shape, and is refused where it makes no sense."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import httpx
import pytest

import ssescope
from ssescope.diagnostics import Diagnostic
from ssescope.errors import UsageError
from ssescope.examples import example_path
from ssescope.framing.eventstream import EventStreamParser
from ssescope.framing.records import JSONRecord
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from ssescope.serve.faults import apply_faults, record_spans, schedule
from ssescope.serve.quirks import PRESETS, apply_quirks, parse_quirk, shape
from tests.cli.cli_helpers import run


def body_of(example: str) -> bytes:
    return next(iter(load_captures(example_path(example)).values())).body


def datas(body: bytes) -> list[tuple[str | None, object]]:
    """(event, JSON value or raw text) of every data record."""
    out: list[tuple[str | None, object]] = []
    for span in record_spans(body)[0]:
        if span.data is None:
            continue
        try:
            out.append((span.event, json.loads(span.data)))
        except ValueError:
            out.append((span.event, span.data))
    return out


def quirked(example: str, spec: str) -> bytes:
    return apply_quirks(body_of(example), [parse_quirk(spec)]).body


def test_every_preset_is_listed_once_with_a_summary() -> None:
    names = [p.name for p in PRESETS]
    assert len(names) == len(set(names)) == 20
    assert all(p.summary and p.applies_to for p in PRESETS)


def test_azure_empty_choices_first_opens_with_prompt_filter_results() -> None:
    first = datas(quirked("openai-chat-tool-call", "azure-empty-choices-first"))[0][1]
    assert isinstance(first, dict)
    assert first["choices"] == [] and first["prompt_filter_results"][0]["prompt_index"] == 0


def test_usage_only_chunk_moves_the_usage_into_a_last_chunk_before_done() -> None:
    body = body_of("openai-chat-tool-call").replace(
        b',"choices":[],"usage"',
        b',"choices":[{"index":0,"delta":{},"finish_reason":null}],"usage"',
    )
    records = datas(apply_quirks(body, [parse_quirk("usage-only-chunk")]).body)
    assert records[-1][1] == "[DONE]"
    last = records[-2][1]
    assert isinstance(last, dict) and last["choices"] == [] and last["usage"]["total_tokens"] == 103
    assert all(not (isinstance(v, dict) and v.get("usage") and v["choices"]) for _, v in records)


def test_no_assistant_role_removes_the_role_from_every_delta() -> None:
    body = quirked("openai-chat-tool-call", "no-assistant-role")
    assert b'"role"' not in body
    assert ssescope.inspect(iter([body])).outputs[0].tool_calls[0].name == "get_weather"


def test_error_frame_then_done_sends_an_error_object_then_done_halfway() -> None:
    records = datas(quirked("openai-chat-tool-call", "error-frame-then-done"))
    assert records[-1][1] == "[DONE]"
    error = records[-2][1]
    assert isinstance(error, dict) and error["error"]["type"] == "server_error"
    report = ssescope.inspect(iter([quirked("openai-chat-tool-call", "error-frame-then-done")]))
    assert report.status == "failed"


def test_error_frame_then_done_has_the_vercel_ui_shape_for_a_ui_stream() -> None:
    records = datas(quirked("vercel-ui", "error-frame-then-done"))
    assert records[-2][1] == {"type": "error", "errorText": "The model is overloaded."}
    assert records[-1][1] == "[DONE]"


def test_anthropic_overloaded_midstream_ends_with_an_error_event() -> None:
    body = quirked("anthropic-thinking-tool-use", "anthropic-overloaded-midstream")
    event, value = datas(body)[-1]
    assert event == "error" and isinstance(value, dict)
    assert value["error"]["type"] == "overloaded_error"
    assert b"message_stop" not in body
    assert ssescope.inspect(iter([body])).status == "failed"


def test_finish_on_every_chunk_repeats_the_final_finish_reason() -> None:
    records = datas(quirked("openai-chat-tool-call", "finish-on-every-chunk"))
    reasons = [c["finish_reason"] for _, v in records if isinstance(v, dict) for c in v["choices"]]
    assert reasons and set(reasons) == {"tool_calls"}


@pytest.mark.parametrize(
    ("example", "marker"),
    [
        (
            "openai-chat-tool-call",
            b'"arguments":"{\\"city\\": \\"Lyon\\", \\"unit\\": \\"celsius\\"}"',
        ),
        (
            "anthropic-thinking-tool-use",
            b'"partial_json":"{\\"city\\": \\"Lyon\\", \\"unit\\": \\"celsius\\"}"',
        ),
    ],
)
def test_duplicate_tool_args_repeats_the_whole_arguments_in_one_more_delta(
    example: str, marker: bytes
) -> None:
    body = quirked(example, "duplicate-tool-args")
    assert marker in body
    arguments = ssescope.inspect(iter([body])).outputs[0].tool_calls[0].arguments
    assert arguments == '{"city": "Lyon", "unit": "celsius"}' * 2


def test_responses_missing_output_item_added_drops_every_added_event() -> None:
    body = quirked("openai-responses-reasoning", "responses-missing-output-item-added")
    assert b"response.output_item.added" not in body
    assert b"response.output_text.delta" in body


def test_multi_line_data_spreads_each_payload_over_data_lines_that_join_back() -> None:
    original = body_of("anthropic-thinking-tool-use")
    body = quirked("anthropic-thinking-tool-use", "multi-line-data")
    assert b'data: {\ndata:  "type"' in body
    assert datas(body) == datas(original)


def test_heartbeat_only_stall_keeps_half_the_records_then_only_comments() -> None:
    plan = apply_quirks(body_of("openai-chat-tool-call"), [parse_quirk("heartbeat-only-stall@2")])
    assert len(datas(plan.body)) == len(datas(body_of("openai-chat-tool-call"))) // 2
    assert [data for data, _ in plan.tail] == [b": keep-alive\n\n"] * 5
    assert sum(wait for _, wait in plan.tail) == pytest.approx(2.0)


def test_wire_level_quirks_leave_the_body_and_shape_the_response() -> None:
    body = body_of("ollama-chat")
    plan = apply_quirks(body, [parse_quirk("gzip-header-on-plain-body")])
    assert plan.body == body and plan.headers == {"content-encoding": "gzip"}
    plan = apply_quirks(body, [parse_quirk("keep-open-after-done@3")])
    assert plan.body == body and plan.hold_after == 3.0
    plan = apply_quirks(body, [parse_quirk("gateway-timeout-524@7")])
    assert plan.status == 524 and plan.wait_before == 7.0 and b"Error code 524" in plan.body
    plan = apply_quirks(body, [parse_quirk("proxy-buffered")])
    chunks = shape([(b"a", 0.0), (b"b", 0.5), (b"c", 0.25)], plan)
    assert chunks == [(b"abc", 0.75)]


def test_defaults_and_durations() -> None:
    assert parse_quirk("gateway-timeout-524").seconds == 100.0
    assert str(parse_quirk("keep-open-after-done@0.5")) == "keep-open-after-done@0.5"
    assert str(parse_quirk("keep-open-after-done")) == "keep-open-after-done"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no-such-quirk", "unknown quirk 'no-such-quirk'; expected one of: azure-empty"),
        ("proxy-buffered@3", "proxy-buffered takes no @SECONDS"),
        ("gateway-timeout-524@soon", "'soon' is not a number of seconds"),
        ("keep-open-after-done@-1", "must be a finite number >= 0"),
    ],
)
def test_bad_specs_are_refused_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(UsageError, match=message.replace("(", r"\(")) as info:
        parse_quirk(spec)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("example", "spec", "message"),
    [
        (
            "anthropic-thinking-tool-use",
            "azure-empty-choices-first",
            "does not apply to anthropic streams (it applies to: openai-chat)",
        ),
        (
            "openai-chat-tool-call",
            "anthropic-overloaded-midstream",
            "does not apply to openai-chat streams",
        ),
        ("ollama-chat", "multi-line-data", "needs an SSE stream, not ndjson"),
        ("ollama-chat", "heartbeat-only-stall", "needs an SSE stream, not ndjson"),
        (
            "openai-responses-reasoning",
            "duplicate-tool-args",
            "no function call arguments to duplicate",
        ),
        ("broken-crlf-keepalive", "usage-only-chunk", "reports no usage"),
        (
            "gemini-crlf",
            "no-assistant-role",
            "does not apply to gemini streams (it applies to: openai-chat)",
        ),
        ("gemini-crlf", "duplicate-tool-args", "does not apply to gemini streams"),
        (
            "ollama-chat",
            "usage-only-chunk",
            "does not apply to ollama streams (it applies to: openai-chat, gemini)",
        ),
        ("cohere-chat", "finish-on-every-chunk", "does not apply to cohere streams"),
        ("cohere-chat", "usage-only-chunk", "does not apply to cohere streams"),
    ],
)
def test_a_quirk_that_makes_no_sense_is_refused_in_one_line(
    example: str, spec: str, message: str
) -> None:
    with pytest.raises(UsageError) as info:
        apply_quirks(body_of(example), [parse_quirk(spec)])
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_serve_list_quirks_prints_every_preset() -> None:
    result = run("serve", "--list-quirks")
    assert result.code == 0
    lines = result.out.splitlines()
    assert len(lines) == len(PRESETS)
    assert lines[6].startswith("heartbeat-only-stall@SECONDS")
    assert "default 100 s" in result.out


def test_serve_refuses_a_quirk_that_applies_to_no_capture_in_one_line() -> None:
    result = run("serve", str(example_path("ollama-chat")), "--quirk", "usage-only-chunk")
    assert result.code == 2
    assert "quirk 'usage-only-chunk' does not apply to ollama streams" in result.err
    assert "Traceback" not in result.err


def test_serve_refuses_a_fault_past_the_stream_with_its_record_count() -> None:
    path = str(example_path("openai-chat-tool-call"))
    count = len(record_spans(example_path("openai-chat-tool-call").read_bytes())[0])
    for spec in ("cut@record:99", "garble@record:50"):
        result = run("serve", path, "--fault", spec)
        assert result.code == 2, spec
        assert f"fault {spec} does not fit this stream: it has {count} record(s)" in result.err
        assert "Traceback" not in result.err


def test_serve_without_a_path_says_it_is_missing() -> None:
    result = run("serve")
    assert result.code == 2
    assert "missing argument 'PATH'" in result.err


@pytest.fixture(scope="module")
def replay() -> Iterator[str]:
    """``ssescope serve`` over the bundled examples, as the command line builds it."""
    captures = {}
    for name in ("openai-chat-tool-call", "ollama-chat", "gemini-crlf", "cohere-chat"):
        captures.update(load_captures(example_path(name)))
    with ServerThread(make_app(captures, ReplayOptions(chunk="1"), log=io.StringIO())) as server:
        yield server.url


@pytest.mark.network
def test_a_quirk_is_applied_to_one_request_with_the_query(replay: str) -> None:
    plain = httpx.post(f"{replay}/openai-chat-tool-call/v1/chat/completions")
    quirky = httpx.post(
        f"{replay}/openai-chat-tool-call/v1/chat/completions?quirk=no-assistant-role"
    )
    assert b'"role":"assistant"' in plain.content
    assert quirky.status_code == 200 and b'"role"' not in quirky.content


@pytest.mark.network
def test_a_quirk_that_does_not_fit_the_request_is_a_400_in_one_line(replay: str) -> None:
    refused = httpx.post(f"{replay}/ollama-chat/api/chat?quirk=no-assistant-role")
    assert refused.status_code == 400
    assert refused.text == (
        "quirk 'no-assistant-role' does not apply to ollama streams (it applies to: openai-chat)\n"
    )
    unknown = httpx.post(f"{replay}/ollama-chat/api/chat?quirk=bogus")
    assert unknown.status_code == 400 and unknown.text.startswith("unknown quirk 'bogus'")


@pytest.mark.network
def test_a_fault_past_the_stream_is_a_400_that_gives_the_record_count(replay: str) -> None:
    count = len(record_spans(example_path("ollama-chat").read_bytes())[0])
    refused = httpx.post(f"{replay}/ollama-chat/api/chat?fault=cut@record:99")
    assert refused.status_code == 400
    assert refused.text == (
        f"fault cut@record:99 does not fit this stream: it has {count} record(s) "
        f"(numbered 0 to {count - 1})\n"
    )
    served = httpx.post(f"{replay}/ollama-chat/api/chat?fault=cut@record:{count - 1}")
    assert served.status_code == 200
    assert ssescope.inspect(iter([served.content])).status == "truncated"


@pytest.mark.network
def test_proxy_buffered_sends_one_burst_and_gzip_header_lies(replay: str) -> None:
    url = f"{replay}/openai-chat-tool-call/v1/chat/completions"
    with httpx.stream("POST", url + "?quirk=proxy-buffered") as response:
        reads = list(response.iter_raw())
    with httpx.stream("POST", url) as response:
        plain = list(response.iter_raw())
    assert len(reads) == 1 and len(plain) > 100  # the server chunks 1 byte at a time
    assert reads[0] == b"".join(plain)
    with httpx.stream("POST", url + "?quirk=gzip-header-on-plain-body") as response:
        assert response.headers["content-encoding"] == "gzip"
        assert b"".join(response.iter_raw()) == reads[0]


@pytest.mark.network
def test_a_524_answers_cloudflare_html_and_keep_open_sends_the_whole_stream(replay: str) -> None:
    url = f"{replay}/ollama-chat/api/chat"
    timeout = httpx.post(url + "?quirk=gateway-timeout-524@0")
    assert timeout.status_code == 524
    assert timeout.headers["content-type"].startswith("text/html")
    assert "Error code 524" in timeout.text
    held = httpx.post(url + "?quirk=keep-open-after-done@0.05")
    assert held.content == body_of("ollama-chat")


def served(replay: str, capture: str, quirk: str) -> bytes:
    """The bytes the replay server sends for ``capture`` with ``quirk``."""
    response = httpx.post(f"{replay}/{capture}/v1beta/models/m:streamGenerateContent?quirk={quirk}")
    assert response.status_code == 200, response.text
    return response.content


@pytest.mark.network
def test_gemini_finish_on_every_chunk_repeats_the_final_finish_reason(replay: str) -> None:
    body = served(replay, "gemini-crlf", "finish-on-every-chunk")
    chunks = [v for _, v in datas(body) if isinstance(v, dict)]
    assert len(chunks) == 3
    assert all(c["candidates"][0]["finishReason"] == "STOP" for c in chunks)
    assert body.count(b"\r\n\r\n") == 3 and b"\r\r" not in body
    report = ssescope.inspect(iter([body]))
    assert report.status == "completed"
    assert report.outputs[0].text == "Lyon is a city in France, known for its cuisine."
    assert [d.code for d in report.diagnostics] == ["stream.events-after-terminal"]


@pytest.mark.network
def test_gemini_usage_only_chunk_ends_with_a_chunk_holding_only_usage_metadata(
    replay: str,
) -> None:
    body = served(replay, "gemini-crlf", "usage-only-chunk")
    chunks = [v for _, v in datas(body) if isinstance(v, dict)]
    assert chunks[-1] == {
        "usageMetadata": {"promptTokenCount": 9, "candidatesTokenCount": 14, "totalTokenCount": 23},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "mK9KaZ-3A",
    }
    assert all("usageMetadata" not in c for c in chunks[:-1])
    assert all("candidates" in c for c in chunks[:-1])
    report = ssescope.inspect(iter([body]))
    assert report.status == "completed" and report.diagnostics == []
    assert report.usage is not None and report.usage.total_tokens == 23
    assert report.usage.output_tokens == 14


@pytest.mark.network
def test_gemini_error_frame_then_done_ends_with_gemini_error_object_halfway(
    replay: str,
) -> None:
    body = served(replay, "gemini-crlf", "error-frame-then-done")
    records = datas(body)
    assert len(records) == 3
    assert records[-1][1] == {
        "error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}
    }
    assert body.endswith(b"\r\n\r\n") and b"[DONE]" not in body
    report = ssescope.inspect(iter([body]))
    assert report.status == "failed"
    assert [d.code for d in report.diagnostics] == ["provider.error"]
    assert report.outputs[0].text == "Lyon is a city in France, "


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("finish-on-every-chunk", "the stream has no finishReason to repeat"),
        (
            "usage-only-chunk",
            "the stream reports no usageMetadata to move into a usage-only chunk",
        ),
    ],
)
def test_a_gemini_quirk_the_stream_cannot_show_is_refused_in_one_line(
    spec: str, message: str
) -> None:
    body = (
        b'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"index":0}]}\n\n'
    )
    with pytest.raises(UsageError) as info:
        apply_quirks(body, [parse_quirk(spec)])
    assert str(info.value) == f"quirk {spec!r} does not apply: {message}"


@pytest.mark.network
def test_ollama_finish_on_every_chunk_repeats_the_done_reason_on_every_line(replay: str) -> None:
    response = httpx.post(f"{replay}/ollama-chat/api/chat?quirk=finish-on-every-chunk")
    assert response.status_code == 200
    lines = [json.loads(line) for line in response.content.splitlines()]
    assert len(lines) == 5 and all(line["done_reason"] == "stop" for line in lines)
    assert [line["done"] for line in lines] == [False, False, False, False, True]
    report = ssescope.inspect(iter([response.content]))
    assert report.status == "completed" and report.diagnostics == []
    assert report.outputs[0].text == "Bonjour! Comment puis-je vous aider ?"


@pytest.mark.network
def test_ollama_error_frame_then_done_ends_with_an_error_line_halfway(replay: str) -> None:
    response = httpx.post(f"{replay}/ollama-chat/api/chat?quirk=error-frame-then-done")
    assert response.status_code == 200
    lines = [json.loads(line) for line in response.content.splitlines()]
    assert lines[-1] == {"error": "an error was encountered while running the model"}
    assert len(lines) == 3 and not any(line.get("done") for line in lines)
    report = ssescope.inspect(iter([response.content]))
    assert report.status == "failed"
    assert [d.code for d in report.diagnostics] == ["provider.error"]
    assert report.outputs[0].text == "Bonjour! Comment"


@pytest.mark.network
def test_cohere_error_frame_then_done_ends_with_an_error_message_end_halfway(
    replay: str,
) -> None:
    response = httpx.post(f"{replay}/cohere-chat/v2/chat?quirk=error-frame-then-done")
    assert response.status_code == 200
    records = datas(response.content)
    assert [event for event, _ in records] == [
        "message-start",
        "content-start",
        "content-delta",
        "content-delta",
        "message-end",
    ]
    assert records[-1][1] == {
        "type": "message-end",
        "delta": {"finish_reason": "ERROR", "error": "internal server error"},
    }
    report = ssescope.inspect(iter([response.content]))
    assert report.status == "failed"
    assert [d.code for d in report.diagnostics] == ["provider.error"]
    assert report.outputs[0].text == "Cohere streams "


def test_cohere_error_frame_then_done_needs_content_to_interrupt() -> None:
    body = (
        b'event: message-start\ndata: {"type":"message-start","delta":{"message":{}}}\n\n'
        b'event: message-end\ndata: {"type":"message-end","delta":{"finish_reason":"COMPLETE"}}\n\n'
    )
    with pytest.raises(UsageError) as info:
        apply_quirks(body, [parse_quirk("error-frame-then-done")])
    assert str(info.value) == (
        "quirk 'error-frame-then-done' does not apply: the stream has no content to interrupt"
    )


BEDROCK = Path(__file__).resolve().parent.parent / "fixtures" / "bedrock"


def messages(body: bytes) -> list[tuple[str | None, object]]:
    """(message type, payload) of every event-stream message, checksums verified."""
    parser = EventStreamParser()
    items = [*parser.feed(body), *parser.close()]
    assert not [i for i in items if isinstance(i, Diagnostic)], "a message was framed wrong"
    return [(r.event, json.loads(r.data)) for r in items if isinstance(r, JSONRecord)]


def test_bedrock_binary_duplicate_tool_args_adds_one_event_stream_message() -> None:
    body = (BEDROCK / "text-then-tool.bin").read_bytes()
    out = apply_quirks(body, [parse_quirk("duplicate-tool-args")]).body
    before, after = messages(body), messages(out)
    assert len(after) == len(before) + 1
    added = [m for m in after if m not in before]
    assert added == [
        (
            "event:contentBlockDelta",
            {"contentBlockIndex": 1, "delta": {"toolUse": {"input": '{"city":"Zürich"}'}}},
        )
    ]
    report = ssescope.inspect(iter([out]))
    assert report.framing == "aws-eventstream" and report.status == "completed"
    assert report.outputs[0].tool_calls[0].arguments == '{"city":"Zürich"}' * 2
    assert [d.code for d in report.diagnostics] == ["tool.invalid-arguments"]


@pytest.mark.parametrize("name", ["text-then-tool", "reasoning", "invoke-model-anthropic"])
def test_bedrock_binary_error_frame_then_done_ends_with_an_exception_message(name: str) -> None:
    body = (BEDROCK / f"{name}.bin").read_bytes()
    out = apply_quirks(body, [parse_quirk("error-frame-then-done")]).body
    last_type, last = messages(out)[-1]
    assert last_type == "exception:modelStreamErrorException"
    assert isinstance(last, dict) and last["message"]
    assert len(messages(out)) < len(messages(body))
    report = ssescope.inspect(iter([out]))
    assert report.status == "failed"
    assert "provider.error" in [d.code for d in report.diagnostics]


def test_bedrock_decoded_error_frame_then_done_keeps_the_decoded_form() -> None:
    body = body_of("bedrock-converse")
    out = apply_quirks(body, [parse_quirk("error-frame-then-done")]).body
    lines = [json.loads(line) for line in out.splitlines()]
    assert list(lines[-1]) == ["modelStreamErrorException"]
    assert all(len(line) == 1 for line in lines)
    report = ssescope.inspect(iter([out]))
    assert report.status == "failed" and report.outputs[0].text == "Amazon Bedrock "


@pytest.mark.parametrize(
    ("body", "spec", "message"),
    [
        (
            (BEDROCK / "reasoning.bin").read_bytes(),
            "duplicate-tool-args",
            "the stream has no toolUse input to duplicate",
        ),
        (
            b'{"messageStart":{"role":"assistant"}}\n',
            "error-frame-then-done",
            "the stream has no content to interrupt",
        ),
    ],
)
def test_a_bedrock_quirk_the_stream_cannot_show_is_refused_in_one_line(
    body: bytes, spec: str, message: str
) -> None:
    with pytest.raises(UsageError) as info:
        apply_quirks(body, [parse_quirk(spec)])
    assert str(info.value) == f"quirk {spec!r} does not apply: {message}"


def test_a_record_ending_in_crlf_keeps_its_lf_so_no_cut_falls_between_them() -> None:
    body = b'data: {"a":1}\r\n\r\n: ping\r\n\r\ndata: {"b":2}\r\n\r\n'
    spans = record_spans(body)[0]
    assert [body[s.start : s.end] for s in spans] == [
        b'data: {"a":1}\r\n\r\n',
        b": ping\r\n",
        b'data: {"b":2}\r\n\r\n',
    ]
    chunks = schedule(apply_faults(body, []), chunk="original")
    assert all(
        not (a.endswith(b"\r") and b.startswith(b"\n")) for (a, _), (b, _) in pairwise(chunks)
    )
    assert b"".join(c for c, _ in chunks) == body


@pytest.mark.network
def test_serve_sends_a_bedrock_binary_stream_with_its_quirk_as_event_stream_messages() -> None:
    captures = load_captures(BEDROCK / "text-then-tool.bin")
    with ServerThread(make_app(captures, ReplayOptions(chunk="7"), log=io.StringIO())) as server:
        response = httpx.post(
            f"{server.url}/text-then-tool/model/m/converse-stream?quirk=duplicate-tool-args"
        )
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/vnd.amazon.eventstream"
    assert (
        response.content
        == apply_quirks(captures["text-then-tool"].body, [parse_quirk("duplicate-tool-args")]).body
    )
    assert ssescope.inspect(iter([response.content])).outputs[0].tool_calls[0].arguments == (
        '{"city":"Zürich"}' * 2
    )

"""Hostile input meets documented limits: depth, numbers, repeats, long lines, bombs, times."""

from __future__ import annotations

import base64
import json
import tracemalloc
import zlib

import pytest

import ssescope
from ssescope import parse_partial
from ssescope.api import RAW_FILE, feed_chunks
from ssescope.containers import _httpbody, har
from ssescope.limits import (
    DECODED_BODY_BYTES,
    DIAGNOSTICS_PER_CODE,
    EXCERPT_CHARS,
    MAX_DEPTH,
    too_deep,
)
from ssescope.preview import summaries

DONE = b"data: [DONE]\n\n"


def _codes(report: ssescope.Report) -> list[str]:
    return [d.code for d in report.diagnostics]


def _strict(report: ssescope.Report) -> dict[str, object]:
    """The Report JSON, which must be strict JSON (no NaN or Infinity)."""
    text = json.dumps(report.to_dict(), allow_nan=False)
    return json.loads(text)


def _chat(delta: dict[str, object], **extra: object) -> bytes:
    chunk: dict[str, object] = {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta}],
    }
    chunk.update(extra)
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def _tool_stream(arguments: str) -> bytes:
    call = {"index": 0, "id": "call_1", "type": "function"}
    call["function"] = {"name": "f", "arguments": arguments}
    end: dict[str, object] = {"id": "c", "object": "chat.completion.chunk"}
    end["choices"] = [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]
    return _chat({"tool_calls": [call]}) + b"data: " + json.dumps(end).encode() + b"\n\n" + DONE


# -- depth ----------------------------------------------------------------------------


def test_the_depth_helper_stops_at_the_limit() -> None:
    assert not too_deep([[[1]]], limit=3)
    assert too_deep([[[[1]]]], limit=3)
    assert too_deep([[[[]]]], limit=3)
    assert not too_deep({"a": {"b": 1}}, limit=2)


def test_tool_arguments_a_thousand_levels_deep_are_kept_unparsed() -> None:
    deep = '{"a":' * 1000 + "1" + "}" * 1000
    report = ssescope.inspect(_tool_stream(deep))
    call = report.outputs[0].tool_calls[0]
    assert call.arguments == deep
    assert call.input is None
    assert call.error == f"nested more than {MAX_DEPTH} levels deep"
    assert "tool.arguments-too-deep" in _codes(report)
    _strict(report)  # and the JSON form is written without a RecursionError


def test_arguments_just_within_the_limit_are_parsed() -> None:
    value = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    report = ssescope.inspect(_tool_stream(value))
    assert report.outputs[0].tool_calls[0].error is None
    assert "tool.arguments-too-deep" not in _codes(report)


@pytest.mark.parametrize(
    ("provider", "record"),
    [
        ("vercel-ui", '{"type":"tool-input-available","toolCallId":"a","toolName":"f","input":%s}'),
        ("openai-chat", '{"object":"chat.completion.chunk","choices":[{"index":0,"delta":%s}]}'),
        ("bedrock", '{"contentBlockDelta":{"delta":%s,"contentBlockIndex":0}}'),
        ("anthropic", '{"type":"content_block_delta","index":0,"delta":%s}'),
        ("gemini", '{"candidates":[{"content":%s}]}'),
        ("unknown", "%s"),
    ],
)
def test_records_nested_past_the_limit_are_reported_not_crashed_on(
    provider: str, record: str
) -> None:
    deep = "[" * 300 + "]" * 300
    body = ("data: " + record % deep + "\n\n").encode()
    report = ssescope.inspect(body, provider=provider)
    assert "json.too-deep" in _codes(report), _codes(report)
    found = next(d for d in report.diagnostics if d.code == "json.too-deep")
    assert found.record == 0
    assert report.records.invalid == 1
    _strict(report)


def test_deep_partial_arguments_and_frame_previews_do_not_raise() -> None:
    assert parse_partial('{"a":' * 2000) is None
    assert parse_partial("[" * (MAX_DEPTH + 1)) is None
    assert parse_partial('{"a": [1, {"b": "x') == {"a": [1, {"b": "x"}]}
    deep = '{"a":' + "[" * 300 + "]" * 300 + "}"
    assert summaries([deep] * 10, [None] * 10) == [deep] * 10


# -- numbers --------------------------------------------------------------------------


def test_infinite_usage_is_reported_and_the_report_stays_strict_json() -> None:
    body = (
        _chat({"content": "hi"}) + b'data: {"id":"c","object":"chat.completion.chunk","choices":[],'
        b'"usage":{"prompt_tokens":1e999,"completion_tokens":NaN}}\n\n' + DONE
    )
    report = ssescope.inspect(body)
    assert "json.non-finite-number" in _codes(report)
    assert report.outputs[0].text == "hi"
    _strict(report)


@pytest.mark.parametrize("arguments", ['{"x": NaN}', '{"x": Infinity}', '{"x": -1e999}'])
def test_nan_and_infinity_are_not_valid_tool_arguments(arguments: str) -> None:
    report = ssescope.inspect(_tool_stream(arguments))
    call = report.outputs[0].tool_calls[0]
    assert call.input is None
    assert call.error is not None
    assert "tool.invalid-arguments" in _codes(report)
    _strict(report)


def test_negative_fractional_and_text_usage_values_are_reported() -> None:
    usage = {"prompt_tokens": -3, "completion_tokens": 2.5, "total_tokens": "7"}
    end: dict[str, object] = {"id": "c", "object": "chat.completion.chunk", "usage": usage}
    end["choices"] = [{"index": 0, "delta": {}, "finish_reason": "stop"}]
    body = _chat({"content": "hi"}) + b"data: " + json.dumps(end).encode() + b"\n\n" + DONE
    report = ssescope.inspect(body)
    assert report.usage is not None
    assert (report.usage.input_tokens, report.usage.output_tokens) == (None, None)
    assert report.usage.total_tokens is None
    bad = [d for d in report.diagnostics if d.code == "usage.invalid-value"]
    assert len(bad) == 3
    assert "'prompt_tokens' is -3" in bad[0].message


def test_a_huge_integer_time_in_a_jsonl_dump_is_one_diagnostic() -> None:
    chunk = {"id": "x", "object": "chat.completion.chunk", "choices": []}
    line = b'{"ts": 1' + b"0" * 400 + b', "chunk": ' + json.dumps(chunk).encode() + b"}\n"
    good = json.dumps({"ts": 1.5, "chunk": chunk}).encode() + b"\n"
    report = ssescope.inspect(line + good)
    assert report.container == "jsonl"
    assert report.records.total == 2
    assert _codes(report).count("jsonl.invalid-time") == 1


# -- capture times and status ---------------------------------------------------------


def _capture(status: object, times: list[object]) -> bytes:
    header = {"ssescope": "capture", "version": 1, "request": {"method": "POST", "url": "u"}}
    header["response"] = {"status": status, "headers": []}
    lines = [json.dumps(header)]
    for i, t in enumerate(times):
        lines.append(json.dumps({"t": t, "data": f'data: {{"n": {i}}}\n\n'}))
    return ("\n".join(lines) + "\n").encode()


def test_negative_and_out_of_order_capture_times_are_reported() -> None:
    report = ssescope.inspect(_capture(200, [0.1, -5.0, 0.5, 0.2, 0.3, 1e308]))
    codes = _codes(report)
    assert codes.count("container.invalid-time") == 1
    assert codes.count("container.time-out-of-order") == 1
    back = next(d for d in report.diagnostics if d.code == "container.time-out-of-order")
    assert "2 chunk arrival time(s) go back" in back.message
    assert report.timing.total_s is not None and report.timing.total_s >= 0
    _strict(report)


def test_a_negative_http_status_is_reported_and_left_out() -> None:
    report = ssescope.inspect(_capture(-200, [0.1]))
    assert report.http_status is None
    assert "http.invalid-status" in _codes(report)


def test_a_line_break_in_a_har_event_name_cannot_inject_records() -> None:
    messages = [
        {"time": 1.0, "eventName": 'x\ndata: {"injected": true}\n\nevent: y', "data": "{}"},
        {"time": 2.0, "eventName": "message", "eventId": "a\rb", "data": "p\rq"},
    ]
    entry = {
        "request": {"method": "GET", "url": "https://example.test/s", "headers": []},
        "response": {
            "status": 200,
            "headers": [],
            "content": {"mimeType": "text/event-stream"},
        },
        "_eventSourceMessages": messages,
    }
    doc = json.dumps({"log": {"version": "1.2", "entries": [entry]}}).encode()
    body = ssescope.read_container(doc)
    pipeline = ssescope.Pipeline(keep_records=True, source=body.info())
    ssescope.feed_chunks(pipeline, body.chunks)
    report = pipeline.report()
    assert report.records.total == 2
    assert "har.line-break-in-field" in _codes(report)
    first = pipeline.records[0]
    assert getattr(first, "event", None) == 'x\\ndata: {"injected": true}\\n\\nevent: y'
    assert getattr(pipeline.records[1], "data", None) == "p\nq"


# -- repeats --------------------------------------------------------------------------


def test_repeated_diagnostics_are_counted_after_the_first_of_each_code() -> None:
    count = DIAGNOSTICS_PER_CODE * 5
    report = ssescope.inspect(b"data: {bad json\n\n" * count, provider="openai-chat")
    codes = _codes(report)
    assert codes.count("json.invalid") == DIAGNOSTICS_PER_CODE
    capped = [d for d in report.diagnostics if d.code == "stream.diagnostics-capped"]
    assert len(capped) == 1
    assert f"{count - DIAGNOSTICS_PER_CODE:,} more 'json.invalid'" in capped[0].message
    # the summary only counts: the kept diagnostics of the code carry its severity
    assert capped[0].severity == "info"
    assert capped[0].args is not None and capped[0].args["severity"] == "error"
    assert capped[0].record == DIAGNOSTICS_PER_CODE
    assert report.records.invalid == count


def _peak_for_bad_records(count: int) -> int:
    body = b"data: {bad json}\n\n" * count
    pieces = (body[i : i + 65536] for i in range(0, len(body), 65536))  # as a file is read
    tracemalloc.start()
    try:
        report = ssescope.inspect(pieces, provider="openai-chat")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.records.invalid == count
    return peak


def test_memory_for_bad_records_does_not_grow_with_their_number() -> None:
    # every finding kept would cost about 580 bytes: 20,000 of them 11.6 MB
    small, large = _peak_for_bad_records(5_000), _peak_for_bad_records(20_000)
    assert large < 6_000_000, large
    assert large < small * 1.5, (small, large)


def test_made_up_event_types_are_counted_in_bounded_memory() -> None:
    body = b"".join(b"event: t%d\ndata: {}\n\n" % i for i in range(1_100))
    report = ssescope.inspect(body, provider="unknown")
    assert report.records.unknown == 1_100
    unknown = [d for d in report.diagnostics if d.code == "provider.unknown-event"]
    assert len(unknown) == DIAGNOSTICS_PER_CODE
    capped = next(d for d in report.diagnostics if d.code == "stream.diagnostics-capped")
    assert "901 more 'provider.unknown-event'" in capped.message  # 1,000 types + 1 bucket
    pipeline = ssescope.Pipeline(provider="unknown", source=RAW_FILE)
    feed_chunks(pipeline, [body])
    assert len(pipeline.unknown_records) == 1_100


# -- long lines -----------------------------------------------------------------------


def test_an_unterminated_line_keeps_an_excerpt_with_its_offset_and_length() -> None:
    size = 1 << 20
    report = ssescope.inspect(iter([b"data: {}\n\n", b"data: " + b"x" * size]))
    tail = next(d for d in report.diagnostics if d.code == "sse.unterminated-event")
    assert tail.raw is not None
    assert len(tail.raw) == EXCERPT_CHARS
    assert tail.offset == 10
    assert f"{size + 6:,} bytes from byte 10" in tail.message


def test_a_huge_invalid_record_keeps_an_excerpt() -> None:
    report = ssescope.inspect(b"data: {" + b"x" * 100_000 + b"\n\n", provider="openai-chat")
    bad = next(d for d in report.diagnostics if d.code == "json.invalid")
    assert bad.raw is not None and len(bad.raw) == EXCERPT_CHARS
    assert "100,001 characters" in bad.message
    assert len(bad.message) < 400


def test_quote_reads_only_the_start_of_a_long_value() -> None:
    from ssescope.diagnostics import quote

    assert quote("é" * 10_000_000) == quote("é" * 240)
    assert len(quote("x" * 10_000_000)) == 60


# -- decoding -------------------------------------------------------------------------

_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n\r\n"


def _gzip(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


def test_the_documented_decode_cap() -> None:
    assert DECODED_BODY_BYTES == 64 * 1024 * 1024


def test_a_gzip_bomb_stops_at_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_httpbody, "DECODED_BODY_BYTES", 1 << 20)
    bomb = _gzip(_chat({"content": "x"}) * 200_000)  # 17 MB of chunks in 60 kB
    report = ssescope.inspect(_HEAD + bomb)
    assert "container.decode-limit" in _codes(report)
    assert report.bytes <= 1 << 20
    assert set(report.outputs[0].text) == {"x"}


def test_multi_member_gzip_is_decoded_whole_and_trailing_bytes_are_reported() -> None:
    first = _chat({"content": "a"})
    second = _chat({"content": "b"}) + DONE
    report = ssescope.inspect(_HEAD + _gzip(first) + _gzip(second))
    assert report.outputs[0].text == "ab"
    assert "http.content-trailing-data" not in _codes(report)
    report = ssescope.inspect(_HEAD + _gzip(first + second) + b"garbage")
    assert report.outputs[0].text == "ab"
    trailing = next(d for d in report.diagnostics if d.code == "http.content-trailing-data")
    assert trailing.message.startswith("7 byte(s)")


def test_a_har_base64_body_stops_at_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(har, "_BASE64_CHARS", 4096)
    text = base64.b64encode(_chat({"content": "x"}) * 1000).decode()
    entry = {
        "request": {"method": "POST", "url": "https://example.test/s", "headers": []},
        "response": {
            "status": 200,
            "headers": [],
            "content": {"mimeType": "text/event-stream", "encoding": "base64", "text": text},
        },
    }
    doc = json.dumps({"log": {"version": "1.2", "entries": [entry]}}).encode()
    report = ssescope.inspect(doc)
    assert "container.decode-limit" in _codes(report)
    assert report.bytes == 3072

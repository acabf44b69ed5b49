"""Inputs that are not streams: each says what it is, and a whole JSON response is read."""

from __future__ import annotations

import json
from typing import Any

import pytest

import ssescope
from ssescope.framing import Framer, detect_framing

from .splits import all_splits


def _chat() -> Any:
    from openai.types.chat import ChatCompletion

    return ChatCompletion.model_validate(
        {
            "id": "chatcmpl-B9",
            "object": "chat.completion",
            "created": 1741000000,
            "model": "gpt-4o-mini-2024-07-18",
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": "It's sunny in Lyon.",
                        "tool_calls": [
                            {
                                "id": "call_Wq1",
                                "type": "function",
                                "function": {
                                    "name": "get_weather",
                                    "arguments": '{"city": "Lyon", "unit": "celsius"}',
                                },
                            }
                        ],
                    },
                    "finish_reason": "tool_calls",
                    "logprobs": None,
                }
            ],
            "usage": {"prompt_tokens": 84, "completion_tokens": 18, "total_tokens": 102},
        }
    )


def _response() -> Any:
    from openai.types.responses import Response

    return Response.model_validate(
        {
            "id": "resp_67",
            "object": "response",
            "created_at": 1741000000,
            "status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"},
            "model": "gpt-4.1-mini",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "reasoning",
                    "id": "rs_1",
                    "summary": [{"type": "summary_text", "text": "Comparing the two."}],
                },
                {
                    "type": "message",
                    "id": "msg_1",
                    "status": "incomplete",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": "The first is", "annotations": []}],
                },
            ],
            "usage": {
                "input_tokens": 31,
                "output_tokens": 64,
                "total_tokens": 95,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 40},
            },
        }
    )


def _message() -> Any:
    from anthropic.types import Message

    return Message.model_validate(
        {
            "id": "msg_01X",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-20250514",
            "content": [
                {"type": "thinking", "thinking": "The user wants Lyon.", "signature": "EqQB"},
                {"type": "text", "text": "Let me check."},
                {
                    "type": "tool_use",
                    "id": "toolu_01",
                    "name": "get_weather",
                    "input": {"city": "Lyon"},
                },
            ],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 412, "output_tokens": 27},
        }
    )


@pytest.mark.parametrize("indent", [None, 2], ids=["one-line", "pretty"])
def test_a_whole_chat_completion_shows_its_reply_and_says_it_was_not_streamed(
    indent: int | None,
) -> None:
    body = _chat().model_dump_json(indent=indent).encode()
    report = ssescope.inspect(body)
    assert report.framing == ("ndjson" if indent is None else "json")
    assert report.provider == "openai-chat"
    assert report.status == "completed"
    assert report.response.status_reason.startswith("a whole chat.completion, not streamed")
    out = report.outputs[0]
    assert out.text == "It's sunny in Lyon."
    assert out.tool_calls[0].name == "get_weather"
    assert out.tool_calls[0].input == {"city": "Lyon", "unit": "celsius"}
    assert (out.finish_reason, out.raw_finish_reason) == ("tool_calls", "tool_calls")
    assert report.usage is not None and report.usage.input_tokens == 84
    assert [d.code for d in report.diagnostics] == ["stream.not-streamed"]


@pytest.mark.parametrize("indent", [None, 2], ids=["one-line", "pretty"])
def test_a_whole_responses_object_shows_its_reply_and_its_incomplete_status(
    indent: int | None,
) -> None:
    body = _response().model_dump_json(indent=indent).encode()
    report = ssescope.inspect(body)
    assert report.provider == "openai-responses"
    assert report.status == "incomplete"
    assert report.response.status_reason == (
        "a whole Response, not streamed (response.incomplete (max_output_tokens))"
    )
    out = report.outputs[0]
    assert (out.text, out.reasoning) == ("The first is", "Comparing the two.")
    assert out.finish_reason == "length"
    assert report.usage is not None and report.usage.reasoning_tokens == 40
    assert "stream.not-streamed" in [d.code for d in report.diagnostics]


@pytest.mark.parametrize("indent", [None, 2], ids=["one-line", "pretty"])
def test_a_whole_anthropic_message_shows_thinking_text_and_tool_call(indent: int | None) -> None:
    body = _message().model_dump_json(indent=indent).encode()
    report = ssescope.inspect(body)
    assert report.provider == "anthropic"
    assert report.status == "completed"
    assert report.response.status_reason == (
        "a whole Messages message, not streamed (message_stop (tool_use))"
    )
    out = report.outputs[0]
    assert (out.reasoning, out.text) == ("The user wants Lyon.", "Let me check.")
    assert out.reasoning_signature == "EqQB"
    assert out.tool_calls[0].input == {"city": "Lyon"}
    assert out.finish_reason == "tool_calls"
    assert report.usage is not None
    assert (report.usage.input_tokens, report.usage.output_tokens) == (412, 27)
    assert [d.code for d in report.diagnostics] == ["stream.not-streamed"]


def test_a_pretty_printed_document_is_framed_the_same_in_every_chunking() -> None:
    body = _message().model_dump_json(indent=2).encode()
    assert detect_framing(body)[0] == "json"
    reference = None
    for chunks in all_splits(body[:300]):
        framer = Framer()
        out = [x for c in chunks for x in framer.feed(c)] + framer.close()
        assert framer.framing == "json"
        if reference is None:
            reference = out
        assert out == reference


def test_ndjson_whose_first_line_is_whole_stays_ndjson() -> None:
    assert detect_framing(b'{"a": 1}\n{"b": 2}\n')[0] == "ndjson"
    assert detect_framing(b'{"a": {"b": ')[0] is None  # the first line is not over yet
    assert detect_framing(b'{"a": {"b": ', final=True)[0] == "ndjson"
    assert detect_framing(b'{"a": "{ not a brace"}\n')[0] == "ndjson"


def test_an_empty_body_says_so() -> None:
    report = ssescope.inspect(b"")
    assert report.status == "truncated"
    assert report.response.status_reason == "the body is empty: no byte of a stream arrived"
    assert [d.code for d in report.diagnostics] == ["stream.empty"]


def test_an_html_page_is_named_by_its_title_and_fails() -> None:
    page = b"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>\n"
    report = ssescope.inspect(page)
    assert report.status == "failed"
    assert (
        report.response.status_reason
        == "the body is an HTML page ('502 Bad Gateway'), not a stream"
    )
    assert report.error is not None and report.error["message"] == "502 Bad Gateway"
    assert "stream.html-page" in [d.code for d in report.diagnostics]


def test_plain_text_is_quoted_and_fails() -> None:
    report = ssescope.inspect(b"upstream connect error or disconnect/reset before headers\n")
    assert report.status == "failed"
    assert report.response.status_reason == (
        "the body is plain text, not a stream: 'upstream connect error or disconnect/reset "
        "before headers'"
    )
    assert "stream.plain-text" in [d.code for d in report.diagnostics]


def test_a_stream_without_records_is_not_called_text() -> None:
    for body in (b"event: ping\n\n", b": keep-alive\n\n", b"\x00\x01\x02\x03", b"eve", b"dat"):
        codes = [d.code for d in ssescope.inspect(body).diagnostics]
        assert not {"stream.plain-text", "stream.html-page"} & set(codes), body


def test_an_http_error_page_keeps_its_http_diagnostic() -> None:
    data = (
        b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\n\r\n<html><title>x</title></html>"
    )
    report = ssescope.inspect(data)
    codes = [d.code for d in report.diagnostics]
    assert report.status == "failed"
    assert "http.error-status" in codes and "stream.html-page" not in codes


def test_a_whole_body_in_a_har_is_read_the_same() -> None:
    text = json.dumps(json.loads(_chat().model_dump_json()), indent=2)
    har = {
        "log": {
            "entries": [
                {
                    "request": {"method": "POST", "url": "https://api.test/v1/chat", "headers": []},
                    "response": {
                        "status": 200,
                        "headers": [],
                        "content": {"mimeType": "text/event-stream", "text": text},
                    },
                }
            ]
        }
    }
    report = ssescope.inspect(json.dumps(har).encode())
    assert report.text == "It's sunny in Lyon."
    assert "stream.not-streamed" in [d.code for d in report.diagnostics]

"""HAR files written to break the reader: huge numbers, odd statuses, wrapped base64."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

import ssescope

BODY = (
    'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\n'
    "data: [DONE]\n\n"
)
HUGE = int("9" * 401)


def har(response: dict[str, Any], **entry: Any) -> bytes:
    base = {
        "startedDateTime": "2026-03-01T10:00:00.000Z",
        "time": 120.5,
        "request": {"method": "POST", "url": "https://api.example.test/v1/chat/completions"},
        "response": {"status": 200, "headers": [], **response},
    }
    return json.dumps({"log": {"entries": [{**base, **entry}]}}).encode()


def sse(text: str = BODY, **content: Any) -> dict[str, Any]:
    return {"content": {"mimeType": "text/event-stream", "text": text, **content}}


@pytest.mark.parametrize(
    "entry",
    [
        {"time": HUGE},
        {"timings": {"wait": HUGE, "send": -HUGE}},
        {"time": HUGE, "timings": {"wait": 1e308}},
    ],
)
def test_a_401_digit_time_is_left_out_and_the_har_read(entry: dict[str, Any]) -> None:
    report = ssescope.inspect(har(sse(), **entry))
    assert report.container == "har" and report.status == "completed"
    assert report.outputs[0].text == "hi"
    assert "container.read-failed" not in [d.code for d in report.diagnostics]


def test_a_401_digit_message_time_is_left_out_and_the_messages_read() -> None:
    messages = [
        {"time": HUGE, "eventName": "message", "data": line}
        for line in (
            '{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}',
            "[DONE]",
        )
    ]
    report = ssescope.inspect(har(sse(""), _eventSourceMessages=messages))
    assert report.container == "har" and report.status == "completed"
    assert report.outputs[0].text == "hi"


@pytest.mark.parametrize("status", ["200", 200.0, 200.5, True, [200]])
def test_a_status_that_is_not_a_number_is_reported_not_dropped(status: object) -> None:
    report = ssescope.inspect(har({**sse(), "status": status}))
    assert report.http_status is None and report.status == "completed"
    found = [d for d in report.diagnostics if d.code == "http.invalid-status"]
    assert len(found) == 1 and "is not a status code" in found[0].message


def test_status_0_is_no_response_and_says_nothing() -> None:
    report = ssescope.inspect(har({**sse(), "status": 0}))
    assert report.http_status is None
    assert "http.invalid-status" not in [d.code for d in report.diagnostics]


def test_line_wrapped_base64_is_read_whole() -> None:
    encoded = base64.b64encode(BODY.encode()).decode()
    wrapped = "\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))
    report = ssescope.inspect(har(sse(wrapped, encoding="base64")))
    assert report.status == "completed" and report.outputs[0].text == "hi"
    assert "har.invalid-base64" not in [d.code for d in report.diagnostics]


def test_an_upper_case_base64_encoding_is_decoded() -> None:
    encoded = base64.b64encode(BODY.encode()).decode()
    report = ssescope.inspect(har(sse(encoded, encoding="Base64")))
    assert report.status == "completed" and report.outputs[0].text == "hi"


def test_a_stream_typed_only_by_its_header_is_read() -> None:
    encoded = base64.b64encode(BODY.encode()).decode()
    response = {
        "headers": [{"name": "Content-Type", "value": "text/event-stream; charset=utf-8"}],
        "content": {"mimeType": "application/octet-stream", "text": encoded, "encoding": "base64"},
    }
    report = ssescope.inspect(har(response))
    assert report.container == "har" and report.status == "completed"


def test_a_body_after_a_byte_order_mark_is_found_untyped() -> None:
    report = ssescope.inspect(har({"content": {"mimeType": "text/plain", "text": "\ufeff" + BODY}}))
    assert report.container == "har" and report.status == "completed"

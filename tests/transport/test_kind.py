"""Which responses the transport judges, and what it reads of their request."""

from __future__ import annotations

import json

import jsonschema
import pytest

import ssescope
from ssescope.output.schema import report_schema
from ssescope.transport.kind import asked_for_stream, is_stream, request_model


@pytest.mark.parametrize(
    ("content_type", "path", "expected"),
    [
        ("text/event-stream; charset=utf-8", "/v1/chat/completions", True),
        ("application/x-ndjson", "/api/chat", True),
        ("application/jsonl", "/x", True),
        ("application/vnd.amazon.eventstream", "/model/m/converse-stream", True),
        ("application/json", "/v1beta/models/gemini-2.0-flash:streamGenerateContent", True),
        ("application/json", "/v1/chat/completions", False),
        ("text/html", "/", False),
        ("", "/", False),
    ],
)
def test_streams_are_told_by_their_content_type(
    content_type: str, path: str, expected: bool
) -> None:
    assert is_stream(content_type, path) is expected


def test_a_request_asks_for_a_stream_by_its_body_query_accept_header_or_path() -> None:
    assert asked_for_stream("/v1/chat/completions", "", b'{"stream": true}', "")
    assert asked_for_stream("/v1/chat/completions", "", b'{"stream":true,"model":"m"}', "")
    assert asked_for_stream("/v1beta/models/g:streamGenerateContent", "", None, "")
    assert asked_for_stream("/x", "alt=sse", None, "")
    assert asked_for_stream("/x", "", None, "text/event-stream")
    assert not asked_for_stream("/v1/chat/completions", "", b'{"stream": false}', "*/*")


def test_the_model_comes_from_the_body_or_the_url() -> None:
    assert request_model("/v1/chat/completions", b'{"model": "gpt-4o-mini"}') == "gpt-4o-mini"
    assert request_model("/v1beta/models/gemini-2.0-flash:streamGenerateContent", b"{}") == (
        "gemini-2.0-flash"
    )
    assert request_model("/model/anthropic.claude-v2/converse-stream", None) == (
        "anthropic.claude-v2"
    )
    assert request_model("/v1/chat/completions", b"not json") is None
    assert request_model("/v1/chat/completions", b'{"model": 3}') is None


def test_the_reports_request_follows_the_schema_and_is_absent_elsewhere() -> None:
    report = ssescope.inspect(b'data: {"choices":[]}\n\n')
    assert "request" not in report.to_dict()
    report.request = ssescope.RequestSummary("POST", "https://x/v1?key=[redacted]", "m", 1.5)
    data = json.loads(json.dumps(report.to_dict()))
    assert data["request"] == {
        "method": "POST",
        "url": "https://x/v1?key=[redacted]",
        "model": "m",
        "started": 1.5,
    }
    jsonschema.validate(data, report_schema())

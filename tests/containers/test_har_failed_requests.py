"""A streaming request answered with an HTTP error is an entry of its HAR, and it fails.

The error bodies are the providers' documented error shapes (Anthropic's
``overloaded_error`` on HTTP 529, OpenAI's ``error`` object on HTTP 429, Gemini's
``RESOURCE_EXHAUSTED`` status on HTTP 429).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.cli.cli_helpers import run

import ssescope
from ssescope.containers import read_all

ANTHROPIC_529 = {
    "type": "error",
    "error": {"type": "overloaded_error", "message": "Overloaded"},
}
OPENAI_429 = {
    "error": {
        "message": "Rate limit reached for gpt-4o in organization org-x on tokens per min.",
        "type": "tokens",
        "param": None,
        "code": "rate_limit_exceeded",
    }
}
GEMINI_429 = {
    "error": {
        "code": 429,
        "message": "Resource has been exhausted (e.g. check quota).",
        "status": "RESOURCE_EXHAUSTED",
    }
}
SSE = (
    'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,'
    '"delta":{"content":"Hi"},"finish_reason":null}]}\n\n'
    'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,'
    '"delta":{},"finish_reason":"stop"}]}\n\n'
    "data: [DONE]\n\n"
)


def _entry(
    url: str,
    status: int,
    body: str,
    *,
    mime: str = "application/json",
    posted: dict[str, Any] | None = None,
    accept: str | None = None,
) -> dict[str, Any]:
    headers = [{"name": "Content-Type", "value": "application/json"}]
    if accept is not None:
        headers.append({"name": "Accept", "value": accept})
    request: dict[str, Any] = {"method": "POST", "url": url, "headers": headers}
    if posted is not None:
        request["postData"] = {"mimeType": "application/json", "text": json.dumps(posted)}
    return {
        "startedDateTime": "2026-03-01T10:00:00.000Z",
        "request": request,
        "response": {
            "status": status,
            "headers": [{"name": "Content-Type", "value": mime}],
            "content": {"mimeType": mime, "text": body},
        },
    }


def _har(*entries: dict[str, Any]) -> bytes:
    return json.dumps({"log": {"version": "1.2", "entries": list(entries)}}).encode()


def _session() -> bytes:
    """A streamed reply that worked, then an Anthropic request refused with HTTP 529."""
    return _har(
        _entry(
            "https://api.openai.com/v1/chat/completions",
            200,
            SSE,
            mime="text/event-stream",
            posted={"model": "gpt-4o", "stream": True},
        ),
        _entry(
            "https://api.anthropic.com/v1/messages",
            529,
            json.dumps(ANTHROPIC_529),
            posted={"model": "claude-sonnet-4-5", "max_tokens": 64, "stream": True},
        ),
    )


def test_a_streaming_request_refused_with_http_529_is_a_failed_entry() -> None:
    ok, refused = ssescope.inspect_all(_session())
    assert ok.status == "completed"
    assert refused.status == "failed"
    assert refused.http_status == 529
    assert "overloaded_error" in (refused.response.status_reason or "")
    assert refused.error is not None
    assert (refused.error["type"], refused.error["message"]) == ("overloaded_error", "Overloaded")
    assert refused.entry is not None and refused.entry.index == 1


def test_the_har_entry_agrees_with_the_same_answer_as_curl_i_output() -> None:
    body = json.dumps(ANTHROPIC_529)
    curl = ("HTTP/2 529\r\ncontent-type: application/json\r\n\r\n" + body).encode()
    from_curl = ssescope.inspect(curl)
    (from_har,) = ssescope.inspect_all(
        _har(_entry("https://api.anthropic.com/v1/messages", 529, body, posted={"stream": True}))
    )
    assert from_curl.status == from_har.status == "failed"
    assert from_curl.response.status_reason == from_har.response.status_reason
    assert from_curl.error == from_har.error


@pytest.mark.parametrize(
    ("url", "posted", "accept", "error", "kind"),
    [
        (
            "https://api.openai.com/v1/chat/completions",
            {"model": "gpt-4o", "stream": True},
            None,
            OPENAI_429,
            "tokens",
        ),
        (
            "https://api.openai.com/v1/responses",
            {"model": "gpt-4o"},
            "text/event-stream",
            OPENAI_429,
            "tokens",
        ),
        (
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash"
            ":streamGenerateContent?alt=sse",
            {"contents": []},
            None,
            GEMINI_429,
            "RESOURCE_EXHAUSTED",
        ),
    ],
    ids=["stream-true", "accept-event-stream", "gemini-stream-url"],
)
def test_each_way_of_asking_for_a_stream_makes_a_refused_request_an_entry(
    url: str, posted: dict[str, Any], accept: str | None, error: dict[str, Any], kind: str
) -> None:
    (report,) = ssescope.inspect_all(
        _har(_entry(url, 429, json.dumps(error), posted=posted, accept=accept))
    )
    assert report.status == "failed"
    assert report.http_status == 429
    assert report.error is not None and report.error["type"] == kind


def test_a_refused_request_that_did_not_ask_for_a_stream_is_not_an_entry() -> None:
    har = _har(
        _entry("https://api.openai.com/v1/models", 401, json.dumps(OPENAI_429)),
        _entry(
            "https://api.openai.com/v1/chat/completions",
            400,
            json.dumps(OPENAI_429),
            posted={"model": "gpt-4o", "stream": False, "note": '"stream": true'},
        ),
    )
    (body,) = read_all(har)
    assert [d.code for d in body.diagnostics] == ["har.no-stream-entry"]


def test_inspect_refuses_to_pick_one_of_several_entries_silently() -> None:
    with pytest.raises(ssescope.UsageError) as caught:
        ssescope.inspect(_session())
    message = str(caught.value)
    assert "2 streams" in message
    assert "inspect_all()" in message and "entry=N" in message
    assert ssescope.inspect(_session(), entry=1).status == "failed"
    assert ssescope.inspect(_session(), entry=0).status == "completed"
    with pytest.raises(ssescope.UsageError, match="no entry 5; the input holds the entries 0, 1"):
        ssescope.inspect(_session(), entry=5)


def test_inspect_of_one_stream_needs_no_entry_and_takes_entry_zero() -> None:
    body = SSE.encode()
    assert ssescope.inspect(body).status == "completed"
    assert ssescope.inspect(body, entry=0).to_dict() == ssescope.inspect(body).to_dict()
    with pytest.raises(ssescope.UsageError, match="no entry 1"):
        ssescope.inspect(body, entry=1)


def test_the_cli_reports_the_refused_entry_and_exits_with_its_failure(tmp_path: Path) -> None:
    path = tmp_path / "session.har"
    path.write_bytes(_session())
    result = run("inspect", "--json", str(path))
    assert result.code == 4, result.err
    reports = json.loads(result.out)
    assert [r["status"] for r in reports] == ["completed", "failed"]
    assert reports[1]["http_status"] == 529
    assert reports[1]["error"]["type"] == "overloaded_error"
    picked = run("inspect", "--json", "--entry", "1", str(path))
    assert picked.code == 4
    assert json.loads(picked.out)["status"] == "failed"

from __future__ import annotations

import json

from ssescope.containers import read_all, read_container, read_har

SSE = (
    b'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n'
    b'data: {"choices":[{"index":0,"delta":{"content":"Caf\xc3\xa9"}}]}\n\n'
    b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
    b"data: [DONE]\n\n"
)


def _codes(body):
    return [d.code for d in body.diagnostics]


def _har(*entries) -> bytes:
    return json.dumps({"log": {"version": "1.2", "entries": list(entries)}}).encode()


def _entry(mime: str, **content) -> dict:
    return {
        "request": {"method": "POST", "url": "https://api.example.test/s", "headers": []},
        "response": {"status": 200, "headers": [], "content": {"mimeType": mime, **content}},
    }


def test_a_chrome_har_with_a_base64_body_picks_the_event_stream_entry(fixture_bytes):
    body = read_container(fixture_bytes("chrome-base64.har"))
    assert body.container == "har"
    assert body.body == SSE
    assert body.status == 200
    assert body.content_type == "text/event-stream"
    assert body.lost == ["per-chunk timing", "chunk boundaries"]
    assert body.timing == {"first_byte_s": 0.414, "total_s": 1.5234}
    assert [d.code for d in body.diagnostics] == []


def test_har_request_headers_url_and_cookies_are_redacted(fixture_bytes):
    body = read_container(fixture_bytes("chrome-base64.har"))
    assert body.request is not None
    assert body.request["url"] == "https://api.example.test/v1/chat/completions?key=[redacted]"
    headers = dict(body.request["headers"])
    assert headers["authorization"] == "[redacted]"
    assert headers["cookie"] == "[redacted]"
    assert headers["content-type"] == "application/json"
    assert dict(body.headers)["set-cookie"] == "[redacted]"


def test_event_source_messages_rebuild_an_sse_body_with_per_message_times(fixture_bytes):
    body = read_container(fixture_bytes("chrome-eventsource-messages.har"))
    assert [c.data for c in body.chunks] == [
        b'data: {"type":"start","messageId":"m1"}\n\n',
        b'data: {"type":"text-delta","id":"0","delta":"Hello"}\n\n',
        b"event: delta\nid: 7\ndata: line one\ndata: line two\n\n",
        b"data: [DONE]\n\n",
    ]
    times = [c.time for c in body.chunks if c.time is not None]
    assert len(times) == len(body.chunks)
    # Chrome's message times are monotonic: anchored so the first arrives at first byte
    assert times[0] == body.timing["first_byte_s"]
    assert round(times[3] - times[0], 4) == 0.4079
    assert "har.rebuilt-from-messages" in _codes(body)
    assert "original framing" in body.lost


def test_epoch_message_times_are_taken_relative_to_started_date_time():
    entry = _entry("text/event-stream", text="")
    entry["startedDateTime"] = "2026-01-01T00:00:00.000Z"
    entry["_eventSourceMessages"] = [{"time": 1767225600.25, "eventName": "message", "data": "x"}]
    body = read_har(_har(entry))
    assert body.chunks[0].time == 0.25


def test_read_all_returns_every_stream_and_read_names_the_others():
    data = _har(
        _entry("text/event-stream", text="data: 1\n\n"),
        _entry("application/x-ndjson; charset=utf-8", text='{"a":1}\n'),
        _entry("application/json", text="{}"),
    )
    bodies = read_all(data)
    assert [b.body for b in bodies] == [b"data: 1\n\n", b'{"a":1}\n']
    first = read_container(data)
    assert first.body == b"data: 1\n\n"
    assert "har.multiple-entries" in _codes(first)
    assert all(b.rule for b in bodies)


def test_an_entry_whose_body_looks_like_sse_is_picked_whatever_its_type():
    body = read_har(_har(_entry("text/plain", text="event: x\ndata: 1\n\n")))
    assert body.body == b"event: x\ndata: 1\n\n"


def test_a_har_without_a_stream_says_so():
    body = read_har(_har(_entry("application/json", text="{}")))
    assert body.chunks == []
    assert _codes(body) == ["har.no-stream-entry"]


def test_an_entry_without_a_body_is_reported():
    body = read_har(_har(_entry("text/event-stream")))
    assert body.chunks == []
    assert _codes(body) == ["har.empty-body"]


def test_a_bad_base64_body_is_reported():
    body = read_har(_har(_entry("text/event-stream", text="!!notbase64", encoding="base64")))
    assert _codes(body) == ["har.invalid-base64"]


def test_a_cut_off_har_is_invalid_json():
    body = read_har(_har(_entry("text/event-stream", text="data: 1\n\n"))[:-10])
    assert _codes(body) == ["har.invalid-json"]


def test_json_that_is_not_a_har_has_no_entries():
    assert _codes(read_har(b'{"log": {"pages": []}}')) == ["har.no-entries"]

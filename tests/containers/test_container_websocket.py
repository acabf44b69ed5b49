"""WebSocket exchanges: the .ssecap WebSocket form, DevTools HAR ``_webSocketMessages``
and JSONL logs of messages, read into one stream per response and judged by how the
connection ended. The captures here are written by the tests themselves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from tests.cli.cli_helpers import run

import ssescope
from ssescope.containers import read_all, read_container
from ssescope.output.schema import report_schema

VALIDATOR = jsonschema.Draft202012Validator(report_schema())


def validate_report(data: dict[str, Any]) -> None:
    VALIDATOR.validate(data)


URL = "wss://api.example.test/v1/responses?api_key=sk-secret"


def _event(kind: str, seq: int, **fields: Any) -> str:
    return json.dumps({"type": kind, "sequence_number": seq, **fields})


def _response(rid: str, text: str, *, terminal: str | None = "response.completed") -> list[str]:
    events = [
        _event(
            "response.created",
            0,
            response={"id": rid, "status": "in_progress", "model": "gpt-5", "output": []},
        ),
        _event(
            "response.output_text.delta",
            1,
            item_id="m1",
            output_index=0,
            content_index=0,
            delta=text,
        ),
    ]
    if terminal == "error":
        events.append(
            _event("error", 2, code="server_error", message="The server had an error", param=None)
        )
    elif terminal is not None:
        status = terminal.removeprefix("response.")
        events.append(
            _event(
                terminal,
                2,
                response={
                    "id": rid,
                    "status": status,
                    "model": "gpt-5",
                    "output": [
                        {
                            "type": "message",
                            "id": "m1",
                            "role": "assistant",
                            "content": [{"type": "output_text", "text": text}],
                        }
                    ],
                },
            )
        )
    return events


def _create() -> str:
    return json.dumps({"type": "response.create", "model": "gpt-5", "input": "hi"})


def _capture(
    messages: list[tuple[str, str]], close: object, *, binary: bool = False, by: str | None = None
) -> bytes:
    header = {
        "ssescope": "capture",
        "version": 2,
        "transport": "websocket",
        "request": {"method": "GET", "url": URL, "headers": [["Authorization", "Bearer sk-x"]]},
        "response": {"status": 101, "headers": [["Upgrade", "websocket"]]},
    }
    lines = [json.dumps(header)]
    for i, (direction, data) in enumerate(messages):
        lines.append(json.dumps({"t": round(0.1 * i, 3), "dir": direction, "data": data}))
    if binary:
        lines.append(json.dumps({"t": 5.0, "dir": "receive", "b64": "AAEC"}))
    if close is not None:
        lines.append(json.dumps({"close": close, "t": 9.0, **({"by": by} if by else {})}))
    return ("\n".join(lines) + "\n").encode()


def _one(events: list[str], close: object) -> bytes:
    return _capture([("send", _create()), *(("receive", e) for e in events)], close)


def _codes(report: ssescope.Report) -> list[str]:
    return [d.code for d in report.diagnostics if d.code.startswith("websocket.")]


def test_a_close_before_the_terminal_event_is_truncated_with_the_code_and_reason() -> None:
    data = _one(_response("r1", "Hel", terminal=None), {"code": 1011, "reason": "ping timeout"})
    report = ssescope.inspect(data)
    assert report.status == "truncated"
    assert "code 1011 (ping timeout)" in report.response.status_reason
    assert report.text == "Hel"
    assert _codes(report) == ["websocket.close-code", "websocket.closed-before-terminal"]
    assert report.timing.total_s == 9.0
    source = report.to_dict()["source"]
    assert source["websocket"]["close_code"] == 1011
    assert source["websocket"]["close_reason"] == "ping timeout"
    assert source["websocket"]["sent"] == [_create()]
    validate_report(report.to_dict())


def test_a_client_that_closes_before_the_terminal_event_left_early_it_is_cancelled() -> None:
    messages = [
        ("send", _create()),
        *(("receive", e) for e in _response("r1", "Hel", terminal=None)),
    ]
    data = _capture(messages, {"code": 4000, "reason": "user left"}, by="client")
    report = ssescope.inspect(data)
    assert report.status == "cancelled"
    assert report.response.status_reason == (
        "the client left: the WebSocket closed with code 4000 (user left) before the terminal event"
    )
    assert report.text == "Hel"
    assert _codes(report) == []  # the client's own close code is not the server's doing
    assert report.to_dict()["source"]["websocket"]["closed_by"] == "client"
    validate_report(report.to_dict())
    # the server closing at the same point cuts the response
    cut = ssescope.inspect(_capture(messages, {"code": 4000, "reason": "x"}, by="server"))
    assert cut.status == "truncated"
    assert cut.to_dict()["source"]["websocket"]["closed_by"] == "server"
    # a failed response stays failed, and a finished one finished, whoever closes
    failed = [*messages[:2], ("receive", json.dumps({"type": "error", "error": {"message": "x"}}))]
    assert ssescope.inspect(_capture(failed, {"code": 1000, "reason": ""}, by="client")).status == (
        "failed"
    )
    done = [("send", _create()), *(("receive", e) for e in _response("r1", "Hello"))]
    finished = ssescope.inspect(_capture(done, {"code": 1000, "reason": ""}, by="client"))
    assert finished.status == "completed"


def test_a_message_spread_over_lines_is_still_one_record() -> None:
    events = _response("r1", "Hello")
    events[1] = json.dumps(json.loads(events[1]), indent=2)
    report = ssescope.inspect(_one(events, {"code": 1000, "reason": ""}))
    assert report.status == "completed"
    assert report.text == "Hello"
    assert report.records.total == 3


def test_a_normal_close_after_the_terminal_event_is_clean() -> None:
    report = ssescope.inspect(_one(_response("r1", "Hello"), {"code": 1000, "reason": ""}))
    assert report.status == "completed"
    assert report.text == "Hello"
    assert _codes(report) == []
    assert report.to_dict()["source"]["websocket"]["close_code"] == 1000


def test_a_stream_not_from_a_websocket_has_no_websocket_object() -> None:
    report = ssescope.inspect(b'data: {"type":"response.created","sequence_number":0}\n\n')
    assert "websocket" not in report.to_dict()["source"]


def test_a_close_code_other_than_1000_is_reported_even_after_a_complete_response() -> None:
    report = ssescope.inspect(_one(_response("r1", "Hello"), {"code": 1001, "reason": "bye"}))
    assert report.status == "completed"
    assert _codes(report) == ["websocket.close-code"]


def test_a_drop_without_close_frame_is_truncated_and_says_so() -> None:
    report = ssescope.inspect(_one(_response("r1", "Hel", terminal=None), "dropped"))
    assert report.status == "truncated"
    assert "dropped with no close frame" in report.response.status_reason
    assert _codes(report) == ["websocket.no-close-frame", "websocket.closed-before-terminal"]


def test_an_error_event_fails_the_response() -> None:
    report = ssescope.inspect(_one(_response("r1", "Hel", terminal="error"), {"code": 1000}))
    assert report.status == "failed"
    assert "The server had an error" in report.response.status_reason


def test_the_request_secrets_are_redacted_and_client_messages_are_kept_not_assembled() -> None:
    body = read_container(_one(_response("r1", "Hello"), {"code": 1000, "reason": ""}))
    assert body.request is not None
    assert "sk-secret" not in body.request["url"]
    assert dict(body.request["headers"])["Authorization"] != "Bearer sk-x"
    assert body.websocket is not None
    assert body.websocket.sent == (_create(),)
    assert body.websocket.messages == 4
    assert b'"input"' not in body.body


def test_several_responses_on_one_connection_are_several_entries() -> None:
    messages = [("send", _create()), *(("receive", e) for e in _response("r1", "one"))]
    messages += [
        ("send", _create()),
        *(("receive", e) for e in _response("r2", "tw", terminal=None)),
    ]
    data = _capture(messages, {"code": 1006, "reason": ""})
    bodies = read_all(data)
    assert len(bodies) == 2
    assert [b.entry.index if b.entry else None for b in bodies] == [0, 1]
    first = read_container(data)
    assert "websocket.multiple-responses" in [d.code for d in first.diagnostics]
    reports = ssescope.inspect_all(data)
    assert [r.status for r in reports] == ["completed", "truncated"]
    assert [r.text for r in reports] == ["one", "tw"]
    assert _codes(reports[0]) == []
    assert "code 1006" in reports[1].response.status_reason


def test_the_cli_selects_one_response_with_entry(tmp_path: Path) -> None:
    messages = [("send", _create()), *(("receive", e) for e in _response("r1", "one"))]
    messages += [
        ("send", _create()),
        *(("receive", e) for e in _response("r2", "tw", terminal=None)),
    ]
    path = tmp_path / "conn.ssecap"
    path.write_bytes(_capture(messages, {"code": 1011, "reason": "overloaded"}))
    second = run("inspect", str(path), "--entry", "1", "--json")
    assert second.code == 3
    report = json.loads(second.out)
    assert report["status"] == "truncated"
    assert "code 1011 (overloaded)" in report["status_reason"]
    first = run("inspect", str(path), "--entry", "0", "--json")
    assert first.code == 0
    assert json.loads(first.out)["outputs"][0]["text"] == "one"
    line = run("inspect", str(path), "--entry", "1")
    assert "1011" in line.out


def test_a_binary_server_message_is_reported_and_the_rest_read() -> None:
    data = _capture(
        [("send", _create()), *(("receive", e) for e in _response("r1", "Hello"))],
        {"code": 1000, "reason": ""},
        binary=True,
    )
    report = ssescope.inspect(data)
    assert report.status == "completed"
    assert _codes(report) == ["websocket.binary-message"]


def test_a_garbled_line_is_reported_and_the_rest_read() -> None:
    data = _one(_response("r1", "Hello"), {"code": 1000, "reason": ""})
    lines = data.split(b"\n")
    lines.insert(2, b'{"t": 0.05, "data": "no direction"}')
    report = ssescope.inspect(b"\n".join(lines))
    assert report.status == "completed"
    assert report.text == "Hello"
    assert _codes(report) == ["websocket.invalid-message"]


def _devtools(events: list[str], start: float = 1_700_000_000.0) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"type": "send", "time": start, "opcode": 1, "data": _create()}]
    out += [
        {"type": "receive", "time": start + 0.25 * (i + 1), "opcode": 1, "data": e}
        for i, e in enumerate(events)
    ]
    return out


def test_a_devtools_har_with_websocket_messages_is_read() -> None:
    har = {
        "log": {
            "version": "1.2",
            "entries": [
                {
                    "startedDateTime": "2026-01-01T00:00:00Z",
                    "request": {"method": "GET", "url": URL, "headers": []},
                    "response": {
                        "status": 101,
                        "headers": [],
                        "content": {"mimeType": "x-unknown"},
                    },
                    "_resourceType": "websocket",
                    "_webSocketMessages": [
                        *_devtools(_response("r1", "Hi there")),
                        {"type": "receive", "time": 1_700_000_002.0, "opcode": 2, "data": "AAEC"},
                    ],
                }
            ],
        }
    }
    data = json.dumps(har).encode()
    body = read_container(data)
    assert body.container == "har"
    assert [c.time for c in body.chunks] == [0.25, 0.5, 0.75]
    report = ssescope.inspect(data)
    assert report.status == "completed"
    assert report.text == "Hi there"
    assert _codes(report) == ["websocket.binary-message"]


def test_a_jsonl_log_of_messages_is_detected_and_judged() -> None:
    lines = [json.dumps(m) for m in _devtools(_response("r1", "Hel", terminal=None), 10.0)]
    lines.append(json.dumps({"close": {"code": 1001, "reason": "going away"}}))
    data = ("\n".join(lines) + "\n").encode()
    body = read_container(data)
    assert body.container == "jsonl"
    assert "WebSocket message" in body.rule
    assert body.chunks[0].time == 0.25
    report = ssescope.inspect(data)
    assert report.status == "truncated"
    assert "code 1001 (going away)" in report.response.status_reason

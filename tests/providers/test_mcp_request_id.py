"""MCP: the response that ends the stream answers the request's JSON-RPC id.

With the request known (the library's ``request=``, an ``.ssecap`` or HAR entry that
keeps its body, a Pipeline's ``SourceInfo.request_ids``) a response to another id is
reported and skipped; without it the first response is taken and the status reason
names its id. Batch responses (a JSON array) are read as their messages. SSE event ids
that repeat or go backwards are reported (resumability)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import ssescope
from ssescope import Pipeline
from ssescope.rpcrequest import request_ids
from ssescope.sourceinfo import SourceInfo

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
MCP = STREAMS / "agent" / "mcp-streamable-http"

PROGRESS = (
    b'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress",'
    b'"params":{"progressToken":"p","progress":1}}\n\n'
)


def _result(rpc_id: object, text: str = "ok", *, is_error: bool = False) -> bytes:
    result: dict[str, object] = {"content": [{"type": "text", "text": text}]}
    if is_error:
        result["isError"] = True
    msg = {"jsonrpc": "2.0", "id": rpc_id, "result": result}
    return b"event: message\ndata: " + json.dumps(msg).encode() + b"\n\n"


def _call(rpc_id: object) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": rpc_id, "method": "tools/call", "params": {"name": "t"}}


def _codes(report: ssescope.Report) -> list[str]:
    return [d.code for d in report.diagnostics]


def test_request_ids_reads_single_batch_and_notification_bodies() -> None:
    assert request_ids(_call(7)) == ("7",)
    assert request_ids(json.dumps(_call("a")).encode()) == ('"a"',)
    assert request_ids(json.dumps([_call(1), _call(2)])) == ("1", "2")
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert request_ids(note) == ()
    assert request_ids(b"{not json, jsonrpc") == ()
    assert request_ids({"model": "gpt", "messages": []}) == ()
    assert request_ids(None) == ()


def test_a_response_to_another_id_is_not_the_terminal() -> None:
    report = ssescope.inspect(PROGRESS + _result(6, "stale"), provider="mcp", request=_call(7))
    assert report.status == "truncated"
    assert "mcp.unmatched-response" in _codes(report)
    assert "mcp.missing-response" in _codes(report)
    unmatched = next(d for d in report.diagnostics if d.code == "mcp.unmatched-response")
    assert "id 6, not to the request's id 7" in unmatched.message


def test_the_right_response_after_a_wrong_one_ends_the_stream() -> None:
    body = PROGRESS + _result(6, "stale") + _result(7, "mine")
    report = ssescope.inspect(body, provider="mcp", request=_call(7))
    d = report.to_dict()
    assert d["status"] == "completed"
    assert d["status_reason"] == "JSON-RPC result to the request's id 7"
    assert d["outputs"][0]["text"] == "mine"


def test_a_string_id_and_a_number_id_are_different_ids() -> None:
    report = ssescope.inspect(_result("7"), provider="mcp", request=_call(7))
    assert report.status == "truncated"
    assert "mcp.unmatched-response" in _codes(report)


def test_without_the_request_the_first_response_is_taken_and_named() -> None:
    report = ssescope.inspect(PROGRESS + _result(6) + _result(7), provider="mcp")
    d = report.to_dict()
    assert d["status"] == "completed"
    assert d["status_reason"] == (
        "JSON-RPC result to id 6, the first response (the request is not known)"
    )
    assert "mcp.after-response" in _codes(report)


def test_a_capture_that_keeps_the_request_body_gives_the_id(tmp_path: Path) -> None:
    head = {
        "ssescope": "capture",
        "version": 1,
        "request": {
            "method": "POST",
            "url": "http://127.0.0.1/mcp",
            "headers": [],
            "body": _call(9),
        },
        "response": {"status": 200, "headers": [["content-type", "text/event-stream"]]},
    }
    lines = [head, {"t": 0.1, "data": (PROGRESS + _result(8)).decode()}, {"end": "eof", "t": 0.2}]
    path = tmp_path / "wrong-id.ssecap"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    report = ssescope.inspect(path)
    assert report.provider == "mcp"
    assert report.status == "truncated"
    assert "mcp.unmatched-response" in _codes(report)


def test_a_har_entry_that_keeps_the_request_body_gives_the_id(tmp_path: Path) -> None:
    entry = {
        "startedDateTime": "2026-12-03T07:00:00Z",
        "time": 10,
        "request": {
            "method": "POST",
            "url": "http://127.0.0.1/mcp",
            "headers": [],
            "postData": {"mimeType": "application/json", "text": json.dumps(_call(3))},
        },
        "response": {
            "status": 200,
            "headers": [{"name": "content-type", "value": "text/event-stream"}],
            "content": {"mimeType": "text/event-stream", "text": (_result(3)).decode()},
        },
        "timings": {"wait": 5, "receive": 5},
    }
    path = tmp_path / "mcp.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "entries": [entry]}}), encoding="utf-8")
    d = ssescope.inspect(path).to_dict()
    assert d["status"] == "completed"
    assert d["status_reason"] == "JSON-RPC result to the request's id 3"


def test_a_pipeline_given_request_ids_waits_for_their_response() -> None:
    pipeline = Pipeline(provider="mcp", source=SourceInfo(request_ids=("2",)))
    pipeline.feed(_result(1))
    pipeline.close()
    report = pipeline.report()
    assert report.status == "truncated"
    assert "mcp.unmatched-response" in _codes(report)


def test_an_error_without_an_id_answers_the_known_request() -> None:
    error = b'data: {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n\n'
    d = ssescope.inspect(error, provider="mcp", request=_call(5)).to_dict()
    assert d["status"] == "failed"
    assert d["status_reason"] == "JSON-RPC error to the request's id 5"
    assert d["error"]["message"] == "Parse error"


def test_a_batch_response_answers_each_request_of_a_batch() -> None:
    batch = [
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "a"}]}},
        {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "b"}]}},
    ]
    body = b"data: " + json.dumps(batch).encode() + b"\n\n"
    d = ssescope.inspect(body, provider="mcp", request=[_call(1), _call(2)]).to_dict()
    assert d["status"] == "completed"
    assert d["outputs"][0]["text"] == "a\nb"
    assert d["status_reason"] == "JSON-RPC result to id 2, the last of a batch of 2"
    # without the request, the array's responses are the answer
    assert ssescope.inspect(body, provider="mcp").status == "completed"


def test_a_batch_half_answered_is_truncated_and_a_failure_in_it_fails() -> None:
    one = b'data: [{"jsonrpc":"2.0","id":1,"result":{}}]\n\n'
    report = ssescope.inspect(one, provider="mcp", request=[_call(1), _call(2)])
    assert report.status == "truncated"
    failing = (
        b'data: [{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}},'
        b'{"jsonrpc":"2.0","id":2,"result":{}}]\n\n'
    )
    d = ssescope.inspect(failing, provider="mcp", request=[_call(1), _call(2)]).to_dict()
    assert d["status"] == "failed"
    assert d["status_reason"].endswith("(in the batch)")
    assert d["error"]["message"] == "bad"


def test_a_tool_error_says_it_is_the_tools_own_failure_in_a_successful_result() -> None:
    report = ssescope.inspect(_result(4, "disk full", is_error=True), provider="mcp")
    d = report.to_dict()
    assert d["status"] == "failed"
    assert d["status_reason"].startswith(
        "the tool failed: isError: true in a successful JSON-RPC result to id 4"
    )
    message = next(x.message for x in report.diagnostics if x.code == "mcp.tool-error")
    assert "successful JSON-RPC result" in message
    assert "no transport or protocol failure" in message


def _with_ids(ids: list[str]) -> bytes:
    body = b"".join(f"id: {event_id}\n".encode() + PROGRESS for event_id in ids)
    return body + b"id: " + ids[-1].encode() + b"\n" + _result(1)


@pytest.mark.parametrize(
    ("ids", "what"),
    [
        (["1", "2", "3", "2"], "an earlier event already had"),
        (["5", "6", "4"], "goes backwards after '6'"),
        (["s1_e10", "s1_e11", "s1_e9"], "goes backwards after 's1_e11'"),
        (["a-uuid", "b-uuid", "a-uuid"], "an earlier event already had"),
    ],
)
def test_an_event_id_that_repeats_or_goes_backwards_is_reported(ids: list[str], what: str) -> None:
    report = ssescope.inspect(_with_ids(ids), provider="mcp")
    found = [d for d in report.diagnostics if d.code == "mcp.event-id-order"]
    assert len(found) == 1
    assert what in found[0].message
    assert report.status == "completed"


@pytest.mark.parametrize(
    "ids",
    [["1", "2", "10"], ["e9", "e10"], ["x", "y", "z"], ["s1_9", "s2_1"], ["3", "3", "4"]],
)
def test_event_ids_that_grow_or_change_prefix_are_not_reported(ids: list[str]) -> None:
    report = ssescope.inspect(_with_ids(ids), provider="mcp")
    assert "mcp.event-id-order" not in _codes(report)


def test_an_event_without_an_id_line_keeps_the_last_id_and_is_not_a_repeat() -> None:
    body = b"id: 1\n" + PROGRESS + PROGRESS + b"id: 2\n" + _result(1)
    report = ssescope.inspect(body, provider="mcp")
    assert "mcp.event-id-order" not in _codes(report)


@pytest.mark.skipif(not MCP.is_dir(), reason=f"the real MCP recordings are not at {MCP}")
def test_the_real_recordings_answer_their_readme_request_ids() -> None:
    # agent/README.md: the request id of each recording
    ids = {
        "deepwiki-initialize.sse": 0,
        "deepwiki-tools-list.sse": 1,
        "deepwiki-tools-call-ping-log-result.sse": 2,
        "local-tools-call-progress-log-result.sse": 3,
        "local-tools-call-is-error.sse": 4,
        "local-tools-call-cut-after-progress.sse": 7,
    }
    for name, rpc_id in ids.items():
        data = (MCP / name).read_bytes()
        unknown = ssescope.inspect(data)
        known = ssescope.inspect(data, request=_call(rpc_id))
        assert known.status == unknown.status, name
        assert "mcp.unmatched-response" not in _codes(known)
        other = ssescope.inspect(data, request=_call(rpc_id + 100))
        assert other.status == "truncated", name

"""Tool calls under the wrong finish, and empty arguments (docs/verdicts.md)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

import ssescope
from ssescope.containers import CaptureWriter
from tests.verdicts.helpers import anthropic_sse, chat_sse, cli_report, codes, library_report


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "c1", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _call(arguments: str, name: str = "get_weather") -> dict[str, Any]:
    call = {"index": 0, "id": "call_1", "type": "function"}
    call["function"] = {"name": name, "arguments": arguments}
    return _chunk({"role": "assistant", "tool_calls": [call]})


def _chat(arguments: str, finish: str = "tool_calls") -> bytes:
    return chat_sse(_call(arguments), _chunk({}, finish), "[DONE]")


# -- tool calls under the wrong finish --------------------------------------------------


def test_chat_tool_calls_with_finish_stop_are_kept_with_a_warning() -> None:
    report = library_report(_chat('{"city": "Paris"}', finish="stop"))
    assert report["status"] == "completed"
    (call,) = report["outputs"][0]["tool_calls"]
    assert (call["complete"], call["input"]) == (True, {"city": "Paris"})
    assert report["outputs"][0]["finish_reason"] == "stop"
    (warning,) = [d for d in report["diagnostics"] if d["code"] == "tool.calls-under-stop"]
    assert warning["severity"] == "warning"
    assert "finish_reason 'stop', not 'tool_calls'" in warning["message"]
    assert "drop the calls" in warning["message"]


def test_chat_tool_calls_with_finish_tool_calls_are_not_reported() -> None:
    assert "tool.calls-under-stop" not in codes(library_report(_chat('{"city": "Paris"}')))


def test_the_cli_reports_tool_calls_under_stop() -> None:
    code, report = cli_report(_chat('{"city": "Paris"}', finish="stop"), "--fail-on", "warning")
    assert "tool.calls-under-stop" in codes(report)
    assert code != 0


def _ollama(done_calls: bool, done_reason: str = "stop") -> bytes:
    call = {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
    first = {"model": "qwen3", "message": {"role": "assistant", "content": ""}, "done": False}
    last: dict[str, Any] = {
        "model": "qwen3",
        "message": {"role": "assistant", "content": ""},
        "done": True,
        "done_reason": done_reason,
        "eval_count": 3,
    }
    if done_calls:
        last["message"]["tool_calls"] = [call]
    else:
        first["message"]["tool_calls"] = [call]
    return (json.dumps(first) + "\n" + json.dumps(last) + "\n").encode()


def test_ollama_tool_calls_in_the_done_line_with_done_reason_stop_are_reported() -> None:
    report = library_report(_ollama(done_calls=True))
    assert report["provider"] == "ollama"
    assert [c["input"] for c in report["outputs"][0]["tool_calls"]] == [{"city": "Paris"}]
    assert "tool.calls-under-stop" in codes(report)
    (warning,) = [d for d in report["diagnostics"] if d["code"] == "tool.calls-under-stop"]
    assert warning["record"] == 1
    assert "done: true" in warning["message"]


def test_ollama_tool_calls_before_the_done_line_are_not_reported() -> None:
    report = library_report(_ollama(done_calls=False))
    assert report["outputs"][0]["tool_calls"]
    assert "tool.calls-under-stop" not in codes(report)


# -- empty arguments --------------------------------------------------------------------


def test_empty_arguments_are_read_as_an_empty_object_with_an_info() -> None:
    report = library_report(_chat(""))
    (call,) = report["outputs"][0]["tool_calls"]
    assert (call["arguments"], call["input"], call["error"]) == ("", {}, None)
    (info,) = [d for d in report["diagnostics"] if d["code"] == "tool.empty-arguments"]
    assert info["severity"] == "info"
    assert "cannot be told" in info["message"]  # the request is not known


def test_anthropic_empty_tool_input_is_read_the_same_way() -> None:
    start = {"type": "message_start", "message": {"id": "m", "model": "c", "usage": {}}}
    block = {"type": "tool_use", "id": "toolu_1", "name": "now", "input": {}}
    body = anthropic_sse(
        start,
        {"type": "content_block_start", "index": 0, "content_block": block},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": ""},
        },
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {}},
        {"type": "message_stop"},
    )
    report = library_report(body)
    assert report["outputs"][0]["tool_calls"][0]["input"] == {}
    assert "tool.empty-arguments" in codes(report)


def _tools_body(required: list[str]) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": required}
    return {
        "model": "gpt-test",
        "stream": True,
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": schema}}],
    }


def _ssecap(path: Path, stream: bytes, request_body: object) -> Path:
    request = {"method": "POST", "url": "https://api.example/v1/chat/completions"}
    request["headers"] = [("content-type", "application/json")]
    request["body"] = request_body
    with CaptureWriter(path, request=request, response_status=200) as capture:
        capture.write_chunk(stream, 0.1)
    return path


def test_a_capture_whose_request_requires_arguments_makes_empty_ones_a_warning(
    tmp_path: Path,
) -> None:
    cap = _ssecap(tmp_path / "c.ssecap", _chat(""), _tools_body(["city"]))
    report = ssescope.inspect(cap).to_dict()
    assert report["source"]["container"] == "ssecap"
    assert report["outputs"][0]["tool_calls"][0]["input"] == {}
    (warning,) = [d for d in report["diagnostics"] if d["code"] == "tool.empty-arguments-required"]
    assert warning["severity"] == "warning"
    assert "requires city" in warning["message"]
    assert "tool.empty-arguments" not in codes(report)


def test_a_capture_whose_request_requires_nothing_keeps_the_info(tmp_path: Path) -> None:
    cap = _ssecap(tmp_path / "c.ssecap", _chat(""), json.dumps(_tools_body([])))
    report = ssescope.inspect(cap).to_dict()
    assert "tool.empty-arguments-required" not in codes(report)
    (info,) = [d for d in report["diagnostics"] if d["code"] == "tool.empty-arguments"]
    assert "requires no property" in info["message"]


def test_the_cli_reads_the_request_of_a_capture(tmp_path: Path) -> None:
    cap = _ssecap(tmp_path / "c.ssecap", _chat(""), _tools_body(["city"]))
    from tests.cli.cli_helpers import run

    result = run("inspect", "--json", "--fail-on", "warning", str(cap))
    assert "tool.empty-arguments-required" in codes(json.loads(result.out))
    assert result.code != 0


def test_a_har_entry_s_post_data_gives_the_request_tools(tmp_path: Path) -> None:
    body = _chat("")
    entry = {
        "request": {
            "method": "POST",
            "url": "https://api.example/v1/chat/completions",
            "headers": [],
            "postData": {"mimeType": "application/json", "text": json.dumps(_tools_body(["city"]))},
        },
        "response": {
            "status": 200,
            "headers": [{"name": "content-type", "value": "text/event-stream"}],
            "content": {
                "mimeType": "text/event-stream",
                "text": base64.b64encode(body).decode(),
                "encoding": "base64",
            },
        },
        "time": 12,
        "timings": {"wait": 5, "receive": 7},
    }
    har = tmp_path / "a.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "entries": [entry]}}))
    report = ssescope.inspect(har).to_dict()
    assert report["source"]["container"] == "har"
    assert "tool.empty-arguments-required" in codes(report)


def test_arguments_that_are_given_raise_nothing_even_when_required(tmp_path: Path) -> None:
    cap = _ssecap(tmp_path / "c.ssecap", _chat('{"city":"Paris"}'), _tools_body(["city"]))
    report = ssescope.inspect(cap).to_dict()
    assert not [c for c in codes(report) if c.startswith("tool.empty")]


@pytest.mark.parametrize("request_body", ["not json", {"tools": "nope"}, None, [1, 2]])
def test_a_request_body_without_tools_leaves_the_info(tmp_path: Path, request_body: object) -> None:
    cap = _ssecap(tmp_path / "c.ssecap", _chat(""), request_body)
    report = ssescope.inspect(cap).to_dict()
    assert "tool.empty-arguments" in codes(report)

"""The rules the battery was asked for, each failed by a capture made to break it, through
``ssescope conform --json``: evidence names the capture, and the MUSTs fail the run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ssescope.containers import CaptureWriter
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from tests.cli.cli_helpers import ROOT, run

FIXTURES = ROOT / "tests" / "fixtures"
_SSE = [("content-type", "text/event-stream; charset=utf-8")]


def _chat(choices: list[dict[str, Any]], **extra: Any) -> bytes:
    doc = {"id": "c1", "object": "chat.completion.chunk", "choices": choices, **extra}
    return b"data: " + json.dumps(doc).encode() + b"\n\n"


def _delta(delta: dict[str, Any], finish: str | None = None) -> bytes:
    choice: dict[str, Any] = {"index": 0, "delta": delta}
    if finish is not None:
        choice["finish_reason"] = finish
    return _chat([choice])


def _call(arguments: str) -> bytes:
    head = {
        "index": 0,
        "id": "call_1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": arguments},
    }
    return _delta({"role": "assistant", "tool_calls": [head]})


_DONE = b"data: [DONE]\n\n"
_USAGE = {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}


def _event(name: str, doc: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(doc)}\n\n".encode()


def _anthropic_error_then_stop() -> bytes:
    message: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "m",
        "stop_reason": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    return b"".join(
        (
            _event("message_start", {"type": "message_start", "message": message}),
            _event(
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
            ),
            _event(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": "Hi"},
                },
            ),
            _event(
                "error",
                {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            ),
            _event("content_block_stop", {"type": "content_block_stop", "index": 0}),
            _event(
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn"},
                    "usage": {"output_tokens": 2},
                },
            ),
            _event("message_stop", {"type": "message_stop"}),
        )
    )


def _responses_completed_but_incomplete() -> bytes:
    response = {"id": "r1", "object": "response", "status": "in_progress", "output": []}
    done = {
        **response,
        "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"},
    }
    return _event(
        "response.created", {"type": "response.created", "sequence_number": 0, "response": response}
    ) + _event(
        "response.completed",
        {"type": "response.completed", "sequence_number": 1, "response": done},
    )


_REQUIRED_TOOL = {
    "model": "m",
    "stream": True,
    "messages": [{"role": "user", "content": "weather?"}],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                },
            },
        }
    ],
}

# check -> (the body, the request it answered, how the chunks arrived: (data, seconds) pairs)
Capture = tuple[bytes, dict[str, Any] | None, Callable[[bytes], list[tuple[bytes, float]]]]


def _at_once(body: bytes) -> list[tuple[bytes, float]]:
    return [(body, 0.01)]


def _held_back(body: bytes) -> list[tuple[bytes, float]]:
    """Nothing for two seconds, then every record within the same instant."""
    return [(body, 2.0)]


_TEXT = _delta({"role": "assistant", "content": "Hi"})
_WORDS = b"".join(_delta({"content": f"w{i} "}) for i in range(12))
CAPTURES: dict[str, Capture] = {
    "terminal.agrees-with-status": (_responses_completed_but_incomplete(), None, _at_once),
    "tools.finish-reason": (
        _call('{"city": "Paris"}') + _delta({}, "stop") + _DONE,
        None,
        _at_once,
    ),
    "tools.arguments-present": (
        _call("") + _delta({}, "tool_calls") + _DONE,
        _REQUIRED_TOOL,
        _at_once,
    ),
    "tools.arguments-parse": (
        _call('"city": "Paris"}') + _delta({}, "tool_calls") + _DONE,
        None,
        _at_once,
    ),
    "terminal.error-not-completed": (_anthropic_error_then_stop(), None, _at_once),
    "timing.no-burst": (_TEXT + _WORDS + _delta({}, "stop") + _DONE, None, _held_back),
    "usage.reported": (_TEXT + _delta({}, "stop") + _DONE, None, _at_once),
    "request.usage-as-asked": (
        _TEXT + _delta({}, "stop") + _chat([], usage=_USAGE) + _DONE,
        {"model": "m", "stream": True, "messages": []},
        _at_once,
    ),
}
_SEVERITY = {"timing.no-burst": "SHOULD", "usage.reported": "SHOULD"}


@pytest.mark.parametrize("check", list(CAPTURES))
def test_a_capture_made_to_break_the_rule_fails_it(check: str, tmp_path: Path) -> None:
    body, request, arrival = CAPTURES[check]
    path = tmp_path / "broken.ssecap"
    req: dict[str, Any] = {"method": "POST", "url": "https://api.example/v1/x", "headers": []}
    if request is not None:
        req["body"] = request
    with CaptureWriter(path, request=req, response_status=200, response_headers=_SSE) as cap:
        for data, t in arrival(body):
            cap.write_chunk(data, t)
    result = run("conform", "--json", str(path))
    data = json.loads(result.out)
    entry = next(c for c in data["checks"] if c["id"] == check)
    assert entry["verdict"] == "fail", (
        entry,
        [c["id"] for c in data["checks"] if c["verdict"] == "fail"],
    )
    assert entry["evidence"] and entry["evidence"][0]["exchange"] == str(path)
    severity = _SEVERITY.get(check, entry["severity"])
    assert entry["severity"] == severity
    if severity == "MUST":
        assert result.code == 5


def _buffering_gateway(upstream: str) -> Starlette:
    """A gateway that reads its upstream's whole stream before it sends the client a byte:
    a client that hangs up cannot stop it."""

    async def forward(request: Request) -> Response:
        async with httpx.AsyncClient(timeout=10) as client:
            reply = await client.post(upstream + request.url.path, content=await request.body())
        return Response(reply.content, media_type="text/event-stream")

    return Starlette(routes=[Route("/{path:path}", forward, methods=["POST"])])


def test_a_gateway_reading_its_upstream_to_the_end_fails_hangup_upstream_closed() -> None:
    captures = load_captures(FIXTURES / "openai_chat" / "text-usage-done.sse")
    with (
        ServerThread(make_app(captures, ReplayOptions(delay="50"))) as upstream,
        ServerThread(_buffering_gateway(upstream.url)) as gateway,
    ):
        result = run(
            "conform",
            gateway.url + "/v1",
            "--protocol",
            "openai-chat",
            "--model",
            "m",
            "--case",
            "hangup",
            "--upstream",
            upstream.url,
            "--timeout",
            "10",
            "--json",
        )
    data = json.loads(result.out)
    entry = next(c for c in data["checks"] if c["id"] == "hangup.upstream-closed")
    assert (entry["verdict"], entry["severity"]) == ("fail", "SHOULD")
    assert "still read the upstream" in entry["evidence"][0]["excerpt"]
    assert result.code == 0  # a SHOULD: the run holds its MUSTs

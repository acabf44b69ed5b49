"""A well-behaved OpenAI-compatible server, as captures: one ``.ssecap`` per case of
conform's request set, each recording the case's request and the answer a conforming
server gives it. ``serve --by-request`` over the folder answers each request of the set
as it should; the self-tests then break it with one fault or quirk at a time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ssescope.conform.cases import cases_for
from ssescope.containers import CaptureWriter

__all__ = ["HANGUP_CHUNK_S", "MODEL", "write_chat_replies"]

MODEL = "conform-model"
"""The model the requests name."""
HANGUP_CHUNK_S = 0.2
"""The seconds between two chunks of the hangup case's reply (long enough to hang up on)."""


def _chunk(choices: list[dict[str, Any]], **extra: Any) -> bytes:
    doc = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": MODEL,
        "choices": choices,
        **extra,
    }
    return b"data: " + json.dumps(doc, ensure_ascii=False).encode() + b"\n\n"


def _text(words: list[str], finish: str = "stop", index: int = 0) -> list[bytes]:
    out = [_chunk([{"index": index, "delta": {"role": "assistant", "content": ""}}])]
    out += [_chunk([{"index": index, "delta": {"content": w}}]) for w in words]
    out.append(_chunk([{"index": index, "delta": {}, "finish_reason": finish}]))
    return out


def _calls(cities: list[str]) -> list[bytes]:
    out = [_chunk([{"index": 0, "delta": {"role": "assistant", "content": None}}])]
    for i, city in enumerate(cities):
        head = {
            "index": i,
            "id": f"call_{i + 1}",
            "type": "function",
            "function": {"name": "get_weather", "arguments": ""},
        }
        out.append(_chunk([{"index": 0, "delta": {"tool_calls": [head]}}]))
        for part in ('{"city": ', json.dumps(city), "}"):
            delta = {"tool_calls": [{"index": i, "function": {"arguments": part}}]}
            out.append(_chunk([{"index": 0, "delta": delta}]))
    out.append(_chunk([{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]))
    return out


_USAGE = {"prompt_tokens": 9, "completion_tokens": 5, "total_tokens": 14}
_DONE = b"data: [DONE]\n\n"
_HELLO = ["Hello", " there,", " nice", " to", " meet", " you", " \u00e9t\u00e9 \U0001f44b."]


def _replies() -> dict[str, list[bytes]]:
    story = [f" word{i}" for i in range(30)]
    n2 = _text(_HELLO, index=0) + _text(["Hi", " friend."], index=1)
    return {
        "plain": [*_text(_HELLO), _DONE],
        "tool-forced": [*_calls(["Paris"]), _DONE],
        "tools-parallel": [*_calls(["Paris", "Tokyo"]), _DONE],
        "max-tokens": [*_text(["1", "\n2", "\n3"], finish="length"), _DONE],
        "usage": [*_text(_HELLO), _chunk([], usage=_USAGE), _DONE],
        "n2": [*n2, _DONE],
        "hangup": [*_text(story), _DONE],
    }


_REJECT = {
    "error": {
        "message": "'messages' must be a list",
        "type": "invalid_request_error",
        "code": None,
    }
}


def write_chat_replies(folder: Path) -> Path:
    """Write the captures of a conforming OpenAI-compatible server into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    headers = [("content-type", "text/event-stream; charset=utf-8")]
    replies = _replies()
    for case in cases_for("openai-chat", MODEL):
        if case.id == "after-hangup":
            continue  # the same request as plain: the plain capture answers it
        request = {
            "method": "POST",
            "url": "/v1/chat/completions",
            "headers": [],
            "body": case.body,
        }
        path = folder / f"{case.id}.ssecap"
        if case.id == "reject":
            with CaptureWriter(
                path,
                request=request,
                response_status=400,
                response_headers=[("content-type", "application/json")],
            ) as capture:
                capture.write_chunk(json.dumps(_REJECT).encode(), 0.01)
            continue
        step = HANGUP_CHUNK_S if case.id == "hangup" else 0.001
        with CaptureWriter(
            path, request=request, response_status=200, response_headers=headers
        ) as capture:
            for i, data in enumerate(replies[case.id]):
                capture.write_chunk(data, 0.01 + i * step)
    return folder

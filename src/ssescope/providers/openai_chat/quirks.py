"""Quirks of OpenAI Chat Completions streams, in their wire shape (``chat.completion.chunk``).

Each function takes the stream's records and returns them as a real server or gateway
sent them; :data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

import copy
from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load, midpoint, rewrite, take_field

__all__ = ["QUIRKS"]

_FILTER_OK = {
    "hate": {"filtered": False, "severity": "safe"},
    "self_harm": {"filtered": False, "severity": "safe"},
    "sexual": {"filtered": False, "severity": "safe"},
    "violence": {"filtered": False, "severity": "safe"},
}


def _chunks(records: list[WireRecord]) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for i, record in enumerate(records):
        value = load(record)
        if isinstance(value, dict) and isinstance(value.get("choices"), list):
            out.append((i, value))
    if not out:
        raise QuirkRefused("the stream holds no chat.completion.chunk")
    return out


def _done(records: list[WireRecord]) -> int:
    """Where ``data: [DONE]`` is, or the end."""
    for i, record in enumerate(records):
        if record.data is not None and record.data.strip() == "[DONE]":
            return i
    return len(records)


def azure_empty_choices_first(records: list[WireRecord]) -> list[WireRecord]:
    """Azure OpenAI's first chunk: the prompt's content-filter results, ``choices`` empty."""
    first = {
        "choices": [],
        "created": 0,
        "id": "",
        "model": "",
        "object": "",
        "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": _FILTER_OK}],
    }
    _chunks(records)
    return [rewrite(WireRecord(None, ""), first), *records]


def _without_usage(chunk: dict[str, Any]) -> dict[str, Any] | None:
    return {**chunk, "usage": None} if chunk["choices"] else None


def usage_only_chunk(records: list[WireRecord]) -> list[WireRecord]:
    """The usage moved to its own last chunk, whose ``choices`` is empty
    (``stream_options.include_usage``)."""
    chunks = _chunks(records)
    out, usage = take_field(records, chunks, "usage", _without_usage)
    last = chunks[-1][1]
    tail: dict[str, Any] = {k: last[k] for k in ("id", "object", "created", "model") if k in last}
    usage_chunk = rewrite(WireRecord(None, ""), {**tail, "choices": [], "usage": usage})
    done = _done(out)
    return [*out[:done], usage_chunk, *out[done:]]


def no_assistant_role(records: list[WireRecord]) -> list[WireRecord]:
    """No delta says ``role: assistant`` (many OpenAI-compatible gateways)."""
    out = list(records)
    found = False
    for i, chunk in _chunks(records):
        new = copy.deepcopy(chunk)
        for choice in new["choices"]:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            if isinstance(delta, dict) and "role" in delta:
                del delta["role"]
                found = True
        if new != chunk:
            out[i] = rewrite(records[i], new)
    if not found:
        raise QuirkRefused("no delta of the stream names a role to remove")
    return out


def _is_content(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    for choice in value.get("choices") or []:
        delta = choice.get("delta") if isinstance(choice, dict) else None
        if isinstance(delta, dict) and (delta.get("content") or delta.get("tool_calls")):
            return True
    return False


def error_frame_then_done(records: list[WireRecord]) -> list[WireRecord]:
    """Halfway through, an error object as a data frame, then ``data: [DONE]`` (what
    proxies such as LiteLLM send when the upstream fails mid-stream)."""
    _chunks(records)
    cut = midpoint(records, _is_content)
    error = {
        "error": {
            "message": "The server had an error while processing your request.",
            "type": "server_error",
            "param": None,
            "code": 500,
        }
    }
    return [*records[:cut], rewrite(WireRecord(None, ""), error), WireRecord(None, "[DONE]")]


def finish_on_every_chunk(records: list[WireRecord]) -> list[WireRecord]:
    """Every chunk carries the final ``finish_reason``, not only the last one."""
    chunks = _chunks(records)
    final = None
    for _, chunk in chunks:
        for choice in chunk["choices"]:
            if isinstance(choice, dict) and choice.get("finish_reason"):
                final = choice["finish_reason"]
    if final is None:
        raise QuirkRefused("the stream has no finish_reason to repeat")
    out = list(records)
    for i, chunk in chunks:
        new = copy.deepcopy(chunk)
        for choice in new["choices"]:
            if isinstance(choice, dict):
                choice["finish_reason"] = final
        if new != chunk:
            out[i] = rewrite(records[i], new)
    return out


def duplicate_tool_args(records: list[WireRecord]) -> list[WireRecord]:
    """After a tool call's argument deltas, one more delta repeating all of them (a
    gateway that sends the consolidated call as well as its fragments)."""
    args: dict[tuple[int, int], str] = {}
    last: dict[tuple[int, int], int] = {}
    for i, chunk in _chunks(records):
        for choice in chunk["choices"]:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            calls = delta.get("tool_calls") if isinstance(delta, dict) else None
            for call in calls if isinstance(calls, list) else []:
                fn = call.get("function") if isinstance(call, dict) else None
                if isinstance(fn, dict) and isinstance(fn.get("arguments"), str):
                    key = (int(choice.get("index", 0)), int(call.get("index", 0)))
                    args[key] = args.get(key, "") + fn["arguments"]
                    last[key] = i
    if not any(args.values()):
        raise QuirkRefused("the stream has no tool call arguments to duplicate")
    out = list(records)
    for key, at in sorted(last.items(), key=lambda kv: -kv[1]):
        template = load(records[at])
        repeat = {
            **{k: template[k] for k in ("id", "object", "created", "model") if k in template},
            "choices": [
                {
                    "index": key[0],
                    "delta": {
                        "tool_calls": [{"index": key[1], "function": {"arguments": args[key]}}]
                    },
                    "finish_reason": None,
                }
            ],
        }
        out.insert(at + 1, rewrite(WireRecord(None, ""), repeat))
    return out


QUIRKS: dict[str, QuirkTransform] = {
    "azure-empty-choices-first": azure_empty_choices_first,
    "usage-only-chunk": usage_only_chunk,
    "no-assistant-role": no_assistant_role,
    "error-frame-then-done": error_frame_then_done,
    "finish-on-every-chunk": finish_on_every_chunk,
    "duplicate-tool-args": duplicate_tool_args,
}
"""The quirks that make sense for a Chat Completions stream, by preset name."""

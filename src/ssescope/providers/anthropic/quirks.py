"""Quirks of Anthropic Messages streams, in their wire shape (named SSE events).

Each function takes the stream's records and returns them as a real server or gateway
sent them; :data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load, midpoint, rewrite

__all__ = ["QUIRKS"]


def _is_content(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") == "content_block_delta"


def overloaded_midstream(records: list[WireRecord]) -> list[WireRecord]:
    """Halfway through the content, ``event: error`` with an ``overloaded_error``, and the
    connection ends: the stream had already answered 200."""
    cut = midpoint(records, _is_content)
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    return [*records[:cut], rewrite(WireRecord("error", ""), error)]


def duplicate_tool_args(records: list[WireRecord]) -> list[WireRecord]:
    """After a ``tool_use`` block's ``input_json_delta`` events, one more repeating all of
    them (a gateway that sends the consolidated input as well as its fragments)."""
    parts: dict[int, str] = {}
    last: dict[int, int] = {}
    for i, record in enumerate(records):
        value = load(record)
        if not _is_content(value):
            continue
        delta = value.get("delta")
        if isinstance(delta, dict) and delta.get("type") == "input_json_delta":
            block = int(value.get("index", 0))
            parts[block] = parts.get(block, "") + str(delta.get("partial_json") or "")
            last[block] = i
    if not any(parts.values()):
        raise QuirkRefused("the stream has no tool_use input to duplicate")
    out = list(records)
    for block, at in sorted(last.items(), key=lambda kv: -kv[1]):
        repeat = {
            "type": "content_block_delta",
            "index": block,
            "delta": {"type": "input_json_delta", "partial_json": parts[block]},
        }
        out.insert(at + 1, rewrite(WireRecord("content_block_delta", ""), repeat))
    return out


QUIRKS: dict[str, QuirkTransform] = {
    "anthropic-overloaded-midstream": overloaded_midstream,
    "duplicate-tool-args": duplicate_tool_args,
}
"""The quirks that make sense for an Anthropic Messages stream, by preset name."""

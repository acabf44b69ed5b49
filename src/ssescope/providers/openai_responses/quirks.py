"""Quirks of OpenAI Responses streams, in their wire shape (``response.*`` events).

Each function takes the stream's records and returns them as a real server or gateway
sent them; :data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load, rewrite

__all__ = ["QUIRKS"]


def _type(value: Any) -> str | None:
    return value.get("type") if isinstance(value, dict) else None


def missing_output_item_added(records: list[WireRecord]) -> list[WireRecord]:
    """No ``response.output_item.added`` event: deltas name an output index that was
    never opened (some OpenAI-compatible servers and translating gateways)."""
    out = [r for r in records if _type(load(r)) != "response.output_item.added"]
    if len(out) == len(records):
        raise QuirkRefused("the stream has no response.output_item.added event to drop")
    return out


def duplicate_tool_args(records: list[WireRecord]) -> list[WireRecord]:
    """After a function call's argument deltas, one more repeating all of them."""
    parts: dict[str, str] = {}
    last: dict[str, int] = {}
    first: dict[str, dict[str, Any]] = {}
    for i, record in enumerate(records):
        value = load(record)
        if _type(value) == "response.function_call_arguments.delta":
            item = str(value.get("item_id"))
            parts[item] = parts.get(item, "") + str(value.get("delta") or "")
            last[item] = i
            first.setdefault(item, value)
    if not any(parts.values()):
        raise QuirkRefused("the stream has no function call arguments to duplicate")
    out = list(records)
    for item, at in sorted(last.items(), key=lambda kv: -kv[1]):
        repeat = {**first[item], "delta": parts[item]}
        out.insert(
            at + 1, rewrite(WireRecord("response.function_call_arguments.delta", ""), repeat)
        )
    return out


QUIRKS: dict[str, QuirkTransform] = {
    "responses-missing-output-item-added": missing_output_item_added,
    "duplicate-tool-args": duplicate_tool_args,
}
"""The quirks that make sense for a Responses stream, by preset name."""

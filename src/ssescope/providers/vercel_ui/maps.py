"""UI-message finish reasons and usage objects, mapped to the unified ones."""

from __future__ import annotations

from typing import Any

from ...events import FinishReason, Status
from .._base import token_count

FINISH_REASONS: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "content-filter": "content_filter",
    "tool-calls": "tool_calls",
    "error": "error",
    "other": "other",
    "unknown": "other",
}


_STATUS: dict[str, Status] = {
    "length": "incomplete",
    "content-filter": "incomplete",
    "error": "failed",
}


def map_finish_reason(raw: str) -> FinishReason:
    """Map a UI-message ``finishReason`` to the unified finish reason (unknown → ``other``)."""
    return FINISH_REASONS.get(raw, "other")


def finish_status(raw: str) -> Status:
    """The status a ``finishReason`` gives the response: ``length`` and ``content-filter``
    are ``incomplete``, ``error`` is ``failed``, anything else is ``completed``."""
    return _STATUS.get(raw, "completed")


def _usage_values(obj: dict[str, Any]) -> dict[str, int | None]:
    """Normalise an AI SDK ``LanguageModelUsage`` (v5 flat numbers, or v6 objects with
    ``total`` / ``reasoning`` / ``cacheRead``); no arithmetic."""
    inp = obj.get("inputTokens")
    out = obj.get("outputTokens")
    in_obj = inp if isinstance(inp, dict) else {}
    out_obj = out if isinstance(out, dict) else {}
    in_details = obj.get("inputTokenDetails")
    out_details = obj.get("outputTokenDetails")
    reasoning = token_count(obj.get("reasoningTokens"))
    if reasoning is None:
        reasoning = token_count(out_obj.get("reasoning"))
    if reasoning is None and isinstance(out_details, dict):
        reasoning = token_count(out_details.get("reasoningTokens"))
    cached = token_count(obj.get("cachedInputTokens"))
    if cached is None:
        cached = token_count(in_obj.get("cacheRead"))
    if cached is None and isinstance(in_details, dict):
        cached = token_count(in_details.get("cacheReadTokens"))
    return {
        "input_tokens": token_count(inp) if not in_obj else token_count(in_obj.get("total")),
        "output_tokens": token_count(out) if not out_obj else token_count(out_obj.get("total")),
        "total_tokens": token_count(obj.get("totalTokens")),
        "reasoning_tokens": reasoning,
        "cached_input_tokens": cached,
    }

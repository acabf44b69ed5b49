"""Chat Completions finish reasons and usage objects, mapped to the unified ones."""

from __future__ import annotations

from typing import Any

from ...events import FinishReason
from .._base import token_count

FINISH_REASONS: dict[str, FinishReason] = {  # the wire's reason -> the unified one
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "content_filter",
    "eos": "stop",
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "refusal": "refusal",
    "error": "error",
}


def map_finish_reason(raw: str) -> FinishReason:
    """Map a raw Chat Completions ``finish_reason`` to the unified reason.

    ``stop``, ``length``, ``tool_calls``, ``content_filter`` are kept; ``function_call``
    and ``tool_use`` are tool calls; ``eos``, ``end_turn``, ``stop_sequence`` are
    ``stop``; ``max_tokens`` is ``length``; ``refusal`` and ``error`` are kept; anything
    else is ``other``.
    """
    return FINISH_REASONS.get(raw, "other")


def _usage_values(usage: dict[str, Any]) -> dict[str, int | None]:
    """Normalised usage keys from a Chat Completions usage object (no arithmetic)."""
    get = usage.get
    inp = get("prompt_tokens")
    if inp is None:
        inp = get("input_tokens")
    outp = get("completion_tokens")
    if outp is None:
        outp = get("output_tokens")
    ptd = get("prompt_tokens_details")
    ctd = get("completion_tokens_details")
    cached = token_count(ptd.get("cached_tokens")) if isinstance(ptd, dict) else None
    if cached is None:
        cached = token_count(get("prompt_cache_hit_tokens"))
        if cached is None:
            cached = token_count(get("cached_tokens"))
    return {
        "input_tokens": token_count(inp),
        "output_tokens": token_count(outp),
        "total_tokens": token_count(get("total_tokens")),
        "reasoning_tokens": token_count(ctd.get("reasoning_tokens"))
        if isinstance(ctd, dict)
        else None,
        "cached_input_tokens": cached,
    }

"""Bedrock stop reasons and usage keys, mapped to the unified ones."""

from __future__ import annotations

from ...events import FinishReason

FINISH_REASONS: dict[str, FinishReason] = {  # the wire's reason -> the unified one
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
}


_INCOMPLETE = frozenset(
    {"max_tokens", "model_context_window_exceeded", "guardrail_intervened", "content_filtered"}
)


_USAGE_KEYS = (
    ("inputTokens", "input_tokens"),
    ("outputTokens", "output_tokens"),
    ("totalTokens", "total_tokens"),
    ("cacheReadInputTokens", "cached_input_tokens"),
)


def map_finish_reason(raw: str) -> FinishReason:
    """Map a Bedrock ``stopReason`` to the unified finish reason (unknown → ``other``)."""
    return FINISH_REASONS.get(raw, "other")

"""Anthropic stop reasons and usage keys, mapped to the unified ones."""

from __future__ import annotations

from ...events import FinishReason

FINISH_REASONS: dict[str, FinishReason] = {  # the wire's reason -> the unified one
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "other",
    "compaction": "other",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "refusal": "refusal",
}


_INCOMPLETE = frozenset(
    {"max_tokens", "model_context_window_exceeded", "refusal", "pause_turn", "compaction"}
)
"""Stop reasons after which the turn is not finished: cut short, refused, or paused (the
client must send the response back for the model to go on)."""


_PAUSED = frozenset({"pause_turn", "compaction"})
"""Stop reasons of a paused turn (``anthropic.turn-paused`` says what the client must do)."""


_USAGE_KEYS = (
    ("input_tokens", "input_tokens"),
    ("output_tokens", "output_tokens"),
    ("cache_read_input_tokens", "cached_input_tokens"),
)


def map_finish_reason(raw: str) -> FinishReason:
    """Map an Anthropic ``stop_reason`` to the unified finish reason (unknown → ``other``)."""
    return FINISH_REASONS.get(raw, "other")

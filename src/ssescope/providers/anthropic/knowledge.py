"""What ssescope knows about Anthropic Messages streams outside the adapter."""

from __future__ import annotations

from .._knowledge import PRESENT, ErrorFrame, Knowledge, event_rule, member_rule, type_rule

__all__ = ["EVENT_TYPES", "KNOWLEDGE"]

EVENT_TYPES = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
    }
)
"""The event types of a Messages stream (JSON ``type`` and SSE event name)."""


def _error_body(status: int) -> object:
    kind = "overloaded_error" if status == 529 else "api_error"
    return {"type": "error", "error": {"type": kind, "message": f"HTTP {status}"}}


KNOWLEDGE = Knowledge(
    name="anthropic",
    adapter="adapter:AnthropicAdapter",
    rules=(
        type_rule(10, "an Anthropic Messages event", EVENT_TYPES),
        # Anthropic's in-stream error: {"type": "error", "error": {"type": ..., "message": ...}}.
        # The Responses API's nested error event has the same two members, and a
        # sequence_number that its own rule (which runs first) recognises it by.
        member_rule(
            35,
            "an Anthropic error event ('type': 'error' with an 'error' object)",
            {"type": "error", "error": dict},
        ),
        member_rule(
            60,
            "a whole Anthropic Messages 'message' object (not streamed)",
            {"type": "message", "role": "assistant", "content": PRESENT},
        ),
        event_rule(160, "SSE event name", EVENT_TYPES),
    ),
    terminal_events=frozenset({"message_stop"}),
    error_frame=ErrorFrame(
        "error", {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    ),
    error_body=_error_body,
    quirks="quirks",
)
"""The registry's entry for Anthropic Messages."""

"""What ssescope knows about Cohere v2 chat streams outside the adapter."""

from __future__ import annotations

from .._knowledge import ErrorFrame, Knowledge, type_rule

__all__ = ["EVENT_TYPES", "KNOWLEDGE"]

EVENT_TYPES = frozenset(
    {
        "message-start",
        "content-start",
        "content-delta",
        "content-end",
        "tool-plan-delta",
        "tool-call-start",
        "tool-call-delta",
        "tool-call-end",
        "citation-start",
        "citation-end",
        "message-end",
    }
)
"""The event types of a Cohere v2 chat stream."""


KNOWLEDGE = Knowledge(
    name="cohere",
    adapter="adapter:CohereAdapter",
    rules=(type_rule(40, "a Cohere v2 stream event", EVENT_TYPES),),
    # message-end (v2) and stream-end (v1) end a Cohere stream
    terminal_events=frozenset({"message-end", "stream-end"}),
    error_frame=ErrorFrame(
        "message-end",
        {
            "type": "message-end",
            "delta": {"finish_reason": "ERROR", "error": "internal server error"},
        },
    ),
    quirks="quirks",
)
"""The registry's entry for Cohere."""

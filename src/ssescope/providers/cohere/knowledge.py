"""What ssescope knows about Cohere v2 chat streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe

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


def _by_type(probe: Probe) -> str | None:
    if probe.kind in EVENT_TYPES:
        return f"JSON type {probe.kind!r} is a Cohere v2 stream event"
    return None


KNOWLEDGE = Knowledge(
    name="cohere",
    adapter="adapter:CohereAdapter",
    rules=(DetectRule(40, _by_type),),
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

"""What ssescope knows about Vercel AI SDK UI-message streams outside the adapter."""

from __future__ import annotations

from .._knowledge import ErrorFrame, Knowledge, member_rule, type_rule

__all__ = ["KNOWLEDGE", "PART_TYPES"]

PART_TYPES = frozenset(
    {
        "start",
        "start-step",
        "finish-step",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-available",
        "tool-output-available",
        "source-url",
        "source-document",
        "finish",
        "abort",
        "message-metadata",
    }
)
"""The part types of a UI-message stream (besides ``data-*`` and ``tool-*``)."""


KNOWLEDGE = Knowledge(
    name="vercel-ui",
    adapter="adapter:VercelUIAdapter",
    rules=(
        member_rule(
            37,
            "an AI SDK UI-message stream 'error' part (with 'errorText')",
            {"type": "error", "errorText": str},
        ),
        type_rule(50, "an AI SDK UI-message stream part", PART_TYPES, ("data-", "tool-")),
    ),
    terminal_events=frozenset({"finish"}),
    error_frame=ErrorFrame(None, {"type": "error", "errorText": "The model is overloaded."}),
    quirks="quirks",
)
"""The registry's entry for Vercel AI SDK UI-message streams."""

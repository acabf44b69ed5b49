"""What ssescope knows about Vercel AI SDK UI-message streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe

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


def _by_type(probe: Probe) -> str | None:
    kind = probe.kind
    if kind is not None and (kind in PART_TYPES or kind.startswith(("data-", "tool-"))):
        return f"JSON type {kind!r} is an AI SDK UI-message stream part"
    return None


KNOWLEDGE = Knowledge(
    name="vercel-ui",
    adapter="adapter:VercelUIAdapter",
    rules=(DetectRule(50, _by_type),),
    terminal_events=frozenset({"finish"}),
    error_frame=ErrorFrame(None, {"type": "error", "errorText": "The model is overloaded."}),
    quirks="quirks",
)
"""The registry's entry for Vercel AI SDK UI-message streams."""

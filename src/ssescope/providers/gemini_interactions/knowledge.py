"""What ssescope knows about Gemini Interactions streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe

__all__ = ["EVENT_TYPES", "KNOWLEDGE", "LEGACY"]

LEGACY = "content"
"""The legacy generation's item events are ``content.start`` / ``.delta`` / ``.stop`` (built from
this prefix so that they do not read as diagnostic codes)."""

EVENT_TYPES = frozenset(
    {
        "interaction.created",
        "interaction.start",
        "interaction.status_update",
        "interaction.completed",
        "interaction.complete",
        "step.start",
        "step.delta",
        "step.stop",
        f"{LEGACY}.start",
        f"{LEGACY}.delta",
        f"{LEGACY}.stop",
    }
)
"""The ``event_type`` values of both generations (``error`` aside: other protocols send it)."""


def _event_type(probe: Probe) -> str | None:
    obj = probe.obj
    if obj is None:
        return None
    kind = obj.get("event_type")
    if kind in EVENT_TYPES:
        return f"JSON event_type {kind!r} is a Gemini Interactions event"
    if kind == "error" and isinstance(obj.get("error"), dict):
        return "JSON event_type 'error' with an error object (Gemini Interactions)"
    return None


KNOWLEDGE = Knowledge(
    name="gemini-interactions",
    adapter="adapter:GeminiInteractionsAdapter",
    rules=(DetectRule(115, _event_type),),
    terminal_events=frozenset({"interaction.completed", "interaction.complete"}),
    error_frame=ErrorFrame(
        "error",
        {"event_type": "error", "error": {"code": "internal", "message": "injected error"}},
    ),
    quirks="quirks",
)
"""The registry's entry for the Gemini Interactions API."""

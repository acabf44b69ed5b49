"""What ssescope knows about Gemini Interactions streams outside the adapter."""

from __future__ import annotations

from .._knowledge import ErrorFrame, Knowledge, member_rule, type_rule

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


KNOWLEDGE = Knowledge(
    name="gemini-interactions",
    adapter="adapter:GeminiInteractionsAdapter",
    rules=(
        type_rule(115, "a Gemini Interactions event", EVENT_TYPES, key="event_type"),
        member_rule(
            116,
            "JSON event_type 'error' with an error object (Gemini Interactions)",
            {"event_type": "error", "error": dict},
        ),
    ),
    terminal_events=frozenset({"interaction.completed", "interaction.complete"}),
    error_frame=ErrorFrame(
        "error",
        {"event_type": "error", "error": {"code": "internal", "message": "injected error"}},
    ),
    quirks="quirks",
)
"""The registry's entry for the Gemini Interactions API."""

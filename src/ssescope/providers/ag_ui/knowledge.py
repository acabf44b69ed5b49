"""What ssescope knows about AG-UI streams outside the adapter."""

from __future__ import annotations

from .._knowledge import ErrorFrame, Knowledge, type_rule

__all__ = ["EVENT_TYPES", "KNOWLEDGE"]

EVENT_TYPES = frozenset(
    {
        "RUN_STARTED",
        "RUN_FINISHED",
        "RUN_ERROR",
        "STEP_STARTED",
        "STEP_FINISHED",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "TEXT_MESSAGE_CHUNK",
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "TOOL_CALL_CHUNK",
        "TOOL_CALL_RESULT",
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
        "REASONING_MESSAGE_CHUNK",
        "REASONING_END",
        "REASONING_ENCRYPTED_VALUE",
        "THINKING_START",
        "THINKING_END",
        "THINKING_TEXT_MESSAGE_START",
        "THINKING_TEXT_MESSAGE_CONTENT",
        "THINKING_TEXT_MESSAGE_END",
        "STATE_SNAPSHOT",
        "STATE_DELTA",
        "MESSAGES_SNAPSHOT",
        "ACTIVITY_SNAPSHOT",
        "ACTIVITY_DELTA",
        "RAW",
        "CUSTOM",
    }
)
"""Every AG-UI event type (1.0 and the older ``THINKING_*`` names)."""


KNOWLEDGE = Knowledge(
    name="ag-ui",
    adapter="adapter:AgUiAdapter",
    rules=(type_rule(45, "an AG-UI event", EVENT_TYPES),),
    error_frame=ErrorFrame(None, {"type": "RUN_ERROR", "message": "injected error"}),
    quirks="quirks",
    reports_usage=False,  # the protocol carries no token usage
)
"""The registry's entry for AG-UI."""

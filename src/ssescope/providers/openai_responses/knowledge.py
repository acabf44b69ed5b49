"""What ssescope knows about OpenAI Responses API streams outside the adapter."""

from __future__ import annotations

from .._knowledge import ABSENT, PRESENT, ErrorFrame, Knowledge, member_rule, type_rule

__all__ = ["KNOWLEDGE"]


KNOWLEDGE = Knowledge(
    name="openai-responses",
    adapter="adapter:OpenAIResponsesAdapter",
    rules=(
        type_rule(20, "a Responses API event", prefixes=("response.",)),
        member_rule(
            30,
            "an error event with a sequence_number (Responses API)",
            {"type": "error", "sequence_number": PRESENT},
        ),
        # The error event as the SDK types it: code and message beside the type, no
        # nested "error" object (that one, without a sequence_number, is Anthropic's).
        member_rule(
            36,
            "an error event with 'code' and 'message' beside its type (Responses API)",
            {"type": "error", "message": str, "code": PRESENT, "error": ABSENT},
        ),
        member_rule(
            70,
            "a whole Responses API Response object (not streamed)",
            {"object": "response", "output": PRESENT, "type": None},
        ),
    ),
    terminal_events=frozenset({"response.completed", "response.incomplete", "response.failed"}),
    error_frame=ErrorFrame(
        "error",
        {
            "type": "error",
            "code": "server_error",
            "message": "The server had an error while processing your request.",
            "param": None,
        },
    ),
    quirks="quirks",
)
"""The registry's entry for the OpenAI Responses API."""

"""What ssescope knows about OpenAI Responses API streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe, type_rule

__all__ = ["KNOWLEDGE"]


def _error_event(probe: Probe) -> str | None:
    if probe.kind == "error" and probe.obj is not None and "sequence_number" in probe.obj:
        return "an error event with a sequence_number (Responses API)"
    return None


def _whole_response(probe: Probe) -> str | None:
    obj = probe.obj
    if (
        obj is not None
        and obj.get("object") == "response"
        and "output" in obj
        and obj.get("type") is None
    ):
        return "a whole Responses API Response object (not streamed)"
    return None


KNOWLEDGE = Knowledge(
    name="openai-responses",
    adapter="adapter:OpenAIResponsesAdapter",
    rules=(
        type_rule(20, "a Responses API event", prefixes=("response.",)),
        DetectRule(30, _error_event),
        DetectRule(70, _whole_response),
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

"""What ssescope knows about OpenAI Responses API streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe, type_rule

__all__ = ["KNOWLEDGE"]


def _error_event(probe: Probe) -> str | None:
    if probe.kind == "error" and probe.obj is not None and "sequence_number" in probe.obj:
        return "an error event with a sequence_number (Responses API)"
    return None


def _flat_error_event(probe: Probe) -> str | None:
    # The error event as the SDK types it: code and message beside the type, no
    # nested "error" object (that one, without a sequence_number, is Anthropic's).
    obj = probe.obj
    if (
        probe.kind == "error"
        and obj is not None
        and isinstance(obj.get("message"), str)
        and "code" in obj
        and "error" not in obj
    ):
        return "an error event with 'code' and 'message' beside its type (Responses API)"
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
        DetectRule(36, _flat_error_event),
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

"""What ssescope knows about OpenAI Chat Completions streams outside the adapter."""

from __future__ import annotations

from .._knowledge import (
    PRESENT,
    DetectRule,
    ErrorFrame,
    Knowledge,
    Probe,
    member_rule,
    openai_error_body,
)

__all__ = ["KNOWLEDGE"]


def _chunk_object(probe: Probe) -> str | None:
    obj = probe.obj
    if obj is not None and obj.get("object") in ("chat.completion.chunk", "chat.completion.done"):
        return f"JSON object {obj.get('object')!r}"
    return None


def _error_object(probe: Probe) -> str | None:
    # {"error": {"message": ..., "type": ..., "code": ...}} (and a bare {"error": "..."} in
    # SSE): the error chunk of OpenAI and the servers compatible with it. Runs after the
    # rules of the providers whose error objects carry a more specific member.
    obj = probe.obj
    err = obj.get("error") if obj is not None else None
    if isinstance(err, dict) or (isinstance(err, str) and err):
        return "a JSON object with a top-level 'error' (an OpenAI-compatible error chunk)"
    return None


KNOWLEDGE = Knowledge(
    name="openai-chat",
    usage_request="stream_options.include_usage",
    adapter="adapter:OpenAIChatAdapter",
    rules=(
        member_rule(
            80,
            "a whole 'chat.completion' object (not streamed)",
            {"object": "chat.completion", "choices": PRESENT},
        ),
        DetectRule(90, _chunk_object),
        member_rule(
            100,
            "a vLLM error object ('object': 'error') in an OpenAI-compatible stream",
            {"object": "error", "message": PRESENT},
        ),
        member_rule(
            110, "a JSON object with 'choices' (an OpenAI-compatible chunk)", {"choices": PRESENT}
        ),
        DetectRule(172, _error_object),
    ),
    error_frame=ErrorFrame(
        None,
        {
            "error": {
                "message": "The server had an error while processing your request.",
                "type": "server_error",
                "param": None,
                "code": None,
            }
        },
    ),
    error_body=openai_error_body,
    quirks="quirks",
)
"""The registry's entry for OpenAI Chat Completions (and compatible servers)."""

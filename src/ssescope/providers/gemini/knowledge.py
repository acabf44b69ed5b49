"""What ssescope knows about Gemini streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe

__all__ = ["KNOWLEDGE"]


def _by_keys(probe: Probe) -> str | None:
    obj = probe.obj
    if obj is not None and (
        "candidates" in obj or "usageMetadata" in obj or "promptFeedback" in obj
    ):
        return "a JSON object with 'candidates' / 'usageMetadata' (Gemini)"
    return None


def _error_body(status: int) -> object:
    return {"error": {"code": status, "message": f"HTTP {status}", "status": "INTERNAL"}}


KNOWLEDGE = Knowledge(
    name="gemini",
    adapter="adapter:GeminiAdapter",
    rules=(DetectRule(120, _by_keys),),
    error_frame=ErrorFrame(
        None,
        {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}},
    ),
    error_body=_error_body,
    quirks="quirks",
)
"""The registry's entry for Gemini."""

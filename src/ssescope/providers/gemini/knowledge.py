"""What ssescope knows about Gemini streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe

__all__ = ["KNOWLEDGE", "RPC_STATUSES"]

RPC_STATUSES = frozenset(
    {
        "CANCELLED",
        "UNKNOWN",
        "INVALID_ARGUMENT",
        "DEADLINE_EXCEEDED",
        "NOT_FOUND",
        "ALREADY_EXISTS",
        "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED",
        "FAILED_PRECONDITION",
        "ABORTED",
        "OUT_OF_RANGE",
        "UNIMPLEMENTED",
        "INTERNAL",
        "UNAVAILABLE",
        "DATA_LOSS",
        "UNAUTHENTICATED",
    }
)
"""The google.rpc status names a Google API error carries in ``error.status``."""


def _by_keys(probe: Probe) -> str | None:
    obj = probe.obj
    if obj is not None and (
        "candidates" in obj or "usageMetadata" in obj or "promptFeedback" in obj
    ):
        return "a JSON object with 'candidates' / 'usageMetadata' (Gemini)"
    return None


def _error_object(probe: Probe) -> str | None:
    # {"error": {"code": 429, "message": ..., "status": "RESOURCE_EXHAUSTED"}}: the status,
    # a google.rpc name, is what no OpenAI-compatible error object carries.
    obj = probe.obj
    err = obj.get("error") if obj is not None else None
    if isinstance(err, dict) and err.get("status") in RPC_STATUSES:
        return f"an error object with the google.rpc status {err['status']!r} (Gemini)"
    return None


def _error_body(status: int) -> object:
    return {"error": {"code": status, "message": f"HTTP {status}", "status": "INTERNAL"}}


KNOWLEDGE = Knowledge(
    name="gemini",
    adapter="adapter:GeminiAdapter",
    rules=(DetectRule(120, _by_keys), DetectRule(170, _error_object)),
    error_frame=ErrorFrame(
        None,
        {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}},
    ),
    error_body=_error_body,
    quirks="quirks",
)
"""The registry's entry for Gemini."""

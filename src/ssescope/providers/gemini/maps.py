"""Gemini finish reasons and usage keys, mapped to the unified ones."""

from __future__ import annotations

from ...events import FinishReason, Status

_FILTER_REASONS = frozenset(
    {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"}
)


_TOOL_FAILURES = frozenset(
    {"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"}
)


_USAGE_KEYS = (
    ("promptTokenCount", "input_tokens"),
    ("candidatesTokenCount", "output_tokens"),
    ("totalTokenCount", "total_tokens"),
    ("thoughtsTokenCount", "reasoning_tokens"),
    ("cachedContentTokenCount", "cached_input_tokens"),
)


def map_finish_reason(raw: str) -> FinishReason:
    """Map a Gemini ``finishReason`` to the unified finish reason.

    STOP is a natural stop (also for tool-calling turns, which Gemini ends with STOP);
    MAX_TOKENS is ``length``; the safety, recitation, blocklist, PII and ``IMAGE_*``
    reasons are ``content_filter``; the tool-call failures are ``error``; everything else
    (LANGUAGE, OTHER, NO_IMAGE, unknown values) is ``other``.
    """
    if raw == "STOP":
        return "stop"
    if raw == "MAX_TOKENS":
        return "length"
    if raw in _FILTER_REASONS or raw.startswith("IMAGE_"):
        return "content_filter"
    if raw in _TOOL_FAILURES:
        return "error"
    return "other"


def finish_status(raw: str) -> Status:
    """The status a Gemini ``finishReason`` gives its candidate: STOP is ``completed``,
    the tool-call failures are ``failed``, anything else is ``incomplete``."""
    if raw == "STOP":
        return "completed"
    return "failed" if raw in _TOOL_FAILURES else "incomplete"

"""Cohere finish reasons, mapped to the unified ones, and the statuses they give."""

from __future__ import annotations

from ...events import FinishReason, Status

FINISH_REASONS: dict[str, FinishReason] = {  # the wire's reason -> the unified one
    "COMPLETE": "stop",
    "STOP_SEQUENCE": "stop",
    "TOOL_CALL": "tool_calls",
    "MAX_TOKENS": "length",
    "ERROR": "error",
    "TIMEOUT": "error",
}


_STATUS: dict[str, Status] = {"MAX_TOKENS": "incomplete", "ERROR": "failed", "TIMEOUT": "failed"}


def map_finish_reason(raw: str) -> FinishReason:
    """Map a Cohere ``finish_reason`` to the unified finish reason (unknown → ``other``)."""
    return FINISH_REASONS.get(raw, "other")


def finish_status(raw: str) -> Status:
    """The status a Cohere ``finish_reason`` gives the response.

    ``MAX_TOKENS`` is ``incomplete``, ``ERROR`` and ``TIMEOUT`` are ``failed``; anything
    else, unknown values too, is ``completed`` (``message-end`` still ends the response).
    """
    return _STATUS.get(raw, "completed")

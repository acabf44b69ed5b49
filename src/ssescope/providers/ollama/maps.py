"""Ollama done reasons, mapped to the unified finish reasons, and the statuses they give."""

from __future__ import annotations

from ...events import FinishReason, Status

FINISH_REASONS: dict[str, FinishReason] = {  # the wire's reason -> the unified one
    "stop": "stop",
    "length": "length",
    "load": "other",
    "unload": "other",
    "": "other",
}


_STATUS: dict[str, Status] = {"length": "incomplete", "": "incomplete"}


def map_finish_reason(raw: str) -> FinishReason:
    """Map an Ollama ``done_reason`` to the unified finish reason (unknown → ``other``)."""
    return FINISH_REASONS.get(raw, "other")


def finish_status(raw: str) -> Status:
    """The status an Ollama ``done_reason`` gives the response.

    ``length`` and the empty reason (the connection closed) are ``incomplete``; anything
    else, unknown values too, is ``completed`` (``done: true`` was sent).
    """
    return _STATUS.get(raw, "completed")

"""Responses API finish reasons, mapped to the unified ones."""

from __future__ import annotations

from ...events import FinishReason

FINISH_REASONS: dict[str, FinishReason] = {  # incomplete_details.reason -> the unified one
    "max_output_tokens": "length",
    "max_tokens": "length",
    "content_filter": "content_filter",
}


def map_finish_reason(raw: str) -> FinishReason:
    """Map an ``incomplete_details.reason`` to the unified finish reason (unknown → ``other``)."""
    return FINISH_REASONS.get(raw, "other")

"""Quirks of A2A streams (``message/stream``, ``tasks/resubscribe``), in their wire shape
(JSON-RPC results in ``data:`` SSE events, 0.x or 1.0).

Each function takes the stream's records and returns them as a real server sent them;
:data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load

__all__ = ["QUIRKS", "is_final_status"]

# the states that end a task (or pause it for the user), both spellings
_FINAL_STATES = frozenset(
    {"completed", "failed", "canceled", "cancelled", "rejected", "input-required", "auth-required"}
)


def _state(raw: object) -> str:
    """A task state in the 0.x spelling (``TASK_STATE_INPUT_REQUIRED`` → ``input-required``)."""
    text = str(raw)
    if text.startswith("TASK_STATE_"):
        text = text[len("TASK_STATE_") :].lower().replace("_", "-")
    return text


def is_final_status(value: Any) -> bool:
    """A status-update that ends the stream: ``final: true`` (0.x), or one in a terminal or
    interrupted state (0.x or 1.0)."""
    result = value.get("result") if isinstance(value, dict) else None
    if not isinstance(result, dict):
        return False
    update = result if result.get("kind") == "status-update" else result.get("statusUpdate")
    if not isinstance(update, dict):
        return False
    if update.get("final") is True:
        return True
    status = update.get("status")
    state = status.get("state") if isinstance(status, dict) else None
    return _state(state) in _FINAL_STATES


def final_status_missing(records: list[WireRecord]) -> list[WireRecord]:
    """The task's final status-update (every one that ends or pauses the task; a stream
    has one) is dropped: the stream ends after the last artifact or ``working`` update
    (a server that closes the stream before it sends the final state, or a task queue
    that drops the last event)."""
    kept = [r for r in records if not is_final_status(load(r))]
    if len(kept) == len(records):
        raise QuirkRefused("the stream has no final status-update")
    return kept


QUIRKS: dict[str, QuirkTransform] = {"final-status-missing": final_status_missing}
"""The quirks that make sense for an A2A stream, by preset name."""

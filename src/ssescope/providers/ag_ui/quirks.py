"""Quirks of AG-UI streams, in their wire shape (one event a ``data:`` line).

Each function takes the stream's records and returns them as a real server sent them;
:data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load, midpoint, rewrite

__all__ = ["QUIRKS"]


def _is_content(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") in (
        "TEXT_MESSAGE_CONTENT",
        "TOOL_CALL_ARGS",
        "REASONING_MESSAGE_CONTENT",
    )


def run_finished_after_run_error(records: list[WireRecord]) -> list[WireRecord]:
    """Halfway through, ``RUN_ERROR``, then ``RUN_FINISHED`` all the same (the adapters of
    several frameworks send both); the run's own terminal is dropped."""
    finished = [i for i, r in enumerate(records) if (v := load(r)) and _type(v) == "RUN_FINISHED"]
    if not finished:
        raise QuirkRefused("the stream has no RUN_FINISHED")
    final = load(records[finished[-1]])
    cut = midpoint(records[: finished[-1]], _is_content)
    error = {"type": "RUN_ERROR", "message": "the model call failed", "code": "MODEL_ERROR"}
    return [
        *records[:cut],
        rewrite(WireRecord(None, ""), error),
        rewrite(records[finished[-1]], final),
    ]


def _type(value: Any) -> object:
    return value.get("type") if isinstance(value, dict) else None


QUIRKS: dict[str, QuirkTransform] = {
    "run-finished-after-run-error": run_finished_after_run_error,
}
"""The quirks that make sense for an AG-UI stream, by preset name."""

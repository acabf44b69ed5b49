"""Quirks of Vercel AI SDK UI-message streams, in their wire shape (typed JSON parts).

Each function takes the stream's records and returns them as a real server or gateway
sent them; :data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkTransform, WireRecord, midpoint, rewrite

__all__ = ["QUIRKS"]

_CONTENT = frozenset({"text-delta", "reasoning-delta", "tool-input-delta"})


def _is_content(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") in _CONTENT


def error_frame_then_done(records: list[WireRecord]) -> list[WireRecord]:
    """Halfway through, an ``error`` part, then ``data: [DONE]``."""
    cut = midpoint(records, _is_content)
    error = {"type": "error", "errorText": "The model is overloaded."}
    return [*records[:cut], rewrite(WireRecord(None, ""), error), WireRecord(None, "[DONE]")]


QUIRKS: dict[str, QuirkTransform] = {"error-frame-then-done": error_frame_then_done}
"""The quirks that make sense for a UI-message stream, by preset name."""

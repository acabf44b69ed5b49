"""Quirks of Cohere chat streams, in their wire shape (named SSE events, v2
``message-start`` … ``message-end``).

Each function takes the stream's records and returns them as a real server or gateway
sent them; :data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkTransform, WireRecord, midpoint, rewrite

__all__ = ["QUIRKS"]


def _is_content(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") in ("content-delta", "tool-call-delta")


def error_frame_then_done(records: list[WireRecord]) -> list[WireRecord]:
    """Halfway through the content, ``message-end`` with ``finish_reason: ERROR`` (Cohere's
    error frame, which is also its terminal event), and nothing else: no ``content-end``."""
    cut = midpoint(records, _is_content)
    error = {
        "type": "message-end",
        "delta": {"finish_reason": "ERROR", "error": "internal server error"},
    }
    return [*records[:cut], rewrite(WireRecord("message-end", ""), error)]


QUIRKS: dict[str, QuirkTransform] = {
    "error-frame-then-done": error_frame_then_done,
}
"""The quirks that make sense for a Cohere stream, by preset name."""

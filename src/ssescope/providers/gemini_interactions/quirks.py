"""Quirks of Gemini Interactions streams, in their wire shape (``event:`` named SSE).

Each function takes the stream's records and returns them as a real server or translator
sent them; :data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load
from .knowledge import LEGACY

__all__ = ["QUIRKS"]


def _is_delta(value: Any) -> bool:
    return isinstance(value, dict) and value.get("event_type") in ("step.delta", f"{LEGACY}.delta")


def ends_on_content_delta(records: list[WireRecord]) -> list[WireRecord]:
    """The stream ends right after its last content delta: no ``step.stop``, no
    ``interaction.completed`` (a translator that stops on an upstream EOF)."""
    last = [i for i, r in enumerate(records) if _is_delta(load(r))]
    if not last:
        raise QuirkRefused("the stream has no step or content delta")
    return records[: last[-1] + 1]


QUIRKS: dict[str, QuirkTransform] = {"ends-on-content-delta": ends_on_content_delta}
"""The quirks that make sense for a Gemini Interactions stream, by preset name."""

"""Quirks of Ollama ``/api/chat`` and ``/api/generate`` streams, in their wire shape (one
JSON object a line, the last with ``"done": true``).

Each function takes the stream's records and returns them as a real server or gateway
sent them; :data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load, midpoint, rewrite

__all__ = ["QUIRKS"]


def _chunks(records: list[WireRecord]) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for i, record in enumerate(records):
        value = load(record)
        if isinstance(value, dict) and "done" in value:
            out.append((i, value))
    if not out:
        raise QuirkRefused("the stream holds no Ollama chunk")
    return out


def finish_on_every_chunk(records: list[WireRecord]) -> list[WireRecord]:
    """Every chunk carries the final ``done_reason``, not only the ``done`` one (its
    ``done`` flag is left as it was)."""
    chunks = _chunks(records)
    final = None
    for _, chunk in chunks:
        if chunk.get("done") is True:
            final = chunk.get("done_reason") or final
    if final is None:
        raise QuirkRefused("the stream has no done_reason to repeat")
    out = list(records)
    for i, chunk in chunks:
        new = {**chunk, "done_reason": final}
        if new != chunk:
            out[i] = rewrite(records[i], new)
    return out


def _is_content(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    message = value.get("message")
    if isinstance(message, dict):
        return bool(message.get("content") or message.get("thinking") or message.get("tool_calls"))
    return bool(value.get("response") or value.get("thinking"))


def error_frame_then_done(records: list[WireRecord]) -> list[WireRecord]:
    """Halfway through, Ollama's ``{"error": …}`` line, and the stream ends: Ollama has no
    terminal marker beside the ``done`` chunk, so the error is the last line."""
    _chunks(records)
    cut = midpoint(records, _is_content)
    error = {"error": "an error was encountered while running the model"}
    return [*records[:cut], rewrite(WireRecord(None, ""), error)]


QUIRKS: dict[str, QuirkTransform] = {
    "error-frame-then-done": error_frame_then_done,
    "finish-on-every-chunk": finish_on_every_chunk,
}
"""The quirks that make sense for an Ollama stream, by preset name."""

"""Quirks of Gemini ``streamGenerateContent`` streams, in their wire shape
(``GenerateContentResponse`` chunks).

Each function takes the stream's records and returns them as a real server or gateway
sent them; :data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

import copy
from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load, midpoint, rewrite, take_field

__all__ = ["QUIRKS"]

_ENVELOPE = ("modelVersion", "responseId")


def _chunks(records: list[WireRecord]) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for i, record in enumerate(records):
        value = load(record)
        if isinstance(value, dict) and ("candidates" in value or "usageMetadata" in value):
            out.append((i, value))
    if not out:
        raise QuirkRefused("the stream holds no GenerateContentResponse chunk")
    return out


def _candidates(chunk: dict[str, Any]) -> list[dict[str, Any]]:
    found = chunk.get("candidates")
    return [c for c in found if isinstance(c, dict)] if isinstance(found, list) else []


def finish_on_every_chunk(records: list[WireRecord]) -> list[WireRecord]:
    """Every chunk's candidates carry the final ``finishReason``, not only the last one."""
    chunks = _chunks(records)
    final = None
    for _, chunk in chunks:
        for candidate in _candidates(chunk):
            final = candidate.get("finishReason") or final
    if final is None:
        raise QuirkRefused("the stream has no finishReason to repeat")
    out = list(records)
    for i, chunk in chunks:
        new = copy.deepcopy(chunk)
        for candidate in _candidates(new):
            candidate["finishReason"] = final
        if new != chunk:
            out[i] = rewrite(records[i], new)
    return out


def _without_usage(chunk: dict[str, Any]) -> dict[str, Any] | None:
    rest = {k: v for k, v in chunk.items() if k != "usageMetadata"}
    return rest if rest.keys() - set(_ENVELOPE) else None


def usage_only_chunk(records: list[WireRecord]) -> list[WireRecord]:
    """The ``usageMetadata`` moved out of the chunks with candidates into one last chunk
    that holds only it (and the response's ``modelVersion`` / ``responseId``)."""
    chunks = _chunks(records)
    out, usage = take_field(records, chunks, "usageMetadata", _without_usage)
    last = chunks[-1][1]
    tail = {k: last[k] for k in _ENVELOPE if k in last}
    return [*out, rewrite(WireRecord(None, ""), {"usageMetadata": usage, **tail})]


def _is_content(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    for candidate in _candidates(value):
        content = candidate.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        if isinstance(parts, list) and parts:
            return True
    return False


def error_frame_then_done(records: list[WireRecord]) -> list[WireRecord]:
    """Halfway through, Gemini's error object as a data frame (``503 UNAVAILABLE``), and
    the stream ends: Gemini has no terminal marker, so the error is the last record."""
    _chunks(records)
    cut = midpoint(records, _is_content)
    error = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    return [*records[:cut], rewrite(WireRecord(None, ""), error)]


QUIRKS: dict[str, QuirkTransform] = {
    "usage-only-chunk": usage_only_chunk,
    "error-frame-then-done": error_frame_then_done,
    "finish-on-every-chunk": finish_on_every_chunk,
}
"""The quirks that make sense for a Gemini stream, by preset name."""

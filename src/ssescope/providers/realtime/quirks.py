"""Quirks of OpenAI Realtime sessions, in their wire shape (one server event a record).

Each function takes the stream's records and returns them as a real server or gateway
sent them; :data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load, rewrite

__all__ = ["QUIRKS"]

_BETA_NAMES = {
    "response.output_text.delta": "response.text.delta",
    "response.output_text.done": "response.text.done",
    "response.output_audio.delta": "response.audio.delta",
    "response.output_audio.done": "response.audio.done",
    "response.output_audio_transcript.delta": "response.audio_transcript.delta",
    "response.output_audio_transcript.done": "response.audio_transcript.done",
    "conversation.item.added": "conversation.item.created",
}


def _type(value: Any) -> str | None:
    return value.get("type") if isinstance(value, dict) else None


def incomplete_without_details(records: list[WireRecord]) -> list[WireRecord]:
    """``response.done`` says ``status: incomplete`` with ``status_details: null``: the
    response stopped and the server does not say why."""
    out = list(records)
    changed = False
    for i, record in enumerate(records):
        value = load(record)
        if _type(value) == "response.done" and isinstance(value.get("response"), dict):
            resp = {**value["response"], "status": "incomplete", "status_details": None}
            out[i] = rewrite(record, {**value, "response": resp})
            changed = True
    if not changed:
        raise QuirkRefused("the stream has no response.done event")
    return out


def beta_event_names(records: list[WireRecord]) -> list[WireRecord]:
    """The beta protocol's event names (``response.text.delta``,
    ``response.audio_transcript.delta``…), as old servers and captures send them."""
    out = list(records)
    changed = False
    for i, record in enumerate(records):
        value = load(record)
        beta = _BETA_NAMES.get(_type(value) or "")
        if beta is not None:
            out[i] = rewrite(record, {**value, "type": beta})
            changed = True
    if not changed:
        raise QuirkRefused("the stream has no event with a GA-only name")
    return out


QUIRKS: dict[str, QuirkTransform] = {
    "realtime-incomplete-no-details": incomplete_without_details,
    "realtime-beta-event-names": beta_event_names,
}
"""The quirks that make sense for a Realtime session, by preset name."""

"""What ssescope knows about OpenAI Realtime sessions outside the adapter."""

from __future__ import annotations

from .._knowledge import PRESENT, DetectRule, ErrorFrame, Knowledge, Probe, member_rule

__all__ = ["KNOWLEDGE"]

_SESSION_FAMILIES = (
    "session.",
    "transcription_session.",
    "conversation.",
    "input_audio_buffer.",
    "output_audio_buffer.",
    "rate_limits.",
)


def _session_event(probe: Probe) -> str | None:
    # Every Realtime server event carries a server event_id; the session, conversation
    # and buffer families belong to no other protocol read here.
    kind, obj = probe.kind, probe.obj
    if kind is None or obj is None or not kind.startswith(_SESSION_FAMILIES):
        return None
    if "event_id" in obj:
        return f"a {kind} event with an event_id (OpenAI Realtime)"
    session = obj.get("session")
    if isinstance(session, dict) and (
        session.get("object") == "realtime.session"
        or session.get("type") in ("realtime", "transcription", "translation")
    ):
        return f"a {kind} event whose session is a Realtime session (OpenAI Realtime)"
    return None


def _response_event(probe: Probe) -> str | None:
    # response.* events also name the Responses API's; Realtime's carry an event_id and
    # no sequence_number, and its response object is a realtime.response.
    kind, obj = probe.kind, probe.obj
    if kind is None or obj is None or not kind.startswith("response."):
        return None
    resp = obj.get("response")
    if isinstance(resp, dict) and resp.get("object") == "realtime.response":
        return f"a {kind} event whose response object is a realtime.response (OpenAI Realtime)"
    if kind == "response.done":  # the Responses API has no such event
        return "a response.done event (OpenAI Realtime)"
    if "event_id" in obj and "sequence_number" not in obj:
        return f"a {kind} event with an event_id and no sequence_number (OpenAI Realtime)"
    return None


KNOWLEDGE = Knowledge(
    name="realtime",
    adapter="adapter:RealtimeAdapter",
    rules=(
        DetectRule(14, _session_event),
        DetectRule(15, _response_event),
        member_rule(
            16,
            "an error event with an event_id and an error object (OpenAI Realtime)",
            {"type": "error", "event_id": PRESENT, "error": dict},
        ),
    ),
    terminal_events=frozenset({"response.done"}),
    error_frame=ErrorFrame(
        None,
        {
            "type": "error",
            "event_id": "event_ssescope_error",
            "error": {
                "type": "server_error",
                "code": "server_error",
                "message": "The server had an error while processing your request.",
                "param": None,
                "event_id": None,
            },
        },
    ),
    quirks="quirks",
)
"""The registry's entry for OpenAI Realtime."""

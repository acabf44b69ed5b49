"""Realtime ``response.done`` statuses and reasons, mapped to the unified verdicts, and
the event names of both generations of the protocol (GA and beta)."""

from __future__ import annotations

from ...events import FinishReason, Status

__all__ = [
    "AUDIO_DELTAS",
    "QUIET_PREFIXES",
    "QUIET_TYPES",
    "STATUSES",
    "TEXT_DELTAS",
    "TEXT_DONES",
    "TRANSCRIPT_DELTAS",
    "USAGE_KEYS",
    "map_reason",
]

STATUSES: dict[str, Status] = {
    "completed": "completed",
    "cancelled": "cancelled",
    "incomplete": "incomplete",
    "failed": "failed",
}
"""``response.status`` -> the response's status."""

_REASONS: dict[str, FinishReason] = {
    "max_output_tokens": "length",
    "content_filter": "content_filter",
    "turn_detected": "other",
    "client_cancelled": "other",
}


def map_reason(status: str, reason: str | None, tool_calls: bool) -> FinishReason:
    """The unified finish reason of a response that ended with ``status`` and
    ``status_details.reason``."""
    if status == "completed":
        return "tool_calls" if tool_calls else "stop"
    if status == "failed":
        return "error"
    return _REASONS.get(reason or "", "other")


TEXT_DELTAS = frozenset({"response.output_text.delta", "response.text.delta"})
"""Text deltas: the GA name and the beta one."""
TEXT_DONES = frozenset({"response.output_text.done", "response.text.done"})
"""The whole text of a part, restated."""
TRANSCRIPT_DELTAS = frozenset(
    {
        "response.output_audio_transcript.delta",
        "response.audio_transcript.delta",
        "session.output_transcript.delta",  # a translation session's output speech
    }
)
"""Deltas of the transcript of the audio the model speaks."""
AUDIO_DELTAS = frozenset(
    {"response.output_audio.delta", "response.audio.delta", "session.output_audio.delta"}
)
"""Deltas of base64 audio: counted and sized, never kept."""

QUIET_TYPES = frozenset(
    {
        "response.content_part.added",
        "response.content_part.done",
        "response.output_item.done",
        "response.output_audio.done",
        "response.audio.done",
        "response.output_audio_transcript.done",
        "response.audio_transcript.done",
    }
)
"""Events read but with nothing to assemble (checked where they can say something)."""

QUIET_PREFIXES = (
    "session.",
    "transcription_session.",
    "conversation.",
    "input_audio_buffer.",
    "output_audio_buffer.",
    "mcp_list_tools.",
    "response.mcp_call",
)
"""Families of session, conversation and buffer events: the session's state, the user's
input and its transcription; not the model's output."""

USAGE_KEYS = (
    ("input_tokens", "input_tokens"),
    ("output_tokens", "output_tokens"),
    ("total_tokens", "total_tokens"),
)
"""``response.usage`` keys -> the unified names (cached tokens are nested)."""

"""What ssescope knows about Ollama streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe

__all__ = ["KNOWLEDGE"]


def _done_line(probe: Probe) -> str | None:
    obj = probe.obj
    if (
        obj is not None
        and "done" in obj
        and ("message" in obj or "response" in obj or "model" in obj)
    ):
        return "a JSON object with 'done' and 'message'/'response' (Ollama)"
    return None


def _error_line(probe: Probe) -> str | None:
    # {"error": "..."} on a line of its own: Ollama's mid-stream error. Ollama streams
    # NDJSON, so a record with an SSE event name (or a frame type) is not one.
    obj = probe.obj
    if probe.event is None and obj is not None and isinstance(obj.get("error"), str):
        return "a JSON line whose 'error' is a string (Ollama's error line)"
    return None


KNOWLEDGE = Knowledge(
    name="ollama",
    adapter="adapter:OllamaAdapter",
    rules=(DetectRule(130, _done_line), DetectRule(171, _error_line)),
    error_frame=ErrorFrame(None, {"error": "an error was encountered while running the model"}),
    quirks="quirks",
)
"""The registry's entry for Ollama."""

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


KNOWLEDGE = Knowledge(
    name="ollama",
    adapter="adapter:OllamaAdapter",
    rules=(DetectRule(130, _done_line),),
    error_frame=ErrorFrame(None, {"error": "an error was encountered while running the model"}),
    quirks="quirks",
)
"""The registry's entry for Ollama."""

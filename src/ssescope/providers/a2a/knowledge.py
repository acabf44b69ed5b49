"""What ssescope knows about A2A streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe

__all__ = ["KNOWLEDGE"]

_WRAPPERS = ("task", "statusUpdate", "artifactUpdate", "message")
_KINDS = ("task", "status-update", "artifact-update", "message")


def _task_event(probe: Probe) -> str | None:
    obj = probe.obj
    if obj is None or obj.get("jsonrpc") != "2.0":
        return None
    result = obj.get("result")
    if not isinstance(result, dict):
        return None
    if result.get("kind") in _KINDS:
        return "a JSON-RPC result with an A2A 'kind' (A2A 0.x)"
    if len(result) == 1 and next(iter(result)) in _WRAPPERS:
        inner = next(iter(result.values()))
        # a task's status is an object with a state (other protocols' tasks send a string)
        if isinstance(inner, dict) and not isinstance(inner.get("status", {}), str):
            return "a JSON-RPC result wrapping an A2A StreamResponse (A2A 1.0)"
    return None


KNOWLEDGE = Knowledge(
    name="a2a",
    adapter="adapter:A2aAdapter",
    rules=(DetectRule(44, _task_event),),
    error_frame=ErrorFrame(
        None, {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "injected error"}}
    ),
    reports_usage=False,  # the protocol carries no token usage
    quirks="quirks",
)
"""The registry's entry for A2A."""

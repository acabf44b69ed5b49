"""What ssescope knows about MCP Streamable HTTP streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe

__all__ = ["KNOWLEDGE"]


def _jsonrpc(probe: Probe) -> str | None:
    obj = probe.obj
    if obj is None or obj.get("jsonrpc") != "2.0":
        return None
    return "a JSON-RPC 2.0 message (MCP Streamable HTTP)"


KNOWLEDGE = Knowledge(
    name="mcp",
    adapter="adapter:McpAdapter",
    # after the rules of the protocols whose JSON-RPC results have a shape of their own
    rules=(DetectRule(46, _jsonrpc),),
    error_frame=ErrorFrame(
        "message",
        {"jsonrpc": "2.0", "id": 0, "error": {"code": -32603, "message": "injected error"}},
    ),
    reports_usage=False,  # the protocol carries no token usage
    quirks="quirks",
)
"""The registry's entry for MCP Streamable HTTP."""

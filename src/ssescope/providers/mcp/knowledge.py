"""What ssescope knows about MCP Streamable HTTP streams outside the adapter."""

from __future__ import annotations

from .._knowledge import ErrorFrame, Knowledge, member_rule

__all__ = ["KNOWLEDGE"]


KNOWLEDGE = Knowledge(
    name="mcp",
    adapter="adapter:McpAdapter",
    # after the rules of the protocols whose JSON-RPC results have a shape of their own
    rules=(member_rule(46, "a JSON-RPC 2.0 message (MCP Streamable HTTP)", {"jsonrpc": "2.0"}),),
    error_frame=ErrorFrame(
        "message",
        {"jsonrpc": "2.0", "id": 0, "error": {"code": -32603, "message": "injected error"}},
    ),
    reports_usage=False,  # the protocol carries no token usage
    quirks="quirks",
)
"""The registry's entry for MCP Streamable HTTP."""

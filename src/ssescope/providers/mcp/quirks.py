"""Quirks of MCP Streamable HTTP streams, in their wire shape (JSON-RPC messages in
``event: message`` SSE events).

Each function takes the stream's records and returns them as a real server sent them;
:data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load

__all__ = ["QUIRKS"]


def _is_response(value: Any) -> bool:
    """A JSON-RPC response (``result`` or ``error``), or a batch holding one."""
    if isinstance(value, list):
        return any(_is_response(v) for v in value)
    return (
        isinstance(value, dict)
        and "method" not in value
        and ("result" in value or "error" in value)
    )


def response_never_comes(records: list[WireRecord]) -> list[WireRecord]:
    """The notifications (progress, log messages) and server-to-client requests are sent,
    then the JSON-RPC response is withheld and the stream ends: a tool that never
    returned, or a server that lost the request's stream."""
    kept = [r for r in records if not _is_response(load(r))]
    if len(kept) == len(records):
        raise QuirkRefused("the stream has no JSON-RPC response")
    return kept


QUIRKS: dict[str, QuirkTransform] = {"response-never-comes": response_never_comes}
"""The quirks that make sense for an MCP stream, by preset name."""

"""The JSON-RPC 2.0 envelope, as MCP Streamable HTTP and A2A send it over SSE.

One message per SSE event: a response (``id`` with ``result`` xor ``error``), a
notification (``method`` without ``id``) or a request (``method`` with ``id``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..events import JSON

__all__ = ["Envelope", "read_envelope"]

Kind = Literal["response", "error", "notification", "request", "invalid"]


@dataclass(frozen=True)
class Envelope:
    """One JSON-RPC message: its kind, id, method, result or error, and what is wrong."""

    kind: Kind
    id: JSON
    method: str | None
    result: JSON
    error: JSON
    problem: str | None


def read_envelope(obj: dict[str, JSON]) -> Envelope:
    """Classify ``obj`` as a JSON-RPC message; ``problem`` names a broken envelope
    (a wrong ``jsonrpc`` version, both or neither of ``result`` / ``error``)."""
    problem = None
    if obj.get("jsonrpc") != "2.0":
        problem = f"jsonrpc is {obj.get('jsonrpc')!r}, not '2.0'"
    msg_id = obj.get("id")
    method = obj.get("method")
    if isinstance(method, str):
        kind: Kind = "request" if "id" in obj else "notification"
        return Envelope(kind, msg_id, method, None, None, problem)
    has_result, has_error = "result" in obj, "error" in obj
    if has_result == has_error:
        what = "both result and error" if has_result else "neither method, result nor error"
        return Envelope("invalid", msg_id, None, None, None, problem or f"it has {what}")
    if "id" not in obj:
        problem = problem or "the response has no id"
    if has_error:
        return Envelope("error", msg_id, None, None, obj["error"], problem)
    return Envelope("response", msg_id, None, obj["result"], None, problem)

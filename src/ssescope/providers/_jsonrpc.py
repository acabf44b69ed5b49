"""The JSON-RPC 2.0 envelope, for the providers whose events are JSON-RPC messages.

One message per SSE event: a response (``id`` with ``result`` xor ``error``), a
notification (``method`` without ``id``) or a request (``method`` with ``id``). What a
response means is the provider's rule; this module only reads the envelope and reports a
broken one (``jsonrpc.*``, :mod:`ssescope.codes.jsonrpc`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..codes.jsonrpc import JSONRPC_INVALID_ENVELOPE, JSONRPC_UNEXPECTED_JSON
from ..codes.spec import Form
from ..events import JSON, Terminal
from ..framing.records import DataRecord
from ._base import AdapterBase, AdapterOutput, diag, wire_error

__all__ = ["Envelope", "failed", "read_envelope", "read_message"]

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
    params: JSON = None
    """A notification's or request's ``params``."""


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
        return Envelope(kind, msg_id, method, None, None, problem, obj.get("params"))
    has_result, has_error = "result" in obj, "error" in obj
    if has_result == has_error:
        what = "both result and error" if has_result else "neither method, result nor error"
        return Envelope("invalid", msg_id, None, None, None, problem or f"it has {what}")
    if "id" not in obj:
        problem = problem or "the response has no id"
    if has_error:
        return Envelope("error", msg_id, None, None, obj["error"], problem)
    return Envelope("response", msg_id, None, obj["result"], None, problem)


def read_message(
    adapter: AdapterBase, record: DataRecord, out: list[AdapterOutput]
) -> Envelope | None:
    """Decode ``record`` as one JSON-RPC message for ``adapter``: ``None`` (with the
    diagnostic in ``out``) when it is no JSON object, else its envelope, a broken one
    reported as ``jsonrpc.invalid-envelope``."""
    obj = adapter._object(record, out, JSONRPC_UNEXPECTED_JSON)
    if obj is None:
        return None
    env = read_envelope(obj)
    if env.problem is not None:
        out.append(diag(JSONRPC_INVALID_ENVELOPE, record, problem=env.problem))
    return env


def failed(
    record: DataRecord,
    error: JSON,
    out: list[AdapterOutput],
    form: Form,
    reason: str = "JSON-RPC error",
) -> None:
    """A JSON-RPC ``error`` answering the request: the provider's error (its ``form``),
    then the response ``failed`` (with ``reason``)."""
    wire_error(record, out, error, form=form)
    out.append(Terminal(record.index, "failed", reason))

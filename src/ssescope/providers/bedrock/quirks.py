"""Quirks of Amazon Bedrock streams, in their wire shape.

A Bedrock stream comes in two forms (see the package docstring): AWS event-stream
messages, whose type is in the message headers (the record's ``event`` is
``"event:contentBlockDelta"`` and its data the payload), and the decoded form, one object
per record keyed by its type (``{"contentBlockDelta": {...}}``). Each function here
works on both and writes the records it adds in the form of the stream it was given;
:data:`QUIRKS` names them for the replay server (``serve --quirk``).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from .._quirks import QuirkRefused, QuirkTransform, WireRecord, load, record_midpoint, rewrite

__all__ = ["QUIRKS"]

_KINDS = ("event", "exception", "error")


def _typed(record: WireRecord) -> str | None:
    """The type an event-stream message's headers gave (``None`` in the decoded form)."""
    kind, sep, name = (record.event or "").partition(":")
    return name if sep and kind in _KINDS else None


def _binary(records: list[WireRecord]) -> bool:
    """Whether the stream is event-stream messages (the type travels in the headers)."""
    return any(_typed(r) is not None for r in records)


def _event(record: WireRecord) -> tuple[str, Any] | None:
    """The record's ConverseStream event type and payload, in either form."""
    value = load(record)
    name = _typed(record)
    if name is not None:
        return name, value
    if isinstance(value, dict) and len(value) == 1:
        ((name, payload),) = value.items()
        return name, payload
    return None


def _record(binary: bool, name: str, payload: dict[str, Any], kind: str = "event") -> WireRecord:
    """A new record of type ``name`` in the stream's form."""
    if binary:
        return rewrite(WireRecord(f"{kind}:{name}", ""), payload)
    return rewrite(WireRecord(None, ""), {name: payload})


def _inner(payload: Any) -> Any:
    """The native event an InvokeModelWithResponseStream ``chunk`` carries in base64."""
    blob = payload.get("bytes") if isinstance(payload, dict) else None
    if not isinstance(blob, str):
        return None
    try:
        return json.loads(base64.b64decode(blob, validate=True))
    except (binascii.Error, ValueError):
        return None


def _content_of(record: WireRecord) -> bool:
    found = _event(record)
    if found is None:
        return False
    name, payload = found
    if name == "chunk":
        inner = _inner(payload)
        return isinstance(inner, dict) and inner.get("type") == "content_block_delta"
    return name == "contentBlockDelta"


def error_frame_then_done(records: list[WireRecord]) -> list[WireRecord]:
    """Halfway through the content, a ``modelStreamErrorException`` event, and the stream
    ends: Bedrock has no terminal marker beyond ``messageStop``, so the exception is the
    last message (what Bedrock sends when the model fails after the 200)."""
    cut = record_midpoint(records, _content_of)
    error = {"message": "The model stream ended with an error; try the request again."}
    return [
        *records[:cut],
        _record(_binary(records), "modelStreamErrorException", error, "exception"),
    ]


def duplicate_tool_args(records: list[WireRecord]) -> list[WireRecord]:
    """After a ``toolUse`` block's input deltas, one more ``contentBlockDelta`` repeating
    all of them (a gateway that sends the consolidated input as well as its fragments)."""
    parts: dict[int, str] = {}
    last: dict[int, int] = {}
    for i, record in enumerate(records):
        found = _event(record)
        if found is None or found[0] != "contentBlockDelta" or not isinstance(found[1], dict):
            continue
        delta = found[1].get("delta")
        tool = delta.get("toolUse") if isinstance(delta, dict) else None
        if isinstance(tool, dict) and isinstance(tool.get("input"), str):
            block = found[1].get("contentBlockIndex", 0)
            block = block if isinstance(block, int) else 0
            parts[block] = parts.get(block, "") + tool["input"]
            last[block] = i
    if not any(parts.values()):
        raise QuirkRefused("the stream has no toolUse input to duplicate")
    binary = _binary(records)
    out = list(records)
    for block, at in sorted(last.items(), key=lambda kv: -kv[1]):
        repeat = {"contentBlockIndex": block, "delta": {"toolUse": {"input": parts[block]}}}
        out.insert(at + 1, _record(binary, "contentBlockDelta", repeat))
    return out


QUIRKS: dict[str, QuirkTransform] = {
    "error-frame-then-done": error_frame_then_done,
    "duplicate-tool-args": duplicate_tool_args,
}
"""The quirks that make sense for a Bedrock stream, by preset name."""

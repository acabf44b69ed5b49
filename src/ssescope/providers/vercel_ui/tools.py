"""UI-message tool parts: input start, deltas, available input and output.

Calls are kept by ``toolCallId`` in the shared tracker (its deltas carry the id).
"""

from __future__ import annotations

from typing import Any

import orjson

from ...events import ServerToolResult
from ...framing.records import DataRecord
from .._base import AdapterOutput, diag
from .._tools import ToolCallTracker
from . import codes
from .state import invalid, not_started, tool_kind


def tool_start(
    tools: ToolCallTracker[str], obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """``tool-input-start``: a call opens (its id, tool name and kind)."""
    named = _named(obj, record, out)
    if named is not None:
        call_id, name = named
        tools.start(call_id, record.index, out, 0, None, call_id, name, tool_kind(obj))


def _named(
    obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> tuple[str, str | None] | None:
    """A tool chunk's ``toolCallId`` and ``toolName``; ``None`` after reporting an id
    that is not a string."""
    call_id = obj.get("toolCallId")
    if not isinstance(call_id, str):
        invalid("toolCallId", call_id, record, out)
        return None
    name = obj.get("toolName")
    return call_id, name if isinstance(name, str) else None


def tool_delta(
    tools: ToolCallTracker[str], obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """``tool-input-delta``: a piece of a call's input text."""
    call_id = obj.get("toolCallId")
    delta = obj.get("inputTextDelta")
    if not isinstance(call_id, str):
        invalid("toolCallId", call_id, record, out)
        return
    if not isinstance(delta, str):
        invalid("inputTextDelta", delta, record, out)
        return
    call = tools.get(call_id)
    if call is None:
        not_started("tool call", call_id, record, out)
        call = tools.track(call_id, 0, None, call_id)
    tools.delta(call, record.index, delta, out)


def _end_call(
    tools: ToolCallTracker[str],
    obj: dict[str, Any],
    arguments: str,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """A call's whole input: it ends the call, or is the whole call when none started."""
    named = _named(obj, record, out)
    if named is None:
        return
    call_id, name = named
    call = tools.get(call_id)
    if call is None:
        call = tools.track(call_id, 0, None, call_id, name, tool_kind(obj))
        tools.whole(call, record.index, out, arguments)
    else:
        tools.end(call, record.index, out, arguments, name)


def tool_available(
    tools: ToolCallTracker[str], obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """``tool-input-available``: the call's parsed input, as compact JSON."""
    _end_call(tools, obj, orjson.dumps(obj.get("input")).decode(), record, out)


def tool_input_error(
    tools: ToolCallTracker[str], obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """``tool-input-error``: the input could not be parsed; reported, and the call ends
    with the input as sent."""
    raw = obj.get("input")
    arguments = raw if isinstance(raw, str) else orjson.dumps(raw).decode()
    out.append(
        diag(
            codes.TOOL_INPUT_ERROR,
            record,
            toolcallid=obj.get("toolCallId"),
            errortext=obj.get("errorText"),
        )
    )
    _end_call(tools, obj, arguments, record, out)


def tool_output(obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
    """``tool-output-*``: a tool's result (or its error, or its denial)."""
    ctype: str = obj["type"]
    call_id = obj.get("toolCallId")
    call_id = call_id if isinstance(call_id, str) else None
    if ctype == "tool-output-available":
        content = obj.get("output")
        if obj.get("preliminary") is True:
            ctype = "tool-output-preliminary"
    elif ctype == "tool-output-error":
        content = obj.get("errorText")
        out.append(diag(codes.TOOL_OUTPUT_ERROR, record, call_id=call_id, content=content))
    else:
        content = None
    out.append(ServerToolResult(record.index, 0, call_id, ctype, content))

"""UI-message tool parts: input start, deltas, available input and output."""

from __future__ import annotations

from typing import Any

import orjson

from ...events import ServerToolResult, ToolCall, ToolCallDelta, ToolCallEnd
from ...framing.records import DataRecord
from .._base import AdapterOutput, diag
from . import codes
from .parts import _UIParts


class _UITools(_UIParts):
    """Tool parts (see the package docstring)."""

    def _tool_start(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        call_id = obj.get("toolCallId")
        if not isinstance(call_id, str):
            self._invalid("toolCallId", call_id, record, out)
            return
        self._tools[call_id] = False
        kind = self._kinds[call_id] = self._kind(obj)
        name = obj.get("toolName")
        out.append(
            ToolCallDelta(
                record.index,
                0,
                id=call_id,
                name=name if isinstance(name, str) else None,
                kind=kind,
            )
        )

    def _tool_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        call_id = obj.get("toolCallId")
        delta = obj.get("inputTextDelta")
        if not isinstance(call_id, str):
            self._invalid("toolCallId", call_id, record, out)
            return
        if not isinstance(delta, str):
            self._invalid("inputTextDelta", delta, record, out)
            return
        if call_id not in self._tools:
            self._not_started("tool call", call_id, record, out)
            self._tools[call_id] = False
        kind = self._kinds.get(call_id, "function")
        out.append(ToolCallDelta(record.index, 0, id=call_id, arguments=delta, kind=kind))

    def _end_call(
        self, obj: dict[str, Any], arguments: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        call_id = obj.get("toolCallId")
        if not isinstance(call_id, str):
            self._invalid("toolCallId", call_id, record, out)
            return
        name = obj.get("toolName")
        name = name if isinstance(name, str) else None
        ended = self._tools.get(call_id)
        self._tools[call_id] = True
        if ended is None:
            out.append(
                ToolCall(
                    record.index,
                    0,
                    id=call_id,
                    name=name,
                    arguments=arguments,
                    kind=self._kind(obj),
                )
            )
        elif not ended:
            out.append(ToolCallEnd(record.index, 0, id=call_id, arguments=arguments, name=name))

    def _tool_available(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        self._end_call(obj, orjson.dumps(obj.get("input")).decode(), record, out)

    def _tool_input_error(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
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
        self._end_call(obj, arguments, record, out)

    def _tool_output(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
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

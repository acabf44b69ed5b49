"""The UI-message adapter: parts in, dispatched by type (see the package docstring)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from ...events import Unknown
from ...framing.records import DataRecord
from .._base import (
    INVALID,
    AdapterBase,
    AdapterOutput,
    decode_json,
    diag,
)
from .._tools import ToolCallTracker
from . import codes
from .parts import part_start, reasoning_delta, text_delta
from .state import (
    _LEGACY_LINE,
    _QUIET,
    _Message,
    citation,
    error,
    metadata,
    reset_step,
    start,
)
from .tools import tool_available, tool_delta, tool_input_error, tool_output, tool_start

_Handler = Callable[[dict[str, Any], DataRecord, list[AdapterOutput]], None]


class VercelUIAdapter(AdapterBase):
    """Adapter for AI SDK UI-message streams (SSE, or a dump of its chunks one per line)."""

    name: ClassVar[str] = "vercel-ui"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        message = self._message = _Message(framing == "sse")
        # id -> how many times it was started (the current part is (kind, id, n))
        text: dict[str, int] = {}
        reasoning: dict[str, int] = {}
        tools: ToolCallTracker[str] = ToolCallTracker(by_id=True)
        self._handlers: dict[str, _Handler] = {
            "text-delta": partial(text_delta, text),
            "reasoning-delta": partial(reasoning_delta, reasoning),
            "text-start": partial(part_start, text),
            "reasoning-start": partial(part_start, reasoning),
            "tool-input-start": partial(tool_start, tools),
            "tool-input-delta": partial(tool_delta, tools),
            "tool-input-available": partial(tool_available, tools),
            "tool-input-error": partial(tool_input_error, tools),
            "tool-output-available": tool_output,
            "tool-output-error": tool_output,
            "tool-output-denied": tool_output,
            "source-url": citation,
            "source-document": citation,
            "start": start,
            "message-metadata": metadata,
            "finish": message.finish,
            "error": error,
            "abort": message.abort,
            "reset-step": reset_step,
        }

    def _read(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map one record (one UI-message chunk, or ``[DONE]``) to events and diagnostics."""
        data = record.data
        if data == "[DONE]" or (data[:1] != "{" and data.strip() == "[DONE]"):
            self._message.on_done(record, out)
            return
        obj, bad = decode_json(record)
        if obj is INVALID:
            if _LEGACY_LINE.match(data):
                out.append(diag(codes.LEGACY_DATA_STREAM, record, data=data))
            elif bad is not None:
                out.append(bad)
            return
        if not isinstance(obj, dict):
            out.append(diag(codes.NOT_AN_OBJECT, record, data=data))
            return
        ctype = obj.get("type")
        if not isinstance(ctype, str):
            out.append(diag(codes.MISSING_TYPE, record, ctype=ctype))
            return
        handler = self._handlers.get(ctype)
        if handler is not None:
            handler(obj, record, out)
        elif ctype.startswith("data-") or ctype in _QUIET:
            pass
        else:
            out.append(Unknown(record.index, ctype, obj))

    def _unfinished(self) -> list[AdapterOutput]:
        """End of stream: on the SSE wire, a ``finish`` that no ``[DONE]`` followed is
        reported (``stream.missing-done``); the response stays without a terminal marker."""
        message = self._message
        finish = message.finished
        if message.sse and finish is not None and not message.done and not message.ended:
            return [diag(codes.STREAM_MISSING_DONE, finish)]
        return []

"""The UI-message adapter: parts in, dispatched by type (see the package docstring)."""

from __future__ import annotations

from ...events import Unknown
from ...framing.records import DataRecord
from .._base import INVALID, AdapterOutput, close_once, decode_json, diag, refuse_feed_after_close
from . import codes
from .state import _LEGACY_LINE, _QUIET
from .tools import _UITools


class VercelUIAdapter(_UITools):
    """Adapter for AI SDK UI-message streams (SSE, or a dump of its chunks one per line)."""

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._handlers = {
            "text-delta": self._text_delta,
            "reasoning-delta": self._reasoning_delta,
            "text-start": self._text_start,
            "reasoning-start": self._reasoning_start,
            "tool-input-start": self._tool_start,
            "tool-input-delta": self._tool_delta,
            "tool-input-available": self._tool_available,
            "tool-input-error": self._tool_input_error,
            "tool-output-available": self._tool_output,
            "tool-output-error": self._tool_output,
            "tool-output-denied": self._tool_output,
            "source-url": self._source,
            "source-document": self._source,
            "start": self._start,
            "message-metadata": self._metadata,
            "finish": self._finish,
            "error": self._error,
            "abort": self._abort,
            "reset-step": self._reset_step,
        }

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one record (one UI-message chunk, or ``[DONE]``) to events and diagnostics."""
        if self._closed:
            refuse_feed_after_close()
        out: list[AdapterOutput] = []
        data = record.data
        if data == "[DONE]" or (data[:1] != "{" and data.strip() == "[DONE]"):
            self._on_done(record, out)
            return out
        obj, bad = decode_json(record)
        if obj is INVALID:
            if _LEGACY_LINE.match(data):
                out.append(diag(codes.LEGACY_DATA_STREAM, record, data=data))
            elif bad is not None:
                out.append(bad)
            return out
        if not isinstance(obj, dict):
            out.append(diag(codes.NOT_AN_OBJECT, record, data=data))
            return out
        ctype = obj.get("type")
        if not isinstance(ctype, str):
            out.append(diag(codes.MISSING_TYPE, record, ctype=ctype))
            return out
        handler = self._handlers.get(ctype)
        if handler is not None:
            handler(obj, record, out)
        elif ctype.startswith("data-") or ctype in _QUIET:
            pass
        else:
            out.append(Unknown(record.index, ctype, obj))
        return out

    def close(self) -> list[AdapterOutput]:
        """End of stream: on the SSE wire, a ``finish`` that no ``[DONE]`` followed is
        reported (``stream.missing-done``); the response stays without a terminal marker."""
        close_once(self)
        finish = self._finished
        if self._sse and finish is not None and not self._done and not self._ended:
            return [diag(codes.STREAM_MISSING_DONE, finish)]
        return []

"""The MCP Streamable HTTP adapter: JSON-RPC messages in, the response's verdict out."""

from __future__ import annotations

from typing import ClassVar

from ...events import JSON, ResponseStart, Terminal, TextDelta
from ...framing.records import DataRecord
from .._base import (
    AdapterBase,
    AdapterOutput,
    close_once,
    compact_json,
    diag,
    refuse_feed_after_close,
)
from .._jsonrpc import failed, read_message
from . import codes
from .notices import notification

__all__ = ["McpAdapter"]


def _result_text(result: JSON) -> str:
    """The text parts of a ``tools/call`` result, joined; else the result as compact JSON."""
    if isinstance(result, dict):
        content = result.get("content")
        if isinstance(content, list):
            texts: list[str] = []
            for part in content:
                text = part.get("text") if isinstance(part, dict) else None
                if isinstance(text, str):
                    texts.append(text)
            if texts:
                return "".join(texts)
    return compact_json(result)


class McpAdapter(AdapterBase):
    """Adapter for MCP Streamable HTTP responses (JSON-RPC over SSE)."""

    name: ClassVar[str] = "mcp"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._done = False
        self._notifications = 0

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one JSON-RPC message to events and diagnostics."""
        if self._closed:
            refuse_feed_after_close()
        out: list[AdapterOutput] = []
        env = read_message(self, record, out)
        if env is None:
            return out
        rec = record.index
        if not self._started:
            out.insert(0, ResponseStart(rec, None, None))
            self._started = True
        if env.kind in ("notification", "request"):
            self._notifications += 1  # a record before the response, kept as its frame
            out.append(notification(rec, env))
            return out
        if env.kind == "invalid":
            return out
        if self._done:
            out.append(diag(codes.AFTER_RESPONSE, record))
            return out
        self._done = True
        if env.kind == "error":
            failed(record, env.error, out, codes.ERROR)
            return out
        result = env.result
        out.append(TextDelta(rec, 0, _result_text(result)))
        if isinstance(result, dict) and result.get("isError") is True:
            out.append(diag(codes.TOOL_ERROR, record))
            out.append(Terminal(rec, "failed", "tool result isError:true"))
        else:
            out.append(Terminal(rec, "completed", "JSON-RPC result"))
        return out

    def close(self) -> list[AdapterOutput]:
        """End of the body: a stream without the response to its request is truncated."""
        close_once(self)
        return self._unended(self._done, codes.MISSING_RESPONSE)

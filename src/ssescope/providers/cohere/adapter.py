"""The CohereAdapter (see the package docstring)."""

from __future__ import annotations

from typing import ClassVar

from ... import codes as shared
from ...events import (
    JSON,
    Citation,
    Finish,
    ReasoningDelta,
    Status,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    Unknown,
    Usage,
)
from ...framing.records import DataRecord, SSEEvent
from .._base import (
    AdapterBase,
    AdapterOutput,
    diag,
    int_or_none,
    nonempty_str,
    provider_error,
    str_or_none,
    token_count,
)
from . import codes
from .maps import finish_status, map_finish_reason

__all__ = ["CohereAdapter"]


_IGNORED = frozenset({"content-end", "citation-end", "debug"})


def _obj(value: JSON) -> dict[str, JSON]:
    return value if isinstance(value, dict) else {}


class CohereAdapter(AdapterBase):
    """Adapter for the Cohere v2 chat stream (SSE or a JSONL dump of its events)."""

    name: ClassVar[str] = "cohere"

    def __init__(self, framing: str) -> None:
        super().__init__(framing, codes.UNEXPECTED_JSON)
        self._thinking_parts: set[int] = set()  # content indexes opened as "thinking"

    def _feed_object(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Map one stream event to events and diagnostics."""
        etype = obj.get("type")
        event_name = record.event if isinstance(record, SSEEvent) else None
        if event_name == "message":
            event_name = None
        if not isinstance(etype, str) or not etype:
            if event_name is None:
                if "message" in obj and ("id" in obj or len(obj) == 1):
                    self._error_body(obj, record, out)
                else:
                    out.append(Unknown(record.index, "(no type)", obj))
                return
            etype = event_name
        elif event_name is not None and event_name != etype:
            out.append(diag(codes.EVENT_NAME_MISMATCH, record, event_name=event_name, etype=etype))
        self._event(etype, obj, record, out)

    def _unfinished(self) -> list[AdapterOutput]:
        """End of the body: report a response that never got its ``message-end``."""
        return self._unended(codes.MISSING_MESSAGE_END)

    def _event(
        self, etype: str, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        rec = record.index
        delta = _obj(obj.get("delta"))
        message = _obj(delta.get("message"))
        index = int_or_none(obj.get("index"))
        if etype == "content-delta":
            content = _obj(message.get("content"))
            self._content(content, index, rec, out)
        elif etype == "tool-call-delta":
            for call in self._calls(message):
                function = _obj(call.get("function"))
                if arguments := nonempty_str(function.get("arguments")):
                    out.append(ToolCallDelta(rec, 0, index, arguments=arguments))
        elif etype == "tool-plan-delta":
            if plan := nonempty_str(message.get("tool_plan")):
                out.append(ReasoningDelta(rec, 0, plan, "tool_plan", "plan"))
        elif etype == "content-start":
            content = _obj(message.get("content"))
            if index is not None:
                if content.get("type") == "thinking":
                    self._thinking_parts.add(index)
                else:
                    self._thinking_parts.discard(index)
            self._content(content, index, rec, out)
        elif etype == "tool-call-start":
            for call in self._calls(message):
                function = _obj(call.get("function"))
                out.append(
                    ToolCallDelta(
                        rec,
                        0,
                        index,
                        str_or_none(call.get("id")),
                        str_or_none(function.get("name")),
                        nonempty_str(function.get("arguments")),
                        str_or_none(call.get("type")),
                    )
                )
        elif etype == "tool-call-end":
            out.append(ToolCallEnd(rec, 0, index))
        elif etype == "citation-start":
            citations = message.get("citations")
            items = citations if isinstance(citations, list) else [citations]
            for item in items:
                if isinstance(item, dict):
                    part = int_or_none(item.get("content_index"))
                    out.append(Citation(rec, 0, item, part))
        elif etype == "message-start":
            self._thinking_parts = set()
            self._response_start(record, out, str_or_none(obj.get("id")))
            if plan := nonempty_str(message.get("tool_plan")):
                out.append(ReasoningDelta(rec, 0, plan, "tool_plan", "plan"))
        elif etype == "message-end":
            self._message_end(delta, record, out)
        elif etype in _IGNORED:
            pass
        elif etype in ("stream-error", "error"):
            self._error_body(obj, record, out)
        else:
            out.append(Unknown(rec, etype, obj))

    def _content(
        self, content: dict[str, JSON], index: int | None, rec: int, out: list[AdapterOutput]
    ) -> None:
        if thinking := nonempty_str(content.get("thinking")):
            out.append(ReasoningDelta(rec, 0, thinking, index))
        if text := nonempty_str(content.get("text")):
            if index is not None and index in self._thinking_parts:
                out.append(ReasoningDelta(rec, 0, text, index))
            else:
                out.append(TextDelta(rec, 0, text, index))

    @staticmethod
    def _calls(message: dict[str, JSON]) -> list[dict[str, JSON]]:
        calls = message.get("tool_calls")
        if isinstance(calls, dict):
            return [calls]
        if isinstance(calls, list):  # tolerated: a list of call objects
            return [c for c in calls if isinstance(c, dict)]
        return []

    def _message_end(
        self, delta: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        rec = record.index
        raw = delta.get("finish_reason")
        status: Status = "completed"
        if isinstance(raw, str) and raw:
            reason, status = map_finish_reason(raw), finish_status(raw)
            out.append(Finish(rec, 0, reason, raw))
        else:
            out.append(diag(codes.MISSING_FINISH_REASON, record, raw_text=raw))
        if error := nonempty_str(delta.get("error")):
            error_type = raw if isinstance(raw, str) else None
            if status != "failed" and isinstance(raw, str) and raw:
                # a finish reason that says the message ended well, and an error beside it
                out.append(
                    diag(
                        shared.STREAM_CONTRADICTORY_TERMINAL,
                        record,
                        form="error",
                        reason=raw,
                        status="failed",
                    )
                )
            provider_error(
                record,
                out,
                error,
                error_type,
                None,
                error,
                form=codes.ERROR_AT_MESSAGE_END,
                error=error,
            )
            status = "failed"
        usage = delta.get("usage")
        if isinstance(usage, dict):
            tokens = usage.get("tokens")
            source = "message-end usage.tokens"
            if not isinstance(tokens, dict):
                tokens = usage.get("billed_units")
                source = "message-end usage.billed_units"
            counts = _obj(tokens)
            values: dict[str, int | None] = {
                "input_tokens": token_count(counts.get("input_tokens")),
                "output_tokens": token_count(counts.get("output_tokens")),
                "total_tokens": None,
                "reasoning_tokens": None,
                "cached_input_tokens": token_count(usage.get("cached_tokens")),
            }
            if any(v is not None for v in values.values()):
                out.append(Usage(rec, values, usage, source))
        said = f"message-end {raw}" if isinstance(raw, str) else "message-end"
        self._response_end(record, out, status, said)

    def _error_body(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        message = obj.get("message")
        text = message if isinstance(message, str) else str(obj)
        provider_error(record, out, text, None, None, obj, form=codes.ERROR, text=text)
        self._response_end(record, out, "failed", "error")

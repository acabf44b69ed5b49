"""Vercel AI SDK UI-message streams (AI SDK 5 and later, ``x-vercel-ai-ui-message-stream: v1``).

Theory of operation
===================

Each record is one JSON chunk ``{"type": ..., ...}``; on the SSE wire the stream ends with
``data: [DONE]``. The stream carries one assistant message, so every piece goes to
output ``0``.

* Text and reasoning are multiplexed by ``id`` (``text-start`` / ``text-delta`` /
  ``text-end``, same for ``reasoning-*``). The SDK reuses ids across steps (``txt-0``
  again in step 2), so the part key is ``("text", id, n)`` / ``("reasoning", id, n)``
  where ``n`` counts how many times that id was started: a reused id opens a new part
  and the text keeps its order.
* Tool calls are keyed by ``toolCallId``: ``tool-input-start`` names the call,
  ``tool-input-delta`` streams its input text, ``tool-input-available`` ends it with the
  parsed input (compact JSON), or is the whole call when no start came.
  ``providerExecuted`` calls are ``kind="server"``. ``tool-output-*`` chunks are tool
  results (:class:`ServerToolResult`), whoever executed the tool.
* ``source-url`` / ``source-document`` are citations; ``error`` is a provider error;
  ``abort`` ends the response as cancelled.
* ``finish`` carries the finish reason (AI SDK 6; AI SDK 5 sends none) and, when the
  application put it in ``messageMetadata``, token usage.

End marker: on the SSE wire the terminal marker is ``data: [DONE]`` after a ``finish``
(its status follows the finish reason: ``length`` / ``content-filter`` are
``incomplete``, ``error`` is ``failed``, anything else ``completed``). In a dump without
SSE framing (``ndjson``, ``json-array``) there is no ``[DONE]``, so ``finish`` itself is
the marker.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import orjson

from ..errors import UsageError
from ..events import (
    Citation,
    Finish,
    FinishReason,
    ReasoningDelta,
    ResponseStart,
    ServerToolResult,
    Status,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallEnd,
    Unknown,
    Usage,
)
from ..framing.records import DataRecord
from ..incremental import CLOSE_TWICE
from ._base import (
    INVALID,
    AdapterOutput,
    decode_json,
    diag,
    provider_error,
    refuse_feed,
    token_count,
)

__all__ = ["FINISH_REASONS", "VercelUIAdapter", "finish_status", "map_finish_reason"]

FINISH_REASONS: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "content-filter": "content_filter",
    "tool-calls": "tool_calls",
    "error": "error",
    "other": "other",
    "unknown": "other",
}

_STATUS: dict[str, Status] = {
    "length": "incomplete",
    "content-filter": "incomplete",
    "error": "failed",
}


def map_finish_reason(raw: str) -> FinishReason:
    """Map a UI-message ``finishReason`` to the unified finish reason (unknown → ``other``)."""
    return FINISH_REASONS.get(raw, "other")


def finish_status(raw: str) -> Status:
    """The status a ``finishReason`` gives the response: ``length`` and ``content-filter``
    are ``incomplete``, ``error`` is ``failed``, anything else is ``completed``."""
    return _STATUS.get(raw, "completed")


# Chunks of the protocol that carry nothing the reply is made of.
_QUIET = frozenset(
    {
        "start-step",
        "finish-step",
        "text-end",
        "reasoning-end",
        "tool-approval-request",
        "tool-approval-response",
        "file",
        "reasoning-file",
        "custom",
    }
)

# AI SDK 4 "data stream protocol" lines: ``0:"text"``, ``9:{...}``, ``d:{...}``.
_LEGACY_LINE = re.compile(r"[0-9a-k]:")


def _usage_values(obj: dict[str, Any]) -> dict[str, int | None]:
    """Normalise an AI SDK ``LanguageModelUsage`` (v5 flat numbers, or v6 objects with
    ``total`` / ``reasoning`` / ``cacheRead``); no arithmetic."""
    inp = obj.get("inputTokens")
    out = obj.get("outputTokens")
    in_obj = inp if isinstance(inp, dict) else {}
    out_obj = out if isinstance(out, dict) else {}
    in_details = obj.get("inputTokenDetails")
    out_details = obj.get("outputTokenDetails")
    reasoning = token_count(obj.get("reasoningTokens"))
    if reasoning is None:
        reasoning = token_count(out_obj.get("reasoning"))
    if reasoning is None and isinstance(out_details, dict):
        reasoning = token_count(out_details.get("reasoningTokens"))
    cached = token_count(obj.get("cachedInputTokens"))
    if cached is None:
        cached = token_count(in_obj.get("cacheRead"))
    if cached is None and isinstance(in_details, dict):
        cached = token_count(in_details.get("cacheReadTokens"))
    return {
        "input_tokens": token_count(inp) if not in_obj else token_count(in_obj.get("total")),
        "output_tokens": token_count(out) if not out_obj else token_count(out_obj.get("total")),
        "total_tokens": token_count(obj.get("totalTokens")),
        "reasoning_tokens": reasoning,
        "cached_input_tokens": cached,
    }


class VercelUIAdapter:
    """Adapter for AI SDK UI-message streams (SSE, or a dump of its chunks one per line)."""

    _closed = False  # the Incremental contract: closed once, never fed after

    name: ClassVar[str] = "vercel-ui"

    def __init__(self, framing: str) -> None:
        self._sse = framing == "sse"
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
        # id -> how many times it was started (the current part is (kind, id, n))
        self._text_gen: dict[str, int] = {}
        self._reasoning_gen: dict[str, int] = {}
        self._tools: dict[str, bool] = {}  # toolCallId -> ended
        self._kinds: dict[str, str] = {}  # toolCallId -> kind given at its start
        self._finish_raw: str | None = None
        self._finished: DataRecord | None = None  # the finish chunk's record
        self._ended = False  # a Terminal was emitted
        self._done = False

    # -- entry points ------------------------------------------------------------------

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one record (one UI-message chunk, or ``[DONE]``) to events and diagnostics."""
        out: list[AdapterOutput] = []
        data = record.data
        if data == "[DONE]" or (data[:1] != "{" and data.strip() == "[DONE]"):
            self._on_done(record, out)
            return out
        obj, bad = decode_json(record)
        if obj is INVALID:
            if _LEGACY_LINE.match(data):
                out.append(diag("vercel-ui.legacy-data-stream", record, data=data))
            elif bad is not None:
                out.append(bad)
            return out
        if not isinstance(obj, dict):
            out.append(diag("vercel-ui.not-an-object", record, data=data))
            return out
        ctype = obj.get("type")
        if not isinstance(ctype, str):
            out.append(diag("vercel-ui.missing-type", record, ctype=ctype))
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
        if self._closed:
            raise UsageError(CLOSE_TWICE)
        self._closed = True
        refuse_feed(self)
        finish = self._finished
        if self._sse and finish is not None and not self._done and not self._ended:
            return [diag("stream.missing-done", finish, form="vercel-ui")]
        return []

    # -- helpers -----------------------------------------------------------------------

    def _invalid(
        self, field: str, value: object, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        out.append(diag("vercel-ui.invalid-field", record, field=field, value=value))

    def _not_started(
        self, what: str, key: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        out.append(diag("vercel-ui.part-not-started", record, what=what, key=key))

    def _usage(
        self, meta: object, source: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if not isinstance(meta, dict):
            return
        for key in ("usage", "totalUsage"):
            candidate = meta.get(key)
            if isinstance(candidate, dict):
                values = _usage_values(candidate)
                if any(v is not None for v in values.values()):
                    out.append(Usage(record.index, values, candidate, f"{source}.{key}"))
                    return
        values = _usage_values(meta)
        if any(v is not None for v in values.values()):
            out.append(Usage(record.index, values, meta, source))

    # -- text and reasoning ------------------------------------------------------------

    def _text_start(
        self, obj: dict[str, Any], _record: DataRecord, _out: list[AdapterOutput]
    ) -> None:
        pid = obj.get("id")
        if isinstance(pid, str):
            gen = self._text_gen
            gen[pid] = gen.get(pid, -1) + 1

    def _reasoning_start(
        self, obj: dict[str, Any], _record: DataRecord, _out: list[AdapterOutput]
    ) -> None:
        pid = obj.get("id")
        if isinstance(pid, str):
            gen = self._reasoning_gen
            gen[pid] = gen.get(pid, -1) + 1

    def _text_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if type(delta) is not str:
            self._invalid("delta", delta, record, out)
            return
        pid = obj.get("id")
        if not isinstance(pid, str):
            pid = ""
        n = self._text_gen.get(pid)
        if n is None:
            self._not_started("text part", pid, record, out)
            n = self._text_gen[pid] = 0
        out.append(TextDelta(record.index, 0, delta, ("text", pid, n)))

    def _reasoning_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if type(delta) is not str:
            self._invalid("delta", delta, record, out)
            return
        pid = obj.get("id")
        if not isinstance(pid, str):
            pid = ""
        n = self._reasoning_gen.get(pid)
        if n is None:
            self._not_started("reasoning part", pid, record, out)
            n = self._reasoning_gen[pid] = 0
        out.append(ReasoningDelta(record.index, 0, delta, ("reasoning", pid, n), "text"))

    # -- tools -------------------------------------------------------------------------

    @staticmethod
    def _kind(obj: dict[str, Any]) -> str:
        return "server" if obj.get("providerExecuted") is True else "function"

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
                "vercel-ui.tool-input-error",
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
            out.append(
                diag("vercel-ui.tool-output-error", record, call_id=call_id, content=content)
            )
        else:
            content = None
        out.append(ServerToolResult(record.index, 0, call_id, ctype, content))

    # -- everything else ---------------------------------------------------------------

    def _source(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        out.append(Citation(record.index, 0, obj))

    def _start(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        message_id = obj.get("messageId")
        meta = obj.get("messageMetadata")
        model = meta.get("model") if isinstance(meta, dict) else None
        out.append(
            ResponseStart(
                record.index,
                message_id if isinstance(message_id, str) else None,
                model if isinstance(model, str) else None,
            )
        )
        self._usage(meta, "start.messageMetadata", record, out)

    def _metadata(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        self._usage(obj.get("messageMetadata"), "messageMetadata", record, out)

    def _finish(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        self._finished = record
        raw = obj.get("finishReason")
        if isinstance(raw, str):
            self._finish_raw = raw
            if raw not in FINISH_REASONS:
                out.append(diag("vercel-ui.unknown-finish-reason", record, raw_text=raw))
            out.append(Finish(record.index, 0, map_finish_reason(raw), raw))
        elif raw is not None:
            self._invalid("finishReason", raw, record, out)
        usage = obj.get("usage")
        if isinstance(usage, dict):
            self._usage({"usage": usage}, "finish", record, out)
        self._usage(obj.get("messageMetadata"), "finish.messageMetadata", record, out)
        if not self._sse and not self._ended:
            self._terminate(record, "finish", out)

    def _terminate(self, record: DataRecord, marker: str, out: list[AdapterOutput]) -> None:
        raw = self._finish_raw
        status: Status = finish_status(raw) if raw else "completed"
        self._ended = True
        why = f"{marker} (finish reason {raw})" if raw else marker
        out.append(Terminal(record.index, status, why))

    def _on_done(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        self._done = True
        if self._ended:
            return
        if self._finished is not None:
            self._terminate(record, "[DONE]", out)
            return
        out.append(diag("stream.done-without-finish", record, form="vercel-ui"))

    def _error(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        text = obj.get("errorText")
        message = text if isinstance(text, str) else ("" if text is None else str(text))
        provider_error(record, out, message, None, None, obj, form="vercel-ui", message=message)

    def _abort(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        reason = obj.get("reason")
        self._ended = True
        why = f"abort ({reason})" if isinstance(reason, str) and reason else "abort"
        out.append(Terminal(record.index, "cancelled", why))

    def _reset_step(
        self, _obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        out.append(diag("vercel-ui.reset-step", record))

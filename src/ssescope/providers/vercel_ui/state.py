"""What the UI-message adapter remembers across parts, and the message-level parts (start, metadata, finish, error, abort)."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ...events import Citation, Finish, ResponseStart, Status, Terminal, Usage
from ...framing.records import DataRecord
from .._base import AdapterOutput, diag, provider_error
from . import codes
from .maps import FINISH_REASONS, _usage_values, finish_status, map_finish_reason

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


class _UIState:
    """The adapter's state across parts: the message, its step, what was said once."""

    _closed = False  # the Incremental contract: closed once, never fed after
    name: ClassVar[str] = "vercel-ui"

    def __init__(self, framing: str) -> None:
        self._sse = framing == "sse"
        # id -> how many times it was started (the current part is (kind, id, n))
        self._text_gen: dict[str, int] = {}
        self._reasoning_gen: dict[str, int] = {}
        self._tools: dict[str, bool] = {}  # toolCallId -> ended
        self._kinds: dict[str, str] = {}  # toolCallId -> kind given at its start
        self._finish_raw: str | None = None
        self._finished: DataRecord | None = None  # the finish chunk's record
        self._ended = False  # a Terminal was emitted
        self._done = False

    def _invalid(
        self, field: str, value: object, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        out.append(diag(codes.INVALID_FIELD, record, field=field, value=value))

    def _not_started(
        self, what: str, key: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        out.append(diag(codes.PART_NOT_STARTED, record, what=what, key=key))

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

    @staticmethod
    def _kind(obj: dict[str, Any]) -> str:
        return "server" if obj.get("providerExecuted") is True else "function"

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
                out.append(diag(codes.UNKNOWN_FINISH_REASON, record, raw_text=raw))
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
        out.append(diag(codes.STREAM_DONE_WITHOUT_FINISH, record))

    def _error(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        text = obj.get("errorText")
        message = text if isinstance(text, str) else ("" if text is None else str(text))
        provider_error(record, out, message, None, None, obj, form=codes.ERROR, message=message)

    def _abort(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        reason = obj.get("reason")
        self._ended = True
        why = f"abort ({reason})" if isinstance(reason, str) and reason else "abort"
        out.append(Terminal(record.index, "cancelled", why))

    def _reset_step(
        self, _obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        out.append(diag(codes.RESET_STEP, record))

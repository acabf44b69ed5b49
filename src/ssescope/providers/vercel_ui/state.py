"""The message-level parts of a UI-message stream (start, metadata, finish, error, abort) and how the message ended."""

from __future__ import annotations

import re
from typing import Any

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


def invalid(field: str, value: object, record: DataRecord, out: list[AdapterOutput]) -> None:
    """Report a field whose JSON type is not the one the protocol defines."""
    out.append(diag(codes.INVALID_FIELD, record, field=field, value=value))


def not_started(what: str, key: str, record: DataRecord, out: list[AdapterOutput]) -> None:
    """Report a delta of a part or call that no start opened."""
    out.append(diag(codes.PART_NOT_STARTED, record, what=what, key=key))


def message_usage(meta: object, source: str, record: DataRecord, out: list[AdapterOutput]) -> None:
    """Token usage in message metadata (its ``usage`` / ``totalUsage``, or itself)."""
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


def tool_kind(obj: dict[str, Any]) -> str:
    """``"server"`` for a ``providerExecuted`` call, else ``"function"``."""
    return "server" if obj.get("providerExecuted") is True else "function"


def citation(obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
    """A ``source-url`` / ``source-document`` chunk: a citation."""
    out.append(Citation(record.index, 0, obj))


def start(obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
    """A ``start`` chunk: the message starts (its id, its model if metadata names one)."""
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
    message_usage(meta, "start.messageMetadata", record, out)


def metadata(obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
    """A ``message-metadata`` chunk: its usage, if any."""
    message_usage(obj.get("messageMetadata"), "messageMetadata", record, out)


def error(obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
    """An ``error`` chunk: a provider error."""
    text = obj.get("errorText")
    message = text if isinstance(text, str) else ("" if text is None else str(text))
    provider_error(record, out, message, None, None, obj, form=codes.ERROR, message=message)


def reset_step(_obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
    """A ``reset-step`` chunk (AI SDK 4): reported."""
    out.append(diag(codes.RESET_STEP, record))


class _Message:
    """How the message is ending: its finish chunk, its terminal, its ``[DONE]``."""

    __slots__ = ("done", "ended", "finish_raw", "finished", "sse")

    def __init__(self, sse: bool) -> None:
        self.sse = sse
        self.finish_raw: str | None = None
        self.finished: DataRecord | None = None  # the finish chunk's record
        self.ended = False  # a Terminal was emitted
        self.done = False

    def finish(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        """A ``finish`` chunk: the finish reason and usage; the terminal off the SSE wire."""
        self.finished = record
        raw = obj.get("finishReason")
        if isinstance(raw, str):
            self.finish_raw = raw
            if raw not in FINISH_REASONS:
                out.append(diag(codes.UNKNOWN_FINISH_REASON, record, raw_text=raw))
            out.append(Finish(record.index, 0, map_finish_reason(raw), raw))
        elif raw is not None:
            invalid("finishReason", raw, record, out)
        usage = obj.get("usage")
        if isinstance(usage, dict):
            message_usage({"usage": usage}, "finish", record, out)
        message_usage(obj.get("messageMetadata"), "finish.messageMetadata", record, out)
        if not self.sse and not self.ended:
            self.terminate(record, "finish", out)

    def terminate(self, record: DataRecord, marker: str, out: list[AdapterOutput]) -> None:
        """Emit the terminal ``marker`` gives, with the status the finish reason implies."""
        raw = self.finish_raw
        status: Status = finish_status(raw) if raw else "completed"
        self.ended = True
        why = f"{marker} (finish reason {raw})" if raw else marker
        out.append(Terminal(record.index, status, why))

    def on_done(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """``[DONE]``: the terminal after a finish, else reported."""
        self.done = True
        if self.ended:
            return
        if self.finished is not None:
            self.terminate(record, "[DONE]", out)
            return
        out.append(diag(codes.STREAM_DONE_WITHOUT_FINISH, record))

    def abort(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        """An ``abort`` chunk: the message ends cancelled."""
        reason = obj.get("reason")
        self.ended = True
        why = f"abort ({reason})" if isinstance(reason, str) and reason else "abort"
        out.append(Terminal(record.index, "cancelled", why))

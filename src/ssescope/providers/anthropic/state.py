"""The message the Anthropic adapter is reading: its blocks, its tool calls, the message-level events."""

from __future__ import annotations

from ... import codes as shared
from ...diagnostics import quote
from ...events import JSON, Finish, ResponseStart, Status, Terminal
from ...framing.records import DataRecord
from .._base import (
    AdapterOutput,
    Malformed,
    compact_json,
    diag,
    object_field,
    provider_error,
    usage_event,
)
from .._tools import ToolCallTracker
from . import codes
from .maps import _INCOMPLETE, _PAUSED, _USAGE_KEYS, map_finish_reason

_TOOL_KINDS = {"tool_use": "function", "server_tool_use": "server", "mcp_tool_use": "mcp"}


# Which block types each delta type belongs to (None: any, the block was never started).
_DELTA_BLOCKS: dict[str, tuple[str, ...]] = {
    "text_delta": ("text",),
    "citations_delta": ("text",),
    "thinking_delta": ("thinking",),
    "signature_delta": ("thinking",),
    "input_json_delta": ("tool_use", "server_tool_use", "mcp_tool_use"),
    "compaction_delta": ("compaction",),
}


class _Block:
    """What the adapter remembers about one content block."""

    __slots__ = ("block_type", "checked", "mismatch", "stopped")

    def __init__(self, block_type: str | None) -> None:
        self.block_type = block_type
        self.stopped = False
        self.mismatch = False  # a delta of the wrong type was already reported
        self.checked: JSON = None  # the last delta type found to fit this block


class _Message:
    """The message being read: its blocks and tool calls (by block key), how it stopped."""

    def __init__(self) -> None:
        self.blocks: dict[int | None, _Block] = {}
        self.tools: ToolCallTracker[int | None] = ToolCallTracker()
        self.started = False  # a message_start opened the current response
        self.stopped = False  # message_stop (or error) ended it
        self.message_id: str | None = None
        self.message: JSON = None
        self.base = 0  # shift of block indexes for a spliced message
        self.next_key = 0  # one past the highest part / tool index used in the response
        self.stop_reason: str | None = None
        self.explanation: str | None = None  # stop_details.explanation of a refusal
        self.warned_no_start = False

    def key(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> int | None:
        """The part / tool index of a block event: its ``index`` shifted by a splice."""
        idx = obj.get("index")
        if type(idx) is int:
            key = idx + self.base
            if key >= self.next_key:
                self.next_key = key + 1
            return key
        out.append(diag(codes.MISSING_INDEX, record, type=obj.get("type"), idx=idx))
        return None

    def check_started(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Report, once, an event before any ``message_start``."""
        if not self.warned_no_start:
            self.warned_no_start = True
            out.append(diag(codes.MISSING_MESSAGE_START, record))

    def usage(self, usage: JSON, source: str, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map a usage object by name."""
        usage_event(usage, _USAGE_KEYS, source, codes.INVALID_USAGE, record, out)

    def fail(
        self,
        error_type: str | None,
        message: str,
        raw: JSON,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """The message failed: the provider error and a ``failed`` terminal."""
        what = f"{error_type}: " if error_type else ""
        provider_error(
            record,
            out,
            message,
            error_type,
            None,
            raw,
            form=codes.ERROR,
            what=what,
            message=message,
        )
        out.append(Terminal(record.index, "failed", f"error ({error_type or 'unknown'})"))
        self.stopped = True

    def message_start(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A ``message_start``: a new response, a repeated start, or a spliced message."""
        msg = object_field(obj, "message")
        mid = msg.get("id")
        if not isinstance(mid, str):
            mid = None
        if self.started and not self.stopped:
            if mid == self.message_id and (mid is not None or msg == self.message):
                same = "an identical" if msg == self.message else "a repeated"
                out.append(diag(codes.DUPLICATE_MESSAGE_START, record, same=same, mid=mid))
                return
            out.append(diag(codes.SPLICED_MESSAGE, record, mid=mid, message_id=self.message_id))
            self.base = self.next_key
            self.blocks.clear()
            self.tools.clear()
            self.message_id = mid
            self.message = msg
            self.usage(msg.get("usage"), "message_start", record, out)
            return
        # A new response: the first message, or one after message_stop / error.
        self.started = True
        self.stopped = False
        self.blocks.clear()
        self.tools.clear()
        self.base = 0
        self.next_key = 0
        self.stop_reason = None
        self.explanation = None
        self.message_id = mid
        self.message = msg
        model = msg.get("model")
        out.append(ResponseStart(record.index, mid, model if isinstance(model, str) else None))
        self.usage(msg.get("usage"), "message_start", record, out)

    def message_delta(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A ``message_delta``: the stop reason, its details, the usage."""
        delta = obj.get("delta")
        if delta is not None and not isinstance(delta, dict):
            raise Malformed(f'its "delta" is not an object ({quote(delta)})')
        if not self.started:
            self.check_started(record, out)
        if delta:
            reason = delta.get("stop_reason")
            if isinstance(reason, str):
                self.stop_reason = reason
                out.append(Finish(record.index, 0, map_finish_reason(reason), reason))
                if reason in _PAUSED:
                    out.append(diag(codes.TURN_PAUSED, record, form=reason))
            elif reason is not None:
                out.append(diag(codes.INVALID_STOP_REASON, record, reason=reason))
            self.stop_details(delta.get("stop_details"), record, out)
        self.usage(obj.get("usage"), "message_delta", record, out)

    def stop_details(self, details: JSON, record: DataRecord, out: list[AdapterOutput]) -> None:
        """A refusal's ``stop_details`` (``type``, ``category``, ``explanation``): metadata,
        not refusal text; its explanation is shown in the status reason and a diagnostic."""
        if not isinstance(details, dict):
            return
        explanation = details.get("explanation")
        category = details.get("category")
        if isinstance(explanation, str) and explanation:
            self.explanation = explanation
            out.append(
                diag(
                    codes.REFUSAL_EXPLAINED,
                    record,
                    category=category if isinstance(category, str) and category else "none given",
                    explanation=explanation,
                )
            )

    def message_stop(
        self, _obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A ``message_stop``: the terminal, with the status the stop reason implies."""
        if not self.started:
            self.check_started(record, out)
        reason = self.stop_reason
        stated = _stated_stop_reason(_obj)
        if stated is not None and reason is not None and stated != reason:
            # the terminal event's own stop_reason wins over the message_delta's
            status_of = "incomplete" if stated in _INCOMPLETE else "completed"
            out.append(
                diag(
                    shared.STREAM_CONTRADICTORY_TERMINAL,
                    record,
                    form="stop-reason",
                    stated=stated,
                    said=reason,
                    status=status_of,
                )
            )
            reason = self.stop_reason = stated
            out.append(Finish(record.index, 0, map_finish_reason(stated), stated))
        status: Status = "completed"
        if reason is None:
            out.append(diag(codes.STOP_WITHOUT_REASON, record))
        elif reason in _INCOMPLETE:
            status = "incomplete"
        why = f"message_stop ({reason or 'no stop_reason'})"
        if self.explanation is not None:
            why = f"message_stop ({reason or 'no stop_reason'}: {quote(self.explanation, 200)})"
        out.append(Terminal(record.index, status, why))
        self.stopped = True

    def error(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        """An ``error`` event: the provider error, and the message fails."""
        err = obj.get("error")
        if isinstance(err, dict):
            etype = err.get("type")
            msg = err.get("message")
            self.fail(
                etype if isinstance(etype, str) else None,
                msg if isinstance(msg, str) else compact_json(err),
                obj,
                record,
                out,
            )
        else:
            self.fail(
                None,
                compact_json(err) if err is not None else "(no error object)",
                obj,
                record,
                out,
            )


def _stated_stop_reason(obj: dict[str, JSON]) -> str | None:
    """A ``stop_reason`` a ``message_stop`` carries itself (beside its type, or in a
    ``message`` or ``delta`` object), which the protocol does not send but servers may."""
    for holder in (obj, obj.get("message"), obj.get("delta")):
        if isinstance(holder, dict):
            reason = holder.get("stop_reason")
            if isinstance(reason, str) and reason:
                return reason
    return None

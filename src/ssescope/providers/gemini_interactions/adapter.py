"""The Gemini Interactions adapter: both event generations, one state."""

from __future__ import annotations

from typing import ClassVar

from ...events import (
    JSON,
    Citation,
    Finish,
    FinishReason,
    ReasoningDelta,
    ReasoningMeta,
    ServerToolResult,
    Status,
    TextDelta,
    Unknown,
)
from ...framing.records import DataRecord
from .._base import (
    AdapterBase,
    AdapterOutput,
    compact_json,
    diag,
    int_or_none,
    nonempty_str,
    str_or_none,
    usage_event,
    wire_error,
)
from .._tools import ToolCallTracker, TrackedCall
from . import codes
from .knowledge import LEGACY

__all__ = ["GeminiInteractionsAdapter"]

_STATUS: dict[str, tuple[Status, FinishReason | None]] = {
    "completed": ("completed", "stop"),
    "requires_action": ("completed", "tool_calls"),
    "failed": ("failed", "error"),
    "cancelled": ("cancelled", None),
    "incomplete": ("incomplete", "length"),
    "budget_exceeded": ("incomplete", "length"),
}

_USAGE_KEYS = (
    ("total_input_tokens", "input_tokens"),
    ("total_output_tokens", "output_tokens"),
    ("total_thought_tokens", "reasoning_tokens"),
    ("total_cached_tokens", "cached_input_tokens"),
    ("total_tokens", "total_tokens"),
)

_STARTS = {"step.start", f"{LEGACY}.start"}
_DELTAS = {"step.delta", f"{LEGACY}.delta"}
_STOPS = {"step.stop", f"{LEGACY}.stop"}
_OPENS = {"interaction.created", "interaction.start"}
_TERMINALS = {"interaction.completed", "interaction.complete"}


class GeminiInteractionsAdapter(AdapterBase):
    """Adapter for Gemini Interactions API streams (step and legacy generations)."""

    name: ClassVar[str] = "gemini-interactions"

    def __init__(self, framing: str) -> None:
        super().__init__(framing, codes.UNEXPECTED_JSON)
        self._open: dict[int, str] = {}  # step index -> step type, until its stop
        self._calls: ToolCallTracker[int] = ToolCallTracker()  # step index -> its call

    def _feed_object(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Map one event to unified events and diagnostics."""
        kind = obj.get("event_type")
        if not isinstance(kind, str):
            kind = record.event if record.event not in (None, "message") else None
        if kind is None:
            out.append(diag(codes.MISSING_EVENT_TYPE, record))
            return
        if kind == "error":
            self._error(obj, record, out)
        elif kind in _OPENS:
            self._open_interaction(obj, record, out)
        elif kind == "interaction.status_update":
            self._start(record, out, None, None)
        elif kind in _STARTS:
            self._step_start(obj, record, out, "step" if kind == "step.start" else "content")
        elif kind in _DELTAS:
            self._delta(obj, record, out)
        elif kind in _STOPS:
            self._stop(obj, record, out)
        elif kind in _TERMINALS:
            self._terminal(obj, record, out)
        else:
            out.append(Unknown(record.index, kind, obj))

    def _unfinished(self) -> list[AdapterOutput]:
        """End of the body: a started interaction without its terminal event."""
        return self._unended(codes.MISSING_COMPLETED)

    # the interaction

    def _start(
        self, record: DataRecord, out: list[AdapterOutput], rid: str | None, model: str | None
    ) -> None:
        if not self._started:
            self._response_start(record, out, rid, model)

    def _open_interaction(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        inter = obj.get("interaction")
        inter = inter if isinstance(inter, dict) else {}
        rid = str_or_none(inter.get("id"))
        previous = str_or_none(inter.get("previous_interaction_id"))
        if previous:
            out.append(diag(codes.PREVIOUS_INTERACTION, record, previous=previous))
        self._start(record, out, rid or None, str_or_none(inter.get("model")))

    def _terminal(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        rec = record.index
        inter = obj.get("interaction")
        inter = inter if isinstance(inter, dict) else {}
        self._start(record, out, str_or_none(inter.get("id")) or None, None)
        for index, step in sorted(self._open.items()):
            out.append(diag(codes.STEP_UNCLOSED, record, index=index, step=step))
        self._open.clear()
        self._flush_calls(record, out)
        usage = inter.get("usage")
        if usage is not None:
            usage_event(
                usage,
                _USAGE_KEYS,
                "interaction usage",
                codes.INVALID_USAGE,
                record,
                out,
            )
        raw = inter.get("status")
        kind = str_or_none(obj.get("event_type")) or "interaction.completed"
        if isinstance(raw, str) and raw in _STATUS:
            status, reason = _STATUS[raw]
            out.append(Finish(rec, 0, reason, raw))
            if raw == "failed":
                wire_error(
                    record, out, inter.get("error"), form=codes.ERROR, where="the final interaction"
                )
            self._response_end(record, out, status, f"{kind} (status {raw})")
        else:
            out.append(diag(codes.UNKNOWN_STATUS, record, status=raw))
            self._response_end(record, out, "completed", f"{kind}")

    def _error(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        self._start(record, out, None, None)
        wire_error(
            record,
            out,
            obj.get("error"),
            form=codes.ERROR,
            type_key="status",
            where="an error event",
        )
        self._response_end(record, out, "failed", "error event")

    # steps

    def _step_start(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput], key: str
    ) -> None:
        self._start(record, out, None, None)
        index = int_or_none(obj.get("index"))
        step = obj.get(key)
        if index is None or not isinstance(step, dict):
            out.append(diag(codes.INVALID_STEP, record, event=obj))
            return
        stype = str_or_none(step.get("type")) or "?"
        self._open[index] = stype
        if stype == "function_call":
            args = step.get("arguments")
            name = str_or_none(step.get("name"))
            call = self._calls.track(index, 0, index, str_or_none(step.get("id")), name)
            call.arguments = "" if args in (None, {}) else compact_json(args)
        signature = step.get("signature")
        if stype == "thought" and isinstance(signature, str) and signature:
            out.append(ReasoningMeta(record.index, 0, index, signature=signature))
        self._whole_content(step, stype, index, record, out)

    def _whole_content(
        self,
        item: dict[str, JSON],
        stype: str,
        index: int,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """Text or a server tool's call/result carried whole by a start or a delta."""
        rec = record.index
        if stype.endswith("_result"):
            out.append(ServerToolResult(rec, 0, str_or_none(item.get("call_id")), stype, item))
        elif stype.endswith("_call") and stype != "function_call":
            call = self._calls.get(index)
            if call is None:
                call = self._calls.track(index, 0, index, None, stype, "server")
            call.id = str_or_none(item.get("id")) or call.id
            args = item.get("arguments")
            if args is not None:
                call.arguments = compact_json(args)

    def _delta(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        self._start(record, out, None, None)
        rec = record.index
        index = int_or_none(obj.get("index"))
        delta = obj.get("delta")
        if index is None or not isinstance(delta, dict):
            out.append(diag(codes.INVALID_STEP, record, event=obj))
            return
        dtype = delta.get("type")
        if dtype is None and "signature" in delta:
            dtype = "thought_signature"
        if dtype == "text":
            if text := nonempty_str(delta.get("text")):
                out.append(TextDelta(rec, 0, text, index))
        elif dtype == "thought_summary":
            content = delta.get("content")
            if text := nonempty_str(
                content.get("text") if isinstance(content, dict) else delta.get("text")
            ):
                out.append(ReasoningDelta(rec, 0, text, index, "summary"))
        elif dtype == "thought_signature":
            if sig := nonempty_str(delta.get("signature")):
                out.append(ReasoningMeta(rec, 0, index, signature=sig))
        elif dtype == "arguments_delta":
            self._arguments(delta, index, record, out)
        elif dtype == "function_call":
            args = delta.get("arguments")
            call = self._calls.get(index) or self._calls.track(index, 0, index)
            call.id = str_or_none(delta.get("id")) or call.id
            call.name = str_or_none(delta.get("name")) or call.name
            call.arguments = compact_json(args if args is not None else {})
            call.streamed = True
        elif dtype in ("text_annotation_delta", "text_annotation"):
            annotations = delta.get("annotations")
            notes = annotations if isinstance(annotations, list) else [annotations]
            out.extend(Citation(rec, 0, note, index) for note in notes)
        elif dtype in ("image", "audio", "video", "document"):
            pass  # media output: kept in the frames, not in the text
        elif isinstance(dtype, str) and dtype.endswith(("_call", "_result")):
            self._whole_content(delta, dtype, index, record, out)
        else:
            out.append(Unknown(rec, f"delta {dtype}", obj))

    def _arguments(
        self, delta: dict[str, JSON], index: int, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        fragment = delta.get("arguments")
        call = self._calls.get(index)
        if call is None:
            call = self._calls.track(index, 0, index)
            out.append(diag(codes.INVALID_STEP, record, event=delta))
        if isinstance(fragment, str):
            self._calls.append(call, fragment)
        else:
            self._calls.append(call, "" if fragment is None else compact_json(fragment))

    def _emit_call(self, call: TrackedCall, record: DataRecord, out: list[AdapterOutput]) -> None:
        self._calls.whole(call, record.index, out, call.arguments or "{}")

    def _stop(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        self._start(record, out, None, None)
        index = int_or_none(obj.get("index"))
        if index is None or index not in self._open:
            out.append(diag(codes.INVALID_STEP, record, event=obj))
            return
        del self._open[index]
        call = self._calls.pop(index)
        if call is not None and not call.ended:
            self._emit_call(call, record, out)

    def _flush_calls(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        calls = self._calls
        for index in sorted(calls.open_keys()):
            call = calls.get(index)
            if call is not None:
                self._emit_call(call, record, out)
        calls.clear()

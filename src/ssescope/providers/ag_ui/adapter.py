"""The AG-UI adapter: runs, messages, tool calls, reasoning and state."""

from __future__ import annotations

from typing import ClassVar

import orjson
from orjson import loads as _loads

from ...events import (
    JSON,
    Finish,
    ReasoningDelta,
    ServerToolResult,
    StateChange,
    TextDelta,
    Unknown,
)
from ...framing.records import DataRecord
from ...limits import SHALLOW_JSON_CHARS, may_be_too_deep
from .._base import (
    AdapterBase,
    AdapterOutput,
    compact_json,
    decode_object,
    diag,
    nonempty_str,
    provider_error,
    str_or_none,
)
from .._tools import ToolCallTracker, TrackedCall
from . import codes
from .patch import PatchError, apply_patch

__all__ = ["AgUiAdapter"]


_SNAKE = {
    "messageId": "message_id",
    "toolCallId": "tool_call_id",
    "toolCallName": "tool_call_name",
    "parentMessageId": "parent_message_id",
    "threadId": "thread_id",
    "runId": "run_id",
    "stepName": "step_name",
}

_REASONING_CONTENT = {
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_CHUNK",
    "THINKING_TEXT_MESSAGE_CONTENT",
}
_PASSIVE = {
    "STEP_STARTED",
    "STEP_FINISHED",
    "REASONING_START",
    "REASONING_END",
    "REASONING_ENCRYPTED_VALUE",
    "THINKING_START",
    "THINKING_END",
    "THINKING_TEXT_MESSAGE_START",
    "THINKING_TEXT_MESSAGE_END",
    "MESSAGES_SNAPSHOT",
    "ACTIVITY_SNAPSHOT",
    "ACTIVITY_DELTA",
    "RAW",
    "CUSTOM",
}


class AgUiAdapter(AdapterBase):
    """Adapter for AG-UI event streams."""

    name: ClassVar[str] = "ag-ui"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._run_end: str | None = None  # "RUN_FINISHED" / "RUN_ERROR" once the run ended
        self._outputs: dict[str, int] = {}  # messageId -> output
        self._open_messages: set[str] = set()
        self._ended_messages: set[str] = set()
        self._tools: ToolCallTracker[str] = ToolCallTracker(by_id=True)  # by toolCallId
        self._open_steps: set[str] = set()
        self._open_reasoning: set[str] = set()
        self._next_call = 0
        self._last_output = 0
        self._state: JSON = None
        self._snake_noted = False

    # reading fields

    def _field(
        self, obj: dict[str, JSON], key: str, record: DataRecord, out: list[AdapterOutput]
    ) -> str | None:
        value = obj.get(key)
        if value is None and key in _SNAKE and _SNAKE[key] in obj:
            value = obj.get(_SNAKE[key])
            if not self._snake_noted:
                self._snake_noted = True
                out.append(diag(codes.SNAKE_CASE_KEYS, record, key=_SNAKE[key]))
        return str_or_none(value)

    def _id(
        self,
        kind: str,
        key: str,
        obj: dict[str, JSON],
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> str | None:
        """The id that ties the event to its start, or ``None`` (reported) without one."""
        value = self._field(obj, key, record, out)
        if value is None:
            out.append(diag(codes.MISSING_ID, record, event_type=kind, key=key))
        return value

    def _order(
        self, record: DataRecord, out: list[AdapterOutput], form: str, **args: object
    ) -> None:
        out.append(diag(codes.ORDER, record, form=form, **args))

    def _read(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map one event to unified events and diagnostics."""
        self._note(record)
        data = record.data
        try:  # (decode_object's first step, inlined: most records are one small object)
            decoded: JSON = _loads(data)
        except orjson.JSONDecodeError:
            decoded = None
        # (decoded_may_be_too_deep, inlined: a short text cannot nest too deep)
        if isinstance(decoded, dict) and (
            len(data) <= SHALLOW_JSON_CHARS or not may_be_too_deep(data)
        ):
            obj = decoded
        else:  # the general path, with its diagnostics
            found = decode_object(record, out, codes.UNEXPECTED_JSON)
            if found is None:
                return
            obj = found
        kind = obj.get("type")
        if self._started and not self._ended:
            if kind == "TEXT_MESSAGE_CONTENT":
                # the hot path (most events of a run): content for a message that is open
                message = obj.get("messageId")
                if isinstance(message, str) and message in self._open_messages:
                    if delta := nonempty_str(obj.get("delta")):
                        output = self._last_output = self._outputs[message]
                        out.append(TextDelta(record.index, output, delta))
                    return
            elif kind == "STATE_DELTA":
                self._delta(obj, record, out)
                return
        if not isinstance(kind, str):
            out.append(diag(codes.MISSING_TYPE, record))
            return
        if kind == "RUN_STARTED":
            self._run_started(obj, record, out)
            return
        if not self._started:
            self._begin(obj, record, out)
            if kind != "RUN_ERROR":
                self._order(record, out, "before-run-started", event_type=kind)
        if self._ended:
            if kind == "RUN_FINISHED" and self._run_end == "RUN_ERROR":
                self._order(record, out, "finished-after-error")
            else:
                self._order(record, out, "after-run-end", event_type=kind, ended=self._run_end)
            return
        self._dispatch(kind, obj, record, out)

    def _dispatch(
        self, kind: str, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if kind == "RUN_FINISHED":
            self._finished(obj, record, out)
        elif kind == "RUN_ERROR":
            self._run_error(obj, record, out)
        elif kind in (
            "TEXT_MESSAGE_START",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_END",
            "TEXT_MESSAGE_CHUNK",
        ):
            self._text(kind, obj, record, out)
        elif kind.startswith("TOOL_CALL_"):
            self._tool(kind, obj, record, out)
        elif kind in ("STEP_STARTED", "STEP_FINISHED"):
            self._bounds(kind, obj, record, out, "step", "stepName", self._open_steps)
        elif kind in ("REASONING_MESSAGE_START", "REASONING_MESSAGE_END"):
            opened = self._open_reasoning
            self._bounds(kind, obj, record, out, "reasoning message", "messageId", opened)
        elif kind in _REASONING_CONTENT:
            if kind == "REASONING_MESSAGE_CONTENT":
                message = self._field(obj, "messageId", record, out)
                if message is not None and message not in self._open_reasoning:
                    self._order(
                        record,
                        out,
                        "not-started",
                        what="reasoning message",
                        id=message,
                        event_type=kind,
                    )
            if delta := nonempty_str(obj.get("delta")):
                out.append(ReasoningDelta(record.index, self._last_output, delta))
        elif kind == "STATE_SNAPSHOT":
            self._state = obj.get("snapshot")
            out.append(StateChange(record.index, "snapshot", self._state))
        elif kind == "STATE_DELTA":
            self._delta(obj, record, out)
        elif kind not in _PASSIVE:
            out.append(Unknown(record.index, kind, obj))

    def _delta(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        """Apply a ``STATE_DELTA``'s JSON Patch to the state (to ``{}`` before any snapshot);
        a patch that does not apply is reported and leaves the state as it was."""
        try:
            state = {} if self._state is None else self._state
            self._state = apply_patch(state, obj.get("delta"))
        except PatchError as exc:
            out.append(diag(codes.PATCH_FAILED, record, reason=str(exc)))
            out.append(StateChange(record.index, "delta", self._state, applied=False))
            return
        out.append(StateChange(record.index, "delta", self._state))

    # the run

    def _begin(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        run_id = self._field(obj, "runId", record, out)
        self._response_start(record, out, run_id)

    def _run_started(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if self._started and not self._ended:
            self._order(record, out, "started-twice")
            return
        if self._ended:  # a further run of the same stream: a new response
            self._left_open(record, out)
            state = self._state  # the state belongs to the thread: a new run starts from it
            self.__init__(self.framing)  # type: ignore[misc]
            self._state = state
        self._begin(obj, record, out)

    def _left_open(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        for message in sorted(self._open_messages):
            self._order(record, out, "left-open", what="message", id=message)
        for call in sorted(self._tools.open_keys()):
            self._order(record, out, "left-open", what="tool call", id=call)
        for step in sorted(self._open_steps):
            self._order(record, out, "left-open", what="step", id=step)
        for message in sorted(self._open_reasoning):
            self._order(record, out, "left-open", what="reasoning message", id=message)
        self._open_messages.clear()
        self._open_steps.clear()
        self._open_reasoning.clear()

    def _bounds(
        self,
        kind: str,
        obj: dict[str, JSON],
        record: DataRecord,
        out: list[AdapterOutput],
        what: str,
        key: str,
        opened: set[str],
    ) -> None:
        """A step (named by ``stepName``) or a reasoning message (by ``messageId``) is
        started once, and ended only once it started (the spec's verifier); ``opened``
        holds those of its kind that are open."""
        name = self._field(obj, key, record, out)
        if name is None:
            return
        if kind in ("STEP_STARTED", "REASONING_MESSAGE_START"):
            if name in opened:
                self._order(record, out, "started-again", what=what, id=name)
            opened.add(name)
        elif name in opened:
            opened.discard(name)
        else:
            self._order(record, out, "not-started", what=what, id=name, event_type=kind)

    def _finished(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        self._left_open(record, out)
        self._flush_calls(record, out)
        rec = record.index
        outcome = obj.get("outcome")
        otype = outcome.get("type") if isinstance(outcome, dict) else None
        if otype in ("interrupt", "suspended"):  # paused for input or approval
            out.append(Finish(rec, self._last_output, "other", otype))
            self._response_end(record, out, "incomplete", f"RUN_FINISHED (outcome {otype})")
        elif otype in ("cancelled", "canceled", "cancel"):
            out.append(Finish(rec, self._last_output, "other", str(otype)))
            self._response_end(record, out, "cancelled", f"RUN_FINISHED (outcome {otype})")
        else:
            raw = otype if isinstance(otype, str) else None
            out.append(Finish(rec, self._last_output, "stop", raw))
            self._response_end(record, out, "completed", f"RUN_FINISHED (outcome {raw or 'none'})")
        self._run_end = "RUN_FINISHED"

    def _run_error(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        message = obj.get("message")
        if not isinstance(message, str) and "error" in obj:
            err = obj.get("error")
            message = err if isinstance(err, str) else compact_json(err)
            out.append(diag(codes.ERROR_KEY, record))
        text = message if isinstance(message, str) else compact_json(obj)
        code = obj.get("code")
        provider_error(
            record,
            out,
            text,
            None,
            None if code is None else str(code),
            obj,
            form=codes.ERROR,
            message=text,
        )
        self._left_open(record, out)
        self._flush_calls(record, out)
        self._response_end(record, out, "failed", "RUN_ERROR")
        self._run_end = "RUN_ERROR"

    def _unfinished(self) -> list[AdapterOutput]:
        """End of the body: a run that neither finished nor failed."""
        return self._unended(codes.MISSING_RUN_END)

    # messages

    def _output(self, message: str) -> int:
        if message not in self._outputs:
            self._outputs[message] = len(self._outputs)
        self._last_output = self._outputs[message]
        return self._last_output

    def _text(
        self, kind: str, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        message = self._id(kind, "messageId", obj, record, out)
        if message is None:
            return
        if kind == "TEXT_MESSAGE_START":
            if message in self._open_messages or message in self._ended_messages:
                self._order(record, out, "started-again", what="message", id=message)
            self._open_messages.add(message)
            self._output(message)
            return
        if kind == "TEXT_MESSAGE_END":
            if message in self._ended_messages:
                self._order(record, out, "ended-twice", what="message", id=message)
            elif message not in self._open_messages:
                self._order(record, out, "not-started", what="message", id=message, event_type=kind)
            self._open_messages.discard(message)
            self._ended_messages.add(message)
            return
        if kind == "TEXT_MESSAGE_CONTENT" and message not in self._open_messages:
            self._order(record, out, "not-started", what="message", id=message, event_type=kind)
        if delta := nonempty_str(obj.get("delta")):
            out.append(TextDelta(record.index, self._output(message), delta))

    # tool calls

    def _tool(
        self, kind: str, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        call_id = self._id(kind, "toolCallId", obj, record, out)
        if call_id is None:
            return
        if kind == "TOOL_CALL_RESULT":
            content = obj.get("content", obj.get("result"))
            out.append(
                ServerToolResult(
                    record.index, self._last_output, call_id, "tool_call_result", content
                )
            )
            return
        tools = self._tools
        known = tools.get(call_id)
        ended = known is not None and known.ended
        call = None if ended else known
        if kind in ("TOOL_CALL_START", "TOOL_CALL_CHUNK") and call is None:
            if kind == "TOOL_CALL_START" and ended:
                self._order(record, out, "started-again", what="tool call", id=call_id)
            parent = self._field(obj, "parentMessageId", record, out)
            output = self._outputs.get(parent, self._last_output) if parent else self._last_output
            name = self._field(obj, "toolCallName", record, out)
            call = tools.track(call_id, output, self._next_call, call_id, name)
            self._next_call += 1
        if kind == "TOOL_CALL_END":
            if call is None:
                form = "ended-twice" if ended else "not-started"
                self._order(record, out, form, what="tool call", id=call_id, event_type=kind)
                return
            self._emit(call, record, out)
            return
        if call is None:
            self._order(record, out, "not-started", what="tool call", id=call_id, event_type=kind)
            return
        delta = obj.get("delta")
        if isinstance(delta, str):
            tools.append(call, delta)

    def _emit(self, call: TrackedCall, record: DataRecord, out: list[AdapterOutput]) -> None:
        self._tools.whole(call, record.index, out, call.arguments)

    def _flush_calls(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        tools = self._tools
        for key in tools.open_keys():
            call = tools.get(key)
            if call is not None:
                self._emit(call, record, out)

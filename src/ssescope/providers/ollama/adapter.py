"""The OllamaAdapter (see the package docstring)."""

from __future__ import annotations

from typing import ClassVar, cast

from ...events import (
    JSON,
    Finish,
    ReasoningDelta,
    TextDelta,
    ToolCall,
    Unknown,
    Usage,
)
from ...framing.records import DataRecord
from .._base import (
    AdapterBase,
    AdapterOutput,
    compact_json,
    diag,
    error_fields,
    nonempty_str,
    provider_error,
    str_or_none,
    token_count,
)
from . import codes
from .maps import finish_status, map_finish_reason

__all__ = ["OllamaAdapter"]


_METRICS = (
    "total_duration",
    "load_duration",
    "prompt_eval_count",
    "prompt_eval_duration",
    "eval_count",
    "eval_duration",
)


def _texts(source: dict[str, JSON], text_key: str, rec: int, out: list[AdapterOutput]) -> None:
    """The reasoning (``thinking``) and then the text (``text_key``) a chat message or a
    generate line carries, each when it is a non-empty string."""
    if thinking := nonempty_str(source.get("thinking")):
        out.append(ReasoningDelta(rec, 0, thinking))
    if text := nonempty_str(source.get(text_key)):
        out.append(TextDelta(rec, 0, text))


class OllamaAdapter(AdapterBase):
    """Adapter for Ollama's native NDJSON chat / generate streams."""

    name: ClassVar[str] = "ollama"

    def __init__(self, framing: str) -> None:
        super().__init__(framing, codes.UNEXPECTED_JSON)
        self._next_index = 0

    def _feed_object(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Map one line to events and diagnostics."""
        rec = record.index
        if "error" in obj:
            self._error(obj, record, out)
            return
        if not self._started or self._ended:
            self._response_start(record, out, None, str_or_none(obj.get("model")))
            self._next_index = 0
        known = False
        message = obj.get("message")
        if isinstance(message, dict):
            known = True
            _texts(message, "content", rec, out)
            calls = message.get("tool_calls")
            if isinstance(calls, list):
                for call in calls:
                    self._tool_call(call, record, out)
        if "response" in obj or "thinking" in obj:
            known = True
            _texts(obj, "response", rec, out)
        done = obj.get("done")
        if done is True:
            if (
                isinstance(message, dict)
                and message.get("tool_calls")
                and obj.get("done_reason") == "stop"
            ):
                out.append(diag(codes.TOOL_CALLS_UNDER_STOP, record))
            self._finish(obj, record, out)
        elif not known and done is not False:
            out.append(Unknown(rec, "(unrecognised line)", obj))

    def _unfinished(self) -> list[AdapterOutput]:
        """End of the body: report a response that never got its ``done: true`` line."""
        return self._unended(codes.MISSING_DONE)

    def _tool_call(self, call: JSON, record: DataRecord, out: list[AdapterOutput]) -> None:
        if not isinstance(call, dict):
            out.append(diag(codes.INVALID_TOOL_CALL, record, call=call))
            return
        function = call.get("function")
        function = function if isinstance(function, dict) else {}
        name = function.get("name")
        call_id = call.get("id")
        args = function.get("arguments")
        if args is None:
            arguments = "{}"
        elif isinstance(args, str):
            arguments = args  # some proxies send the OpenAI string form
        else:
            arguments = compact_json(args)
        index = self._next_index
        self._next_index += 1
        out.append(
            ToolCall(
                record.index,
                0,
                index,
                call_id if isinstance(call_id, str) and call_id else None,
                name if isinstance(name, str) and name else None,
                arguments,
            )
        )

    def _finish(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        rec = record.index
        raw_usage = {k: obj[k] for k in _METRICS if k in obj}
        values: dict[str, int | None] = {
            "input_tokens": token_count(obj.get("prompt_eval_count")),
            "output_tokens": token_count(obj.get("eval_count")),
            "total_tokens": None,
            "reasoning_tokens": None,
            "cached_input_tokens": None,
        }
        if values["input_tokens"] is not None or values["output_tokens"] is not None:
            out.append(Usage(rec, values, cast("JSON", raw_usage), "done line metrics"))
        raw = obj.get("done_reason")
        if isinstance(raw, str):
            reason, status = map_finish_reason(raw), finish_status(raw)
            out.append(Finish(rec, 0, reason, raw))
            if raw == "":
                out.append(diag(codes.CONNECTION_CLOSED, record))
            elif raw in ("load", "unload"):
                out.append(diag(codes.MODEL_MANAGEMENT, record, raw_text=raw))
            self._response_end(record, out, status, f"done ({raw or 'connection closed'})")
        else:
            out.append(diag(codes.MISSING_DONE_REASON, record))
            self._response_end(record, out, "completed", "done")

    def _error(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        err = obj["error"]
        error_type, text, _code = error_fields(err, compact_json)
        provider_error(record, out, text, error_type, None, err, form=codes.ERROR, text=text)
        self._response_end(record, out, "failed", "error line")
        self._started = True

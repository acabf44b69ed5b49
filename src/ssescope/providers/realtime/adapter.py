"""The OpenAI Realtime adapter: server events in, dispatched by type (see the package
docstring)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from ...diagnostics import diagnostic
from ...events import (
    JSON,
    Audio,
    Finish,
    ProviderError,
    ResponseStart,
    Snapshot,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
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
    int_or_none,
    provider_error,
    str_or_none,
    token_count,
)
from .._tools import ToolCallTracker, TrackedCall
from . import codes
from .maps import (
    AUDIO_DELTAS,
    QUIET_PREFIXES,
    QUIET_TYPES,
    STATUSES,
    TEXT_DELTAS,
    TEXT_DONES,
    TRANSCRIPT_DELTAS,
    USAGE_KEYS,
    map_reason,
)

__all__ = ["RealtimeAdapter"]

_T = TypeVar("_T")

_Handler = Callable[[dict[str, Any], DataRecord, list[AdapterOutput]], None]


def _part(obj: dict[str, Any]) -> object:
    """The key of a text part: its item and content index."""
    return (str_or_none(obj.get("item_id")), int_or_none(obj.get("content_index")))


def _details_text(details: dict[str, Any]) -> str:
    """``status_details`` in words, for the verdict line."""
    reason = str_or_none(details.get("reason"))
    err = details.get("error")
    if isinstance(err, dict):
        kind = str_or_none(err.get("type"))
        code = str_or_none(err.get("code"))
        said = ": ".join(x for x in (kind, code) if x)
        return f"{reason}, {said}" if reason and said else reason or said or "error"
    return reason or "no reason given"


class RealtimeAdapter(AdapterBase):
    """Adapter for OpenAI Realtime sessions (one server event per WebSocket message)."""

    name: ClassVar[str] = "realtime"

    def __init__(self, framing: str) -> None:
        super().__init__(framing, codes.UNEXPECTED_JSON)
        self._model: str | None = None
        self._format: str | None = None
        self._open = False  # a response was created and its response.done has not come
        self._translating = False  # a translation session's output is being read
        self._calls = False  # the open response has function calls
        # the calls seen streaming, by output index (their events restate what they carry)
        self._tools: ToolCallTracker[int] = ToolCallTracker()
        self._named = False  # the open response's id is known
        self._session_error: tuple[DataRecord, dict[str, Any]] | None = None
        self._handlers: dict[str, _Handler] = {
            "response.created": self._created,
            "response.done": self._done,
            "response.output_item.added": self._item_added,
            "response.function_call_arguments.delta": self._args_delta,
            "response.function_call_arguments.done": self._args_done,
            "session.created": self._session,
            "session.updated": self._session,
            "session.closed": self._session_closed,
            "conversation.item.input_audio_transcription.failed": self._transcription_failed,
            "rate_limits.updated": self._rate_limits,
            "error": self._error,
        }

    def _feed_object(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Map one server event to unified events and diagnostics."""
        etype = obj.get("type")
        if not isinstance(etype, str):
            out.append(Unknown(record.index, "(no type)", obj))
            return
        handler = self._handlers.get(etype)
        if handler is not None:
            handler(obj, record, out)
        elif etype in TEXT_DELTAS:
            delta = self._delta(etype, obj, record, out)
            if delta is not None:
                self._begin(None, record, out)
                out.append(TextDelta(record.index, 0, delta, _part(obj)))
        elif etype in TRANSCRIPT_DELTAS:
            delta = self._delta(etype, obj, record, out)
            if delta is not None:
                self._begin(None, record, out, translation=etype.startswith("session."))
                out.append(Audio(record.index, 0, transcript=delta, id=self._item(obj)))
        elif etype in AUDIO_DELTAS:
            delta = self._delta(etype, obj, record, out)
            if delta is not None:
                self._begin(None, record, out, translation=etype.startswith("session."))
                fmt = str_or_none(obj.get("format")) or self._format
                out.append(Audio(record.index, 0, data=delta, format=fmt, id=self._item(obj)))
        elif etype in TEXT_DONES:
            text = obj.get("text")
            if isinstance(text, str):
                out.append(Snapshot(record.index, 0, "text", text, _part(obj)))
        elif etype not in QUIET_TYPES and not etype.startswith(QUIET_PREFIXES):
            out.append(Unknown(record.index, etype, obj))

    def _unfinished(self) -> list[AdapterOutput]:
        """End of the stream: a response created but never done is cut; an error with no
        response after it is the session's outcome."""
        out: list[AdapterOutput] = []
        if self._open:
            form = "session" if self._translating else "response"
            out.append(
                diagnostic(codes.MISSING_RESPONSE_DONE, self._last_end, self._last_index, form=form)
            )
        elif self._session_error is not None and not self._started:
            record, err = self._session_error
            error_type, text, code = error_fields(err, compact_json)
            self._response_start(record, out, None, self._model)
            out.append(ProviderError(record.index, error_type, text, code, err))
            out.append(Finish(record.index, 0, "error", error_type or "error"))
            self._response_end(record, out, "failed", "error event, and no response followed")
        return out

    # -- helpers ----------------------------------------------------------------------

    @staticmethod
    def _item(obj: dict[str, Any]) -> str | None:
        return str_or_none(obj.get("item_id"))

    def _delta(
        self, etype: str, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> str | None:
        return self._typed(etype, obj, "delta", str, "a string", record, out)

    def _typed(
        self,
        etype: str,
        obj: dict[str, Any],
        key: str,
        kind: type[_T],
        expected: str,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> _T | None:
        """``obj[key]`` when it is a ``kind``; else ``None``, reported as an invalid field."""
        value = obj.get(key)
        if isinstance(value, kind):
            return value
        out.append(
            diag(
                codes.INVALID_FIELD, record, etype=etype, field=key, expected=expected, value=value
            )
        )
        return None

    def _begin(
        self,
        resp: dict[str, Any] | None,
        record: DataRecord,
        out: list[AdapterOutput],
        *,
        translation: bool = False,
    ) -> None:
        """Start a response (``response.created``, or the first output of a capture that
        began mid-response or of a translation session)."""
        if self._open:
            if resp is not None and not self._named:
                # begun by an output event (a capture that starts mid-response): the
                # response's id, once an event names it
                self._named = str_or_none(resp.get("id")) is not None
                if self._named:
                    out.append(ResponseStart(record.index, str_or_none(resp.get("id"))))
            return
        self._open = True
        self._calls = False
        self._tools.clear()
        self._translating = translation
        self._session_error = None
        rid = str_or_none(resp.get("id")) if resp is not None else None
        self._named = rid is not None
        self._response_start(record, out, rid, self._model)

    def _response(
        self, etype: str, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> dict[str, Any]:
        resp = self._typed(etype, obj, "response", dict, "an object", record, out)
        return {} if resp is None else resp

    # -- session and response lifecycle ----------------------------------------------

    def _session(self, obj: dict[str, Any], _record: DataRecord, _out: list[AdapterOutput]) -> None:
        session = obj.get("session")
        if not isinstance(session, dict):
            return
        model = str_or_none(session.get("model"))
        if model:
            self._model = model
        fmt = session.get("output_audio_format")  # beta: "pcm16"
        audio = session.get("audio")
        if isinstance(audio, dict) and isinstance(audio.get("output"), dict):
            spec = audio["output"].get("format")  # GA: {"type": "audio/pcm", "rate": 24000}
            fmt = spec.get("type") if isinstance(spec, dict) else spec
        if isinstance(fmt, str) and fmt:
            self._format = fmt

    def _session_closed(
        self, _obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if self._open and self._translating:
            out.append(Finish(record.index, 0, "stop", "session.closed"))
            self._response_end(record, out, "completed", "session.closed")
            self._open = False

    def _created(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        resp = self._response("response.created", obj, record, out)
        self._begin(resp, record, out)

    def _done(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        resp = self._response("response.done", obj, record, out)
        self._begin(resp, record, out)
        rec = record.index
        self._final_output(resp.get("output"), record, out)
        self._usage(resp.get("usage"), record, out)
        raw = str_or_none(resp.get("status"))
        status = STATUSES.get(raw or "")
        details = resp.get("status_details")
        details = details if isinstance(details, dict) else None
        if status is None:
            out.append(diag(codes.UNKNOWN_STATUS, record, status=raw))
            out.append(Finish(rec, 0, "other", raw))
            self._response_end(
                record, out, "incomplete", f"response.done, status {raw or '(none)'}"
            )
        else:
            reason = str_or_none(details.get("reason")) if details else None
            if details is None and status != "completed":
                out.append(diag(codes.STATUS_WITHOUT_DETAILS, record, status=raw))
            if status == "failed":
                self._failed(details, record, out)
            out.append(Finish(rec, 0, map_reason(raw or "", reason, self._calls), reason or raw))
            said = f"response.done, status {raw}"
            if status != "completed":
                said += f" ({_details_text(details) if details else 'no status_details'})"
            self._response_end(record, out, status, said)
        self._open = False

    def _failed(
        self, details: dict[str, Any] | None, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        err = details.get("error") if details else None
        err = err if isinstance(err, dict) else {}
        kind = str_or_none(err.get("type"))
        code = str_or_none(err.get("code"))
        message = str_or_none(err.get("message")) or "response.done has status failed"
        provider_error(
            record,
            out,
            message,
            kind,
            code,
            err or None,
            form=codes.FAILED,
            error_type=kind or "no type",
            error_code=code or "none",
        )

    def _final_output(self, output: object, record: DataRecord, out: list[AdapterOutput]) -> None:
        """The final items of ``response.done``: function calls not seen streaming, and
        the text of each part (a snapshot: a part with no delta takes it)."""
        if not isinstance(output, list):
            return
        for position, item in enumerate(output):
            if not isinstance(item, dict):
                continue
            if item.get("type") == "function_call":
                self._calls = True
                if position not in self._tools:
                    args = item.get("arguments")
                    call = TrackedCall(
                        0,
                        position,
                        str_or_none(item.get("call_id")),
                        str_or_none(item.get("name")),
                        "function",
                        "json",
                    )
                    complete = item.get("status") != "incomplete"
                    arguments = args if isinstance(args, str) else ""
                    self._tools.whole(call, record.index, out, arguments, complete)
                continue
            content = item.get("content")
            for n, part in enumerate(content if isinstance(content, list) else []):
                if isinstance(part, dict) and part.get("type") in ("output_text", "text"):
                    text = part.get("text")
                    if isinstance(text, str):
                        key = (str_or_none(item.get("id")), n)
                        out.append(Snapshot(record.index, 0, "text", text, key))

    def _usage(self, usage: object, record: DataRecord, out: list[AdapterOutput]) -> None:
        if not isinstance(usage, dict):
            return
        values: dict[str, int | None] = {
            key: token_count(usage.get(wire)) for wire, key in USAGE_KEYS
        }
        details = usage.get("input_token_details")
        cached = details.get("cached_tokens") if isinstance(details, dict) else None
        values["cached_input_tokens"] = token_count(cached)
        values["reasoning_tokens"] = None
        out.append(Usage(record.index, values, usage, "response.done"))

    # -- function calls ---------------------------------------------------------------

    def _call_delta(
        self,
        obj: dict[str, Any],
        record: DataRecord,
        out: list[AdapterOutput],
        call_id: object,
        name: object = None,
        arguments: str | None = None,
    ) -> None:
        """A piece of the function call at the event's ``output_index``."""
        self._begin(None, record, out)
        index = int_or_none(obj.get("output_index"))
        self._calls = True
        if index is not None and index not in self._tools:
            self._tools.track(index, 0, index, str_or_none(call_id), str_or_none(name))
        out.append(
            ToolCallDelta(
                record.index,
                0,
                index=index,
                id=str_or_none(call_id),
                name=str_or_none(name),
                arguments=arguments,
            )
        )

    def _item_added(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        item = obj.get("item")
        if isinstance(item, dict) and item.get("type") == "function_call":
            self._call_delta(obj, record, out, item.get("call_id"), item.get("name"))

    def _args_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = self._delta("response.function_call_arguments.delta", obj, record, out)
        if delta is not None:
            self._call_delta(obj, record, out, obj.get("call_id"), arguments=delta)

    def _args_done(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        args = obj.get("arguments")
        index = int_or_none(obj.get("output_index"))
        out.append(
            ToolCallEnd(
                record.index,
                0,
                index=index,
                id=str_or_none(obj.get("call_id")),
                arguments=args if isinstance(args, str) else None,
                name=str_or_none(obj.get("name")),
            )
        )

    # -- errors, transcription, rate limits ---------------------------------------------

    def _error(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        err = obj.get("error")
        err = err if isinstance(err, dict) else {"message": compact_json(err)}
        error_type, text, code = error_fields(err, compact_json)
        if self._open:
            provider_error(
                record,
                out,
                text,
                error_type,
                code,
                err,
                form=codes.ERROR,
                error_type=error_type or "no type",
                text=text,
            )
            return
        out.append(diag(codes.SESSION_ERROR, record, error_type=error_type or "no type", text=text))
        self._session_error = (record, err)

    def _transcription_failed(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        err = obj.get("error")
        _, text, _ = error_fields(err, compact_json)
        out.append(diag(codes.TRANSCRIPTION_FAILED, record, item=obj.get("item_id"), text=text))

    def _rate_limits(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        limits = obj.get("rate_limits")
        out.extend(
            diag(
                codes.RATE_LIMIT_REACHED,
                record,
                name=str_or_none(limit.get("name")) or "(unnamed)",
                limit=limit.get("limit"),
                reset_s=limit.get("reset_seconds"),
            )
            for limit in (limits if isinstance(limits, list) else [])
            if isinstance(limit, dict) and limit.get("remaining") == 0
        )

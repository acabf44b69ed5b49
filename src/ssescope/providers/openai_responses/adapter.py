"""The Responses adapter: events in, dispatched by type (see the package docstring)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from ... import codes as shared
from ...events import Finish, FinishReason, Terminal, Unknown
from ...framing.records import DataRecord, SSEEvent
from .._base import (
    INVALID,
    AdapterBase,
    AdapterOutput,
    decode_json,
    diag,
    not_streamed,
    str_or_none,
    whole_terminal,
)
from . import codes
from .items import args_delta, args_done, final_item, item_added, item_done
from .maps import map_finish_reason
from .parts import (
    annotation,
    audio_delta,
    content_part_done,
    part_done,
    reasoning_delta,
    refusal_delta,
    summary_done,
    summary_part_done,
    text_delta,
)
from .state import (
    _ARG_DELTAS,
    _ARG_DONES,
    _QUIET,
    _TERMINALS,
    _WHOLE_STATUS,
    _Response,
    created,
    error,
    in_progress,
)

_Handler = Callable[[_Response, dict[str, Any], DataRecord, list[AdapterOutput]], None]


_HANDLERS: dict[str, _Handler] = {
    "response.output_text.delta": text_delta,
    "response.refusal.delta": refusal_delta,
    "response.reasoning_summary_text.delta": partial(reasoning_delta, "summary"),
    "response.reasoning_text.delta": partial(reasoning_delta, "text"),
    "response.output_text.done": partial(part_done, "text", "text"),
    "response.refusal.done": partial(part_done, "refusal", "refusal"),
    "response.reasoning_summary_text.done": summary_done,
    "response.reasoning_text.done": partial(part_done, "reasoning", "text"),
    "response.content_part.done": content_part_done,
    "response.reasoning_summary_part.done": summary_part_done,
    "response.output_text.annotation.added": annotation,
    "response.output_item.added": item_added,
    "response.output_item.done": item_done,
    "response.audio.delta": partial(audio_delta, False),
    "response.audio.transcript.delta": partial(audio_delta, True),
    "response.created": created,
    "response.in_progress": in_progress,
    "error": error,
}
"""The handler of each event type but the argument streams and the terminal events."""


class OpenAIResponsesAdapter(AdapterBase):
    """Adapter for OpenAI Responses API event streams (SSE, or JSONL dumps of events).

    The framing does not change the end markers: the protocol's terminal events are
    JSON events in every framing.
    """

    name: ClassVar[str] = "openai-responses"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._resp = _Response()

    def _read(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map one record (one Responses event) to unified events and diagnostics."""
        obj, bad = decode_json(record)
        if obj is INVALID:
            if record.data.strip() == "[DONE]":
                out.append(diag(codes.DONE_MARKER, record))
                return
            if bad is not None:
                out.append(bad)
            return
        if not isinstance(obj, dict):
            out.append(diag(codes.NOT_AN_OBJECT, record, data=record.data))
            return
        etype = obj.get("type")
        wire_name = record.event if isinstance(record, SSEEvent) else None
        if etype is None and obj.get("object") == "response":
            self._whole_response(obj, record, out)
            return
        if not isinstance(etype, str):
            if wire_name and wire_name != "message":
                etype = wire_name
                out.append(
                    diag(
                        codes.MISSING_TYPE,
                        record,
                        form="event-name",
                        wire_name=wire_name,
                    )
                )
            else:
                out.append(diag(codes.MISSING_TYPE, record, form="skipped", etype=etype))
                return
        elif wire_name is not None and wire_name not in ("message", etype):
            out.append(diag(codes.EVENT_NAME_MISMATCH, record, wire_name=wire_name, etype=etype))
        if etype == "response.created":
            self._resp = _Response()
        state = self._resp
        seq = obj.get("sequence_number")
        if seq is not None:
            last = state.seq
            if type(seq) is int and last is not None and seq == last + 1:
                state.seq = seq
            else:
                state.check_seq(seq, record, out)
        handler = _HANDLERS.get(etype)
        if handler is not None:
            handler(state, obj, record, out)
        elif etype in _ARG_DELTAS:
            args_delta(etype, state, obj, record, out)
        elif etype in _ARG_DONES:
            args_done(etype, state, obj, record, out)
        elif etype in _TERMINALS:
            self._terminal(etype, obj, record, out)
        elif etype not in _QUIET:
            out.append(Unknown(record.index, etype, obj))

    def _unfinished(self) -> list[AdapterOutput]:
        """End of stream: nothing to add (a missing terminal event is the aggregator's
        ``truncated`` status, unended calls its ``tool.incomplete``)."""
        return []

    def _whole_response(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A whole Response object (not streamed): read as the terminal event its status
        names, whose snapshot carries every output item."""
        out.append(not_streamed("Response object", record))
        etype = _WHOLE_STATUS.get(str_or_none(obj.get("status")) or "")
        if etype is not None:
            self._terminal(etype, {"response": obj}, record, out)
            whole_terminal(out, "Response")
            return
        # queued or in progress (a background response polled early): what it has so far
        state = self._resp
        state.start(obj, record, out)
        output = obj.get("output")
        for position, item in enumerate(output if isinstance(output, list) else []):
            if isinstance(item, dict):
                owner = state.resolve(str_or_none(item.get("id")), position, record, out)
                final_item(state, item, position, owner, record, out)

    def _terminal(
        self, etype: str, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        resp = obj.get("response")
        if not isinstance(resp, dict):
            resp = {}
        state = self._resp
        state.start(resp, record, out)
        output = resp.get("output")
        if isinstance(output, list):
            if not output and state.built and etype == "response.completed":
                out.append(diag(codes.EMPTY_FINAL_OUTPUT, record, etype=etype))
            for position, item in enumerate(output):
                if isinstance(item, dict):
                    # An id met in the stream names its item; an unknown one (a gateway
                    # that re-issues ids) falls back on the position in the list.
                    item_id = str_or_none(item.get("id"))
                    owner = state.id_owner.get(item_id) if item_id is not None else None
                    if owner is None:
                        owner = state.resolve(item_id, position, record, out)
                    final_item(state, item, position, owner, record, out)
        usage = resp.get("usage")
        if isinstance(usage, dict):
            out.append(state.usage(usage, etype, record))
        status = str_or_none(resp.get("status"))
        event = etype
        etype = self._stated(etype, status, record, out)
        said = f"{event}, status {status}" if etype != event else event
        if status in ("cancelled", "canceled") or etype in (
            "response.cancelled",
            "response.canceled",
        ):
            out.append(Finish(record.index, 0, "other", "cancelled"))
            out.append(Terminal(record.index, "cancelled", f"{event} (status cancelled)"))
        elif etype == "response.completed":
            reason: FinishReason = "tool_calls" if state.client_calls else "stop"
            out.append(Finish(record.index, 0, reason, status or "completed"))
            if state.refused:  # refusal text: incomplete on every provider
                out.append(Terminal(record.index, "incomplete", f"{said} (refusal text)"))
            else:
                out.append(Terminal(record.index, "completed", said))
        elif etype == "response.incomplete":
            details = resp.get("incomplete_details")
            raw = str_or_none(details.get("reason")) if isinstance(details, dict) else None
            unified = map_finish_reason(raw) if raw else "other"
            out.append(Finish(record.index, 0, unified, raw or status or "incomplete"))
            out.append(Terminal(record.index, "incomplete", f"{said} ({raw or 'no reason given'})"))
        else:  # response.failed
            err = resp.get("error")
            if isinstance(err, dict):
                state.provider_error(err, err, etype, record, out)
            out.append(Finish(record.index, 0, "error", "failed"))
            out.append(Terminal(record.index, "failed", said))
        state.started = False

    @staticmethod
    def _stated(
        etype: str, status: str | None, record: DataRecord, out: list[AdapterOutput]
    ) -> str:
        """The terminal event the response's own ``status`` stands for, when it names
        another one than ``etype`` (``stream.contradictory-terminal``): the payload wins."""
        stated = _WHOLE_STATUS.get("cancelled" if status == "canceled" else status or "")
        if stated is None or stated == etype.replace("canceled", "cancelled"):
            return etype
        verdict = stated.removeprefix("response.")
        out.append(
            diag(
                shared.STREAM_CONTRADICTORY_TERMINAL,
                record,
                form="status",
                event=etype,
                stated=status,
                status=verdict,
            )
        )
        return stated

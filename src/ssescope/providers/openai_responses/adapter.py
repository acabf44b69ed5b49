"""The Responses adapter: events in, dispatched by type (see the package docstring)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ...events import Finish, FinishReason, Terminal, Unknown
from ...framing.records import DataRecord, SSEEvent
from .._base import (
    INVALID,
    AdapterOutput,
    close_once,
    decode_json,
    diag,
    not_streamed,
    refuse_feed_after_close,
    str_or_none,
    whole_terminal,
)
from .items import _ResponsesItems
from .maps import map_finish_reason
from .state import _ARG_DELTAS, _ARG_DONES, _QUIET, _TERMINALS, _WHOLE_STATUS

_Handler = Callable[[dict[str, Any], DataRecord, list[AdapterOutput]], None]


class OpenAIResponsesAdapter(_ResponsesItems):
    """Adapter for OpenAI Responses API event streams (SSE, or JSONL dumps of events).

    The framing does not change the end markers: the protocol's terminal events are
    JSON events in every framing.
    """

    def __init__(self, framing: str) -> None:
        self._framing = framing
        self._handlers: dict[str, _Handler] = {
            "response.output_text.delta": self._text_delta,
            "response.refusal.delta": self._refusal_delta,
            "response.reasoning_summary_text.delta": partial(self._reasoning_delta, "summary"),
            "response.reasoning_text.delta": partial(self._reasoning_delta, "text"),
            "response.output_text.done": partial(self._part_done, "text", "text"),
            "response.refusal.done": partial(self._part_done, "refusal", "refusal"),
            "response.reasoning_summary_text.done": self._summary_done,
            "response.reasoning_text.done": partial(self._part_done, "reasoning", "text"),
            "response.content_part.done": self._content_part_done,
            "response.reasoning_summary_part.done": self._summary_part_done,
            "response.output_text.annotation.added": self._annotation,
            "response.output_item.added": self._item_added,
            "response.output_item.done": self._item_done,
            "response.audio.delta": partial(self._audio_delta, False),
            "response.audio.transcript.delta": partial(self._audio_delta, True),
            "response.created": self._created,
            "response.in_progress": self._in_progress,
            "error": self._error,
        }
        self._new_response()

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one record (one Responses event) to unified events and diagnostics."""
        if self._closed:
            refuse_feed_after_close()
        out: list[AdapterOutput] = []
        obj, bad = decode_json(record)
        if obj is INVALID:
            if record.data.strip() == "[DONE]":
                out.append(diag("openai-responses.done-marker", record))
                return out
            if bad is not None:
                out.append(bad)
            return out
        if not isinstance(obj, dict):
            out.append(diag("openai-responses.not-an-object", record, data=record.data))
            return out
        etype = obj.get("type")
        wire_name = record.event if isinstance(record, SSEEvent) else None
        if etype is None and obj.get("object") == "response":
            self._whole_response(obj, record, out)
            return out
        if not isinstance(etype, str):
            if wire_name and wire_name != "message":
                etype = wire_name
                out.append(
                    diag(
                        "openai-responses.missing-type",
                        record,
                        form="event-name",
                        wire_name=wire_name,
                    )
                )
            else:
                out.append(
                    diag("openai-responses.missing-type", record, form="skipped", etype=etype)
                )
                return out
        elif wire_name is not None and wire_name not in ("message", etype):
            out.append(
                diag(
                    "openai-responses.event-name-mismatch", record, wire_name=wire_name, etype=etype
                )
            )
        if etype == "response.created":
            self._new_response()
        seq = obj.get("sequence_number")
        if seq is not None:
            last = self._seq
            if type(seq) is int and last is not None and seq == last + 1:
                self._seq = seq
            else:
                self._check_seq(seq, record, out)
        handler = self._handlers.get(etype)
        if handler is not None:
            handler(obj, record, out)
        elif etype in _ARG_DELTAS:
            self._args_delta(etype, obj, record, out)
        elif etype in _ARG_DONES:
            self._args_done(etype, obj, record, out)
        elif etype in _TERMINALS:
            self._terminal(etype, obj, record, out)
        elif etype not in _QUIET:
            out.append(Unknown(record.index, etype, obj))
        return out

    def close(self) -> list[AdapterOutput]:
        """End of stream: nothing to add (a missing terminal event is the aggregator's
        ``truncated`` status, unended calls its ``tool.incomplete``)."""
        close_once(self)
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
        self._start(obj, record, out)
        output = obj.get("output")
        for position, item in enumerate(output if isinstance(output, list) else []):
            if isinstance(item, dict):
                owner = self._resolve(str_or_none(item.get("id")), position, record, out)
                self._final_item(item, position, owner, record, out)

    def _terminal(
        self, etype: str, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        resp = obj.get("response")
        if not isinstance(resp, dict):
            resp = {}
        self._start(resp, record, out)
        output = resp.get("output")
        if isinstance(output, list):
            if not output and self._built and etype == "response.completed":
                out.append(diag("openai-responses.empty-final-output", record, etype=etype))
            for position, item in enumerate(output):
                if isinstance(item, dict):
                    # An id met in the stream names its item; an unknown one (a gateway
                    # that re-issues ids) falls back on the position in the list.
                    item_id = str_or_none(item.get("id"))
                    owner = self._id_owner.get(item_id) if item_id is not None else None
                    if owner is None:
                        owner = self._resolve(item_id, position, record, out)
                    self._final_item(item, position, owner, record, out)
        usage = resp.get("usage")
        if isinstance(usage, dict):
            out.append(self._usage(usage, etype, record))
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
            reason: FinishReason = "tool_calls" if self._client_calls else "stop"
            out.append(Finish(record.index, 0, reason, status or "completed"))
            if self._refused:  # refusal text: incomplete on every provider
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
                self._provider_error(err, err, etype, record, out)
            out.append(Finish(record.index, 0, "error", "failed"))
            out.append(Terminal(record.index, "failed", said))
        self._started = False

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
                "stream.contradictory-terminal",
                record,
                form="status",
                event=etype,
                stated=status,
                status=verdict,
            )
        )
        return stated

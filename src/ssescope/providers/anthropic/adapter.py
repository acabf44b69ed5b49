"""The Anthropic adapter: events in, dispatched by type (see the package docstring)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import ClassVar, cast

from ...diagnostics import diagnostic, quote
from ...events import JSON, Unknown
from ...framing.records import DataRecord, SSEEvent
from .._base import (
    AdapterBase,
    AdapterOutput,
    Malformed,
    decode_json,
    diag,
    not_streamed,
    whole_terminal,
)
from . import codes
from .blocks import block_delta, block_start, block_stop
from .state import _Message

_Handler = Callable[[dict[str, JSON], DataRecord, list[AdapterOutput]], None]


class AnthropicAdapter(AdapterBase):
    """Anthropic Messages stream events → unified events."""

    name: ClassVar[str] = "anthropic"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        msg = self._msg = _Message()
        self._handlers: dict[str, _Handler] = {
            "message_start": msg.message_start,
            "content_block_start": partial(block_start, msg),
            "content_block_delta": partial(block_delta, msg),
            "content_block_stop": partial(block_stop, msg),
            "message_delta": msg.message_delta,
            "message_stop": msg.message_stop,
            "error": msg.error,
            "message": self._whole_message,
        }

    def _read(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map one record (an SSE event or a JSON line) to events and diagnostics."""
        name = record.event if isinstance(record, SSEEvent) else None
        if name == "message":  # no ``event:`` line: the JSON type alone decides
            name = None
        value, bad = decode_json(record)
        if bad is not None:
            out.append(bad)
            if name == "error":
                self._msg.fail(None, record.data, None, record, out)
            self._last_end = record.end
            return
        self._event(cast(JSON, value), record, name, out)

    def feed_object(
        self, obj: JSON, record: DataRecord, name: str | None = None
    ) -> list[AdapterOutput]:
        """Map one already decoded event (``name``: its SSE event name, if any).

        The Bedrock adapter calls this with the Anthropic events it unwraps from
        ``InvokeModelWithResponseStream`` chunks.
        """
        out: list[AdapterOutput] = []
        self._event(obj, record, name, out)
        return out

    def _event(
        self, obj: JSON, record: DataRecord, name: str | None, out: list[AdapterOutput]
    ) -> None:
        """Map one decoded event (see ``feed_object``)."""
        self._last_end = record.end
        if not isinstance(obj, dict):
            out.append(diag(codes.UNEXPECTED_JSON, record, obj=obj))
            if name == "error":
                self._msg.fail(None, str(obj), obj, record, out)
            return
        etype = obj.get("type")
        if not isinstance(etype, str):
            if name is None:
                out.append(diag(codes.MISSING_TYPE, record, etype=etype))
                out.append(Unknown(record.index, "(no type)", obj))
                return
            etype = name
        elif name is not None and name != etype:
            out.append(
                diag(
                    codes.EVENT_NAME_MISMATCH,
                    record,
                    form="error" if name == "error" else "type-used",
                    name=name,
                    etype=etype,
                )
            )
            if name == "error":
                etype = "error"
        try:
            if etype == "content_block_delta":
                # The commonest event: a direct call (native in the compiled core, where
                # a bound method from the table is a call through the interpreter).
                block_delta(self._msg, obj, record, out)
            else:
                handler = self._handlers.get(etype)
                if handler is None:
                    if etype != "ping":
                        out.append(Unknown(record.index, etype, obj))
                    return
                handler(obj, record, out)
        except Malformed as exc:
            out.append(diag(codes.MALFORMED_EVENT, record, etype=etype, error=str(exc)))

    def _unfinished(self) -> list[AdapterOutput]:
        """End of stream: report a message that never got its ``message_stop``."""
        msg = self._msg
        if msg.started and not msg.stopped:
            reason = (
                f"the last stop_reason was {quote(msg.stop_reason)}"
                if msg.stop_reason is not None
                else "no stop_reason had arrived"
            )
            return [diagnostic(codes.MISSING_MESSAGE_STOP, self._last_end, reason=reason)]
        return []

    def _whole_message(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A whole Messages response (not streamed), read as the events that stream it:
        message_start, each content block started whole and stopped, the stop reason,
        message_stop."""
        out.append(not_streamed("Messages 'message' object", record))
        msg = self._msg
        head = {k: v for k, v in obj.items() if k not in ("content", "stop_reason")}
        msg.message_start({"message": {**head, "content": []}}, record, out)
        content = obj.get("content")
        if not isinstance(content, list):
            raise Malformed(f'its "content" is not a list ({quote(content)})')
        for n, block in enumerate(content):
            try:
                block_start(msg, {"index": n, "content_block": block}, record, out)
            except Malformed as exc:
                out.append(
                    diag(
                        codes.MALFORMED_EVENT,
                        record,
                        etype="message",
                        error=f"content[{n}] is malformed: {exc}",
                    )
                )
                continue
            block_stop(msg, {"index": n}, record, out)
        msg.message_delta({"delta": {"stop_reason": obj.get("stop_reason")}}, record, out)
        msg.message_stop({}, record, out)
        whole_terminal(out, "Messages message")

"""The BedrockAdapter (see the package docstring)."""

from __future__ import annotations

import base64
import binascii
from typing import ClassVar, cast

import orjson

from ...diagnostics import diagnostic, quote
from ...events import (
    JSON,
    Citation,
    Finish,
    ReasoningDelta,
    ReasoningMeta,
    ServerToolResult,
    Status,
    TextDelta,
    Unknown,
)
from ...framing.records import DataRecord, JSONRecord, SSEEvent
from ...limits import MAX_DEPTH, decoded_may_be_too_deep, too_deep
from .._base import (
    AdapterBase,
    AdapterOutput,
    Malformed,
    decode_json,
    diag,
    nonempty_str,
    object_field,
    provider_error,
    usage_event,
)
from .._tools import ToolCallTracker
from ..anthropic.adapter import AnthropicAdapter
from . import codes
from .knowledge import EVENT_KEYS
from .maps import _INCOMPLETE, _USAGE_KEYS, map_finish_reason

__all__ = ["BedrockAdapter"]


_INVOCATION_KEYS = (
    ("inputTokenCount", "input_tokens"),
    ("outputTokenCount", "output_tokens"),
    ("cacheReadInputTokenCount", "cached_input_tokens"),
)


_EVENT_TYPES = EVENT_KEYS | {"chunk"}


def _is_exception(name: str) -> bool:
    return name.endswith("Exception")


class _Result:
    """The result block of a provider-run tool, collected until it ends.

    Its start (``start.toolResult``: ``toolUseId``, ``type``, ``status``) and the items of
    its ``toolResult`` deltas (``{"text": ...}`` or ``{"json": ...}``) make the content of
    one :class:`ServerToolResult`: the start's other fields, plus ``content``.
    """

    __slots__ = ("content", "items", "record", "result_type", "tool_use_id")

    def __init__(self, start: dict[str, JSON], record: int) -> None:
        tid = start.get("toolUseId")
        rtype = start.get("type")
        self.tool_use_id = tid if isinstance(tid, str) else None
        self.result_type = rtype if isinstance(rtype, str) and rtype else "toolResult"
        self.record = record
        self.items: list[JSON] = []
        self.content: dict[str, JSON] = {
            k: v for k, v in start.items() if k not in ("toolUseId", "type")
        }
        self.content["content"] = self.items

    def add(self, value: JSON) -> None:
        """Add the items of one ``toolResult`` delta."""
        if isinstance(value, list):
            self.items.extend(value)
        else:
            self.items.append(value)


class BedrockAdapter(AdapterBase):
    """Bedrock ConverseStream messages (binary or decoded) → unified events."""

    name: ClassVar[str] = "bedrock"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        # the open tool blocks, by block index (provider-run ones of kind "server")
        self._tools: ToolCallTracker[int | None] = ToolCallTracker()
        self._results: dict[int | None, _Result] = {}  # open result blocks of those tools
        self._inner: AnthropicAdapter | None = None

    def _read(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map one event-stream message (or one decoded message line) to events."""
        self._last_end = record.end
        if isinstance(record, JSONRecord) and record.event is not None:
            # Binary wire form: "<message-type>:<event or exception type>".
            mtype, _, etype = record.event.partition(":")
            payload: JSON = {}
            if record.data.strip():  # an empty payload is allowed (``{}``)
                value, bad = decode_json(record)
                if bad is not None:
                    out.append(bad)
                    if mtype != "event":
                        self._fail(etype or mtype, record.data, None, None, record, out)
                    return
                payload = cast(JSON, value)
            if mtype == "event":
                self._event(etype, payload, record, out)
            elif mtype in {"exception", "error"}:
                self._exception(etype or mtype, payload, record, out)
            else:
                out.append(Unknown(record.index, record.event, payload))
            return
        value, bad = decode_json(record)
        if bad is not None:
            out.append(bad)
            return
        obj = cast(JSON, value)
        if isinstance(record, SSEEvent) and record.event != "message":
            # An SSE re-wrapping that names the type in ``event:``; the payload may or may
            # not still be wrapped in an object keyed by that type.
            name = record.event
            if isinstance(obj, dict) and len(obj) == 1 and name in obj:
                obj = obj[name]
            if _is_exception(name):
                self._exception(name, obj, record, out)
            else:
                self._event(name, obj, record, out)
            return
        if not isinstance(obj, dict) or not obj:
            out.append(diag(codes.UNEXPECTED_JSON, record, obj=obj))
            return
        for key, payload in obj.items():
            if key == "p":
                continue
            if _is_exception(key):
                self._exception(key, payload, record, out)
            else:
                self._event(key, payload, record, out)

    def _unfinished(self) -> list[AdapterOutput]:
        """End of stream: report a message that never got its ``messageStop``."""
        out: list[AdapterOutput] = []
        if self._inner is not None:
            out.extend(self._inner.close())
        for idx in list(self._results):  # (a result cut before its block ended: kept)
            self._result_end(idx, None, out)
        if self._started and not self._ended:
            out.append(diagnostic(codes.MISSING_MESSAGE_STOP, self._last_end))
        return out

    def _result_end(
        self, idx: int | None, record: DataRecord | None, out: list[AdapterOutput]
    ) -> None:
        """A provider-run tool's result block ended (or the body did): its result, whole."""
        res = self._results.pop(idx)
        at = record.index if record is not None else res.record
        out.append(ServerToolResult(at, 0, res.tool_use_id, res.result_type, res.content))

    def _fail(
        self,
        error_type: str,
        message: str,
        code: str | None,
        raw: JSON,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        provider_error(
            record,
            out,
            message,
            error_type,
            code,
            raw,
            form=codes.ERROR,
            error_type=error_type,
            message=message,
        )
        self._response_end(record, out, "failed", error_type)

    def _exception(
        self, etype: str, payload: JSON, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        message: str | None = None
        code: str | None = None
        if isinstance(payload, dict):
            for k in ("message", "Message", "originalMessage"):
                v = payload.get(k)
                if isinstance(v, str):
                    message = v
                    break
            status = payload.get("originalStatusCode")
            if isinstance(status, (int, str)) and not isinstance(status, bool):
                code = str(status)
        elif isinstance(payload, str):
            message = payload
        if message is None:
            message = orjson.dumps(payload).decode()
        self._fail(etype, message, code, payload, record, out)

    def _usage(
        self,
        usage: JSON,
        keys: tuple[tuple[str, str], ...],
        source: str,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        usage_event(usage, keys, source, codes.INVALID_USAGE, record, out)

    @staticmethod
    def _index(payload: dict[str, JSON]) -> int | None:
        idx = payload.get("contentBlockIndex")
        return idx if type(idx) is int else None

    def _event(
        self, etype: str, payload: JSON, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if etype not in _EVENT_TYPES:
            out.append(Unknown(record.index, etype, payload))
            return
        if not isinstance(payload, dict):
            out.append(
                diag(
                    codes.MALFORMED_EVENT,
                    record,
                    form="not-an-object",
                    etype=etype,
                    payload=payload,
                )
            )
            return
        try:
            if etype == "contentBlockDelta":
                self._delta(payload, record, out)
            elif etype == "messageStart":
                self._message_start(record, out)
            elif etype == "contentBlockStart":
                self._block_start(payload, record, out)
            elif etype == "contentBlockStop":
                idx = self._index(payload)
                call = self._tools.pop(idx)
                if call is not None:
                    self._tools.end(call, record.index, out)
                elif idx in self._results:
                    self._result_end(idx, record, out)
            elif etype == "messageStop":
                self._message_stop(payload, record, out)
            elif etype == "metadata":
                self._usage(payload.get("usage"), _USAGE_KEYS, "metadata", record, out)
            else:  # chunk
                self._chunk(payload, record, out)
        except Malformed as exc:
            out.append(
                diag(codes.MALFORMED_EVENT, record, form="invalid", etype=etype, error=str(exc))
            )

    def _message_start(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        if self._started and not self._ended:
            out.append(diag(codes.DUPLICATE_MESSAGE_START, record))
            return
        self._tools.clear()
        self._results = {}
        self._response_start(record, out)

    def _block_start(
        self, payload: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        idx = self._index(payload)
        start = object_field(payload, "start")
        tool = start.get("toolUse")
        if isinstance(tool, dict):
            tid = tool.get("toolUseId")
            name = tool.get("name")
            tid = tid if isinstance(tid, str) else None
            # A provider-run tool (Nova's code interpreter, web grounding) says so in its
            # ``type``; it is tagged as Anthropic's server_tool_use is.
            kind = "server" if tool.get("type") == "server_tool_use" else "function"
            name = name if isinstance(name, str) else None
            self._tools.start(idx, record.index, out, 0, idx, tid, name, kind)
            return
        result = start.get("toolResult")
        if isinstance(result, dict):
            # The result of a provider-run tool: its deltas are collected, and the whole
            # result is given when the block ends.
            self._results[idx] = _Result(result, record.index)
            return
        out.extend(Unknown(record.index, f"contentBlockStart:{key}", payload) for key in start)

    def _delta(
        self, payload: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        idx = self._index(payload)
        delta = payload.get("delta")
        if not isinstance(delta, dict):
            raise Malformed(f'its "delta" is not an object ({quote(delta)})')
        n = record.index
        for key, value in delta.items():
            if key == "text":
                if not isinstance(value, str):
                    raise Malformed(f"its text is not a string ({quote(value)})")
                if value:
                    out.append(TextDelta(n, 0, value, idx))
            elif key == "toolUse":
                frag = value.get("input") if isinstance(value, dict) else None
                if not isinstance(frag, str):
                    raise Malformed(f"its toolUse.input is not a string ({quote(value)})")
                if frag:
                    self._tools.delta(self._tools.get(idx), n, frag, out, idx)
            elif key == "reasoningContent":
                if not isinstance(value, dict):
                    raise Malformed(f"its reasoningContent is not an object ({quote(value)})")
                if text := nonempty_str(value.get("text")):
                    out.append(ReasoningDelta(n, 0, text, idx))
                sig = value.get("signature")
                if isinstance(sig, str):
                    out.append(ReasoningMeta(n, 0, idx, signature=sig))
                red = value.get("redactedContent")
                if isinstance(red, str):
                    out.append(ReasoningMeta(n, 0, idx, redacted=red))
            elif key == "citation":
                out.append(Citation(n, 0, value, idx))
            elif key == "toolResult" and idx in self._results:
                self._results[idx].add(value)
            elif key != "p":
                out.append(Unknown(n, f"contentBlockDelta:{key}", payload))

    def _message_stop(
        self, payload: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        raw = payload.get("stopReason")
        status: Status = "completed"
        if isinstance(raw, str):
            out.append(Finish(record.index, 0, map_finish_reason(raw), raw))
            if raw in _INCOMPLETE:
                status = "incomplete"
        else:
            out.append(diag(codes.STOP_WITHOUT_REASON, record, raw_text=raw))
        said = f"messageStop ({raw if isinstance(raw, str) else 'no stopReason'})"
        self._response_end(record, out, status, said)

    def _chunk(
        self, payload: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        blob = payload.get("bytes")
        if not isinstance(blob, str):
            raise Malformed(f'its "bytes" is not a base64 string ({quote(blob)})')
        try:
            text = base64.b64decode(blob, validate=True).decode()
            inner = orjson.loads(text)
            if decoded_may_be_too_deep(text) and too_deep(inner):
                raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
        except (binascii.Error, ValueError) as exc:
            out.append(diag(codes.INVALID_CHUNK, record, error=str(exc), blob=blob))
            return
        if not isinstance(inner, dict) or not isinstance(inner.get("type"), str):
            out.append(Unknown(record.index, "chunk", inner))
            return
        if self._inner is None:
            self._inner = AnthropicAdapter(self.framing)
        out.extend(self._inner.feed_object(inner, record))
        metrics = inner.get("amazon-bedrock-invocationMetrics")
        if metrics is not None:
            self._usage(metrics, _INVOCATION_KEYS, "amazon-bedrock-invocationMetrics", record, out)

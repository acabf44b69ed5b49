"""Anthropic Messages streaming (``POST /v1/messages`` with ``stream: true``).

Wire shape (PROVIDER_FORMATS §3): SSE whose ``event:`` names repeat the JSON ``type``;
no ``[DONE]``. A message is ``message_start``, then content blocks keyed by ``index``
(``content_block_start`` / ``content_block_delta``… / ``content_block_stop``), then
``message_delta`` (stop reason, cumulative usage) and ``message_stop``. ``ping`` is a
keep-alive; ``error`` reports a failure mid-stream (the connection then closes).

Mapping to unified events:

* ``message_start`` → :class:`ResponseStart` + :class:`Usage`. The output is always 0.
* Content blocks: ``part`` = block index, and the tool-call ``index`` = block index.
  ``text`` / ``text_delta`` → text; ``thinking`` / ``thinking_delta`` → reasoning;
  ``signature_delta`` → :class:`ReasoningMeta` (the signature replaces, never appends);
  ``redacted_thinking`` → :class:`ReasoningMeta` ``redacted``; ``tool_use``,
  ``server_tool_use`` and ``mcp_tool_use`` → :class:`ToolCallDelta` (id and name at the
  start, ``input_json_delta`` fragments as arguments) and :class:`ToolCallEnd` at
  ``content_block_stop``; result blocks (``web_search_tool_result``… delivered whole at
  their start) → :class:`ServerToolResult`; ``citations_delta`` → :class:`Citation`.
  A tool block that starts with a non-empty ``input`` object and gets no argument
  fragment has that object (compact JSON) as its arguments, given with its end.
* ``message_delta`` → :class:`Finish` (when it names a stop reason) + :class:`Usage`
  (cumulative: the aggregator keeps the latest value per field). ``stop_details`` is
  metadata about a refusal, not refusal text.
* ``message_stop`` → :class:`Terminal`: ``completed`` after a natural stop,
  ``incomplete`` after ``max_tokens`` / ``model_context_window_exceeded`` / ``refusal``.
* ``error`` → :class:`ProviderError` + ``provider.error`` + :class:`Terminal` ``failed``.

The JSON ``type`` decides what a record is; an SSE ``event:`` name that differs from it
is reported (``anthropic.event-name-mismatch``), except that ``event: error`` is always
an error. The same adapter reads JSONL dumps (framing ``ndjson``: one event per line),
and the Bedrock adapter hands it the events it unwraps from ``InvokeModelWithResponseStream``.

Ordering anomalies: a repeated identical ``message_start`` is reported and ignored; a
``message_start`` with a *new* id before ``message_stop`` is a spliced generation
(``anthropic.spliced-message``): its blocks are appended to the same response in
arrival order, under part / tool indexes shifted past those already used, so that its
block 0 never lands in the first message's block 0 or tool call.
"""

from __future__ import annotations

from typing import ClassVar, cast

from ..diagnostics import diagnostic, quote
from ..errors import UsageError
from ..events import (
    JSON,
    Citation,
    Finish,
    FinishReason,
    ReasoningDelta,
    ReasoningMeta,
    ResponseStart,
    ServerToolResult,
    Status,
    Terminal,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    Unknown,
)
from ..framing.records import DataRecord, SSEEvent
from ..incremental import CLOSE_TWICE
from ._base import (
    AdapterOutput,
    compact_json,
    decode_json,
    diag,
    not_streamed,
    provider_error,
    refuse_feed,
    usage_event,
    whole_terminal,
)

__all__ = ["FINISH_REASONS", "AnthropicAdapter", "map_finish_reason"]

FINISH_REASONS: dict[str, FinishReason] = {  # the wire's reason -> the unified one
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "refusal": "refusal",
}

_INCOMPLETE = frozenset({"max_tokens", "model_context_window_exceeded", "refusal"})

_TOOL_KINDS = {"tool_use": "function", "server_tool_use": "server", "mcp_tool_use": "mcp"}

# Which block types each delta type belongs to (None: any, the block was never started).
_DELTA_BLOCKS: dict[str, tuple[str, ...]] = {
    "text_delta": ("text",),
    "citations_delta": ("text",),
    "thinking_delta": ("thinking",),
    "signature_delta": ("thinking",),
    "input_json_delta": ("tool_use", "server_tool_use", "mcp_tool_use"),
}

_USAGE_KEYS = (
    ("input_tokens", "input_tokens"),
    ("output_tokens", "output_tokens"),
    ("cache_read_input_tokens", "cached_input_tokens"),
)


def map_finish_reason(raw: str) -> FinishReason:
    """Map an Anthropic ``stop_reason`` to the unified finish reason (unknown → ``other``)."""
    return FINISH_REASONS.get(raw, "other")


class _Block:
    """What the adapter remembers about one content block."""

    __slots__ = (
        "block_type",
        "checked",
        "fragments",
        "id",
        "kind",
        "mismatch",
        "pending",
        "stopped",
    )

    def __init__(self, block_type: str | None, kind: str | None = None) -> None:
        self.block_type = block_type
        self.kind = kind  # tool kind for tool blocks, else None
        self.id: str | None = None
        self.pending: str | None = None  # a non-empty start ``input``, compact JSON
        self.fragments = False  # a non-empty ``partial_json`` arrived
        self.stopped = False
        self.mismatch = False  # a delta of the wrong type was already reported
        self.checked: JSON = None  # the last delta type found to fit this block


class _Malformed(Exception):
    """A field of an event has an impossible type; reported, the event is skipped."""


class AnthropicAdapter:
    """Anthropic Messages stream events → unified events."""

    _closed = False  # the Incremental contract: closed once, never fed after

    name: ClassVar[str] = "anthropic"

    def __init__(self, framing: str) -> None:
        self._framing = framing
        self._blocks: dict[int | None, _Block] = {}
        self._started = False  # a message_start opened the current response
        self._stopped = False  # message_stop (or error) ended it
        self._message_id: str | None = None
        self._message: JSON = None
        self._base = 0  # shift of block indexes for a spliced message
        self._next_key = 0  # one past the highest part / tool index used in the response
        self._stop_reason: str | None = None
        self._warned_no_start = False
        self._last_end: int | None = None
        self._handlers = {
            "message_start": self._message_start,
            "content_block_start": self._block_start,
            "content_block_delta": self._block_delta,
            "content_block_stop": self._block_stop,
            "message_delta": self._message_delta,
            "message_stop": self._message_stop,
            "error": self._error,
            "message": self._whole_message,
        }

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one record (an SSE event or a JSON line) to events and diagnostics."""
        name = record.event if isinstance(record, SSEEvent) else None
        if name == "message":  # no ``event:`` line: the JSON type alone decides
            name = None
        value, bad = decode_json(record)
        if bad is not None:
            out: list[AdapterOutput] = [bad]
            if name == "error":
                self._fail(None, record.data, None, record, out)
            self._last_end = record.end
            return out
        return self.feed_object(cast(JSON, value), record, name)

    def feed_object(
        self, obj: JSON, record: DataRecord, name: str | None = None
    ) -> list[AdapterOutput]:
        """Map one already decoded event (``name``: its SSE event name, if any).

        The Bedrock adapter calls this with the Anthropic events it unwraps from
        ``InvokeModelWithResponseStream`` chunks.
        """
        out: list[AdapterOutput] = []
        self._last_end = record.end
        if not isinstance(obj, dict):
            out.append(diag("anthropic.unexpected-json", record, obj=obj))
            if name == "error":
                self._fail(None, str(obj), obj, record, out)
            return out
        etype = obj.get("type")
        if not isinstance(etype, str):
            if name is None:
                out.append(diag("anthropic.missing-type", record, etype=etype))
                out.append(Unknown(record.index, "(no type)", obj))
                return out
            etype = name
        elif name is not None and name != etype:
            out.append(
                diag(
                    "anthropic.event-name-mismatch",
                    record,
                    form="error" if name == "error" else "type-used",
                    name=name,
                    etype=etype,
                )
            )
            if name == "error":
                etype = "error"
        handler = self._handlers.get(etype)
        if handler is None:
            if etype != "ping":
                out.append(Unknown(record.index, etype, obj))
            return out
        try:
            handler(obj, record, out)
        except _Malformed as exc:
            out.append(diag("anthropic.malformed-event", record, etype=etype, error=str(exc)))
        return out

    def close(self) -> list[AdapterOutput]:
        """End of stream: report a message that never got its ``message_stop``."""
        if self._closed:
            raise UsageError(CLOSE_TWICE)
        self._closed = True
        refuse_feed(self)
        if self._started and not self._stopped:
            reason = (
                f"the last stop_reason was {quote(self._stop_reason)}"
                if self._stop_reason is not None
                else "no stop_reason had arrived"
            )
            return [diagnostic("anthropic.missing-message-stop", self._last_end, reason=reason)]
        return []

    # -- helpers ------------------------------------------------------------------

    def _key(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> int | None:
        """The part / tool index of a block event: its ``index`` shifted by a splice."""
        idx = obj.get("index")
        if type(idx) is int:
            key = idx + self._base
            if key >= self._next_key:
                self._next_key = key + 1
            return key
        out.append(diag("anthropic.missing-index", record, type=obj.get("type"), idx=idx))
        return None

    def _check_started(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        if not self._warned_no_start:
            self._warned_no_start = True
            out.append(diag("anthropic.missing-message-start", record))

    def _usage(
        self, usage: JSON, source: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        usage_event(usage, _USAGE_KEYS, source, "anthropic.invalid-usage", record, out)

    def _fail(
        self,
        error_type: str | None,
        message: str,
        raw: JSON,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        what = f"{error_type}: " if error_type else ""
        provider_error(
            record,
            out,
            message,
            error_type,
            None,
            raw,
            form="anthropic",
            what=what,
            message=message,
        )
        out.append(Terminal(record.index, "failed", f"error ({error_type or 'unknown'})"))
        self._stopped = True

    # -- event handlers -----------------------------------------------------------

    def _message_start(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        msg = obj.get("message")
        if not isinstance(msg, dict):
            raise _Malformed(f'its "message" is not an object ({quote(msg)})')
        mid = msg.get("id")
        if not isinstance(mid, str):
            mid = None
        if self._started and not self._stopped:
            if mid == self._message_id and (mid is not None or msg == self._message):
                same = "an identical" if msg == self._message else "a repeated"
                out.append(diag("anthropic.duplicate-message-start", record, same=same, mid=mid))
                return
            out.append(
                diag("anthropic.spliced-message", record, mid=mid, message_id=self._message_id)
            )
            self._base = self._next_key
            self._blocks = {}
            self._message_id = mid
            self._message = msg
            self._usage(msg.get("usage"), "message_start", record, out)
            return
        # A new response: the first message, or one after message_stop / error.
        self._started = True
        self._stopped = False
        self._blocks = {}
        self._base = 0
        self._next_key = 0
        self._stop_reason = None
        self._message_id = mid
        self._message = msg
        model = msg.get("model")
        out.append(ResponseStart(record.index, mid, model if isinstance(model, str) else None))
        self._usage(msg.get("usage"), "message_start", record, out)

    def _block_start(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        block = obj.get("content_block")
        if not isinstance(block, dict):
            raise _Malformed(f'its "content_block" is not an object ({quote(block)})')
        if not self._started:
            self._check_started(record, out)
        key = self._key(obj, record, out)
        btype = block.get("type")
        if not isinstance(btype, str):
            raise _Malformed(f"its content block has no string type ({quote(btype)})")
        old = self._blocks.get(key)
        if old is not None and key is not None:
            out.append(
                diag(
                    "anthropic.block-restarted",
                    record,
                    index=obj.get("index"),
                    block_type=old.block_type,
                )
            )
        kind = _TOOL_KINDS.get(btype)
        state = _Block(btype, kind)
        self._blocks[key] = state
        n = record.index
        if btype == "text":
            text = block.get("text")
            if isinstance(text, str) and text:
                out.append(TextDelta(n, 0, text, key))
            citations = block.get("citations")
            if isinstance(citations, list):
                out.extend(Citation(n, 0, c, key) for c in citations)
        elif btype == "thinking":
            text = block.get("thinking")
            if isinstance(text, str) and text:
                out.append(ReasoningDelta(n, 0, text, key))
            sig = block.get("signature")
            if isinstance(sig, str) and sig:
                out.append(ReasoningMeta(n, 0, key, signature=sig))
        elif btype == "redacted_thinking":
            data = block.get("data")
            out.append(
                ReasoningMeta(
                    n, 0, key, redacted=data if isinstance(data, str) else compact_json(data)
                )
            )
        elif kind is not None:
            tid = block.get("id")
            name = block.get("name")
            state.id = tid if isinstance(tid, str) else None
            inp = block.get("input")
            if inp:  # a non-empty input object (or any other non-empty value) at the start
                state.pending = compact_json(inp)
            out.append(
                ToolCallDelta(
                    n,
                    0,
                    key,
                    state.id,
                    name if isinstance(name, str) else None,
                    None,
                    None,
                    kind,
                )
            )
        elif btype.endswith("_tool_result") or btype == "container_upload":
            tool_use_id = block.get("tool_use_id")
            content = block.get("content") if "content" in block else block
            out.append(
                ServerToolResult(
                    n, 0, tool_use_id if isinstance(tool_use_id, str) else None, btype, content
                )
            )
        else:
            out.append(Unknown(n, f"content_block_start:{btype}", obj))

    def _block_delta(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if not isinstance(delta, dict):
            raise _Malformed(f'its "delta" is not an object ({quote(delta)})')
        if not self._started:
            self._check_started(record, out)
        idx = obj.get("index")
        if type(idx) is int:  # inline _key: this is the hot path
            k = idx + self._base
            if k >= self._next_key:
                self._next_key = k + 1
            key: int | None = k
        else:
            key = self._key(obj, record, out)
        dtype = delta.get("type")
        block = self._blocks.get(key)
        if block is None:
            block = self._blocks[key] = _Block(None)
            if key is not None:
                out.append(diag("anthropic.delta-without-start", record, index=obj.get("index")))
        elif dtype != block.checked and block.block_type is not None and not block.mismatch:
            allowed = _DELTA_BLOCKS.get(dtype) if isinstance(dtype, str) else None
            if allowed is None or block.block_type in allowed:
                block.checked = dtype
            else:
                block.mismatch = True
                out.append(
                    diag(
                        "anthropic.delta-type-mismatch",
                        record,
                        dtype=dtype,
                        index=obj.get("index"),
                        block_type=block.block_type,
                    )
                )
        n = record.index
        if dtype == "text_delta":
            text = delta.get("text")
            if not isinstance(text, str):
                raise _Malformed(f'its text_delta has no string "text" ({quote(text)})')
            out.append(TextDelta(n, 0, text, key))
        elif dtype == "input_json_delta":
            frag = delta.get("partial_json")
            if not isinstance(frag, str):
                raise _Malformed(
                    f'its input_json_delta has no string "partial_json" ({quote(frag)})'
                )
            if key is None:
                out.append(diag("tool.missing-index", record, form="block"))
            if frag:  # the first fragment is often "": it adds nothing
                block.fragments = True
                out.append(
                    ToolCallDelta(n, 0, key, None, None, frag, None, block.kind or "function")
                )
        elif dtype == "thinking_delta":
            text = delta.get("thinking")
            if not isinstance(text, str):
                raise _Malformed(f'its thinking_delta has no string "thinking" ({quote(text)})')
            out.append(ReasoningDelta(n, 0, text, key))
        elif dtype == "signature_delta":
            sig = delta.get("signature")
            if not isinstance(sig, str):
                raise _Malformed(f'its signature_delta has no string "signature" ({quote(sig)})')
            out.append(ReasoningMeta(n, 0, key, signature=sig))
        elif dtype == "citations_delta":
            out.append(Citation(n, 0, delta.get("citation"), key))
        else:
            out.append(Unknown(n, f"content_block_delta:{dtype}", obj))

    def _block_stop(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if not self._started:
            self._check_started(record, out)
        key = self._key(obj, record, out)
        block = self._blocks.get(key)
        if block is None:
            if key is not None:
                out.append(diag("anthropic.stop-without-start", record, index=obj.get("index")))
            return
        if block.stopped:
            out.append(diag("anthropic.block-stopped-twice", record, index=obj.get("index")))
            return
        block.stopped = True
        if block.kind is not None:
            args = block.pending if not block.fragments else None
            out.append(ToolCallEnd(record.index, 0, key, block.id, args))

    def _message_delta(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if delta is not None and not isinstance(delta, dict):
            raise _Malformed(f'its "delta" is not an object ({quote(delta)})')
        if not self._started:
            self._check_started(record, out)
        if delta:
            reason = delta.get("stop_reason")
            if isinstance(reason, str):
                self._stop_reason = reason
                out.append(Finish(record.index, 0, map_finish_reason(reason), reason))
            elif reason is not None:
                out.append(diag("anthropic.invalid-stop-reason", record, reason=reason))
        self._usage(obj.get("usage"), "message_delta", record, out)

    def _message_stop(
        self, _obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if not self._started:
            self._check_started(record, out)
        reason = self._stop_reason
        status: Status = "completed"
        if reason is None:
            out.append(diag("anthropic.stop-without-reason", record))
        elif reason in _INCOMPLETE:
            status = "incomplete"
        out.append(Terminal(record.index, status, f"message_stop ({reason or 'no stop_reason'})"))
        self._stopped = True

    def _whole_message(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A whole Messages response (not streamed), read as the events that stream it:
        message_start, each content block started whole and stopped, the stop reason,
        message_stop."""
        out.append(not_streamed("Messages 'message' object", record))
        head = {k: v for k, v in obj.items() if k not in ("content", "stop_reason")}
        self._message_start({"message": {**head, "content": []}}, record, out)
        content = obj.get("content")
        if not isinstance(content, list):
            raise _Malformed(f'its "content" is not a list ({quote(content)})')
        for n, block in enumerate(content):
            try:
                self._block_start({"index": n, "content_block": block}, record, out)
            except _Malformed as exc:
                out.append(
                    diag(
                        "anthropic.malformed-event",
                        record,
                        etype="message",
                        error=f"content[{n}] is malformed: {exc}",
                    )
                )
                continue
            self._block_stop({"index": n}, record, out)
        self._message_delta({"delta": {"stop_reason": obj.get("stop_reason")}}, record, out)
        self._message_stop({}, record, out)
        whole_terminal(out, "Messages message")

    def _error(self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        err = obj.get("error")
        if isinstance(err, dict):
            etype = err.get("type")
            msg = err.get("message")
            self._fail(
                etype if isinstance(etype, str) else None,
                msg if isinstance(msg, str) else compact_json(err),
                obj,
                record,
                out,
            )
        else:
            self._fail(
                None,
                compact_json(err) if err is not None else "(no error object)",
                obj,
                record,
                out,
            )

"""OpenAI Responses API streams, and the third-party servers that speak the protocol
(LM Studio, xAI, vLLM, OpenResponses).

Theory of operation
===================

Every record is one JSON event whose ``type`` is authoritative: the SSE ``event:`` line
is optional (captures and proxies often keep only ``data:``); when present and different
from ``type`` it is reported (``openai-responses.event-name-mismatch``) and ``type`` wins.

The protocol has one reply per response, so every piece goes to output ``0``. Content
is keyed per part, never by "the last open item" (out-of-order parts must not swap):

* message text and refusal: ``(item, content_index)``;
* raw reasoning text (``reasoning_text`` parts): ``(item, content_index)``;
* reasoning summary: ``(item, "summary", summary_index)``.

The summary key carries a ``"summary"`` marker so that summary part 0 and reasoning-text
part 0 of one reasoning item can never be merged.

Positions are the protocol's identity and item ids are labels: ``item`` is the item's
``output_index`` (an id met first without a position keeps its own key, for servers
that send none). Some gateways re-issue the item id on every event; the events still
meet at their position, the restatements are compared instead of appended, and the id
change is reported once per item (``openai-responses.item-id-changed``). The terminal
``response.output`` names its items by the ids already met, and by their place in the
list when an id is new.

Tool calls are identified by ``output_index`` (the ``index`` of the unified events) and
named at ``response.output_item.added`` with the item's ``call_id`` (its ``id`` when a
server sends no ``call_id``). Function calls are ``kind="function"``, custom (freeform)
tool calls ``kind="custom"`` with ``format="text"``, MCP calls ``kind="mcp"``. Built-in
tools executed by the provider (web search, file search, code interpreter, image
generation, MCP calls and tool listing) have status events that are known and emit
nothing; their finished items become :class:`ServerToolResult` events. Shell,
apply-patch and computer-use items are known too but are not client function calls.

Snapshots are never appended. ``*.done`` events, ``content_part.done``,
``reasoning_summary_part.done``, ``output_item.done`` and the terminal ``response``
object restate complete values; the first snapshot of each part is emitted as a
:class:`Snapshot` (the aggregator compares it with the deltas) and later restatements of
the same part are not repeated. A value that arrives only in a snapshot (LM Studio sends
function arguments only in ``function_call_arguments.done``) is therefore still taken.
A terminal ``response.output`` that is empty while deltas built content (a proxy quirk)
is reported as ``openai-responses.empty-final-output`` and the deltas are kept.

End markers: ``response.completed`` (status ``completed``; ``cancelled`` when the
response's status says so), ``response.incomplete`` (``incomplete``, finish reason from
``incomplete_details.reason``) and ``response.failed`` (``failed``). The protocol has no
``[DONE]``; a ``data: [DONE]`` added by a proxy is noted and ignored. Gateways that
relay background responses may send ``response.cancelled`` (or ``response.canceled``):
it ends the response as ``cancelled``. A top-level ``error`` event (fields at top
level, or nested under ``error``) is a :class:`ProviderError`. ``sequence_number``, when present, must grow by one per event
within a response (it restarts at every ``response.created``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import orjson

from ..errors import UsageError
from ..events import (
    JSON,
    Audio,
    Citation,
    Finish,
    FinishReason,
    ReasoningDelta,
    ReasoningMeta,
    RefusalDelta,
    ResponseStart,
    ServerToolResult,
    Snapshot,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallEnd,
    Unknown,
    Usage,
)
from ..framing.records import DataRecord, SSEEvent
from ..incremental import CLOSE_TWICE
from ._base import (
    INVALID,
    AdapterOutput,
    decode_json,
    diag,
    int_or_none,
    not_streamed,
    provider_error,
    refuse_feed,
    token_count,
    whole_terminal,
)

__all__ = ["FINISH_REASONS", "OpenAIResponsesAdapter", "map_finish_reason"]

_TOOL_STATES = ("in_progress", "searching", "interpreting", "generating", "completed", "failed")
_BUILTIN_TOOLS = (
    "web_search_call",
    "file_search_call",
    "code_interpreter_call",
    "image_generation_call",
    "mcp_call",
    "mcp_list_tools",
)

# Events that are part of the protocol but carry nothing the reply is made of (status
# updates of provider-executed tools, part openings, audio ends...).
_QUIET: frozenset[str] = frozenset(
    [f"response.{tool}.{state}" for tool in _BUILTIN_TOOLS for state in _TOOL_STATES]
    + [
        "response.queued",
        "response.content_part.added",
        "response.reasoning_summary_part.added",
        "response.audio.done",
        "response.audio.transcript.done",
        "response.code_interpreter_call_code.delta",
        "response.code_interpreter_call_code.done",
        "response.image_generation_call.partial_image",
        "response.shell_call_command.added",
        "response.shell_call_command.delta",
        "response.shell_call_command.done",
        "response.shell_call_output_content.delta",
        "response.shell_call_output_content.done",
        "response.apply_patch_call_operation_diff.delta",
        "response.apply_patch_call_operation_diff.done",
        "response.compaction.compacting",
    ]
)

# Item types of tools the provider executes: their finished item is a ServerToolResult.
# (shell, apply-patch and computer-use items are requests for the client; they are known
# but are not client function calls either.)
_PROVIDER_EXECUTED = frozenset(_BUILTIN_TOOLS)

# Item types announced as tool calls: (kind, format, call_type). Only function and custom
# calls are client calls (they make the finish reason ``tool_calls``).
_CALL_ITEMS: dict[str, tuple[str, str, str]] = {
    "function_call": ("function", "json", "function"),
    "custom_tool_call": ("custom", "text", "custom"),
    "mcp_call": ("mcp", "json", "mcp"),
}
_CLIENT_KINDS = frozenset({"function", "custom"})

# Argument streams: event type -> (kind, format, field of the ``.done`` snapshot).
_ARG_DELTAS: dict[str, tuple[str, str]] = {
    "response.function_call_arguments.delta": ("function", "json"),
    "response.custom_tool_call_input.delta": ("custom", "text"),
    "response.mcp_call_arguments.delta": ("mcp", "json"),
    "response.mcp_call.arguments_delta": ("mcp", "json"),  # early spelling
}
_ARG_DONES: dict[str, tuple[str, str, str]] = {
    "response.function_call_arguments.done": ("function", "json", "arguments"),
    "response.custom_tool_call_input.done": ("custom", "text", "input"),
    "response.mcp_call_arguments.done": ("mcp", "json", "arguments"),
    "response.mcp_call.arguments_done": ("mcp", "json", "arguments"),  # early spelling
}

_TERMINALS = frozenset(
    {
        "response.completed",
        "response.incomplete",
        "response.failed",
        "response.cancelled",
        "response.canceled",
    }
)

FINISH_REASONS: dict[str, FinishReason] = {  # incomplete_details.reason -> the unified one
    "max_output_tokens": "length",
    "max_tokens": "length",
    "content_filter": "content_filter",
}


def map_finish_reason(raw: str) -> FinishReason:
    """Map an ``incomplete_details.reason`` to the unified finish reason (unknown → ``other``)."""
    return FINISH_REASONS.get(raw, "other")


_PART_FIELDS: dict[str, tuple[str, str]] = {
    # content part type -> (snapshot field, key of its value)
    "output_text": ("text", "text"),
    "text": ("text", "text"),
    "refusal": ("refusal", "refusal"),
    "reasoning_text": ("reasoning", "text"),
}


_WHOLE_STATUS = {
    "completed": "response.completed",
    "incomplete": "response.incomplete",
    "failed": "response.failed",
    "cancelled": "response.cancelled",
}
"""The terminal event a whole Response object stands for, by its ``status``."""


def _key(value: object) -> str | int | None:
    """A value usable in a part key (hashable, protocol-shaped) or ``None``."""
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return value
    return None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _args_text(value: object) -> str | None:
    """Arguments as sent: a string stays as it is, an object becomes compact JSON."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return orjson.dumps(value).decode()


class _Item:
    """What the adapter remembers about one output item of the current response."""

    __slots__ = ("ended", "index", "kind", "named", "type")

    def __init__(self, type_: str, index: int | None, kind: str | None, named: bool) -> None:
        self.type = type_
        self.index = index
        self.kind = kind
        self.named = named
        self.ended = False


class OpenAIResponsesAdapter:
    """Adapter for OpenAI Responses API event streams (SSE, or JSONL dumps of events).

    The framing does not change the end markers: the protocol's terminal events are
    JSON events in every framing.
    """

    _closed = False  # the Incremental contract: closed once, never fed after

    name: ClassVar[str] = "openai-responses"

    def __init__(self, framing: str) -> None:
        self._framing = framing
        self._handlers = {
            "response.output_text.delta": self._text_delta,
            "response.refusal.delta": self._refusal_delta,
            "response.reasoning_summary_text.delta": self._summary_delta,
            "response.reasoning_text.delta": self._reasoning_text_delta,
            "response.output_text.done": self._text_done,
            "response.refusal.done": self._refusal_done,
            "response.reasoning_summary_text.done": self._summary_done,
            "response.reasoning_text.done": self._reasoning_text_done,
            "response.content_part.done": self._content_part_done,
            "response.reasoning_summary_part.done": self._summary_part_done,
            "response.output_text.annotation.added": self._annotation,
            "response.output_item.added": self._item_added,
            "response.output_item.done": self._item_done,
            "response.audio.delta": self._audio_delta,
            "response.audio.transcript.delta": self._transcript_delta,
            "response.created": self._created,
            "response.in_progress": self._in_progress,
            "error": self._error,
        }
        self._new_response()

    def _new_response(self) -> None:
        self._started = False
        self._seq: int | None = None
        self._items: dict[str, _Item] = {}
        self._index_owner: dict[int, str | int] = {}
        self._id_owner: dict[str, str | int] = {}
        self._labels: dict[int, str] = {}
        self._relabelled: set[int] = set()
        self._by_index: dict[int, _Item] = {}
        self._snapshotted: set[tuple[str, object]] = set()
        self._cited: set[object] = set()
        self._metas: set[str | int | None] = set()
        self._results: set[str | int | None] = set()
        self._errors: set[tuple[str, str]] = set()
        self._client_calls = False
        self._built = False

    # -- entry points ------------------------------------------------------------------

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one record (one Responses event) to unified events and diagnostics."""
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
        if self._closed:
            raise UsageError(CLOSE_TWICE)
        self._closed = True
        refuse_feed(self)
        return []

    # -- helpers -----------------------------------------------------------------------

    def _check_seq(self, seq: object, record: DataRecord, out: list[AdapterOutput]) -> None:
        if not isinstance(seq, int) or isinstance(seq, bool):
            out.append(
                diag("openai-responses.sequence-gap", record, form="not-an-integer", seq=seq)
            )
            return
        last = self._seq
        self._seq = seq
        if last is None or seq == last + 1:
            return
        what = "skips ahead" if seq > last else "goes back"
        out.append(
            diag("openai-responses.sequence-gap", record, form="gap", seq=seq, last=last, what=what)
        )

    def _invalid(
        self, field: str, value: object, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        out.append(diag("openai-responses.invalid-field", record, field=field, value=value))

    def _owner(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> str | int | None:
        """The item a content event belongs to, by its ``output_index`` (its
        ``item_id`` only when the event has no position)."""
        position = obj.get("output_index")
        item_id = obj.get("item_id")
        if type(position) is int and type(item_id) is str and self._labels.get(position) == item_id:
            return self._index_owner[position]  # an item already met under this id
        return self._resolve(_str(item_id), int_or_none(position), record, out)

    def _resolve(
        self, item_id: str | None, index: int | None, record: DataRecord, out: list[AdapterOutput]
    ) -> str | int | None:
        """The key of the item at position ``index`` labelled ``item_id``.

        The position is the item's identity and the id a label: an item is keyed by its
        output index, and an id met first without a position keeps its own key (so the
        parts of a server that never sends positions stay apart). A position that later
        arrives under another id is reported once (:meth:`_label`).
        """
        if index is None:
            if item_id is None:
                return None
            return self._id_owner.setdefault(item_id, item_id)
        owner = self._index_owner.get(index)
        if owner is None:
            owner = self._id_owner.get(item_id, index) if item_id is not None else index
            self._index_owner[index] = owner
        if item_id is not None:
            self._label(index, item_id, record, out)
            self._id_owner.setdefault(item_id, owner)
        return owner

    def _label(
        self, index: int, item_id: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Remember the first id of the item at ``index``; report the first other one."""
        first = self._labels.setdefault(index, item_id)
        if first == item_id or index in self._relabelled:
            return
        self._relabelled.add(index)
        out.append(
            diag(
                "openai-responses.item-id-changed",
                record,
                index=index,
                item_id=item_id,
                first=first,
            )
        )

    def _snapshot(
        self,
        field: str,
        value: object,
        part: object,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        if not isinstance(value, str):
            if value is not None:
                self._invalid(field, value, record, out)
            return
        key = (field, part)
        if key in self._snapshotted:
            return
        self._snapshotted.add(key)
        out.append(Snapshot(record.index, 0, field, value, part))  # type: ignore[arg-type]

    # -- content -----------------------------------------------------------------------

    def _text_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if type(delta) is not str:
            self._invalid("delta", delta, record, out)
            return
        self._built = True
        position = obj.get("output_index")
        index = obj.get("content_index")
        item_id = obj.get("item_id")
        if (
            type(position) is int
            and type(index) is int
            and type(item_id) is str
            and self._labels.get(position) == item_id
        ):  # the usual shape: an item already met under the same id
            out.append(TextDelta(record.index, 0, delta, (self._index_owner[position], index)))
            return
        part = (self._owner(obj, record, out), _key(index))
        out.append(TextDelta(record.index, 0, delta, part))

    def _refusal_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if type(delta) is not str:
            self._invalid("delta", delta, record, out)
            return
        self._built = True
        part = (self._owner(obj, record, out), _key(obj.get("content_index")))
        out.append(RefusalDelta(record.index, 0, delta, part))

    def _summary_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if type(delta) is not str:
            self._invalid("delta", delta, record, out)
            return
        self._built = True
        part = (self._owner(obj, record, out), "summary", _key(obj.get("summary_index")))
        out.append(ReasoningDelta(record.index, 0, delta, part, "summary"))

    def _reasoning_text_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if type(delta) is not str:
            self._invalid("delta", delta, record, out)
            return
        self._built = True
        part = (self._owner(obj, record, out), _key(obj.get("content_index")))
        out.append(ReasoningDelta(record.index, 0, delta, part, "text"))

    def _text_done(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        part = (self._owner(obj, record, out), _key(obj.get("content_index")))
        self._snapshot("text", obj.get("text"), part, record, out)

    def _refusal_done(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        part = (self._owner(obj, record, out), _key(obj.get("content_index")))
        self._snapshot("refusal", obj.get("refusal"), part, record, out)

    def _summary_done(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        part = (self._owner(obj, record, out), "summary", _key(obj.get("summary_index")))
        self._snapshot("reasoning", obj.get("text"), part, record, out)

    def _reasoning_text_done(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        part = (self._owner(obj, record, out), _key(obj.get("content_index")))
        self._snapshot("reasoning", obj.get("text"), part, record, out)

    def _content_part_done(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        content = obj.get("part")
        if isinstance(content, dict):
            part = (self._owner(obj, record, out), _key(obj.get("content_index")))
            self._content(content, part, record, out)

    def _content(
        self, content: dict[str, Any], part: object, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Snapshot one content part of a message or reasoning item, and its annotations
        if no ``annotation.added`` event delivered them."""
        spec = _PART_FIELDS.get(content.get("type"))  # type: ignore[arg-type]
        if spec is None:
            return
        field, value_key = spec
        self._snapshot(field, content.get(value_key), part, record, out)
        annotations = content.get("annotations")
        if isinstance(annotations, list) and annotations and part not in self._cited:
            self._cited.add(part)
            out.extend(Citation(record.index, 0, annotation, part) for annotation in annotations)

    def _summary_part_done(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        content = obj.get("part")
        if isinstance(content, dict):
            part = (self._owner(obj, record, out), "summary", _key(obj.get("summary_index")))
            self._snapshot("reasoning", content.get("text"), part, record, out)

    def _annotation(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        part = (self._owner(obj, record, out), _key(obj.get("content_index")))
        self._cited.add(part)
        out.append(Citation(record.index, 0, obj.get("annotation"), part))

    def _audio_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if not isinstance(delta, str):
            self._invalid("delta", delta, record, out)
            return
        out.append(Audio(record.index, 0, data=delta, id=_str(obj.get("item_id"))))

    def _transcript_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if not isinstance(delta, str):
            self._invalid("delta", delta, record, out)
            return
        out.append(Audio(record.index, 0, transcript=delta, id=_str(obj.get("item_id"))))

    # -- items and tool calls ----------------------------------------------------------

    def _call_index(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> tuple[int | None, _Item | None]:
        """The position and the remembered item of an argument event: by its
        ``output_index`` first (the id is a label), else by its ``item_id``."""
        item_id = _str(obj.get("item_id"))
        index = int_or_none(obj.get("output_index"))
        self._resolve(item_id, index, record, out)
        item = self._by_index.get(index) if index is not None else None
        if item is None and item_id is not None:
            item = self._items.get(item_id)
        if index is None and item is not None:
            index = item.index
        return index, item

    def _remember(self, item_id: object, type_: str, index: int | None, kind: str | None) -> _Item:
        item = _Item(type_, index, kind, False)
        if isinstance(item_id, str):
            self._items[item_id] = item
        if index is not None:
            self._by_index[index] = item
        return item

    def _item_added(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        item = obj.get("item")
        if not isinstance(item, dict):
            return
        index = int_or_none(obj.get("output_index"))
        itype = item.get("type")
        if not isinstance(itype, str):
            return
        self._resolve(_str(item.get("id")), index, record, out)
        spec = _CALL_ITEMS.get(itype)
        entry = self._remember(item.get("id"), itype, index, spec[0] if spec else None)
        if spec is None:
            return
        kind, fmt, call_type = spec
        if kind in _CLIENT_KINDS:
            self._client_calls = True
        call_id = _str(item.get("call_id")) or _str(item.get("id"))
        entry.named = True
        out.append(
            ToolCallDelta(
                record.index,
                0,
                index=index,
                id=call_id,
                name=_str(item.get("name")),
                call_type=call_type,
                kind=kind,
                format=fmt,
            )
        )

    def _item_done(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        item = obj.get("item")
        if isinstance(item, dict):
            index = int_or_none(obj.get("output_index"))
            owner = self._resolve(_str(item.get("id")), index, record, out)
            self._final_item(item, index, owner, record, out)

    def _final_item(
        self,
        item: dict[str, Any],
        index: int | None,
        owner: str | int | None,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """Take what a finished item (keyed ``owner``) restates and the deltas did not
        already give."""
        itype = item.get("type")
        if itype == "message":
            content = item.get("content")
            if isinstance(content, list):
                for ci, part in enumerate(content):
                    if isinstance(part, dict):
                        self._content(part, (owner, ci), record, out)
            return
        if itype == "reasoning":
            summary = item.get("summary")
            if isinstance(summary, list):
                for si, part in enumerate(summary):
                    if isinstance(part, dict):
                        self._snapshot(
                            "reasoning", part.get("text"), (owner, "summary", si), record, out
                        )
            content = item.get("content")
            if isinstance(content, list):
                for ci, part in enumerate(content):
                    if isinstance(part, dict):
                        self._content(part, (owner, ci), record, out)
            encrypted = item.get("encrypted_content")
            if isinstance(encrypted, str) and encrypted and owner not in self._metas:
                self._metas.add(owner)
                out.append(ReasoningMeta(record.index, 0, owner, encrypted=encrypted))
            return
        if not isinstance(itype, str):
            return
        spec = _CALL_ITEMS.get(itype)
        if spec is not None:
            self._final_call(item, itype, spec, index, record, out)
        if itype in _PROVIDER_EXECUTED and owner not in self._results:
            # A provider-executed tool finished: its result, delivered whole.
            self._results.add(owner)
            out.append(ServerToolResult(record.index, 0, _str(item.get("id")), itype, item))

    def _final_call(
        self,
        item: dict[str, Any],
        itype: str,
        spec: tuple[str, str, str],
        index: int | None,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        kind, fmt, call_type = spec
        if kind in _CLIENT_KINDS:
            self._client_calls = True
        raw_id = item.get("id")
        entry = self._items.get(raw_id) if isinstance(raw_id, str) else None
        if entry is None and index is not None:
            entry = self._by_index.get(index)
        if entry is not None and entry.kind != kind:
            entry = None
        call_id = _str(item.get("call_id")) or _str(raw_id)
        name = _str(item.get("name"))
        arguments = _args_text(item.get("input" if kind == "custom" else "arguments"))
        if entry is not None and entry.index is not None:
            index = entry.index
        if entry is None:
            # Never announced: the finished item is the whole call.
            entry = self._remember(raw_id, itype, index, kind)
            entry.named = True
            entry.ended = True
            status = item.get("status")
            out.append(
                ToolCall(
                    record.index,
                    0,
                    index=index,
                    id=call_id,
                    name=name,
                    arguments=arguments or "",
                    kind=kind,
                    format=fmt,
                    complete=status not in ("in_progress", "incomplete"),
                )
            )
            return
        if not entry.named:
            entry.named = True
            out.append(
                ToolCallDelta(
                    record.index,
                    0,
                    index=index,
                    id=call_id,
                    name=name,
                    call_type=call_type,
                    kind=kind,
                    format=fmt,
                )
            )
        if not entry.ended:
            entry.ended = True
            out.append(ToolCallEnd(record.index, 0, index=index, arguments=arguments))

    def _args_delta(
        self, etype: str, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        kind, fmt = _ARG_DELTAS[etype]
        delta = obj.get("delta")
        if not isinstance(delta, str):
            self._invalid("delta", delta, record, out)
            return
        self._built = True
        index, item = self._call_index(obj, record, out)
        if item is None:
            item = self._remember(obj.get("item_id"), etype, index, kind)
            if kind in _CLIENT_KINDS:
                self._client_calls = True
        out.append(
            ToolCallDelta(record.index, 0, index=index, arguments=delta, kind=kind, format=fmt)
        )

    def _args_done(
        self, etype: str, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        kind, fmt, field = _ARG_DONES[etype]
        index, item = self._call_index(obj, record, out)
        arguments = _args_text(obj.get(field))
        name = _str(obj.get("name"))
        if item is None:
            # Arguments with no announced item: the call is whole here.
            item = self._remember(obj.get("item_id"), etype, index, kind)
            item.ended = True
            if kind in _CLIENT_KINDS:
                self._client_calls = True
            out.append(
                ToolCall(
                    record.index,
                    0,
                    index=index,
                    name=name,
                    arguments=arguments or "",
                    kind=kind,
                    format=fmt,
                )
            )
            return
        if item.ended:
            return
        item.ended = True
        out.append(ToolCallEnd(record.index, 0, index=index, arguments=arguments, name=name))

    # -- lifecycle ---------------------------------------------------------------------

    def _start(self, resp: object, record: DataRecord, out: list[AdapterOutput]) -> None:
        if self._started:
            return
        self._started = True
        if isinstance(resp, dict):
            out.append(ResponseStart(record.index, _str(resp.get("id")), _str(resp.get("model"))))
        else:
            out.append(ResponseStart(record.index))

    def _created(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        self._start(obj.get("response"), record, out)

    def _in_progress(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        self._start(obj.get("response"), record, out)

    def _provider_error(
        self,
        err: dict[str, Any],
        raw: JSON,
        where: str,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        message = err.get("message")
        code = err.get("code")
        key = (repr(code), repr(message))
        if key in self._errors:
            return
        self._errors.add(key)
        etype = _str(err.get("type"))
        if etype == "error":
            etype = None
        text = message if isinstance(message, str) else ("" if message is None else str(message))
        code_text = None if code is None else str(code)
        provider_error(
            record,
            out,
            text,
            etype,
            code_text,
            raw,
            form="openai-responses",
            where=where,
            text=text,
            code_text=code_text,
        )

    def _error(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        nested = obj.get("error")
        err = nested if isinstance(nested, dict) else obj
        self._provider_error(err, obj, "an 'error' event", record, out)

    def _whole_response(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A whole Response object (not streamed): read as the terminal event its status
        names, whose snapshot carries every output item."""
        out.append(not_streamed("Response object", record))
        etype = _WHOLE_STATUS.get(_str(obj.get("status")) or "")
        if etype is not None:
            self._terminal(etype, {"response": obj}, record, out)
            whole_terminal(out, "Response")
            return
        # queued or in progress (a background response polled early): what it has so far
        self._start(obj, record, out)
        output = obj.get("output")
        for position, item in enumerate(output if isinstance(output, list) else []):
            if isinstance(item, dict):
                owner = self._resolve(_str(item.get("id")), position, record, out)
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
                    item_id = _str(item.get("id"))
                    owner = self._id_owner.get(item_id) if item_id is not None else None
                    if owner is None:
                        owner = self._resolve(item_id, position, record, out)
                    self._final_item(item, position, owner, record, out)
        usage = resp.get("usage")
        if isinstance(usage, dict):
            out.append(self._usage(usage, etype, record))
        status = _str(resp.get("status"))
        if status in ("cancelled", "canceled") or etype in (
            "response.cancelled",
            "response.canceled",
        ):
            out.append(Finish(record.index, 0, "other", "cancelled"))
            out.append(Terminal(record.index, "cancelled", f"{etype} (status cancelled)"))
        elif etype == "response.completed":
            reason: FinishReason = "tool_calls" if self._client_calls else "stop"
            out.append(Finish(record.index, 0, reason, status or "completed"))
            out.append(Terminal(record.index, "completed", etype))
        elif etype == "response.incomplete":
            details = resp.get("incomplete_details")
            raw = _str(details.get("reason")) if isinstance(details, dict) else None
            unified = map_finish_reason(raw) if raw else "other"
            out.append(Finish(record.index, 0, unified, raw or status or "incomplete"))
            out.append(
                Terminal(record.index, "incomplete", f"{etype} ({raw or 'no reason given'})")
            )
        else:  # response.failed
            err = resp.get("error")
            if isinstance(err, dict):
                self._provider_error(err, err, etype, record, out)
            out.append(Finish(record.index, 0, "error", "failed"))
            out.append(Terminal(record.index, "failed", etype))
        self._started = False

    @staticmethod
    def _usage(usage: dict[str, Any], source: str, record: DataRecord) -> Usage:
        in_details = usage.get("input_tokens_details")
        out_details = usage.get("output_tokens_details")
        values: dict[str, int | None] = {
            "input_tokens": token_count(usage.get("input_tokens")),
            "output_tokens": token_count(usage.get("output_tokens")),
            "total_tokens": token_count(usage.get("total_tokens")),
            "reasoning_tokens": token_count(out_details.get("reasoning_tokens"))
            if isinstance(out_details, dict)
            else None,
            "cached_input_tokens": token_count(in_details.get("cached_tokens"))
            if isinstance(in_details, dict)
            else None,
        }
        return Usage(record.index, values, usage, source)

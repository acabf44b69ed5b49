"""The response the Responses adapter is reading: items, owners, labels, sequence numbers, tool calls, errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from ...events import JSON, ResponseStart, Snapshot, Usage
from ...framing.records import DataRecord
from .._base import AdapterOutput, diag, int_or_none, provider_error, str_or_none, token_count
from .._tools import ToolCallTracker, TrackedCall
from . import codes

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


def _args_text(value: object) -> str | None:
    """Arguments as sent: a string stays as it is, an object becomes compact JSON."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return orjson.dumps(value).decode()


@dataclass(slots=True, eq=False)
class _Item:
    """What the adapter remembers about one output item of the current response (its
    tool call, if it is one, is kept in the response's tracker under the item)."""

    type: str
    index: int | None
    kind: str | None


class _Response:
    """The open response: its items and who owns each index, its tool calls, what was
    said once."""

    def __init__(self) -> None:
        self.started = False
        self.seq: int | None = None
        self.items: dict[str, _Item] = {}
        self.index_owner: dict[int, str | int] = {}
        self.id_owner: dict[str, str | int] = {}
        self.labels: dict[int, str] = {}
        self.relabelled: set[int] = set()
        self.by_index: dict[int, _Item] = {}
        self.snapshotted: set[tuple[str, object]] = set()
        self.cited: set[object] = set()
        self.metas: set[str | int | None] = set()
        self.results: set[str | int | None] = set()
        self.errors: set[tuple[str, str]] = set()
        self.client_calls = False
        self.built = False
        self.refused = False  # refusal text arrived (a delta or a snapshot)
        self.tools: ToolCallTracker[_Item] = ToolCallTracker()

    def check_seq(self, seq: object, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Report a ``sequence_number`` that is not an integer or not the next one."""
        if not isinstance(seq, int) or isinstance(seq, bool):
            out.append(diag(codes.SEQUENCE_GAP, record, form="not-an-integer", seq=seq))
            return
        last = self.seq
        self.seq = seq
        if last is None or seq == last + 1:
            return
        what = "skips ahead" if seq > last else "goes back"
        out.append(diag(codes.SEQUENCE_GAP, record, form="gap", seq=seq, last=last, what=what))

    def invalid(
        self, field: str, value: object, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Report a field whose JSON type is not the one the protocol defines."""
        out.append(diag(codes.INVALID_FIELD, record, field=field, value=value))

    def owner(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> str | int | None:
        """The item a content event belongs to, by its ``output_index`` (its
        ``item_id`` only when the event has no position)."""
        position = obj.get("output_index")
        item_id = obj.get("item_id")
        if type(position) is int and type(item_id) is str and self.labels.get(position) == item_id:
            return self.index_owner[position]  # an item already met under this id
        return self.resolve(str_or_none(item_id), int_or_none(position), record, out)

    def resolve(
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
            return self.id_owner.setdefault(item_id, item_id)
        owner = self.index_owner.get(index)
        if owner is None:
            owner = self.id_owner.get(item_id, index) if item_id is not None else index
            self.index_owner[index] = owner
        if item_id is not None:
            self.label(index, item_id, record, out)
            self.id_owner.setdefault(item_id, owner)
        return owner

    def label(self, index: int, item_id: str, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Remember the first id of the item at ``index``; report the first other one."""
        first = self.labels.setdefault(index, item_id)
        if first == item_id or index in self.relabelled:
            return
        self.relabelled.add(index)
        out.append(
            diag(
                codes.ITEM_ID_CHANGED,
                record,
                index=index,
                item_id=item_id,
                first=first,
            )
        )

    def snapshot(
        self,
        field: str,
        value: object,
        part: object,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """A whole value of ``field`` for ``part``, once per part."""
        if not isinstance(value, str):
            if value is not None:
                self.invalid(field, value, record, out)
            return
        if field == "refusal" and value:
            self.refused = True
        key = (field, part)
        if key in self.snapshotted:
            return
        self.snapshotted.add(key)
        out.append(Snapshot(record.index, 0, field, value, part))  # type: ignore[arg-type]

    def call_index(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> tuple[int | None, _Item | None]:
        """The position and the remembered item of an argument event: by its
        ``output_index`` first (the id is a label), else by its ``item_id``."""
        item_id = str_or_none(obj.get("item_id"))
        index = int_or_none(obj.get("output_index"))
        self.resolve(item_id, index, record, out)
        item = self.by_index.get(index) if index is not None else None
        if item is None and item_id is not None:
            item = self.items.get(item_id)
        if index is None and item is not None:
            index = item.index
        return index, item

    def remember(
        self, item_id: object, type_: str, index: int | None, kind: str | None, fmt: str = "json"
    ) -> _Item:
        """Keep an output item by its id and position (and, a call, its tool call)."""
        item = _Item(type_, index, kind)
        if isinstance(item_id, str):
            self.items[item_id] = item
        if index is not None:
            self.by_index[index] = item
        if kind is not None:
            self.tools.track(item, 0, index, None, None, kind, fmt)
        return item

    def call(self, item: _Item, kind: str, fmt: str) -> TrackedCall:
        """The tool call of ``item``: kept since it was remembered, or (an item of another
        type that an argument event names) kept from now on."""
        call = self.tools.get(item)
        if call is None:
            call = self.tools.track(item, 0, item.index, None, None, kind, fmt)
        return call

    def start(self, resp: object, record: DataRecord, out: list[AdapterOutput]) -> None:
        """The response starts (once), with the id and model of ``resp`` if it is an object."""
        if self.started:
            return
        self.started = True
        if isinstance(resp, dict):
            out.append(
                ResponseStart(
                    record.index, str_or_none(resp.get("id")), str_or_none(resp.get("model"))
                )
            )
        else:
            out.append(ResponseStart(record.index))

    def provider_error(
        self,
        err: dict[str, Any],
        raw: JSON,
        where: str,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """Emit the provider error ``err`` once per code and message."""
        message = err.get("message")
        code = err.get("code")
        key = (repr(code), repr(message))
        if key in self.errors:
            return
        self.errors.add(key)
        etype = str_or_none(err.get("type"))
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
            form=codes.ERROR,
            where=where,
            text=text,
            code_text=code_text,
        )

    @staticmethod
    def usage(usage: dict[str, Any], source: str, record: DataRecord) -> Usage:
        """The usage object of a terminal event, mapped by name."""
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


def created(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """``response.created``: the response starts."""
    resp.start(obj.get("response"), record, out)


def in_progress(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """``response.in_progress``: the response starts, if no ``response.created`` did."""
    resp.start(obj.get("response"), record, out)


def error(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """An ``error`` event: the provider's error, once per code and message."""
    nested = obj.get("error")
    err = nested if isinstance(nested, dict) else obj
    resp.provider_error(err, obj, "an 'error' event", record, out)

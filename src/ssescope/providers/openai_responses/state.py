"""What the Responses adapter remembers across events: items, owners, labels, sequence numbers, errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import orjson

from ...events import JSON, ResponseStart, Snapshot, Usage
from ...framing.records import DataRecord
from .._base import AdapterOutput, diag, int_or_none, provider_error, str_or_none, token_count

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
    """What the adapter remembers about one output item of the current response."""

    type: str
    index: int | None
    kind: str | None
    named: bool
    ended: bool = False


class _ResponsesState:
    """The adapter's state across events: the open response, its items and who owns each index."""

    _closed = False  # the Incremental contract: closed once, never fed after
    name: ClassVar[str] = "openai-responses"

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
        self._refused = False  # refusal text arrived (a delta or a snapshot)

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
        return self._resolve(str_or_none(item_id), int_or_none(position), record, out)

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
        if field == "refusal" and value:
            self._refused = True
        key = (field, part)
        if key in self._snapshotted:
            return
        self._snapshotted.add(key)
        out.append(Snapshot(record.index, 0, field, value, part))  # type: ignore[arg-type]

    def _call_index(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> tuple[int | None, _Item | None]:
        """The position and the remembered item of an argument event: by its
        ``output_index`` first (the id is a label), else by its ``item_id``."""
        item_id = str_or_none(obj.get("item_id"))
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

    def _start(self, resp: object, record: DataRecord, out: list[AdapterOutput]) -> None:
        if self._started:
            return
        self._started = True
        if isinstance(resp, dict):
            out.append(
                ResponseStart(
                    record.index, str_or_none(resp.get("id")), str_or_none(resp.get("model"))
                )
            )
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
            form="openai-responses",
            where=where,
            text=text,
            code_text=code_text,
        )

    def _error(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        nested = obj.get("error")
        err = nested if isinstance(nested, dict) else obj
        self._provider_error(err, obj, "an 'error' event", record, out)

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

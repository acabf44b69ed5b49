"""Responses output items: added and done items, function and built-in tool calls, argument deltas."""

from __future__ import annotations

from typing import Any

from ...events import ReasoningMeta, ServerToolResult, ToolCall, ToolCallDelta, ToolCallEnd
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, int_or_none, str_or_none
from .parts import _ResponsesParts
from .state import (
    _ARG_DELTAS,
    _ARG_DONES,
    _CALL_ITEMS,
    _CLIENT_KINDS,
    _PROVIDER_EXECUTED,
    _args_text,
    _Item,
)

_SERVER_CALLS = frozenset(
    ("web_search_call", "file_search_call", "code_interpreter_call", "image_generation_call")
)
"""Items of provider-run tools that are listed among the tool calls (``kind="server"``);
``mcp_call`` is a call of its own kind already, ``mcp_list_tools`` no call."""

_RESULT_FIELDS = frozenset(("id", "type", "status", "results", "outputs", "result"))
"""Fields of a provider-run tool's item that are not its input."""


def _server_input(item: dict[str, Any]) -> str:
    """What a provider-run tool was called with (its ``action``, ``queries``, ``code``…),
    as compact JSON: the item's fields but its identity, status and results."""
    return compact_json({k: v for k, v in item.items() if k not in _RESULT_FIELDS})


class _ResponsesItems(_ResponsesParts):
    """Output items and tool calls (see the package docstring)."""

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
        self._resolve(str_or_none(item.get("id")), index, record, out)
        spec = _CALL_ITEMS.get(itype)
        entry = self._remember(item.get("id"), itype, index, spec[0] if spec else None)
        if spec is None:
            return
        if spec[0] in _CLIENT_KINDS:
            self._client_calls = True
        call_id = str_or_none(item.get("call_id")) or str_or_none(item.get("id"))
        self._announce(entry, spec, index, call_id, str_or_none(item.get("name")), record, out)

    def _announce(
        self,
        entry: _Item,
        spec: tuple[str, str, str],
        index: int | None,
        call_id: str | None,
        name: str | None,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """A call's first delta: its id, name and type (``spec`` is its ``_CALL_ITEMS`` entry)."""
        kind, fmt, call_type = spec
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

    def _item_done(self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]) -> None:
        item = obj.get("item")
        if isinstance(item, dict):
            index = int_or_none(obj.get("output_index"))
            owner = self._resolve(str_or_none(item.get("id")), index, record, out)
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
            # A provider-executed tool finished: the call (where Anthropic's
            # server_tool_use sits, tagged "server") and its result, both delivered whole.
            self._results.add(owner)
            item_id = str_or_none(item.get("id"))
            if itype in _SERVER_CALLS:
                out.append(
                    ToolCall(
                        record.index,
                        0,
                        index=index,
                        id=item_id,
                        name=itype.removesuffix("_call"),
                        arguments=_server_input(item),
                        kind="server",
                        complete=item.get("status") not in ("in_progress", "incomplete"),
                    )
                )
            out.append(ServerToolResult(record.index, 0, item_id, itype, item))

    def _final_call(
        self,
        item: dict[str, Any],
        itype: str,
        spec: tuple[str, str, str],
        index: int | None,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        kind, fmt, _ = spec
        if kind in _CLIENT_KINDS:
            self._client_calls = True
        raw_id = item.get("id")
        entry = self._items.get(raw_id) if isinstance(raw_id, str) else None
        if entry is None and index is not None:
            entry = self._by_index.get(index)
        if entry is not None and entry.kind != kind:
            entry = None
        call_id = str_or_none(item.get("call_id")) or str_or_none(raw_id)
        name = str_or_none(item.get("name"))
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
            self._announce(entry, spec, index, call_id, name, record, out)
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
        name = str_or_none(obj.get("name"))
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

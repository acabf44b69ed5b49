"""Responses output items: added and done items, function and built-in tool calls, argument deltas."""

from __future__ import annotations

from typing import Any

from ...events import ReasoningMeta, ServerToolResult
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, int_or_none, str_or_none
from .._tools import TrackedCall
from .parts import snapshot_content
from .state import (
    _ARG_DELTAS,
    _ARG_DONES,
    _CALL_ITEMS,
    _CLIENT_KINDS,
    _PROVIDER_EXECUTED,
    _args_text,
    _Item,
    _Response,
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


def item_added(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """``response.output_item.added``: an item starts; a call item is announced."""
    item = obj.get("item")
    if not isinstance(item, dict):
        return
    index = int_or_none(obj.get("output_index"))
    itype = item.get("type")
    if not isinstance(itype, str):
        return
    resp.resolve(str_or_none(item.get("id")), index, record, out)
    spec = _CALL_ITEMS.get(itype)
    if spec is None:
        resp.remember(item.get("id"), itype, index, None)
        return
    entry = resp.remember(item.get("id"), itype, index, spec[0], spec[1])
    if spec[0] in _CLIENT_KINDS:
        resp.client_calls = True
    call_id = str_or_none(item.get("call_id")) or str_or_none(item.get("id"))
    _announce(resp, entry, spec, index, call_id, str_or_none(item.get("name")), record, out)


def _announce(
    resp: _Response,
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
    call = resp.call(entry, kind, fmt)
    call.name = name
    resp.tools.announce(call, record.index, out, call_type, call_id, index)


def item_done(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """``response.output_item.done``: what the finished item restates."""
    item = obj.get("item")
    if isinstance(item, dict):
        index = int_or_none(obj.get("output_index"))
        owner = resp.resolve(str_or_none(item.get("id")), index, record, out)
        final_item(resp, item, index, owner, record, out)


def final_item(
    resp: _Response,
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
                    snapshot_content(resp, part, (owner, ci), record, out)
        return
    if itype == "reasoning":
        summary = item.get("summary")
        if isinstance(summary, list):
            for si, part in enumerate(summary):
                if isinstance(part, dict):
                    resp.snapshot(
                        "reasoning", part.get("text"), (owner, "summary", si), record, out
                    )
        content = item.get("content")
        if isinstance(content, list):
            for ci, part in enumerate(content):
                if isinstance(part, dict):
                    snapshot_content(resp, part, (owner, ci), record, out)
        encrypted = item.get("encrypted_content")
        if isinstance(encrypted, str) and encrypted and owner not in resp.metas:
            resp.metas.add(owner)
            out.append(ReasoningMeta(record.index, 0, owner, encrypted=encrypted))
        return
    if not isinstance(itype, str):
        return
    spec = _CALL_ITEMS.get(itype)
    if spec is not None:
        _final_call(resp, item, itype, spec, index, record, out)
    if itype in _PROVIDER_EXECUTED and owner not in resp.results:
        # A provider-executed tool finished: the call (where Anthropic's
        # server_tool_use sits, tagged "server") and its result, both delivered whole.
        resp.results.add(owner)
        item_id = str_or_none(item.get("id"))
        if itype in _SERVER_CALLS:
            name = itype.removesuffix("_call")
            call = TrackedCall(0, index, item_id, name, "server", "json")
            complete = item.get("status") not in ("in_progress", "incomplete")
            resp.tools.whole(call, record.index, out, _server_input(item), complete)
        out.append(ServerToolResult(record.index, 0, item_id, itype, item))


def _final_call(
    resp: _Response,
    item: dict[str, Any],
    itype: str,
    spec: tuple[str, str, str],
    index: int | None,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    kind, fmt, _ = spec
    if kind in _CLIENT_KINDS:
        resp.client_calls = True
    raw_id = item.get("id")
    entry = resp.items.get(raw_id) if isinstance(raw_id, str) else None
    if entry is None and index is not None:
        entry = resp.by_index.get(index)
    if entry is not None and entry.kind != kind:
        entry = None
    call_id = str_or_none(item.get("call_id")) or str_or_none(raw_id)
    name = str_or_none(item.get("name"))
    arguments = _args_text(item.get("input" if kind == "custom" else "arguments"))
    if entry is not None and entry.index is not None:
        index = entry.index
    tools = resp.tools
    if entry is None:
        # Never announced: the finished item is the whole call.
        entry = resp.remember(raw_id, itype, index, kind, fmt)
        call = resp.call(entry, kind, fmt)
        call.name = name
        complete = item.get("status") not in ("in_progress", "incomplete")
        tools.whole(call, record.index, out, arguments or "", complete, call_id)
        call.announced = True  # (the finished item said all there is to say)
        return
    call = resp.call(entry, kind, fmt)
    if not call.announced:
        _announce(resp, entry, spec, index, call_id, name, record, out)
    tools.end(call, record.index, out, arguments, None, index)


def args_delta(
    etype: str, resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """An argument fragment of the call its ``output_index`` / ``item_id`` names."""
    kind, fmt = _ARG_DELTAS[etype]
    delta = obj.get("delta")
    if not isinstance(delta, str):
        resp.invalid("delta", delta, record, out)
        return
    resp.built = True
    index, item = resp.call_index(obj, record, out)
    if item is None:
        item = resp.remember(obj.get("item_id"), etype, index, kind, fmt)
        if kind in _CLIENT_KINDS:
            resp.client_calls = True
    tools = resp.tools
    tools.delta(tools.get(item), record.index, delta, out, index, kind, fmt)


def args_done(
    etype: str, resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A call's arguments done: they end it (or, never announced, are the whole call)."""
    kind, fmt, field = _ARG_DONES[etype]
    index, item = resp.call_index(obj, record, out)
    arguments = _args_text(obj.get(field))
    name = str_or_none(obj.get("name"))
    if item is None:
        # Arguments with no announced item: the call is whole here.
        item = resp.remember(obj.get("item_id"), etype, index, kind, fmt)
        if kind in _CLIENT_KINDS:
            resp.client_calls = True
        call = resp.call(item, kind, fmt)
        call.name = name
        resp.tools.whole(call, record.index, out, arguments or "")
        return
    resp.tools.end(resp.call(item, kind, fmt), record.index, out, arguments, name, index)

"""Anthropic content blocks: their start, deltas and stop (text, thinking, tool use)."""

from __future__ import annotations

from ... import codes as shared
from ...diagnostics import quote
from ...events import (
    JSON,
    Citation,
    Compaction,
    ReasoningDelta,
    ReasoningMeta,
    ServerToolResult,
    TextDelta,
    Unknown,
)
from ...framing.records import DataRecord
from .._base import AdapterOutput, Malformed, compact_json, diag, object_field
from . import codes
from .state import _DELTA_BLOCKS, _TOOL_KINDS, _Block, _Message


def block_start(
    msg: _Message, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A ``content_block_start``: the block's type, and what it starts with."""
    block = object_field(obj, "content_block")
    if not msg.started:
        msg.check_started(record, out)
    key = msg.key(obj, record, out)
    btype = block.get("type")
    if not isinstance(btype, str):
        raise Malformed(f"its content block has no string type ({quote(btype)})")
    old = msg.blocks.get(key)
    if old is not None and key is not None:
        out.append(
            diag(
                codes.BLOCK_RESTARTED,
                record,
                index=obj.get("index"),
                block_type=old.block_type,
            )
        )
    kind = _TOOL_KINDS.get(btype)
    state = _Block(btype)
    msg.blocks[key] = state
    msg.tools.pop(key)
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
            ReasoningMeta(n, 0, key, redacted=data if isinstance(data, str) else compact_json(data))
        )
    elif kind is not None:
        tid = block.get("id")
        name = block.get("name")
        call = msg.tools.start(
            key,
            n,
            out,
            0,
            key,
            tid if isinstance(tid, str) else None,
            name if isinstance(name, str) else None,
            kind,
        )
        inp = block.get("input")
        if inp:  # a non-empty input object (or any other non-empty value) at the start
            call.arguments = compact_json(inp)
    elif btype == "compaction":
        # A summary of the earlier context, and its opaque form to send back.
        out.append(_compaction(n, key, block))
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


def block_delta(
    msg: _Message, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A ``content_block_delta``: text, reasoning, argument fragments, citations."""
    delta = obj.get("delta")
    if not isinstance(delta, dict):
        raise Malformed(f'its "delta" is not an object ({quote(delta)})')
    if not msg.started:
        msg.check_started(record, out)
    idx = obj.get("index")
    if type(idx) is int:  # inline _key: this is the hot path
        k = idx + msg.base
        if k >= msg.next_key:
            msg.next_key = k + 1
        key: int | None = k
    else:
        key = msg.key(obj, record, out)
    dtype = delta.get("type")
    block = msg.blocks.get(key)
    if block is None:
        block = msg.blocks[key] = _Block(None)
        if key is not None:
            out.append(diag(codes.DELTA_WITHOUT_START, record, index=obj.get("index")))
    elif dtype != block.checked and block.block_type is not None and not block.mismatch:
        allowed = _DELTA_BLOCKS.get(dtype) if isinstance(dtype, str) else None
        if allowed is None or block.block_type in allowed:
            block.checked = dtype
        else:
            block.mismatch = True
            out.append(
                diag(
                    codes.DELTA_TYPE_MISMATCH,
                    record,
                    dtype=dtype,
                    index=obj.get("index"),
                    block_type=block.block_type,
                )
            )
    n = record.index
    if dtype == "text_delta":
        out.append(TextDelta(n, 0, _string(delta, dtype, "text"), key))
    elif dtype == "input_json_delta":
        frag = _string(delta, dtype, "partial_json")
        if key is None:
            out.append(diag(shared.TOOL_MISSING_INDEX, record, form="block"))
        if frag:  # the first fragment is often "": it adds nothing
            tools = msg.tools
            tools.delta(tools.get(key), n, frag, out, key)
    elif dtype == "thinking_delta":
        out.append(ReasoningDelta(n, 0, _string(delta, dtype, "thinking"), key))
    elif dtype == "signature_delta":
        sig = _string(delta, dtype, "signature")
        out.append(ReasoningMeta(n, 0, key, signature=sig))
    elif dtype == "citations_delta":
        out.append(Citation(n, 0, delta.get("citation"), key))
    elif dtype == "compaction_delta":
        out.append(_compaction(n, key, delta))
    else:
        out.append(Unknown(n, f"content_block_delta:{dtype}", obj))


def block_stop(
    msg: _Message, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A ``content_block_stop``: a tool block's call ends."""
    if not msg.started:
        msg.check_started(record, out)
    key = msg.key(obj, record, out)
    block = msg.blocks.get(key)
    if block is None:
        if key is not None:
            out.append(diag(codes.STOP_WITHOUT_START, record, index=obj.get("index")))
        return
    if block.stopped:
        out.append(diag(codes.BLOCK_STOPPED_TWICE, record, index=obj.get("index")))
        return
    block.stopped = True
    call = msg.tools.get(key)
    if call is not None:  # a tool block: its call ends
        # (the input it started with, sent again unless fragments came)
        start_input = call.arguments if not call.streamed and call.arguments else None
        msg.tools.end(call, record.index, out, start_input)


def _compaction(record: int, key: int | None, obj: dict[str, JSON]) -> Compaction:
    """A compaction block's start or delta: its ``content`` (summary text) and
    ``encrypted_content``, each when it is a string."""
    summary = obj.get("content")
    encrypted = obj.get("encrypted_content")
    return Compaction(
        record,
        0,
        key,
        summary if isinstance(summary, str) else None,
        encrypted if isinstance(encrypted, str) else None,
    )


def _string(delta: dict[str, JSON], dtype: str, field: str) -> str:
    """The string ``field`` a delta of type ``dtype`` must carry; raises :class:`Malformed`."""
    value = delta.get(field)
    if not isinstance(value, str):
        raise Malformed(f'its {dtype} has no string "{field}" ({quote(value)})')
    return value

"""Anthropic content blocks: their start, deltas and stop (text, thinking, tool use)."""

from __future__ import annotations

from ...diagnostics import quote
from ...events import (
    JSON,
    Citation,
    Compaction,
    ReasoningDelta,
    ReasoningMeta,
    ServerToolResult,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    Unknown,
)
from ...framing.records import DataRecord
from .._base import AdapterOutput, Malformed, compact_json, diag, object_field
from .state import _DELTA_BLOCKS, _TOOL_KINDS, _AnthropicState, _Block


class _AnthropicBlocks(_AnthropicState):
    """Content blocks (see the package docstring)."""

    def _block_start(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        block = object_field(obj, "content_block")
        if not self._started:
            self._check_started(record, out)
        key = self._key(obj, record, out)
        btype = block.get("type")
        if not isinstance(btype, str):
            raise Malformed(f"its content block has no string type ({quote(btype)})")
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

    def _block_delta(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if not isinstance(delta, dict):
            raise Malformed(f'its "delta" is not an object ({quote(delta)})')
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
            out.append(TextDelta(n, 0, _string(delta, dtype, "text"), key))
        elif dtype == "input_json_delta":
            frag = _string(delta, dtype, "partial_json")
            if key is None:
                out.append(diag("tool.missing-index", record, form="block"))
            if frag:  # the first fragment is often "": it adds nothing
                block.fragments = True
                out.append(
                    ToolCallDelta(n, 0, key, None, None, frag, None, block.kind or "function")
                )
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

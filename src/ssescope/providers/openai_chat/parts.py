"""Chat Completions content and reasoning: text, content parts, reasoning fields, whole messages, citations, filter results."""

from __future__ import annotations

from typing import Any

from ...events import Citation, ReasoningDelta, ReasoningMeta, Snapshot, TextDelta, ToolCall
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, diag, nonempty_str
from . import codes
from .state import _Choice, _invalid, _Response
from .tools import tool_arguments, tool_name


def map_content(
    resp: _Response, content: Any, o: int, record: DataRecord, out: list[AdapterOutput]
) -> None:
    """``delta.content`` of any shape: a string, a content-part array, or a wrong type."""
    if type(content) is str:
        if content:
            out.append(TextDelta(record.index, o, content))
    elif isinstance(content, list):
        map_content_parts(resp, content, o, record, out)
    else:
        _invalid(out, record, "content", content, choice=o)


def map_reasoning(
    resp: _Response, rc: Any, rs: Any, rd: Any, o: int, record: DataRecord, out: list[AdapterOutput]
) -> None:
    """Reasoning from every spelling of one delta, each piece of text counted once."""
    ri = record.index
    plain = rc if isinstance(rc, str) else ""
    if isinstance(rs, str) and rs:
        if not plain:
            plain = rs
        elif rs != plain:
            if resp.once(codes.REASONING_FIELDS_DIFFER, o):
                out.append(
                    diag(
                        codes.REASONING_FIELDS_DIFFER,
                        record,
                        form="content",
                        plain=plain,
                        rs=rs,
                        choice=o,
                    )
                )
            plain += rs
    if not rd:
        if plain:
            out.append(ReasoningDelta(ri, o, plain))
        return
    if not isinstance(rd, list):
        _invalid(out, record, "reasoning-details", rd, choice=o)
        if plain:
            out.append(ReasoningDelta(ri, o, plain))
        return
    pieces: list[tuple[str, str]] = []
    metas: list[ReasoningMeta] = []
    for item in rd:
        if not isinstance(item, dict):
            continue
        t = item.get("type")
        if t == "reasoning.text":
            if text := nonempty_str(item.get("text")):
                pieces.append((text, "text"))
            if sig := nonempty_str(item.get("signature")):
                metas.append(ReasoningMeta(ri, o, None, sig))
        elif t == "reasoning.summary":
            if text := nonempty_str(item.get("summary")):
                pieces.append((text, "summary"))
        elif t == "reasoning.encrypted":
            if data := nonempty_str(item.get("data")):
                metas.append(ReasoningMeta(ri, o, None, None, None, data))
        elif resp.once(codes.UNKNOWN_REASONING_DETAIL, t if isinstance(t, str) else None):
            out.append(diag(codes.UNKNOWN_REASONING_DETAIL, record, detail_type=t))
    if plain:
        joined = "".join(p[0] for p in pieces)
        kind = "text"
        if joined == plain:
            if all(p[1] == "summary" for p in pieces):
                kind = "summary"
        elif joined and resp.once(codes.REASONING_FIELDS_DIFFER, o):
            out.append(
                diag(
                    codes.REASONING_FIELDS_DIFFER,
                    record,
                    form="details",
                    plain=plain,
                    joined=joined,
                    choice=o,
                )
            )
        out.append(ReasoningDelta(ri, o, plain, None, kind))
    else:
        for text, kind in pieces:
            out.append(ReasoningDelta(ri, o, text, None, kind))
    out.extend(metas)


def map_content_parts(
    resp: _Response, parts: list[Any], o: int, record: DataRecord, out: list[AdapterOutput]
) -> None:
    """Mistral-style content arrays of typed chunks."""
    ri = record.index
    for part in parts:
        if isinstance(part, str):
            if part:
                out.append(TextDelta(ri, o, part))
            continue
        if not isinstance(part, dict):
            continue
        t = part.get("type")
        if t == "text":
            if text := nonempty_str(part.get("text")):
                out.append(TextDelta(ri, o, text))
        elif t == "thinking":
            thinking = part.get("thinking")
            if isinstance(thinking, str):
                if thinking:
                    out.append(ReasoningDelta(ri, o, thinking))
            elif isinstance(thinking, list):
                for item in thinking:
                    if isinstance(item, str):
                        text = item
                    elif isinstance(item, dict):
                        text = item.get("text")
                    else:
                        continue
                    if isinstance(text, str) and text:
                        out.append(ReasoningDelta(ri, o, text))
        elif t == "reference":
            out.append(Citation(ri, o, part))
        elif resp.once(codes.UNKNOWN_CONTENT_PART, t if isinstance(t, str) else None):
            out.append(diag(codes.UNKNOWN_CONTENT_PART, record, part_type=t, choice=o))


def map_message(
    message: dict[str, Any],
    o: int,
    st: _Choice,
    calls: bool,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """A ``choices[].message`` snapshot (old Perplexity chunks, a whole completion)."""
    ri = record.index
    content = message.get("content")
    if isinstance(content, str):
        out.append(Snapshot(ri, o, "text", content))
    refusal = message.get("refusal")
    if isinstance(refusal, str):
        if refusal:
            st.refused = True
        out.append(Snapshot(ri, o, "refusal", refusal))
    reasoning = message.get("reasoning_content")
    if not isinstance(reasoning, str):
        reasoning = message.get("reasoning")
    if isinstance(reasoning, str):
        out.append(Snapshot(ri, o, "reasoning", reasoning))
    tool_calls = message.get("tool_calls")
    if calls and isinstance(tool_calls, list):
        for pos, e in enumerate(tool_calls):
            if not isinstance(e, dict):
                continue
            fn = e.get("function")
            fn = fn if isinstance(fn, dict) else {}
            cid = e.get("id")
            idx = e.get("index")
            st.tools = True
            out.append(
                ToolCall(
                    ri,
                    o,
                    idx if type(idx) is int else pos,
                    cid if isinstance(cid, str) else None,
                    tool_name(fn.get("name"), o, record, out),
                    tool_arguments(fn.get("arguments"), o, record, out) or "",
                )
            )


def citations_of(resp: _Response, cits: list[Any], ri: int, out: list[AdapterOutput]) -> None:
    """Top-level citations (Perplexity repeats the whole list on every chunk): each once."""
    seen = resp.citations
    for c in cits:
        if isinstance(c, str):
            key = c
        elif isinstance(c, dict) and isinstance(c.get("url"), str):
            key = c["url"]
        else:
            key = compact_json(c)
        if key not in seen:
            seen.add(key)
            out.append(Citation(ri, 0, c))


def filtered(
    resp: _Response,
    results: dict[str, Any],
    what: str,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """Azure content-filter results: report each category that filtered, once."""
    for category, res in results.items():
        if (
            isinstance(res, dict)
            and res.get("filtered") is True
            and resp.once(codes.CONTENT_FILTERED, (what, category))
        ):
            out.append(
                diag(
                    codes.CONTENT_FILTERED,
                    record,
                    what=what,
                    category=category,
                    res=res,
                )
            )

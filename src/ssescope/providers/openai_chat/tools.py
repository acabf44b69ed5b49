"""Chat Completions tool calls: streamed fragments, whole calls, the parallel wrapper.

Each fragment restates what the wire sent (index, id, name, type) in its
:class:`ToolCallDelta`; the choice's tracker keeps the calls by index and the id each
first got, to diagnose irregular fragments.
"""

from __future__ import annotations

from typing import Any

from ... import codes as shared
from ...events import ToolCallDelta
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, diag
from . import codes
from .state import _PARALLEL_WRAPPER, _Choice, _invalid, _Response


def tool_name(name: Any, o: int, record: DataRecord, out: list[AdapterOutput]) -> str | None:
    """A call's name as sent; one that is not a string is reported and dropped."""
    if name is None or isinstance(name, str):
        return name
    out.append(diag(codes.TOOL_NAME_NOT_STRING, record, choice=o, name=name))
    return None


def tool_arguments(args: Any, o: int, record: DataRecord, out: list[AdapterOutput]) -> str | None:
    """A call's arguments as sent; an object instead of a string is reported and taken
    as compact JSON."""
    if args is None or isinstance(args, str):
        return args
    text = compact_json(args)
    out.append(
        diag(
            codes.TOOL_ARGUMENTS_NOT_STRING,
            record,
            choice=o,
            name=type(args).__name__,
            args=args,
        )
    )
    return text


def parallel_wrapper(
    resp: _Response, o: int, call: object, record: DataRecord, out: list[AdapterOutput]
) -> None:
    """Report the ``multi_tool_use.parallel`` pseudo-tool once per call."""
    if not resp.once(codes.PARALLEL_WRAPPER, (o, call)):
        return
    out.append(diag(codes.PARALLEL_WRAPPER, record, choice=o, parallel_wrapper=_PARALLEL_WRAPPER))


def map_tool_calls(
    entries: Any, o: int, st: _Choice, resp: _Response, record: DataRecord, out: list[AdapterOutput]
) -> None:
    """The ``tool_calls`` entries of choice ``o``'s delta: one fragment each."""
    ri = record.index
    if not isinstance(entries, list):
        form = "tool-calls-object" if isinstance(entries, dict) else "tool-calls"
        _invalid(out, record, form, entries, choice=o)
        if not isinstance(entries, dict):
            return
        entries = [entries]
    st.tools = True
    here: set[int] | None = None
    for e in entries:
        if not isinstance(e, dict):
            _invalid(out, record, "tool-call", e, choice=o)
            continue
        get = e.get
        idx = get("index")
        if type(idx) is not int:
            if idx is not None:
                _invalid(out, record, "tool-call-index", idx, choice=o)
                idx = None
            if resp.once(shared.TOOL_MISSING_INDEX, o):
                out.append(diag(shared.TOOL_MISSING_INDEX, record, form="choice", choice=o))
        cid = get("id")
        if cid is not None and not isinstance(cid, str):
            out.append(diag(codes.TOOL_ID_NOT_STRING, record, choice=o, cid=cid))
            cid = None
        ctype = get("type")
        if not isinstance(ctype, str):
            ctype = None
        kind = "function"
        fmt = "json"
        fn = get("function")
        args_key = "arguments"
        if fn is None:
            custom = get("custom")
            if isinstance(custom, dict):
                fn = custom
                kind = "custom"
                fmt = "text"
                args_key = "input"
        name: str | None = None
        args: str | None = None
        if isinstance(fn, dict):
            name = tool_name(fn.get("name"), o, record, out)
            args = tool_arguments(fn.get(args_key), o, record, out)
        elif fn is not None:
            _invalid(out, record, "tool-function", fn, choice=o)
        if idx is not None:
            if here is None:
                here = {idx}
            elif idx in here:
                out.append(diag(codes.DUPLICATE_TOOL_INDEX, record, choice=o, idx=idx))
            else:
                here.add(idx)
            calls = st.calls
            known = calls.get(idx)
            if known is None:
                if idx != len(calls) and resp.once(codes.TOOL_INDEX_GAP, o):
                    out.append(
                        diag(codes.TOOL_INDEX_GAP, record, choice=o, idx=idx, n_known=len(calls))
                    )
                calls.track(idx, o, idx, cid or "")
            else:
                prev = known.id
                if cid:
                    if prev and cid != prev:
                        out.append(
                            diag(
                                codes.TOOL_INDEX_REUSED,
                                record,
                                idx=idx,
                                choice=o,
                                cid=cid,
                                prev=prev,
                            )
                        )
                        known.id = cid
                    elif not prev:
                        known.id = cid
                if (
                    st.last_index is not None
                    and idx != st.last_index
                    and resp.once(codes.TOOL_CALLS_INTERLEAVED, o)
                ):
                    out.append(
                        diag(
                            codes.TOOL_CALLS_INTERLEAVED,
                            record,
                            idx=idx,
                            choice=o,
                            last_index=st.last_index,
                        )
                    )
            st.last_index = idx
        if name == _PARALLEL_WRAPPER:
            parallel_wrapper(resp, o, idx if idx is not None else cid, record, out)
        out.append(ToolCallDelta(ri, o, idx, cid, name, args, ctype, kind, fmt))

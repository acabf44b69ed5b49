"""Chat Completions tool calls: streamed fragments, whole calls, the parallel wrapper."""

from __future__ import annotations

from typing import Any

from ... import codes as shared
from ...events import ToolCallDelta
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, diag
from . import codes
from .state import _PARALLEL_WRAPPER, _ChatState, _Choice, _invalid


class _ChatTools(_ChatState):
    """Tool calls of a choice (see the package docstring)."""

    def _name(self, name: Any, o: int, record: DataRecord, out: list[AdapterOutput]) -> str | None:
        if name is None or isinstance(name, str):
            return name
        out.append(diag(codes.TOOL_NAME_NOT_STRING, record, choice=o, name=name))
        return None

    def _arguments(
        self, args: Any, o: int, record: DataRecord, out: list[AdapterOutput]
    ) -> str | None:
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

    def _parallel_wrapper(
        self, o: int, call: object, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Report the ``multi_tool_use.parallel`` pseudo-tool once per call."""
        if not self._once(codes.PARALLEL_WRAPPER, (o, call)):
            return
        out.append(
            diag(codes.PARALLEL_WRAPPER, record, choice=o, parallel_wrapper=_PARALLEL_WRAPPER)
        )

    def _tool_calls(
        self, entries: Any, o: int, st: _Choice, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
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
                if self._once(shared.TOOL_MISSING_INDEX, o):
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
                name = self._name(fn.get("name"), o, record, out)
                args = self._arguments(fn.get(args_key), o, record, out)
            elif fn is not None:
                _invalid(out, record, "tool-function", fn, choice=o)
            if idx is not None:
                if here is None:
                    here = {idx}
                elif idx in here:
                    out.append(diag(codes.DUPLICATE_TOOL_INDEX, record, choice=o, idx=idx))
                else:
                    here.add(idx)
                known = st.index_ids
                prev = known.get(idx)
                if prev is None:
                    if idx != len(known) and self._once(codes.TOOL_INDEX_GAP, o):
                        out.append(
                            diag(
                                codes.TOOL_INDEX_GAP,
                                record,
                                choice=o,
                                idx=idx,
                                n_known=len(known),
                            )
                        )
                    known[idx] = cid or ""
                else:
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
                            known[idx] = cid
                        elif not prev:
                            known[idx] = cid
                    if (
                        st.last_index is not None
                        and idx != st.last_index
                        and self._once(codes.TOOL_CALLS_INTERLEAVED, o)
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
                self._parallel_wrapper(o, idx if idx is not None else cid, record, out)
            out.append(ToolCallDelta(ri, o, idx, cid, name, args, ctype, kind, fmt))

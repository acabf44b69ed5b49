"""Gemini function calls: whole calls and streamed partial arguments."""

from __future__ import annotations

from ...events import JSON, ToolCall
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, diag
from . import codes
from .state import _VALUE_KEYS, _GeminiState, _parse_path, _StreamedCall


class _GeminiTools(_GeminiState):
    """Function calls of a candidate (see the package docstring)."""

    def _function_call(
        self, fc: dict[str, JSON], output: int, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        rec = record.index
        name = fc.get("name")
        name = name if isinstance(name, str) and name else None
        call_id = fc.get("id")
        call_id = call_id if isinstance(call_id, str) and call_id else None
        partial = fc.get("partialArgs")
        cont = fc.get("willContinue") is True
        current = self._open.get(output)

        if partial is None and not cont:
            if name is None and call_id is None and "args" not in fc:
                # The empty terminator of a streamed call.
                if current is not None:
                    self._finish_call(output, rec, True, out)
                else:
                    out.append(diag(codes.STRAY_FUNCTION_CALL_END, record))
                return
            # A whole call.
            if current is not None:
                self._abandon(output, record, "a new function call started", out)
            args = fc.get("args")
            arguments = "{}" if args is None else compact_json(args)
            out.append(ToolCall(rec, output, self._take_index(output), call_id, name, arguments))
            return

        # A streamed call: a start, or argument fragments.
        if current is not None and name is not None and (partial is None or name != current.name):
            self._abandon(output, record, "a new function call started", out)
            current = None
        if current is None:
            if name is None:
                out.append(diag(codes.ORPHAN_PARTIAL_ARGS, record))
            current = _StreamedCall(name, call_id, self._take_index(output))
            self._open[output] = current
            args = fc.get("args")
            if isinstance(args, dict):
                current.args.update(args)
        elif current.id is None and call_id is not None:
            current.id = call_id
        if partial is not None:
            if isinstance(partial, list):
                for fragment in partial:
                    self._fragment(current, fragment, record, out)
            else:
                out.append(
                    diag(codes.INVALID_PARTIAL_ARGS, record, form="not-a-list", partial=partial)
                )
            if not cont:
                out.append(diag(codes.FUNCTION_CALL_END_INFERRED, record, name=current.name))
                self._finish_call(output, rec, True, out)

    def _fragment(
        self, call: _StreamedCall, fragment: JSON, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if not isinstance(fragment, dict):
            self._bad_fragment(fragment, "it is not an object", record, out)
            return
        path = fragment.get("jsonPath")
        if not isinstance(path, str):
            self._bad_fragment(fragment, "it has no jsonPath", record, out)
            return
        if path in self._paths:
            tokens = self._paths[path]
        else:
            tokens = self._paths[path] = _parse_path(path)
        if tokens is None:
            self._bad_fragment(fragment, "its jsonPath is not a path", record, out)
            return
        for key in _VALUE_KEYS:
            if key in fragment:
                value = None if key == "nullValue" else fragment[key]
                break
        else:
            if fragment.get("willContinue") is True:
                return  # nothing yet for this path
            self._bad_fragment(fragment, "it carries no value", record, out)
            return
        if not call.set(tokens, value):
            self._bad_fragment(
                fragment, "its path contradicts the arguments built so far", record, out
            )

    @staticmethod
    def _bad_fragment(
        fragment: JSON, why: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        out.append(
            diag(codes.INVALID_PARTIAL_ARGS, record, form="fragment", why=why, fragment=fragment)
        )

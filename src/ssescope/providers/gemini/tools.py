"""Gemini function calls: whole calls and streamed partial arguments."""

from __future__ import annotations

from ...events import JSON, ToolCall
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, diag
from . import codes
from .state import _VALUE_KEYS, _PartialArgs, _StreamedCalls


def function_call(
    calls: _StreamedCalls,
    fc: dict[str, JSON],
    output: int,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """A ``functionCall`` part of candidate ``output``: a whole call, or a streamed call's
    start, fragments or empty terminator."""
    rec = record.index
    name = fc.get("name")
    name = name if isinstance(name, str) and name else None
    call_id = fc.get("id")
    call_id = call_id if isinstance(call_id, str) and call_id else None
    partial = fc.get("partialArgs")
    cont = fc.get("willContinue") is True
    current = calls.open(output)

    if partial is None and not cont:
        if name is None and call_id is None and "args" not in fc:
            # The empty terminator of a streamed call.
            if current is not None:
                calls.finish(output, rec, True, out)
            else:
                out.append(diag(codes.STRAY_FUNCTION_CALL_END, record))
            return
        # A whole call.
        if current is not None:
            calls.abandon(output, "a new function call started", record.start, rec, out)
        args = fc.get("args")
        arguments = "{}" if args is None else compact_json(args)
        out.append(ToolCall(rec, output, calls.take_index(output), call_id, name, arguments))
        return

    # A streamed call: a start, or argument fragments.
    if current is not None and name is not None and (partial is None or name != current.name):
        calls.abandon(output, "a new function call started", record.start, rec, out)
        current = None
    if current is None:
        if name is None:
            out.append(diag(codes.ORPHAN_PARTIAL_ARGS, record))
        built = calls.start(output, name, call_id)
        args = fc.get("args")
        if isinstance(args, dict):
            built.args.update(args)
    else:
        built = calls.args(output)
        if current.id is None and call_id is not None:
            current.id = call_id
    if partial is not None:
        if isinstance(partial, list):
            for fragment in partial:
                _fragment(calls, built, fragment, record, out)
        else:
            out.append(diag(codes.INVALID_PARTIAL_ARGS, record, form="not-a-list", partial=partial))
        if not cont:
            finished = calls.open(output)
            out.append(
                diag(
                    codes.FUNCTION_CALL_END_INFERRED,
                    record,
                    name=finished.name if finished is not None else None,
                )
            )
            calls.finish(output, rec, True, out)


def _fragment(
    calls: _StreamedCalls,
    built: _PartialArgs,
    fragment: JSON,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    if not isinstance(fragment, dict):
        _bad_fragment(fragment, "it is not an object", record, out)
        return
    path = fragment.get("jsonPath")
    if not isinstance(path, str):
        _bad_fragment(fragment, "it has no jsonPath", record, out)
        return
    tokens = calls.path(path)
    if tokens is None:
        _bad_fragment(fragment, "its jsonPath is not a path", record, out)
        return
    for key in _VALUE_KEYS:
        if key in fragment:
            value = None if key == "nullValue" else fragment[key]
            break
    else:
        if fragment.get("willContinue") is True:
            return  # nothing yet for this path
        _bad_fragment(fragment, "it carries no value", record, out)
        return
    if not built.set(tokens, value):
        _bad_fragment(fragment, "its path contradicts the arguments built so far", record, out)


def _bad_fragment(fragment: JSON, why: str, record: DataRecord, out: list[AdapterOutput]) -> None:
    out.append(
        diag(codes.INVALID_PARTIAL_ARGS, record, form="fragment", why=why, fragment=fragment)
    )

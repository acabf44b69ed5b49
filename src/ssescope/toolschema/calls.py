"""``ssescope.validate_tool_call``: one tool call checked against its request, for an agent
about to run it.

The call may be ssescope's own (a :class:`~ssescope.aggregate.report.ToolCallReport` from a
Report) or an SDK's: the openai SDK's Chat Completions tool call (``.function.name``,
``.function.arguments``) and Responses ``ResponseFunctionToolCall`` (``.name``,
``.arguments``), the anthropic SDK's ``ToolUseBlock`` (``.name``, ``.input``), a Gemini
``FunctionCall`` (``.name``, ``.args``), or the same shapes as plain dicts. The request is
the body that was sent: a dict (the SDKs' request params are ``TypedDict`` values, so
plain dicts), its JSON text, or a pydantic model of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from .. import codes
from ..aggregate.report import ToolCallReport
from ..diagnostics import Diagnostic, build
from ..errors import UsageError
from ..events import JSON
from ..limits import loads_finite
from .check import Finding, ToolChecker
from .request import request_tools

__all__ = ["validate_tool_call"]


@dataclass(frozen=True, slots=True)
class _Call:
    """A tool call read from any of the shapes :func:`validate_tool_call` takes."""

    label: str
    name: str | None
    arguments: str | None  # the argument string, when the call carries one
    value: JSON  # the parsed arguments, when the call carries them parsed
    complete: bool = True


def validate_tool_call(
    call: object,
    request: object,
    *,
    headers: Iterable[tuple[str, str]] = (),
) -> list[Diagnostic]:
    """Check a tool call against the tools its request declared, before running it.

    The arguments are checked with the ``jsonschema`` library (``pip install
    'ssescope[schema]'``) against the called tool's input schema in the request (OpenAI
    Chat ``tools[].function.parameters``, Responses ``tools[].parameters``, Anthropic
    ``tools[].input_schema``, Gemini ``functionDeclarations[].parameters`` or
    ``parametersJsonSchema``, Bedrock ``toolSpec.inputSchema.json``), with strict mode's
    rules when the tool sets ``strict: true``. A call whose stream was cut (a
    :class:`~ssescope.ToolCallReport` that is not ``complete``) is checked on its partial
    arguments.

    Args:
        call: ssescope's :class:`~ssescope.ToolCallReport`, an openai SDK tool call
            (``ChatCompletionMessageToolCall``, ``ResponseFunctionToolCall``), an anthropic
            SDK ``ToolUseBlock``, a Gemini ``FunctionCall``, or the same as a dict.
        request: the request body: a dict (or an SDK's request params), its JSON text or
            bytes, or a pydantic model with ``model_dump()``.
        headers: the request's headers, where they matter: Anthropic's
            ``anthropic-beta: fine-grained-tool-streaming-…`` makes invalid JSON expected.

    Returns:
        The diagnostics, empty when the call matches (or the request declares no tools):
        ``tool.not-offered``, ``tool.invalid-arguments``, ``tool.schema-mismatch`` (one per
        mismatch, with its JSON path and rule), ``tool.fine-grained-streaming`` and
        ``tool.schema-unchecked`` (no jsonschema installed, or an invalid schema). Each
        is a :class:`~ssescope.Diagnostic` with no record or offset.

    Raises:
        UsageError: for a call of none of those shapes.
    """
    checker = ToolChecker(request_tools(request, headers))
    read = _read_call(call)
    out: list[Diagnostic] = []

    def emit(finding: Finding | None) -> None:
        if finding is not None:
            args = {"label": read.label, "name": read.name, **finding.args}
            out.append(build(finding.code, args, form=finding.form))

    offered = checker.offered(read.name)
    if offered is not None or read.name not in checker.tools:
        emit(offered)
        return out
    if read.arguments is not None and not read.complete:
        for finding in checker.cut(read.name, read.arguments):
            emit(finding)
        return out
    value = read.value
    if read.arguments is not None:
        parsed = _parse(read.arguments)
        if isinstance(parsed, str):
            emit(
                Finding(
                    codes.TOOL_INVALID_ARGUMENTS,
                    args={"error": parsed, "arguments": read.arguments},
                )
            )
            emit(checker.fine_grained(read.name, "not valid JSON"))
            return out
        value = parsed[0]
    for finding in checker.check(read.name, value):
        emit(finding)
    return out


def _parse(arguments: str) -> tuple[JSON] | str:
    """``(value,)`` of an argument string (empty arguments read as ``{}``, as clients do),
    or the parse error."""
    if not arguments.strip():
        return ({},)
    try:
        return (orjson.loads(arguments),)
    except orjson.JSONDecodeError:
        try:
            return (loads_finite(arguments),)
        except (ValueError, RecursionError) as exc:
            pos = getattr(exc, "pos", None)
            msg = getattr(exc, "msg", str(exc))
            return f"{msg} at character {pos}" if pos is not None else msg


def _get(obj: object, key: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


def _read_call(call: object) -> _Call:
    """The name, label and arguments of a call of any shape :func:`validate_tool_call`
    takes."""
    if isinstance(call, ToolCallReport):
        label = call.id or (f"#{call.index}" if call.index is not None else "(no id)")
        return _Call(label, call.name, call.arguments, call.input, call.complete)
    function = _get(call, "function")
    if function is not None and _get(function, "name") is not None:  # Chat Completions
        return _Call(
            _label(call), _str(_get(function, "name")), _text(_get(function, "arguments")), None
        )
    name = _str(_get(call, "name"))
    arguments = _get(call, "arguments")
    if name is not None and arguments is not None:  # Responses, or a flat dict
        return _Call(_label(call), name, _text(arguments), None)
    for key in ("input", "args"):  # Anthropic ToolUseBlock, Gemini FunctionCall
        value = _get(call, key)
        if name is not None and (value is not None or _has(call, key)):
            return _Call(_label(call), name, None, _jsonable(value))
    raise UsageError(
        "validate_tool_call() takes a tool call: ssescope's ToolCallReport, an openai SDK "
        "tool call, an anthropic ToolUseBlock, a Gemini FunctionCall or such a dict; got "
        f"{type(call).__name__}"
    )


def _has(obj: object, key: str) -> bool:
    return key in obj if isinstance(obj, Mapping) else hasattr(obj, key)


def _label(call: object) -> str:
    for key in ("call_id", "id"):
        value = _get(call, key)
        if isinstance(value, str) and value:
            return value
    return "(no id)"


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if value is None:
        return None
    # arguments already parsed (a dict in some SDK dumps): checked as they are
    return orjson.dumps(_jsonable(value)).decode()


def _jsonable(value: object) -> JSON:
    """A value as JSON data (pydantic models dumped; anything else as JSON reads it)."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        value = dump(mode="json")
    if value is None:
        return {}
    try:
        decoded: JSON = orjson.loads(orjson.dumps(value, default=str))
    except (TypeError, orjson.JSONEncodeError):
        return {}
    return decoded

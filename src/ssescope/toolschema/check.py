"""Checking one tool call's arguments against the schema its request declared.

:class:`ToolChecker` holds the tools of one request and answers, for a call, what is
wrong with it: a tool the request did not offer, or the arguments' mismatches with the
tool's JSON Schema (each with its JSON path and rule). The aggregator (at the end of a
stream) and :func:`ssescope.validate_tool_call` (for an agent about to run a call) both
ask it, and turn its :class:`Finding` values into diagnostics.

The checking itself is the ``jsonschema`` library's (the ``schema`` extra), imported on the
first check: the core does not need it, and without it a call is reported unchecked
(``tool.schema-unchecked``), never a crash. No schema is fetched from anywhere: a ``$ref``
that leaves the schema is an invalid schema here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .. import codes
from ..codes.spec import Code
from ..diagnostics import Diagnostic
from ..events import JSON
from .dialect import from_openapi, strict_form
from .request import DeclaredTool

__all__ = [
    "MAX_MISMATCHES",
    "Finding",
    "Mismatch",
    "ToolChecker",
    "json_path",
    "mismatched_calls",
]

MAX_MISMATCHES = 5
"""At most this many mismatches are reported per call (the last says how many more)."""

# While the arguments are still arriving, these rules may fail only because the rest has
# not come yet (on the objects and arrays the cut fell in).
_GROWING = frozenset(
    {
        "required",
        "minItems",
        "minProperties",
        "minContains",
        "contains",
        "dependentRequired",
        "dependencies",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "if",
        "then",
        "else",
    }
)


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One rule of the schema the arguments break.

    Attributes:
        path: the JSON path of the offending value (``$`` is the arguments object).
        rule: the schema keyword (``"required"``, ``"type"``, ``"enum"``…).
        schema_path: where the rule sits in the schema, as a JSON pointer (``#/required``).
        detail: jsonschema's sentence about it (it quotes the value).
        strict: ``True`` when only strict mode's rules find it (the schema as written
            does not say it).
    """

    path: str
    rule: str
    schema_path: str
    detail: str
    strict: bool = False


@dataclass(frozen=True, slots=True)
class Finding:
    """What a check found, as a diagnostic's code, form and arguments (the emitter adds
    the call's label, name and record)."""

    code: Code
    form: str | None = None
    args: dict[str, object] = field(default_factory=dict)


_MISMATCH_CODES = frozenset({"tool.schema-mismatch", "tool.not-offered"})


def mismatched_calls(diagnostics: Iterable[Diagnostic]) -> int:
    """How many calls break their request's tool schemas or call a tool not offered (the
    calls named by ``tool.schema-mismatch`` and ``tool.not-offered`` diagnostics)."""
    return len({(d.args or {}).get("label") for d in diagnostics if d.spec.name in _MISMATCH_CODES})


def json_path(parts: Iterable[object]) -> str:
    """``["a", 0, "b c"]`` as ``$.a[0]['b c']``."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and part.isidentifier():
            out += f".{part}"
        else:
            out += f"[{str(part)!r}]"
    return out


def _last_path(value: JSON) -> list[object]:
    """The path of the last value in document order: where a cut fell."""
    path: list[object] = []
    while True:
        if isinstance(value, dict) and value:
            key = next(reversed(value))
            path.append(key)
            value = value[key]
        elif isinstance(value, list) and value:
            path.append(len(value) - 1)
            value = value[-1]
        else:
            return path


class ToolChecker:
    """The tools of one request, and the checks of calls against them.

    Args:
        tools: the request's tools (:func:`~ssescope.toolschema.request.request_tools`).
    """

    def __init__(self, tools: Iterable[DeclaredTool]) -> None:
        self.tools: dict[str, DeclaredTool] = {}
        for tool in tools:
            self.tools.setdefault(tool.name, tool)
        self._validators: dict[tuple[str, bool], Any] = {}

    def __bool__(self) -> bool:
        return bool(self.tools)

    def offered(self, name: str | None) -> Finding | None:
        """A ``tool.not-offered`` finding for a call of ``name``, or ``None`` when the
        request offered it (or offered no tools at all)."""
        if not self.tools or name in self.tools:
            return None
        listed = ", ".join(repr(n) for n in list(self.tools)[:10])
        more = len(self.tools) - 10
        return Finding(
            codes.TOOL_NOT_OFFERED,
            args={"offered": listed + (f" and {more} more" if more > 0 else "")},
        )

    def check(self, name: str | None, value: JSON, *, cut: bool = False) -> list[Finding]:
        """The findings of a call of ``name`` whose arguments are ``value``.

        Args:
            name: the called tool's name.
            value: the parsed arguments (for a cut call, its partial JSON view).
            cut: whether the call was cut: required properties of the open objects, and
                the last value, are then not held against it.

        Returns:
            Nothing for a tool without schema or a call that matches; else one
            ``tool.schema-mismatch`` per mismatch (at most :data:`MAX_MISMATCHES`), or a
            ``tool.schema-unchecked`` when it could not be checked.
        """
        tool = self.tools.get(name) if name is not None else None
        if tool is None or tool.schema is None:
            return []
        base = {"where": tool.where}
        try:
            plain = self._validator(tool, strict=False)
            strict = self._validator(tool, strict=True) if tool.strict else None
        except ImportError:
            return [Finding(codes.TOOL_SCHEMA_UNCHECKED, "no-jsonschema")]
        except Exception as exc:  # a schema jsonschema refuses, whatever its complaint
            reason = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            args: dict[str, object] = {**base, "reason": _short(reason)}
            return [Finding(codes.TOOL_SCHEMA_UNCHECKED, "bad-schema", args)]
        try:
            found = self._mismatches(plain, value, strict=False)
            if strict is not None:
                seen = {(m.path, m.rule, m.detail) for m in found}
                found += [
                    m
                    for m in self._mismatches(strict, value, strict=True)
                    if (m.path, m.rule, m.detail) not in seen
                ]
        except Exception as exc:  # (an unresolvable $ref, a recursion): unchecked
            reason = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            args = {**base, "reason": _short(reason)}
            return [Finding(codes.TOOL_SCHEMA_UNCHECKED, "bad-schema", args)]
        if cut:
            found = _not_cut(found, value)
        found.sort(key=lambda m: (m.path, m.rule))
        kept = found[:MAX_MISMATCHES]
        out: list[Finding] = []
        for i, m in enumerate(kept):
            rest = len(found) - len(kept) if i == len(kept) - 1 else 0
            out.append(
                Finding(
                    codes.TOOL_SCHEMA_MISMATCH,
                    "cut" if cut else "ended",
                    {
                        **base,
                        "path": m.path,
                        "rule": m.rule,
                        "schema_path": m.schema_path,
                        "detail": m.detail,
                        "strict": ", strict mode" if m.strict else "",
                        "more": f"; and {rest} more mismatches" if rest else "",
                    },
                )
            )
        return out

    def cut(self, name: str | None, arguments: str) -> list[Finding]:
        """The findings of a call that the stream cut after ``arguments``: what arrived,
        read as partial JSON, checked with :meth:`check` (``cut=True``), then the note that
        fine-grained streaming allows it, for an eager tool."""
        from ..aggregate.partial_json import parse_partial  # (the aggregator imports this)

        value = parse_partial(arguments) if arguments.strip() else None
        found = []
        if isinstance(value, dict | list):
            found = [
                Finding(f.code, f.form, {**f.args, "n_arguments": len(arguments)})
                for f in self.check(name, value, cut=True)
            ]
        note = self.fine_grained(name, f"cut after {len(arguments)} characters")
        return found + ([note] if note is not None else [])

    def fine_grained(self, name: str | None, what: str) -> Finding | None:
        """A ``tool.fine-grained-streaming`` note about a call of ``name`` whose arguments
        are ``what`` (invalid JSON, cut), or ``None`` when its tool is not eager."""
        tool = self.tools.get(name) if name is not None else None
        if tool is None or not tool.eager:
            return None
        return Finding(codes.TOOL_FINE_GRAINED_STREAMING, args={"how": tool.eager, "what": what})

    def _validator(self, tool: DeclaredTool, *, strict: bool) -> Any:
        key = (tool.name, strict)
        validator = self._validators.get(key)
        if validator is None:
            from jsonschema import validators  # (the schema extra; imported on first use)

            schema: Any = tool.schema
            if tool.dialect == "openapi":
                schema = from_openapi(schema)
            if strict:
                schema = strict_form(schema)
            cls = validators.validator_for(schema, default=validators.Draft202012Validator)
            cls.check_schema(schema)
            validator = self._validators[key] = cls(schema)
        return validator

    @staticmethod
    def _mismatches(validator: Any, value: JSON, *, strict: bool) -> list[Mismatch]:
        return [
            Mismatch(
                json_path(error.absolute_path),
                str(error.validator),
                "#/" + "/".join(str(p) for p in error.absolute_schema_path),
                _short(error.message),
                strict,
            )
            for error in validator.iter_errors(value)
        ]


def _not_cut(found: list[Mismatch], value: JSON) -> list[Mismatch]:
    """The mismatches of a cut call that the cut cannot explain."""
    last = json_path(_last_path(value))
    kept = []
    for m in found:
        open_container = last == m.path or last.startswith((m.path + ".", m.path + "["))
        if m.rule in _GROWING and open_container:
            continue
        if m.path == last and m.rule != "type":
            continue
        kept.append(m)
    return kept


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"

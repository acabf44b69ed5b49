"""Diagnostics: everything that was wrong with a stream, as data.

Every diagnostic has a stable dotted ``code`` registered in :mod:`ssescope.codes` (which
documents it, in ``docs/diagnostics.md``, and fixes its severity and message template), a
``severity``, structured ``args`` (the offending value, the field, the expected form…), a
full-sentence ``message`` rendered from the template and the args, and where it happened:
the index of the record it belongs to and a byte offset in the body.

Emitters build them with :func:`diagnostic`; ``Diagnostic(code, severity, message, ...)``
still constructs one by hand (without args).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .codes import lookup
from .codes._spec import Piece, Severity

__all__ = ["Diagnostic", "Severity", "build", "diagnostic", "jsonable", "quote", "render"]

_SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding about a stream.

    Attributes:
        code: stable dotted identifier, e.g. ``"sse.invalid-retry"``.
        severity: ``"info"``, ``"warning"`` or ``"error"``.
        message: a full sentence quoting the offending value (truncated).
        offset: byte offset in the body where it happened, or ``None``.
        record: index of the record it belongs to, or ``None``.
        raw: the raw text concerned (e.g. an unterminated tail), or ``None``.
        args: the values the message is rendered from, by name (``None`` for a diagnostic
            built by hand with its message).
        form: which of the code's message forms was used, for a code that has several.
    """

    code: str
    severity: Severity
    message: str
    offset: int | None = None
    record: int | None = None
    raw: str | None = None
    args: Mapping[str, Any] | None = field(default=None, hash=False, compare=False)
    form: str | None = field(default=None, compare=False)

    def at_least(self, severity: Severity) -> bool:
        """Return whether this diagnostic is at least as severe as ``severity``."""
        return _SEVERITY_RANK[self.severity] >= _SEVERITY_RANK[severity]

    def to_dict(self) -> dict[str, object]:
        """Return the JSON form used in the Report."""
        out: dict[str, object] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "record": self.record,
            "offset": self.offset,
            "args": None if self.args is None else {k: jsonable(v) for k, v in self.args.items()},
        }
        if self.form is not None:
            out["form"] = self.form
        if self.raw is not None:
            out["raw"] = self.raw
        return out


def diagnostic(
    code: str,
    offset: int | None = None,
    record: int | None = None,
    raw: str | None = None,
    *,
    form: str | None = None,
    **args: object,
) -> Diagnostic:
    """Build the diagnostic ``code`` from its registry entry and its arguments.

    Args:
        code: a registered code (:mod:`ssescope.codes`).
        offset: byte offset where it happened.
        record: index of the record it belongs to.
        raw: the raw text concerned.
        form: the message form, for a code that has several.
        **args: the values its message template names.

    Raises:
        KeyError: for an unregistered code, an unknown form or a missing argument (bugs in
            the emitter, which the test suite catches).
    """
    return build(code, args, offset, record, raw, form)


def build(
    code: str,
    args: Mapping[str, object],
    offset: int | None = None,
    record: int | None = None,
    raw: str | None = None,
    form: str | None = None,
) -> Diagnostic:
    """:func:`diagnostic` with the arguments as a mapping (for helpers that pass them on)."""
    spec = lookup(code)
    return Diagnostic(
        code,
        spec.severity,
        render(spec.template(form), args, record),
        offset,
        record,
        raw,
        args,
        form,
    )


def render(pieces: tuple[Piece, ...], args: Mapping[str, Any], record: int | None) -> str:
    """Render a compiled message template with ``args`` (``{record}`` is ``record``)."""
    out: list[str] = []
    for literal, name, conversion, spec in pieces:
        out.append(literal)
        if name is None:
            continue
        value = record if name == "record" else args[name]
        if conversion == "q":
            out.append(quote(value, int(spec)) if spec else quote(value))
            continue
        if conversion == "r":
            value = repr(value)
        elif conversion == "s":
            value = str(value)
        elif conversion == "a":
            value = ascii(value)
        out.append(format(value, spec))
    return "".join(out)


def jsonable(value: Any, depth: int = 0) -> Any:
    """``value`` as strict JSON data: containers recursively, other objects as their text.

    A float JSON cannot hold (NaN, an infinity) becomes its text, and a container nested
    deeper than a few levels becomes its shortened ``repr``: the arguments of a diagnostic
    quote what was wrong, never carry a hostile value whole.
    """
    if value is None or isinstance(value, (str, int, bool)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    if depth >= _ARG_DEPTH and isinstance(value, (Mapping, list, tuple, set, frozenset)):
        return quote(value, 200)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v, depth + 1) for v in value), key=repr)
    return str(value)


_ARG_DEPTH = 8


def quote(value: object, limit: int = 60) -> str:
    """Return ``repr(value)`` shortened to about ``limit`` characters for messages."""
    if isinstance(value, str | bytes) and len(value) > 4 * limit:
        value = value[: 4 * limit]  # (a record may be gigabytes: never repr it whole)
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text

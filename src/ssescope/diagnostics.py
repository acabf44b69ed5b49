"""Diagnostics: everything that was wrong with a stream, as data.

Every diagnostic carries its code, a :class:`~ssescope.codes.spec.Code` object owned by
the layer that raised it (which documents it, in ``docs/diagnostics.md``, and fixes its
severity, layer and message template), structured ``args`` (the offending value, the
field, the expected form…), a full-sentence ``message`` rendered from the template and the
args, and where it happened: the index of the record it belongs to and a byte offset in
the body.

Emitters build them with :func:`diagnostic`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .codes.spec import Code, Form, Piece, Severity

__all__ = ["Diagnostic", "Severity", "build", "diagnostic", "jsonable", "quote", "render"]

_SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding about a stream.

    Attributes:
        spec: its code: name, severity, layer, whether it invalidates its record, and
            which arguments carry content.
        message: a full sentence quoting the offending value (truncated).
        offset: byte offset in the body where it happened, or ``None``.
        record: index of the record it belongs to, or ``None``.
        raw: the raw text concerned (e.g. an unterminated tail), or ``None``.
        args: the values the message is rendered from, by name (``None`` for a diagnostic
            built by hand with its message).
        form: which of the code's message forms was used, for a code that has several.
    """

    spec: Code
    message: str
    offset: int | None = None
    record: int | None = None
    raw: str | None = None
    args: Mapping[str, Any] | None = field(default=None, hash=False, compare=False)
    form: str | None = field(default=None, compare=False)

    @property
    def code(self) -> str:
        """The stable dotted name of its code, e.g. ``"sse.invalid-retry"``."""
        return self.spec.name

    @property
    def severity(self) -> Severity:
        """``"info"``, ``"warning"`` or ``"error"``: its code's one severity."""
        return self.spec.severity

    def at_least(self, severity: Severity) -> bool:
        """Return whether this diagnostic is at least as severe as ``severity``."""
        return _SEVERITY_RANK[self.spec.severity] >= _SEVERITY_RANK[severity]

    def to_dict(self) -> dict[str, object]:
        """Return the JSON form used in the Report."""
        out: dict[str, object] = {
            "code": self.spec.name,
            "severity": self.spec.severity,
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
    code: Code | Form,
    offset: int | None = None,
    record: int | None = None,
    raw: str | None = None,
    *,
    form: str | None = None,
    **args: object,
) -> Diagnostic:
    """Build a diagnostic of ``code`` from its arguments.

    Args:
        code: the code, or the raising layer's form of a shared code.
        offset: byte offset where it happened.
        record: index of the record it belongs to.
        raw: the raw text concerned.
        form: the message form, for a code that has several.
        **args: the values its message template names.

    Raises:
        KeyError: for an unknown form or a missing argument (bugs in the emitter, which
            the test suite catches).
    """
    return build(code, args, offset, record, raw, form)


def build(
    code: Code | Form,
    args: Mapping[str, object],
    offset: int | None = None,
    record: int | None = None,
    raw: str | None = None,
    form: str | None = None,
) -> Diagnostic:
    """:func:`diagnostic` with the arguments as a mapping (for helpers that pass them on)."""
    if isinstance(code, Form):
        spec = code.code
        pieces = code.template()
        form = code.name
    else:
        spec = code
        pieces = code.template(form)
    return Diagnostic(spec, render(pieces, args, record), offset, record, raw, args, form)


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

"""Diagnostics: everything that was wrong with a stream, as data.

Every diagnostic has a stable dotted ``code`` (documented in ``docs/diagnostics.md``),
a ``severity``, a full-sentence ``message`` that quotes the offending value, and where it
happened: the index of the record it belongs to and a byte offset in the body.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Diagnostic", "Severity", "quote"]

Severity = Literal["info", "warning", "error"]

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
    """

    code: str
    severity: Severity
    message: str
    offset: int | None = None
    record: int | None = None
    raw: str | None = None

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
        }
        if self.raw is not None:
            out["raw"] = self.raw
        return out


def quote(value: object, limit: int = 60) -> str:
    """Return ``repr(value)`` shortened to about ``limit`` characters for messages."""
    if isinstance(value, str | bytes) and len(value) > 4 * limit:
        value = value[: 4 * limit]  # (a record may be gigabytes: never repr it whole)
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text

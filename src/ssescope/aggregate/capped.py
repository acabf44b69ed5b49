"""Diagnostics kept in bounded memory: the first few of each code, then a count.

A stream of a million bad records must not become a million diagnostics: memory has to
stay proportional to the reply, not to the number of problems. :class:`DiagnosticCap`
keeps the first :data:`PER_CODE` diagnostics of each code and counts the rest; the
Report then carries one ``stream.diagnostics-capped`` diagnostic per code that was cut,
saying how many more there were.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from .. import codes
from ..diagnostics import Diagnostic, Severity, diagnostic
from ..limits import DIAGNOSTICS_PER_CODE

__all__ = ["PER_CODE", "DiagnosticCap"]

PER_CODE = DIAGNOSTICS_PER_CODE
"""How many diagnostics of one code a Report lists; the rest are counted."""

_RANK = {"info": 0, "warning": 1, "error": 2}


class DiagnosticCap:
    """Keeps the first ``per_code`` diagnostics of each code and counts the others.

    Args:
        per_code: how many of each code are kept.

    Records named by a dropped diagnostic whose code makes its record invalid are still
    counted (see :attr:`dropped_invalid_records`).
    """

    def __init__(self, per_code: int = PER_CODE) -> None:
        self.per_code = per_code
        self.kept: list[Diagnostic] = []
        self._counts: dict[str, int] = {}
        self._dropped: dict[str, tuple[int, Severity, int | None]] = {}
        self._kept_invalid: set[int] = set()
        self._last_dropped_invalid: int | None = None
        self.dropped_invalid_records = 0
        """Records named by a dropped invalid-record diagnostic and by no kept one."""
        self.track_invalid = False
        """Keep the index of every record named by an invalid-record diagnostic, kept or
        not, in :attr:`invalid_indexes` (8 bytes each; for frame views, which hold every
        record anyway)."""
        self.invalid_indexes: array[int] = array("q")

    def add(self, diagnostic: Diagnostic) -> None:
        """Keep ``diagnostic``, or count it when its code already has ``per_code``."""
        code = diagnostic.code
        seen = self._counts.get(code, 0)
        self._counts[code] = seen + 1
        record = diagnostic.record
        invalid = record is not None and diagnostic.spec.invalidates
        if invalid and self.track_invalid:
            indexes = self.invalid_indexes
            if not indexes or indexes[-1] != record:
                indexes.append(record)  # type: ignore[arg-type]
        if seen < self.per_code:
            self.kept.append(diagnostic)
            if invalid:
                self._kept_invalid.add(record)  # type: ignore[arg-type]
            return
        count, severity, first = self._dropped.get(code, (0, diagnostic.severity, record))
        if _RANK[diagnostic.severity] > _RANK[severity]:
            severity = diagnostic.severity
        self._dropped[code] = (count + 1, severity, first)
        if invalid and record != self._last_dropped_invalid and record not in self._kept_invalid:
            self._last_dropped_invalid = record
            self.dropped_invalid_records += 1

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        """:meth:`add` each of ``diagnostics``."""
        for found in diagnostics:
            self.add(found)

    def summaries(self) -> list[Diagnostic]:
        """One ``stream.diagnostics-capped`` diagnostic per code that had more than kept."""
        out: list[Diagnostic] = []
        for code, (count, severity, first) in self._dropped.items():
            out.append(
                diagnostic(
                    codes.STREAM_DIAGNOSTICS_CAPPED,
                    None,
                    first,
                    count=count,
                    of_code=code,
                    per_code=self.per_code,
                    first=first,
                    severity=severity,
                )
            )
        return out

"""The command line's exit codes (stable; documented in docs/cli.md)."""

from __future__ import annotations

from collections.abc import Iterable

from ..aggregate.report import Report

__all__ = [
    "COMPLETED",
    "FAILED",
    "FAIL_ON_CHOICES",
    "INCOMPLETE",
    "INTERNAL",
    "INTERRUPTED",
    "IN_FLIGHT",
    "MISMATCH",
    "STALLED",
    "TRUNCATED",
    "USAGE",
    "exit_code",
]

COMPLETED = 0
"""The stream reached its terminal state (``completed``, or ``incomplete`` by default)."""
INTERNAL = 1
"""Internal or I/O error."""
USAGE = 2
"""Usage error: bad option, missing file, a directory, binary data."""
TRUNCATED = 3
"""The bytes ended without any terminal marker."""
FAILED = 4
"""The provider reported an error in the stream, or the HTTP status was >= 400."""
MISMATCH = 5
"""Malformed frames under ``--strict``, diagnostics at the ``--fail-on`` level, or a
``check`` / ``replay`` difference."""
INCOMPLETE = 6
"""The response is ``incomplete`` (length, content filter, refusal) and
``--fail-on incomplete`` was given."""
STALLED = 7
"""A live request stalled (reserved for ``ssescope request``)."""
IN_FLIGHT = 8
"""The capture is still being written (an exchange of ``proxy --record`` in flight): no
verdict yet."""
INTERRUPTED = 130
"""Interrupted (Ctrl-C), or the response was ``cancelled``."""

FAIL_ON_CHOICES = ("incomplete", "warning", "error")


def exit_code(report: Report, *, strict: bool = False, fail_on: Iterable[str] = ()) -> int:
    """Map a Report to the exit code.

    Order: a failed stream (4) and a truncated one (3) and a cancelled one (130) win;
    then ``--strict`` / ``--fail-on warning|error`` (5); then ``--fail-on incomplete`` (6).
    """
    fail = set(fail_on)
    status = report.status
    if status == "failed" or (report.http_status is not None and report.http_status >= 400):
        return FAILED
    if status == "truncated":
        return TRUNCATED
    if status == "cancelled":
        return INTERRUPTED
    diags = report.diagnostics
    if strict and any(d.severity == "error" and d.spec.layer == "framing" for d in diags):
        return MISMATCH
    level = "warning" if "warning" in fail else "error" if "error" in fail else None
    if level is not None and any(d.at_least(level) for d in diags):  # type: ignore[arg-type]
        return MISMATCH
    if "incomplete" in fail and status == "incomplete":
        return INCOMPLETE
    return COMPLETED

"""Built-in ``on_report`` sinks: a log line for the streams worse than a threshold.

::

    Transport(on_report=[LogReports(worse_than="completed"), my_callback])

The line names the request (method, redacted URL, model), the verdict and why, the time
to first content and the codes of the error and warning diagnostics; never the content.
"""

from __future__ import annotations

import logging

from ..aggregate.report import Report

__all__ = ["VERDICT_ORDER", "LogReports", "describe"]

VERDICT_ORDER: tuple[str, ...] = ("completed", "incomplete", "cancelled", "truncated", "failed")
"""Verdicts from best to worst: ``worse_than="incomplete"`` logs cancelled, truncated and
failed streams."""


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f} s"


def describe(report: Report) -> str:
    """One line about a stream's Report, without its content."""
    req = report.request
    where = f"{req.method} {req.url}" if req is not None else report.container
    model = req.model if req is not None and req.model else report.response.model
    codes = sorted({d.code for d in report.diagnostics if d.severity in ("error", "warning")})
    parts = [
        f"{where}",
        f"model={model or '-'}",
        f"http={report.http_status if report.http_status is not None else '-'}",
        f"verdict={report.status} ({report.response.status_reason})",
        f"first_content={_seconds(report.timing.first_content_s)}",
        f"total={_seconds(report.timing.total_s)}",
    ]
    if codes:
        parts.append("diagnostics=" + ",".join(codes))
    return "ssescope: " + " ".join(parts)


class LogReports:
    """Log one line (the standard :mod:`logging`) per stream whose verdict is worse than
    ``worse_than``.

    Args:
        logger: the logger, or its name (default ``"ssescope.transport"``).
        worse_than: the best verdict that is not logged (:data:`VERDICT_ORDER`);
            ``None`` logs every stream.
        level: the level of the lines.
    """

    def __init__(
        self,
        logger: logging.Logger | str | None = None,
        *,
        worse_than: str | None = "completed",
        level: int = logging.WARNING,
    ) -> None:
        if worse_than is not None and worse_than not in VERDICT_ORDER:
            raise ValueError(
                f"unknown verdict {worse_than!r}; expected one of {', '.join(VERDICT_ORDER)}"
            )
        if logger is None or isinstance(logger, str):
            logger = logging.getLogger(logger or "ssescope.transport")
        self.logger = logger
        self.level = level
        self._floor = -1 if worse_than is None else VERDICT_ORDER.index(worse_than)

    def __call__(self, report: Report) -> None:
        """Log ``report`` if its verdict is worse than the threshold."""
        if VERDICT_ORDER.index(report.status) > self._floor:
            self.logger.log(self.level, "%s", describe(report))

"""Checks of what a container recorded around the body: its HTTP status and arrival times.

A capture written by somebody else may hold a negative status, or chunk times that are
negative, not finite, or going back. :func:`checked_status` and :class:`TimeCheck` turn
those into diagnostics and leave the values out, so timing and the Report stay sound.
"""

from __future__ import annotations

import math
from typing import Protocol

from .. import codes
from ..diagnostics import Diagnostic, diagnostic

__all__ = ["TimeCheck", "checked_status", "checked_time"]


class _Sink(Protocol):
    @property
    def bytes_seen(self) -> int: ...

    def add_diagnostic(self, diagnostic: Diagnostic) -> None: ...


def checked_status(status: object) -> tuple[int | None, Diagnostic | None]:
    """The container's HTTP status, or ``None`` and a diagnostic when it is not one."""
    if status is None:
        return None, None
    if isinstance(status, int) and not isinstance(status, bool) and 100 <= status <= 999:
        return status, None
    return None, diagnostic(codes.HTTP_INVALID_STATUS, 0, status=status)


def checked_time(value: object) -> float | None:
    """``value`` as seconds since the request started, or ``None`` when it is not one."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value) if abs(value) < 1e300 else math.inf
        return number if math.isfinite(number) and number >= 0 else None
    return None


class TimeCheck:
    """Checks a container's arrival times: finite, not negative, never going back."""

    def __init__(self, pipeline: _Sink) -> None:
        self._pipeline = pipeline
        self._last: float | None = None
        self._bad = 0
        self._first_bad: tuple[object, int] = (None, 0)  # value, offset
        self._back = 0
        self._first_back: tuple[float, float, int] = (0.0, 0.0, 0)  # from, to, offset

    def check(self, time: float | None) -> float | None:
        """The time to feed: ``None`` for a bad one, the last good one for one going back."""
        if time is None:
            return None
        good = checked_time(time)
        if good is None:
            if not self._bad:
                self._first_bad = (time, self._pipeline.bytes_seen)
            self._bad += 1
            return None
        last = self._last
        if last is not None and good < last:
            if not self._back:
                self._first_back = (last, good, self._pipeline.bytes_seen)
            self._back += 1
            return last
        self._last = good
        return good

    def report(self) -> None:
        """Add the diagnostics for the bad times seen (one per kind)."""
        if self._bad:
            value, offset = self._first_bad
            self._pipeline.add_diagnostic(
                diagnostic(codes.CONTAINER_INVALID_TIME, offset, n=self._bad, value=value)
            )
        if self._back:
            was, now, offset = self._first_back
            self._pipeline.add_diagnostic(
                diagnostic(
                    codes.CONTAINER_TIME_OUT_OF_ORDER, offset, n=self._back, was=was, now=now
                )
            )

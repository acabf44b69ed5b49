"""Stalls relative to the stream's own pace: a silence long for *this* stream.

An absolute threshold (``TimingOptions.stall_s``, 10 s) misses a stream that delivered
content every 30 ms and then went silent for 8 s mid tool call. Once content has begun,
a silence is also a stall when it lasts at least

    max(stall_floor_s, stall_pace × the median time between content records)

(at most ``stall_s``, which stays a stall whatever the pace). The median is taken over
the stream's timed content records (the first
:data:`~ssescope.limits.CONTENT_RECORDS_KEPT`); with fewer than :data:`MIN_GAPS` gaps
between them the pace is not known and the floor alone applies. The wait before the first
content (the model thinking, a queue) is judged by ``stall_s`` alone: there is no pace yet.

The silences that may be such stalls are noted as the records are counted
(:meth:`PaceStalls.bytes_gap`, :meth:`PaceStalls.content_gap`): only those of at least
the floor, which are rare; the threshold and the diagnostics come once, at the end
(:meth:`PaceStalls.threshold`, :meth:`PaceStalls.diagnostics`), so both timing forms give
the same ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from .. import codes
from ..diagnostics import Diagnostic, build, diagnostic

__all__ = ["MIN_GAPS", "NOTED", "PaceStalls"]

MIN_GAPS = 8
"""Gaps between content records needed before the stream's pace counts."""
NOTED = 64
"""The most silences of each kind noted per stream (enough for the 20 stalls reported)."""


@dataclass(frozen=True, slots=True)
class _Gap:
    """A silence with no record at all: ``gap`` seconds, ending at record ``index``."""

    gap: float
    end: float
    offset: int
    index: int


@dataclass(frozen=True, slots=True)
class _Quiet:
    """A silence without content, ``start`` to ``end``, while ``records`` others arrived."""

    start: float
    end: float
    offset: int
    index: int
    records: int


class PaceStalls:
    """The silences that may be stalls for the stream's pace, and the stalls at the end.

    Args:
        stall_s: the absolute threshold (silences this long are reported elsewhere).
        floor_s: the least a pace-relative threshold can be.
        pace: the factor of the median gap; ``None`` turns this off (``stall_s`` alone).
    """

    def __init__(self, stall_s: float, floor_s: float, pace: float | None) -> None:
        self.stall_s = stall_s
        self.floor_s = min(floor_s, stall_s)
        self.pace = pace
        self.low = self.floor_s if pace is not None else float("inf")
        """Silences shorter than this are never noted (the cheap test of the hot loop)."""
        self.gaps: list[_Gap] = []
        self.quiets: list[_Quiet] = []

    def bytes_gap(self, gap: float, end: float, offset: int, index: int) -> None:
        """A silence of ``gap`` s with no record, ending at record ``index`` at ``end``
        (called only for ``low <= gap < stall_s``)."""
        if len(self.gaps) < NOTED:
            self.gaps.append(_Gap(gap, end, offset, index))

    def content_gap(self, start: float, end: float, offset: int, index: int, records: int) -> None:
        """A silence without content between two content records (``low`` or longer,
        shorter than ``stall_s``)."""
        if len(self.quiets) < NOTED:
            self.quiets.append(_Quiet(start, end, offset, index, records))

    def threshold(self, content_times: Sequence[float]) -> float:
        """The stall threshold after the first content, from the stream's pace."""
        if self.pace is None:
            return self.stall_s
        gaps = sorted(b - a for a, b in pairwise(content_times))
        limit = self.floor_s
        if len(gaps) >= MIN_GAPS:
            n = len(gaps)
            median = gaps[n // 2] if n % 2 else (gaps[n // 2 - 1] + gaps[n // 2]) / 2
            limit = max(limit, self.pace * median)
        return round(min(limit, self.stall_s), 1)

    def diagnostics(
        self,
        content_times: Sequence[float],
        tail: tuple[float, float, int, int, int] | None,
        room: int,
    ) -> list[Diagnostic]:
        """The ``timing.stall`` diagnostics of the silences noted that reach the threshold,
        at most ``room`` of them.

        Args:
            content_times: the arrival time of each content record, in order.
            tail: the silence after the last record and after the last content, when the
                body ended: ``(bytes tail, content tail, offset, index, records)`` of the
                last record; ``None`` when it is not to be judged.
            room: how many more stalls may be reported.
        """
        if self.pace is None or not content_times or room <= 0:
            return []
        first = content_times[0]
        if not self.gaps and not self.quiets and (tail is None or max(tail[:2]) < self.low):
            return []
        limit = self.threshold(content_times)
        gaps = [g for g in self.gaps if g.gap >= limit and g.end - g.gap >= first]
        found: list[tuple[int, Diagnostic]] = [
            (g.index, self._stall("gap", g.offset, g.index, "bytes", limit, gap=g.gap))
            for g in gaps
        ]
        for q in self.quiets:
            gap = q.end - q.start
            inside = any(q.start < g.end <= q.end for g in gaps)
            if gap >= limit and not inside:
                stall = self._stall(
                    "content-gap", q.offset, q.index, "content", limit, gap=gap, records=q.records
                )
                found.append((q.index, stall))
        found.sort(key=lambda item: item[0])
        out = [d for _, d in found]
        if tail is not None:
            out += self._tail(tail, limit, content_times[-1], gaps)
        return out[:room]

    @staticmethod
    def _stall(
        form: str, offset: int, index: int, kind: str, limit: float, **args: object
    ) -> Diagnostic:
        return build(
            codes.TIMING_STALL, {"kind": kind, **args, "stall_s": limit}, offset, index, None, form
        )

    def _tail(
        self,
        tail: tuple[float, float, int, int, int],
        limit: float,
        last_content: float,
        gaps: list[_Gap],
    ) -> list[Diagnostic]:
        """The silence until the body ended, as a bytes or a content stall."""
        after, quiet, offset, index, records = tail
        if limit <= after < self.stall_s:
            stall = diagnostic(
                codes.TIMING_STALL,
                offset,
                index,
                form="tail",
                kind="bytes",
                tail=after,
                stall_s=limit,
            )
            return [stall]
        covered = after >= self.stall_s or any(g.end > last_content for g in gaps)
        if limit <= quiet < self.stall_s and records and not covered:
            stall = diagnostic(
                codes.TIMING_STALL,
                offset,
                index,
                form="content-tail",
                kind="content",
                gap=quiet,
                records=records,
                stall_s=limit,
            )
            return [stall]
        return []

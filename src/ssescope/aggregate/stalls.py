"""The silences and bursts both timing forms find, counted and reported the same way.

:func:`~ssescope.aggregate.timing.compute_timing` (over every record's time) and
:class:`~ssescope.aggregate.timing_summary.TimingSummary` (running figures, in constant
memory) must give the same Timing and diagnostics. What they share is here: the
content-idle counter (:class:`ContentIdle`), the ``timing.stall`` and ``timing.burst``
diagnostics, and the judgement of the silence at the end of the stream.
"""

from __future__ import annotations

from array import array

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..limits import CONTENT_RECORDS_KEPT
from .content import CONTENT_KINDS
from .pace import PaceStalls
from .report import Timing

__all__ = ["STALLS_KEPT", "ContentIdle", "burst", "bytes_stall"]

STALLS_KEPT = 20
"""How many ``timing.stall`` diagnostics a stream reports, at the most."""


def bytes_stall(offset: int, index: int, gap: float, stall_s: float) -> Diagnostic:
    """The ``timing.stall`` of a silence of ``gap`` seconds without any record, ended by
    record ``index`` (at byte ``offset``)."""
    return diagnostic(
        codes.TIMING_STALL, offset, index, form="gap", kind="bytes", gap=gap, stall_s=stall_s
    )


def burst(offset: int, index: int, count: int, window_s: float, wait: float) -> Diagnostic:
    """The ``timing.burst`` of ``count`` records within ``window_s`` after a wait of
    ``wait`` seconds, the first of them record ``index`` (at byte ``offset``)."""
    return diagnostic(
        codes.TIMING_BURST, offset, index, count=count, window_ms=window_s * 1000, wait=wait
    )


class ContentIdle:
    """The content-idle time, counted record by record (the same in both timing forms).

    Args:
        start: the first byte's arrival time, where the first silence begins.
        stall_s: a silence at least this long is a ``timing.stall``.
        stall_floor_s: the shortest stall for the stream's pace (see
            :mod:`ssescope.aggregate.pace`).
        stall_pace: how many median content gaps make a stall for the pace, or ``None``.
    """

    def __init__(
        self, start: float, stall_s: float, stall_floor_s: float, stall_pace: float | None
    ) -> None:
        self.pace = PaceStalls(stall_s, stall_floor_s, stall_pace)
        """The silences that may be stalls for the stream's pace."""
        self.seen = 0  # content records so far
        self.last = start  # when the last content record arrived (or the first byte)
        self.longest = 0.0
        self.kind = -1  # what the last content record carried (-1: none yet)
        self.longest_after = -1  # what the content before the longest silence carried
        self.between = 0  # records since the last content record
        self.covered = False  # whether a bytes stall lies inside the current silence
        self.times: array[float] = array("d")
        """The arrival time of each content record (the first CONTENT_RECORDS_KEPT)."""
        self.stall_s = stall_s
        self.low = self.pace.low
        """Silences shorter than this are never noted for the pace (``pace.low``)."""

    def bytes_stall(self) -> None:
        """A bytes stall lies inside the current silence (it is reported as that)."""
        self.covered = True

    def record(
        self, time: float, content: bool, offset: int, index: int, kind: int = 0
    ) -> Diagnostic | None:
        """Count record ``index`` (at byte ``offset``); a ``timing.stall`` of kind content
        when it is a content record ending a long silence. ``kind`` is what a content
        record carried (an index in :data:`~ssescope.aggregate.content.CONTENT_KINDS`)."""
        if not content:
            self.between += 1
            return None
        last = self.last
        gap = time - last
        if gap > self.longest:
            self.longest = gap
            self.longest_after = self.kind
        self.kind = kind
        times = self.times
        if len(times) < CONTENT_RECORDS_KEPT:
            times.append(time)
        found = None
        if gap >= self.stall_s:
            if not self.covered:
                found = self._stall("content-gap", gap, offset, index)
        elif gap >= self.low and self.seen:
            self.pace.content_gap(last, time, offset, index, self.between)
        self.seen += 1
        self.last = time
        self.between = 0
        self.covered = False
        return found

    def end_of_stream(
        self,
        tail: float,
        last_byte: float,
        judged: bool,
        offset: int,
        index: int,
        reported: int,
    ) -> list[Diagnostic]:
        """The stalls of the stream's end: those for its pace, then the silence of
        ``tail`` seconds after the last record (record ``index``, at byte ``offset``), until
        the body ended at ``last_byte``. The silence itself is reported only when
        ``judged`` (there were records, and the live client did not report it already),
        and only while fewer than :data:`STALLS_KEPT` stalls were ``reported``."""
        content_tail = last_byte - self.last
        if content_tail > self.longest:
            self.longest = content_tail
            self.longest_after = self.kind
        if tail >= self.stall_s:
            self.covered = True
        judged_tail = tail if judged else None
        found = self.pace.diagnostics(
            self.times,
            None if judged_tail is None else (tail, content_tail, offset, index, self.between),
            STALLS_KEPT - reported,
        )
        if judged and reported < STALLS_KEPT:
            if tail >= self.stall_s:
                # silence after the last record, until the body ended (or the client gave up)
                found.append(
                    diagnostic(
                        codes.TIMING_STALL,
                        offset,
                        index,
                        form="tail",
                        kind="bytes",
                        tail=tail,
                        stall_s=self.stall_s,
                    )
                )
            elif content_tail >= self.stall_s and not self.covered and self.between:
                found.append(self._stall("content-tail", content_tail, offset, index))
        return found

    def fill(self, timing: Timing) -> None:
        """Set the content-idle figures of ``timing``."""
        timing.max_content_idle_s = round(max(self.longest, 0.0), 6)
        timing.max_content_idle_after = (
            None if self.longest_after < 0 else CONTENT_KINDS[self.longest_after]
        )
        timing.content_times = self.times

    def _stall(self, form: str, gap: float, offset: int, index: int) -> Diagnostic:
        return diagnostic(
            codes.TIMING_STALL,
            offset,
            index,
            form=form,
            kind="content",
            gap=gap,
            records=self.between,
            stall_s=self.stall_s,
        )

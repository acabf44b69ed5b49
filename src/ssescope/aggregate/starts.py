"""Where each record starts in the body: one machine integer per record, except comments.

A stream may be nothing but comments (300 MB of ``:\\n`` is 150 million records), and a
comment needs its offset only to be looked up, never to be stored one by one. Comments
that follow each other at the same distance (``: ping`` every time, the same
keep-alive line) are kept as a run: the first one's index and offset, how many, and
the distance between them. Any other record's offset is an 8-byte machine integer.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from typing import Protocol

__all__ = ["Offsets", "RecordStarts"]


class Offsets(Protocol):
    """What gives a record's offset by its index (:class:`RecordStarts`, a list)."""

    def __getitem__(self, index: int, /) -> int:
        """The offset of record ``index``."""
        ...


class RecordStarts:
    """The byte offset of every record, by record index (records arrive in order).

    :attr:`array` holds the offset of each record except the second and later comments
    of a run (the framing loop appends a data record's offset to it directly);
    :meth:`comment` adds a comment. Three more machine integers describe each run.
    """

    def __init__(self) -> None:
        """An empty sequence of offsets."""
        self.array: array[int] = array("q")
        self._first = array("q")  # the index of each closed run's first comment
        self._skipped = array("q")  # comments left out of ``array`` up to each closed run
        self._stride = array("q")  # the distance between the comments of each closed run
        self._run_first = -1  # the open run: its first comment's index
        self._run_start = 0  # … its offset, its count, and its distance
        self._run_count = 0
        self._run_stride = 0

    def comment(self, index: int, start: int) -> None:
        """Add comment number ``index``, which starts at byte ``start``."""
        count = self._run_count
        if count and index == self._run_first + count:
            if count == 1 and start > self._run_start:
                self._run_stride = start - self._run_start
                self._run_count = 2
                return
            if count > 1 and start == self._run_start + count * self._run_stride:
                self._run_count = count + 1
                return
        self._close()
        self.array.append(start)
        self._run_first, self._run_start, self._run_count = index, start, 1

    def _close(self) -> None:
        # the open run becomes a closed one (a run of one comment is just its offset)
        if self._run_count > 1:
            before = self._skipped[-1] if self._skipped else 0
            self._first.append(self._run_first)
            self._skipped.append(before + self._run_count - 1)
            self._stride.append(self._run_stride)
        self._run_count = 0

    def _open_skipped(self) -> int:
        return self._run_count - 1 if self._run_count > 1 else 0

    def __len__(self) -> int:
        """How many records have an offset (every record added)."""
        closed = self._skipped[-1] if self._skipped else 0
        return len(self.array) + closed + self._open_skipped()

    def get(self, index: int) -> int | None:
        """The offset of record ``index``, or ``None`` when there is no such record."""
        if index < 0 or index >= len(self):
            return None
        closed = self._skipped[-1] if self._skipped else 0
        count = self._run_count
        if count > 1 and index >= self._run_first:
            if index < self._run_first + count:
                return self._run_start + (index - self._run_first) * self._run_stride
            return self.array[index - closed - (count - 1)]
        k = bisect_right(self._first, index) - 1
        if k < 0:
            return self.array[index]
        before = self._skipped[k - 1] if k else 0
        first = self._first[k]
        if index <= first + self._skipped[k] - before:
            return self.array[first - before] + (index - first) * self._stride[k]
        return self.array[index - self._skipped[k]]

    def __getitem__(self, index: int) -> int:
        """The offset of record ``index``.

        Raises:
            IndexError: there is no such record.
        """
        found = self.get(index)
        if found is None:
            raise IndexError(index)
        return found

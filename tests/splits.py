"""Chunkings of a body, for the split invariant every incremental layer must keep.

Feeding the same bytes in any chunking must give the same output: the whole body at
once, one byte at a time, and every split into two pieces (exhaustive, so keep the
bodies these are used on small).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import pairwise
from typing import Protocol

__all__ = ["Feedable", "all_splits", "assert_split_invariant", "chunk_at", "feed_all"]


class Feedable(Protocol):
    """The incremental shape: ``feed`` chunks, then ``close``."""

    def feed(self, data: bytes, time: float | None = None) -> Sequence[object]:
        """Parse another chunk."""

    def close(self, time: float | None = None) -> Sequence[object]:
        """Signal the end of the input."""


def all_splits(data: bytes) -> Iterator[list[bytes]]:
    """Yield ``data`` whole, one byte at a time, then split in two at every position."""
    yield [data]
    yield [data[i : i + 1] for i in range(len(data))]
    for k in range(1, len(data)):
        yield [data[:k], data[k:]]


def chunk_at(data: bytes, cuts: Iterable[int]) -> list[bytes]:
    """``data`` cut at the given positions (out-of-range and repeated cuts are ignored)."""
    points = sorted({c for c in cuts if 0 < c < len(data)})
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in pairwise(bounds)]


def feed_all(
    parser: Feedable, chunks: Sequence[bytes], times: Sequence[float | None] | None = None
) -> list[object]:
    """Feed every chunk (with its time, if given), close, and return all the output."""
    out: list[object] = []
    for k, chunk in enumerate(chunks):
        out += parser.feed(chunk, None if times is None else times[k])
    out += parser.close()
    return out


def assert_split_invariant(factory: Callable[[], Feedable], data: bytes) -> list[object]:
    """Check that every chunking of ``data`` gives the same output; return that output."""
    expected = feed_all(factory(), [data])
    for chunks in all_splits(data):
        got = feed_all(factory(), chunks)
        assert got == expected, f"chunking {[bytes(c) for c in chunks]!r} changed the output"
    return expected

"""The chunkings a test runs under: how the same bytes are cut into network reads."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CHUNKINGS", "WHOLE", "chunkings", "resolve"]

WHOLE = "whole"
"""The whole body in one read."""

SPLIT_UTF8 = "split-utf8"
"""One read per record, and a read boundary inside every multi-byte UTF-8 character."""


def chunkings(seeds: Iterable[int] = (1, 2, 3)) -> list[str]:
    """The chunkings :data:`CHUNKINGS` holds, with these random seeds.

    Each is a value for ``ssescope_server.url(..., chunk=...)``: ``"whole"``, ``"1"`` (one
    byte per read), ``"random:SEED"`` (reads of 1 to 64 bytes, reproducible) and
    ``"split-utf8"``.
    """
    return [WHOLE, "1", *(f"random:{seed}" for seed in seeds), SPLIT_UTF8]


CHUNKINGS: tuple[str, ...] = tuple(chunkings())
"""The chunkings the ``ssescope_chunking`` fixture runs a test under, by default."""


def resolve(chunk: int | str, size: int) -> tuple[str, list[str]]:
    """The replay server's chunk option and extra faults for a chunking name."""
    if chunk == WHOLE:
        return str(max(1, size)), []
    if chunk == SPLIT_UTF8:
        return "original", ["split-utf8"]
    return str(chunk), []

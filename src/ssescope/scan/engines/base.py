"""What every engine gives the scan: judged batches, and how many inputs they covered."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pyarrow as pa

__all__ = ["ENGINES", "Batches", "Job", "error_batch"]

ENGINES = ("local", "ray")
"""The ``--engine`` choices."""


@dataclass(frozen=True)
class Job:
    """One input batch for the kernel and the name of its body column."""

    batch: pa.RecordBatch
    body: str


@dataclass
class Batches:
    """The judged output of an engine.

    Attributes:
        schema: the rows' schema (carried columns, then the result columns).
        total: how many inputs (files and table rows) will be judged, when known.
        batches: ``(inputs covered, judged rows)`` as they finish.
    """

    schema: pa.Schema
    total: int | None
    batches: Iterator[tuple[int, pa.RecordBatch]]


def error_batch(items: list[tuple[str, str]]) -> pa.RecordBatch:
    """An input batch for inputs that could not be read: ``source``, null body, ``error``."""
    return pa.RecordBatch.from_pydict(
        {
            "source": [s for s, _ in items],
            "body": pa.nulls(len(items), pa.binary()),
            "error": [e for _, e in items],
        }
    )

"""What a provider's quirk module works on: the stream's records, as data.

A quirk reproduces what a real server or gateway does to a stream. The replay server
(``ssescope.serve.quirks``) frames the body into :class:`WireRecord` values, hands them
to the provider's own quirk module (the ``quirks`` module of its package),
and writes the records it gets back in the stream's framing. Nothing here does I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from ..errors import UsageError

__all__ = [
    "QuirkRefused",
    "QuirkTransform",
    "WireRecord",
    "data_indices",
    "load",
    "midpoint",
    "record_midpoint",
    "rewrite",
    "take_field",
]


class QuirkRefused(UsageError):
    """A quirk that makes no sense for this stream (its provider, or what it holds)."""


@dataclass(frozen=True, slots=True)
class WireRecord:
    """One record of the stream.

    Attributes:
        event: the SSE event type (``None`` when the block had none, or for NDJSON).
        data: the record's data text; ``None`` for a comment.
        raw: the record's bytes as they were, with what preceded it since the previous
            record; empty for a record a quirk wrote or changed (it is framed afresh).
    """

    event: str | None
    data: str | None
    raw: bytes = b""


QuirkTransform: TypeAlias = Callable[[list[WireRecord]], list[WireRecord]]
"""A quirk as a provider module implements it: records in, records out."""


def load(record: WireRecord) -> Any:
    """The record's JSON value, or ``None`` for a comment, ``[DONE]`` or invalid JSON."""
    if record.data is None:
        return None
    try:
        return json.loads(record.data)
    except ValueError:
        return None


def rewrite(record: WireRecord, value: object) -> WireRecord:
    """The record with ``value`` as its data (compact JSON), to be framed afresh."""
    data = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return replace(record, data=data, raw=b"")


def take_field(
    records: Sequence[WireRecord],
    chunks: Sequence[tuple[int, dict[str, Any]]],
    key: str,
    rest: Callable[[dict[str, Any]], dict[str, Any] | None],
) -> tuple[list[WireRecord], Any]:
    """Take ``key`` out of the ``chunks`` (``(position, decoded record)``) that carry it.

    ``rest(chunk)`` is what such a chunk becomes without it, or ``None`` when nothing is
    left worth sending (the record is dropped). Returns the records and the last value.

    Raises:
        QuirkRefused: no chunk carries ``key``.
    """
    value: Any = None
    out = list(records)
    drop: set[int] = set()
    for i, chunk in chunks:
        if chunk.get(key):
            value = chunk[key]
            new = rest(chunk)
            if new is None:
                drop.add(i)
            else:
                out[i] = rewrite(records[i], new)
    if value is None:
        raise QuirkRefused(f"the stream reports no {key} to move into a usage-only chunk")
    return [r for i, r in enumerate(out) if i not in drop], value


def data_indices(records: Sequence[WireRecord]) -> list[int]:
    """Positions of the records that carry data (not comments)."""
    return [i for i, r in enumerate(records) if r.data is not None]


def midpoint(records: Sequence[WireRecord], is_content: Callable[[Any], bool]) -> int:
    """The position just after the first half of the records whose JSON value
    ``is_content`` accepts (at least one).

    Raises:
        QuirkRefused: the stream has no content record to stop after.
    """
    return record_midpoint(records, lambda record: is_content(load(record)))


def record_midpoint(records: Sequence[WireRecord], is_content: Callable[[WireRecord], bool]) -> int:
    """Like :func:`midpoint`, for a test that needs the whole record (its event too).

    Raises:
        QuirkRefused: the stream has no content record to stop after.
    """
    content = [i for i, r in enumerate(records) if is_content(r)]
    if not content:
        raise QuirkRefused("the stream has no content to interrupt")
    return content[max(0, (len(content) - 1) // 2)] + 1

"""Shorthands for the framing tests."""

from __future__ import annotations

from collections.abc import Sequence

from ssescope.diagnostics import Diagnostic
from ssescope.framing import SSEComment, SSEEvent, SSEParser

from ..splits import assert_split_invariant, feed_all

__all__ = ["codes", "comments", "diags", "events", "pairs", "parse", "parse_chunks"]


def parse(data: bytes, **options: int) -> list[object]:
    """Parse ``data`` with SSEParser in every chunking (they must agree); return the output."""
    return assert_split_invariant(lambda: SSEParser(**options), data)


def parse_chunks(chunks: list[bytes], **options: int) -> list[object]:
    """Parse exactly these chunks (no split check)."""
    return feed_all(SSEParser(**options), chunks)


def events(out: Sequence[object]) -> list[SSEEvent]:
    """The dispatched events of an output."""
    return [r for r in out if isinstance(r, SSEEvent)]


def pairs(out: Sequence[object]) -> list[tuple[str, str]]:
    """(event type, data) of each dispatched event."""
    return [(e.event, e.data) for e in events(out)]


def comments(out: Sequence[object]) -> list[SSEComment]:
    """The comment records of an output."""
    return [r for r in out if isinstance(r, SSEComment)]


def diags(out: Sequence[object], code: str | None = None) -> list[Diagnostic]:
    """The diagnostics of an output (only those with ``code``, if given)."""
    return [r for r in out if isinstance(r, Diagnostic) and (code is None or r.code == code)]


def codes(out: Sequence[object]) -> list[str]:
    """The codes of the diagnostics of an output, in order."""
    return [d.code for d in diags(out)]

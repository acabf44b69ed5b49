"""``ssescope.inspect``: the one-call entry point (file, bytes or chunks in, Report out)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from .aggregate.report import Report
from .aggregate.timing import TimingOptions
from .errors import UsageError
from .pipeline import Pipeline

__all__ = ["Source", "inspect"]

Source = bytes | bytearray | memoryview | str | os.PathLike[str] | Iterable[bytes]
"""What :func:`inspect` accepts: body bytes, a path, or an iterable of byte chunks."""

_READ_SIZE = 1 << 16


def _chunks_of(source: Source) -> Iterable[bytes]:
    if isinstance(source, bytes | bytearray | memoryview):
        return [bytes(source)]
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        if path.is_dir():
            raise UsageError(f"{str(path)!r} is a directory, not a stream file")
        if not path.exists():
            raise UsageError(f"no such file: {str(path)!r}")
        return _read_file(path)
    return source


def _read_file(path: Path) -> Iterable[bytes]:
    with path.open("rb") as fp:
        while chunk := fp.read(_READ_SIZE):
            yield chunk


def inspect(
    source: Source,
    *,
    provider: str = "auto",
    framing: str = "auto",
    max_event_bytes: int | None = None,
    timing: TimingOptions | None = None,
) -> Report:
    """Inspect a captured stream body.

    Args:
        source: the body as bytes, a path to a file holding it, or an iterable of chunks.
        provider: ``"auto"`` or a provider name (``ssescope.PROVIDERS``).
        framing: ``"auto"`` or ``"sse"``, ``"ndjson"``, ``"json-array"``, ``"aws-eventstream"``.
        max_event_bytes: opt-in cap on one SSE event block.
        timing: thresholds for the timing diagnostics.

    Returns:
        The :class:`Report`.

    Raises:
        UsageError: for an unknown provider or framing, a missing file or a directory.
    """
    pipeline = Pipeline(
        provider=provider, framing=framing, max_event_bytes=max_event_bytes, timing=timing
    )
    for chunk in _chunks_of(source):
        if not isinstance(chunk, bytes | bytearray | memoryview):
            raise UsageError(f"chunks must be bytes, got {type(chunk).__name__}")
        pipeline.feed(bytes(chunk))
    pipeline.close()
    return pipeline.report()

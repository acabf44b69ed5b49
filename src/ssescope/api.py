"""``ssescope.inspect``: the one-call entry point (file, bytes or chunks in, Report out)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from .aggregate.report import Report
from .aggregate.timing import TimingOptions
from .containers import (
    DETECT_BYTES,
    LOST_CHUNKS,
    LOST_HEADERS,
    LOST_REQUEST,
    LOST_TIMING,
    Body,
    detect_container,
    read_container,
)
from .errors import UsageError
from .pipeline import Pipeline
from .providers._base import AdapterOutput

__all__ = ["Source", "feed_body", "feed_raw", "inspect", "open_chunks"]

Source = bytes | bytearray | memoryview | str | os.PathLike[str] | Iterable[bytes]
"""What :func:`inspect` accepts: body bytes, a path, or an iterable of byte chunks."""

_READ_SIZE = 1 << 16


def feed_body(
    pipeline: Pipeline,
    body: Body,
    on_events: Callable[[list[AdapterOutput]], None] | None = None,
) -> Pipeline:
    """Feed an unwrapped container :class:`Body` into ``pipeline`` and close it.

    The container's name, HTTP status, losses and diagnostics go into the Report; chunks
    are fed with their arrival times; a capture that says the client cancelled marks the
    response cancelled.

    Args:
        pipeline: a new pipeline.
        body: what :func:`ssescope.containers.read_container` unwrapped.
        on_events: called with the events (and diagnostics) of each chunk, as
            :meth:`Pipeline.feed` returns them, and with those of the close.

    Returns:
        The same pipeline, closed (call :meth:`Pipeline.report`).
    """
    pipeline.container = body.container
    pipeline.http_status = body.status
    pipeline.lost = list(body.lost)
    for diagnostic in body.diagnostics:
        pipeline.add_diagnostic(diagnostic)
    last = body.timing.get("total_s")
    for chunk in body.chunks:
        events = pipeline.feed(chunk.data, chunk.time)
        if on_events is not None:
            on_events(events)
        if chunk.time is not None and (last is None or chunk.time > last):
            last = chunk.time
    if body.end == "cancelled":
        pipeline.cancel("the capture says the client cancelled the stream")
    events = pipeline.close(last)
    if on_events is not None:
        on_events(events)
    return pipeline


_RAW_LOST = (LOST_TIMING, LOST_CHUNKS, LOST_HEADERS, LOST_REQUEST)


def open_chunks(chunks: Iterator[bytes], container: str = "auto") -> Body | Iterator[bytes]:
    """Unwrap the container of an input that arrives in chunks (a file, stdin).

    Returns:
        The unwrapped :class:`Body` (containers need the whole input), or, for a raw
        body, an iterator over the same chunks: streamed on, never held whole, so a 50 MB
        capture is inspected in bounded memory.

    Raises:
        UsageError: for an unknown container name.
    """
    if container == "raw":
        return chunks
    head = b""
    if container == "auto":
        for chunk in chunks:
            head += chunk
            if len(head) >= DETECT_BYTES:
                break
        container = detect_container(head)[0]
        if container == "raw":
            return itertools.chain((head,) if head else (), chunks)
    return read_container(head + b"".join(chunks), container=container)


def feed_raw(
    pipeline: Pipeline,
    chunks: Iterable[bytes],
    on_events: Callable[[list[AdapterOutput]], None] | None = None,
) -> Pipeline:
    """Feed a raw body (no container, no arrival times) into ``pipeline`` and close it.

    Args:
        pipeline: a new pipeline.
        chunks: the body, in any chunking.
        on_events: called as in :func:`feed_body`.

    Returns:
        The same pipeline, closed.
    """
    pipeline.container = "raw"
    pipeline.lost = list(_RAW_LOST)
    if on_events is None:
        for chunk in chunks:
            pipeline.feed(chunk)
        pipeline.close()
        return pipeline
    for chunk in chunks:
        on_events(pipeline.feed(chunk))
    on_events(pipeline.close())
    return pipeline


def _file_chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as fp:
        while chunk := fp.read(_READ_SIZE):
            yield chunk


def inspect(
    source: Source,
    *,
    provider: str = "auto",
    framing: str = "auto",
    container: str = "auto",
    max_event_bytes: int | None = None,
    timing: TimingOptions | None = None,
) -> Report:
    """Inspect a captured stream.

    Args:
        source: bytes (a body or any container: ``curl -i`` output, a curl trace, a HAR,
            an ``.ssecap`` capture, a JSONL dump), a path to a file holding one, or an
            iterable of raw body chunks.
        provider: ``"auto"`` or a provider name (``ssescope.PROVIDERS``).
        framing: ``"auto"`` or ``"sse"``, ``"ndjson"``, ``"json-array"``, ``"aws-eventstream"``.
        container: ``"auto"`` or a container name (``ssescope.containers.CONTAINERS``);
            ignored for an iterable of chunks, which is always a raw body.
        max_event_bytes: opt-in cap on one SSE event block.
        timing: thresholds for the timing diagnostics.

    Returns:
        The :class:`Report`.

    Raises:
        UsageError: for an unknown provider, framing or container, a missing file or a
            directory, or chunks that are not bytes.
    """
    pipeline = Pipeline(
        provider=provider,
        framing=framing,
        max_event_bytes=max_event_bytes,
        timing=timing,
        collect_events=False,
    )
    if isinstance(source, bytes | bytearray | memoryview):
        feed_body(pipeline, read_container(bytes(source), container=container))
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        if path.is_dir():
            raise UsageError(f"{str(path)!r} is a directory, not a stream file")
        if not path.exists():
            raise UsageError(f"no such file: {str(path)!r}")
        opened = open_chunks(_file_chunks(path), container)
        if isinstance(opened, Body):
            feed_body(pipeline, opened)
        else:
            feed_raw(pipeline, opened)
    else:
        for chunk in source:
            if not isinstance(chunk, bytes | bytearray | memoryview):
                raise UsageError(f"chunks must be bytes, got {type(chunk).__name__}")
            pipeline.feed(bytes(chunk))
        pipeline.close()
    return pipeline.report()

"""``ssescope.inspect``: the one-call entry point (file, bytes or chunks in, Report out).

Every way in takes the same path: the source is opened into :class:`Stream` values (what
is known about each stream, as a frozen :class:`~ssescope.sourceinfo.SourceInfo`, and its
chunks), a :class:`~ssescope.pipeline.Pipeline` is built with that information, and one
loop (:func:`feed_chunks`) feeds the chunks and closes it::

    for stream in open_streams(source):
        pipeline = Pipeline(source=stream.info)
        report = feed_chunks(pipeline, stream.chunks).report()
"""

from __future__ import annotations

import dataclasses
import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .aggregate.report import Report
from .aggregate.timing import TimingOptions
from .containers import (
    DETECT_BYTES,
    LOST_HEADERS,
    LOST_REQUEST,
    LOST_TIMING,
    RAW_LOST,
    Body,
    Chunk,
    detect_container,
    read_all,
    read_container,
)
from .containers.checks import TimeCheck
from .errors import UsageError
from .pipeline import Pipeline
from .providers._base import AdapterOutput
from .rpcrequest import request_ids
from .sourceinfo import SourceInfo
from .toolschema.request import request_tools

__all__ = [
    "RAW_CHUNKS",
    "RAW_FILE",
    "Source",
    "Stream",
    "feed_chunks",
    "inspect",
    "inspect_all",
    "open_chunks",
    "open_streams",
    "unwrap_chunks",
]

Source = bytes | bytearray | memoryview | str | os.PathLike[str] | Iterable[bytes]
"""What :func:`inspect` accepts: body bytes, a path, or an iterable of byte chunks."""

_READ_SIZE = 1 << 16

RAW_FILE = SourceInfo(container="raw", lost=RAW_LOST)
"""A raw body read from a file, stdin or bytes: no times, one piece, no headers, no request."""

RAW_CHUNKS = SourceInfo(container="raw", lost=(LOST_TIMING, LOST_HEADERS, LOST_REQUEST))
"""A raw body given as an iterable of chunks: it keeps its chunk boundaries, nothing else."""


@dataclass(frozen=True, slots=True)
class Stream:
    """One stream of a source, opened: what is known about it, and its chunks.

    Attributes:
        info: what the source knows about the stream (give it to the Pipeline).
        chunks: the body as it arrived (iterated once, lazily for a raw file): each a
            :class:`Chunk` with its arrival time, or bare ``bytes`` when there is none.
    """

    info: SourceInfo
    chunks: Iterable[Chunk | bytes]


def feed_chunks(
    pipeline: Pipeline,
    chunks: Iterable[Chunk | bytes],
    on_events: Callable[[list[AdapterOutput]], None] | None = None,
) -> Pipeline:
    """Feed every chunk (with its arrival time) into ``pipeline`` and close it: the one loop.

    What the source knew (its container, status, losses, how a capture ended) was given to
    the Pipeline when it was built (``Pipeline(source=...)``).

    Args:
        pipeline: a new pipeline.
        chunks: the body as it arrived: :class:`Chunk` values (with arrival times), or
            bare ``bytes`` (``bytearray``, ``memoryview``) where no time is known.
        on_events: called with the events (and diagnostics) of each chunk, as
            :meth:`Pipeline.feed` returns them, and with those of the close.

    Returns:
        The same pipeline, closed (call :meth:`Pipeline.report`).

    Raises:
        UsageError: for a chunk that is neither a :class:`Chunk` nor bytes.
    """
    feed = pipeline.feed
    times = TimeCheck(pipeline)
    for chunk in chunks:
        # Raw bodies come as bare bytes: nothing is built or checked per piece of a
        # large file beyond this type test.
        if type(chunk) is bytes:
            data, time = chunk, None
        elif type(chunk) is Chunk:
            data, time = chunk.data, times.check(chunk.time)
        else:
            data, time = _as_bytes(chunk), None
        if len(data) <= _READ_SIZE:
            events = feed(data, time)
            if on_events is not None:
                on_events(events)
            continue
        # a container's body often arrives as one piece: fed in slices, its records are
        # framed and folded a slice at a time instead of all at once
        for start in range(0, len(data), _READ_SIZE):
            events = feed(data[start : start + _READ_SIZE], time)
            if on_events is not None:
                on_events(events)
    times.report()
    events = pipeline.close()
    if on_events is not None:
        on_events(events)
    return pipeline


def unwrap_chunks(
    chunks: Iterator[bytes], container: str = "auto", *, every: bool = False
) -> list[Body] | Iterator[bytes]:
    """Unwrap the container of an input that arrives in chunks (a file, stdin).

    Args:
        chunks: the input, in pieces.
        container: ``"auto"`` or a container name.
        every: every stream of a capture holding several (a HAR, a JSONL log);
            otherwise only the first, which names the others in an info.

    Returns:
        The unwrapped bodies (containers need the whole input), or, for a raw body, an
        iterator over the same chunks: streamed on, never held whole.

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
    data = b"".join(itertools.chain((head,), chunks))
    if every:
        return read_all(data, container=container)
    return [read_container(data, container=container)]


def open_chunks(chunks: Iterator[bytes], container: str = "auto") -> Body | Iterator[bytes]:
    """Unwrap the container of an input that arrives in chunks (a file, stdin).

    Returns:
        The unwrapped :class:`Body` (containers need the whole input), or, for a raw
        body, an iterator over the same chunks: streamed on, never held whole, so a 50 MB
        capture is inspected in bounded memory.

    Raises:
        UsageError: for an unknown container name.
    """
    opened = unwrap_chunks(chunks, container)
    return opened[0] if isinstance(opened, list) else opened


def _as_bytes(piece: object) -> bytes:
    if isinstance(piece, bytearray | memoryview):
        return bytes(piece)
    raise UsageError(f"chunks must be bytes, got {type(piece).__name__}")


def open_streams(
    source: Source | Iterator[bytes], *, container: str = "auto", every: bool = False
) -> list[Stream]:
    """Open a source into its streams: what is known about each, and its chunks.

    Args:
        source: what :func:`inspect` accepts.
        container: ``"auto"`` or a container name; ignored for an iterable of chunks,
            which is always a raw body.
        every: every stream of a capture holding several (a HAR, a JSONL log), in file
            order; otherwise only the first (which then names the others in an info).

    Returns:
        At least one :class:`Stream`. A raw file is streamed from disk, never held whole.

    Raises:
        UsageError: for an unknown container name, a missing file or a directory.
    """
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        if every:
            bodies = read_all(data, container=container)
        else:
            bodies = [read_container(data, container=container)]
        return [Stream(b.info(), b.chunks) for b in bodies]
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        if path.is_dir():
            raise UsageError(f"{str(path)!r} is a directory, not a stream file")
        if not path.exists():
            raise UsageError(f"no such file: {str(path)!r}")
        opened = unwrap_chunks(_file_chunks(path), container, every=every)
        if isinstance(opened, list):
            return [Stream(b.info(), b.chunks) for b in opened]
        return [Stream(RAW_FILE, opened)]
    return [Stream(RAW_CHUNKS, source)]


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
    entry: int | str | None = None,
    request: object = None,
) -> Report:
    """Inspect a captured stream.

    A capture may hold several streams (a HAR of a whole session, a JSONL log of several
    requests), and the failed one is rarely the first. ``inspect`` never picks one
    silently: on such a capture it raises :class:`UsageError` naming how many entries
    there are; use :func:`inspect_all` for every one, or ``entry=N`` for the entry whose
    index (:attr:`Report.entry`) is N.

    Args:
        source: bytes (a body or any container: ``curl -i`` output, a curl trace, a HAR,
            an ``.ssecap`` capture, a JSONL dump), a path to a file holding one, or an
            iterable of raw body chunks.
        provider: ``"auto"`` or a provider name (``ssescope.PROVIDERS``).
        framing: ``"auto"`` or ``"sse"``, ``"ndjson"``, ``"json-array"``, ``"json"`` (one
            document), ``"aws-eventstream"``.
        container: ``"auto"`` or a container name (``ssescope.containers.CONTAINERS``);
            ignored for an iterable of chunks, which is always a raw body.
        max_event_bytes: opt-in cap on one SSE event block.
        timing: thresholds for the timing diagnostics.
        entry: of a capture holding several streams, the index of the one to inspect (its
            ``entry.index``: the position in a HAR's ``log.entries``, the stream's number
            in a JSONL log or on a WebSocket connection); ``0`` also selects the only
            stream of any other input. A HAR entry whose WebSocket connection carried
            several responses holds one per response: ``"N.M"`` selects response M of
            entry N (``N`` alone, the first).
        request: the request body that the stream answered (a dict, SDK request params,
            JSON text or a pydantic model), when the source does not keep it: each tool
            call is then checked against its tool's JSON Schema (``docs/tool-schema.md``),
            and a JSON-RPC request's id is the one its response must answer (MCP).
            A capture's own request is used when this is ``None``.

    Returns:
        The :class:`Report` of the source's one stream (or of entry ``entry``).

    Raises:
        UsageError: for a capture holding several streams and no ``entry``, an ``entry``
            the source does not hold, an unknown provider, framing or container, a
            missing file or a directory, or chunks that are not bytes.
    """
    streams = open_streams(source, container=container, every=True)
    stream = _with_request(_one(streams, entry), request)
    return _report(stream, provider, framing, max_event_bytes, timing)


def _with_request(stream: Stream, request: object) -> Stream:
    """``stream`` with the tools and JSON-RPC ids of ``request`` (when one is given)."""
    if request is None:
        return stream
    info = dataclasses.replace(
        stream.info, tools=request_tools(request), request_ids=request_ids(request)
    )
    return Stream(info, stream.chunks)


def _one(streams: list[Stream], wanted: int | str | None) -> Stream:
    """The stream :func:`inspect` reads: the only one, or the entry asked for."""
    labels = [
        str(i) if stream.info.entry is None else stream.info.entry.label
        for i, stream in enumerate(streams)
    ]
    if wanted is None:
        if len(streams) == 1:
            return streams[0]
        raise UsageError(
            f"the capture holds {len(streams)} streams (entries "
            f"{', '.join(labels)}); inspect() reads one: call inspect_all() for "
            "every one, or inspect(..., entry=N) for the entry whose index is N"
        )
    for i, stream in enumerate(streams):
        entry = stream.info.entry
        if (str(i) == str(wanted)) if entry is None else entry.selected_by(wanted):
            return stream
    plural = "entries" if len(labels) > 1 else "entry"
    raise UsageError(
        f"there is no entry {wanted}; the input holds the {plural} {', '.join(labels)}"
    )


def inspect_all(
    source: Source,
    *,
    provider: str = "auto",
    framing: str = "auto",
    container: str = "auto",
    max_event_bytes: int | None = None,
    timing: TimingOptions | None = None,
    request: object = None,
) -> list[Report]:
    """Inspect every stream of a source: each streamed entry of a HAR or a JSONL log.

    Takes the same arguments as :func:`inspect` (``request``, when given, is taken as the
    request of every stream). Each Report names its entry
    (:attr:`Report.entry`: index, method, URL, start time) when the capture records
    entries; an input holding one stream gives a list of one Report.

    Returns:
        One :class:`Report` per stream, in file order.

    Raises:
        UsageError: as :func:`inspect`.
    """
    return [
        _report(_with_request(stream, request), provider, framing, max_event_bytes, timing)
        for stream in open_streams(source, container=container, every=True)
    ]


def _report(
    stream: Stream,
    provider: str,
    framing: str,
    max_event_bytes: int | None,
    timing: TimingOptions | None,
) -> Report:
    """Run one opened stream through a pipeline that keeps no events: its Report."""
    pipeline = Pipeline(
        provider=provider,
        framing=framing,
        max_event_bytes=max_event_bytes,
        timing=timing,
        source=stream.info,
        collect_events=False,
    )
    return feed_chunks(pipeline, stream.chunks).report()

"""Capture mode: the exchanges of recorded files and folders (a proxy's record folder,
``.ssecap``, HAR, ``curl -i``), each judged by the one engine."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..api import RAW_FILE, feed_chunks, unwrap_chunks
from ..containers import LOST_CHUNKS, Chunk
from ..errors import UsageError
from ..pipeline import Pipeline
from ..sourceinfo import SourceInfo
from .asked import expectation_of
from .exchange import Exchange
from .wire import wire_of

__all__ = ["INDEX_NAME", "capture_files", "exchanges_of"]

_SKIP_SUFFIXES = frozenset({".md", ".txt"})
"""Files of a folder that are notes, not captures (a file given by name is still read)."""
_READ_SIZE = 1 << 16
INDEX_NAME = "index.jsonl"
"""The proxy's index of its record folder: metadata, not an exchange (the same name as
:data:`ssescope.proxy.folder.INDEX_NAME`, which needs the proxy's extra to import)."""


def capture_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The capture files named by ``paths``: each file as given, each folder's files
    (recursively, sorted; notes, hidden files and the proxy's index left out).

    Raises:
        UsageError: for a path that does not exist.
    """
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found.extend(
                p
                for p in sorted(path.rglob("*"))
                if p.is_file()
                and p.suffix not in _SKIP_SUFFIXES
                and p.name != INDEX_NAME
                and not p.name.startswith(".")
            )
        elif path.exists():
            found.append(path)
        else:
            raise UsageError(f"no such file: {str(path)!r}")
    return found


def _name(path: Path, entry: int | None, count: int) -> str:
    return str(path) if entry is None or count == 1 else f"{path}#{entry}"


def _opened(path: Path) -> list[tuple[SourceInfo, Iterable[Chunk | bytes], object]]:
    """The streams of one file, each with the request body its capture kept (or ``None``)."""
    opened = unwrap_chunks(_file_chunks(path), every=True)
    if isinstance(opened, list):
        return [(b.info(), b.chunks, b.request_body) for b in opened]
    return [(RAW_FILE, opened, None)]


def _file_chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as fp:
        while chunk := fp.read(_READ_SIZE):
            yield chunk


def exchanges_of(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Exchange]:
    """Every exchange recorded in ``paths`` (every entry of a HAR or JSONL log), judged,
    with what its request asked for when the capture keeps the request."""
    for path in capture_files(paths):
        streams = _opened(path)
        for i, (info, given, request) in enumerate(streams):
            entry = info.entry.index if info.entry is not None else i
            pipeline = Pipeline(source=info, collect_events=False)
            chunks = list(given)
            report = feed_chunks(pipeline, chunks).report()
            data = [bytes(c.data) if isinstance(c, Chunk) else bytes(c) for c in chunks]
            timed = info.container != "raw" and LOST_CHUNKS not in info.lost
            wire = wire_of(data, chunked=timed, chat=report.provider == "openai-chat")
            yield Exchange(
                _name(path, entry, len(streams)),
                report,
                info,
                wire=wire,
                recorded=request,
                asked=None if request is None else expectation_of(request, report.provider),
            )

"""Reading one stream file for the scan: regular files only, and at most so many bytes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import pyarrow as pa

from ..limits import DECODED_BODY_BYTES
from .inputs import irregular_kind, is_remote, not_regular
from .kernel import BODY, ERROR, SOURCE, STARTED, UNREAD

__all__ = ["BATCH_BYTES", "INPUT_BYTES", "Read", "file_batch", "read_batches", "read_input"]

INPUT_BYTES = DECODED_BODY_BYTES
"""Most bytes of one input the scan judges (64 MiB, what ``inspect`` decodes of a
compressed body at most); the rest is left unread and counted in the row's
``unread_bytes``."""

BATCH_BYTES = 64 * 1024 * 1024
"""Most body bytes of files read into one kernel batch (past its first file), so a
worker holds one bounded batch of bodies at a time."""

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


@dataclass(frozen=True, slots=True)
class Read:
    """What was read of one input.

    Attributes:
        body: its first bytes (at most the limit), or ``None`` when it was not read.
        unread: how many bytes past the limit were left unread (``None``: none were).
        error: why it was not read (``None`` when it was).
    """

    body: bytes | None
    unread: int | None = None
    error: str | None = None


def _message(exc: OSError | ValueError) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)  # a NUL byte in the path


def read_input(path: str, limit: int = INPUT_BYTES) -> Read:
    """Read the first ``limit`` bytes of the regular file at ``path``.

    The file is opened without blocking (a FIFO renamed into place never hangs the scan),
    then refused unless it is a regular file: a FIFO, a device (``/dev/zero``), a socket
    or a directory is an error. Never raises.
    """
    try:
        fd = os.open(path, _FLAGS)
    except (OSError, ValueError) as exc:
        return Read(None, error=_message(exc))
    try:
        with open(fd, "rb", buffering=0) as file:
            info = os.fstat(fd)
            size, kind = info.st_size, irregular_kind(info.st_mode)
            if kind is not None:
                return Read(None, error=not_regular(kind))
            body = file.read(limit) or b""
            while len(body) < limit:  # a read may return less than asked
                more = file.read(limit - len(body))
                if not more:
                    break
                body += more
            if len(body) < limit or not file.read(1):
                return Read(body)
            return Read(body, unread=max(size - len(body), 1))
    except (OSError, ValueError) as exc:
        return Read(None, error=_message(exc))


def file_batch(
    rows: list[tuple[str, Read]], times: Sequence[str | None] | None = None
) -> pa.RecordBatch:
    """The kernel's input batch of files read: ``source``, ``body``, ``error`` and
    ``unread_bytes``, and ``started`` when ``times`` says when each one's request
    started."""
    columns = {
        SOURCE: pa.array([path for path, _ in rows], pa.string()),
        BODY: pa.array([r.body for _, r in rows], pa.binary()),
        ERROR: pa.array([r.error for _, r in rows], pa.string()),
        UNREAD: pa.array([r.unread for _, r in rows], pa.int64()),
    }
    if times is not None:
        columns[STARTED] = pa.array(list(times), pa.string())
    return pa.RecordBatch.from_pydict(columns)


def read_batches(
    files: list[str],
    limit: int = INPUT_BYTES,
    remote: Callable[[str], Read] | None = None,
    most: int = 256,
    times: Sequence[str | None] | None = None,
) -> Iterator[pa.RecordBatch]:
    """``files`` read one at a time (:func:`read_input`; a URL by ``remote``), as kernel
    batches of at most ``most`` files and, past the first, :data:`BATCH_BYTES` of bodies
    (``times``: when each file's request started, beside ``files``)."""
    rows: list[tuple[str, Read]] = []
    held = 0
    first = 0  # the position in ``files`` of the batch's first file

    def batch() -> pa.RecordBatch:
        return file_batch(rows, None if times is None else times[first : first + len(rows)])

    for path in files:
        if is_remote(path):
            read = remote(path) if remote is not None else Read(None, error="a remote file")
        else:
            read = read_input(path, limit)
        size = len(read.body or b"")
        if rows and (held + size > BATCH_BYTES or len(rows) >= most):
            yield batch()
            first += len(rows)
            rows, held = [], 0
        rows.append((path, read))
        held += size
    if rows:
        yield batch()

"""Reading one stream file for the scan: regular files only, and at most so many bytes."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..limits import DECODED_BODY_BYTES
from .inputs import irregular_kind, not_regular

__all__ = ["INPUT_BYTES", "Read", "read_input"]

INPUT_BYTES = DECODED_BODY_BYTES
"""Most bytes of one input the scan judges (64 MiB, what ``inspect`` decodes of a
compressed body at most); the rest is left unread and counted in the row's
``unread_bytes``."""

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

"""Stdout holds the command's own output: what a library writes meanwhile goes to stderr.

Ray prints to the process's stdout, at the level of the file descriptor: the raylet's and
the workers' lines (``(raylet) WARNING ...``), banners and notices written from C++ as well
as from Python. ``ssescope scan --engine ray --json | jq`` must read JSON only, so the scan
runs inside :func:`stdout_to_stderr`, and the summary is written after it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["stdout_to_stderr"]

STDOUT, STDERR = 1, 2
"""The file descriptors, as the processes the block starts inherit them."""


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Point file descriptor 1 at stderr for the block, and back at the saved stdout after.

    Processes started inside the block (a local Ray's raylet and workers) keep stderr as
    their stdout for their whole life. What Python wrote to :data:`sys.stdout` before the
    block is flushed to the real stdout first; what it writes inside goes to stderr.
    """
    sys.stdout.flush()
    saved = os.dup(STDOUT)
    try:
        os.dup2(STDERR, STDOUT)
        yield
    finally:
        try:
            sys.stdout.flush()
        finally:
            os.dup2(saved, STDOUT)
            os.close(saved)

"""A reader that leaves early (``ssescope inspect X --pretty | head -1``) changes no verdict.

rich answers a broken pipe with ``SystemExit(1)``, and a plain write raises
:class:`BrokenPipeError`: either way the command's exit code was lost. The commands print
through :class:`PipeConsole` and inside :func:`reader_may_leave`, then return the exit code
of the verdict they already reached.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console

__all__ = ["PipeConsole", "quiet_stdout", "reader_may_leave"]


class PipeConsole(Console):
    """A rich console that raises :class:`BrokenPipeError` instead of exiting with 1."""

    def on_broken_pipe(self) -> None:
        """Stop writing and let the command end with its own exit code."""
        self.quiet = True
        raise BrokenPipeError


def quiet_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@contextmanager
def reader_may_leave() -> Iterator[None]:
    """Run output code; a reader that went away ends the output, not the command."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        quiet_stdout()

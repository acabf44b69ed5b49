"""Where the bytes come from (a file, stdin, a bundled example) and colour decisions."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import click

from ..errors import UsageError
from ..examples import example_path
from . import exitcodes

__all__ = ["READ_SIZE", "Source", "need_input", "open_source", "table_source", "want_color"]

READ_SIZE = 1 << 16


@dataclass(slots=True)
class Source:
    """An opened input: a name for messages and the binary stream."""

    name: str
    stream: BinaryIO
    close: bool

    def chunks(self) -> Iterator[bytes]:
        """Yield the body in pieces of at most 64 KiB.

        Whatever the bytes (compressed, NUL bytes, UTF-16), they are read as the library
        reads them: the Report says what is wrong with them.
        """
        read = getattr(self.stream, "read1", self.stream.read)
        try:
            while chunk := read(READ_SIZE):
                yield chunk
        finally:
            if self.close:
                self.stream.close()

    def read_all(self) -> bytes:
        """Read the whole body (for commands that re-feed it)."""
        return b"".join(self.chunks())


def need_input(ctx: click.Context, file: str | None, example: str | None = None) -> None:
    """With no FILE, no --example and a terminal on stdin there is nothing to read: print
    the command's help to stderr and exit with the usage code."""
    if file is None and example is None and sys.stdin.isatty():
        click.echo(ctx.get_help(), err=True)
        ctx.exit(exitcodes.USAGE)


def open_source(file: str | None, example: str | None = None) -> Source:
    """Open ``file`` (``-`` or ``None`` = stdin) or a bundled example.

    Raises:
        UsageError: missing file, a directory, unreadable file.
    """
    if example is not None:
        if file not in (None, "-"):
            raise UsageError("give either FILE or --example, not both")
        path = example_path(example)
        return Source(f"example {path.name}", path.open("rb"), True)
    if file is None or file == "-":
        if sys.stdin.isatty():  # a person at a terminal, who may not know it waits for them
            sys.stderr.write(
                "ssescope: reading the stream from standard input (paste it, then Ctrl-D)\n"
            )
        return Source("<stdin>", sys.stdin.buffer, False)
    path = Path(file)
    if path.is_dir():
        raise UsageError(f"{file!r} is a directory, not a stream file")
    if not path.exists():
        raise UsageError(f"no such file: {file!r}")
    try:
        return Source(file, path.open("rb"), True)
    except OSError as exc:
        raise UsageError(f"cannot read {file!r}: {exc.strerror}") from exc


def table_source(file: str | None, row: int, body: str | None) -> Source:
    """The body of row ``row`` of the table of bodies ``file`` (``inspect --row``), read
    as ``scan`` reads it.

    Raises:
        UsageError: no file, or the row cannot be read (the table, its column, its row).
    """
    if file is None or file == "-":
        raise UsageError("--row reads a table of bodies: give its FILE")
    if not Path(file).is_file():
        raise UsageError(f"no such file: {file!r}")
    from ..scan.kernel import BODY
    from ..scan.table_row import read_table_body

    data = read_table_body(file, row, body or BODY)
    return Source(f"{file} row {row}", io.BytesIO(data), True)


def want_color(flag: bool | None, stream: object) -> bool:
    """Decide colour: ``--color/--no-color``, NO_COLOR, FORCE_COLOR, TERM=dumb, then TTY."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR") or os.environ.get("CLICOLOR_FORCE"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())

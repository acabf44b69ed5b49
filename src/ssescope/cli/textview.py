"""Long text in the human view: control characters made visible, folded, laid out in linear time.

Rich lays out one ``Text`` in time that grows faster than its length (an unbroken run
of 20 MB took minutes), so a long text is cut here into pieces of bounded size (at most
:data:`PIECE_LINES` lines of at most :data:`PIECE_CHARS` characters) before rich sees
it: the layout then costs the same per character however long the text is. Beyond
:data:`FOLD_CHARS` characters the view shows the start and says how many characters it
left out, unless the command was given ``--full``.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.console import Group, RenderableType
from rich.text import Text

from ..output.visible import visible

__all__ = ["FOLD_CHARS", "PIECE_CHARS", "PIECE_LINES", "fold_note", "text_block"]

FOLD_CHARS = 20_000
"""How many characters of one text (reply, reasoning, tool arguments…) the view shows."""

PIECE_CHARS = 4096
"""The longest piece of text handed to rich at once."""

PIECE_LINES = 64
"""The most lines in one piece handed to rich."""


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, a line longer than PIECE_CHARS cut at a space where possible."""
    for line in text.split("\n"):
        start = 0
        while len(line) - start > PIECE_CHARS:
            end = start + PIECE_CHARS
            cut = line.rfind(" ", start + 1, end)
            if cut > start:
                yield line[start:cut]
                start = cut + 1
            else:
                yield line[start:end]
                start = end
        yield line[start:]


def _pieces(text: str) -> Iterator[str]:
    group: list[str] = []
    size = 0
    for line in _lines(text):
        if group and (len(group) >= PIECE_LINES or size + len(line) > PIECE_CHARS):
            yield "\n".join(group)
            group = []
            size = 0
        group.append(line)
        size += len(line) + 1
    if group:
        yield "\n".join(group)


def fold_note(left_out: int) -> Text:
    """The line that says how much of a text the view left out."""
    return Text(
        f"… {left_out:,} more characters (--full shows them all; --json gives the exact text)",
        style="bold yellow",
    )


def text_block(text: str, *, style: str = "", full: bool = False) -> RenderableType:
    """A renderable for a text that came from a stream.

    Control characters are made visible (line feeds and tabs are kept); beyond
    :data:`FOLD_CHARS` characters the text is cut and a note says how many characters
    were left out, unless ``full``.
    """
    shown = text if full or len(text) <= FOLD_CHARS else text[:FOLD_CHARS]
    safe = visible(shown, multiline=True)
    parts: list[RenderableType] = []
    if len(safe) <= PIECE_CHARS and safe.count("\n") < PIECE_LINES:
        parts.append(Text(safe, style=style))
    else:
        parts.extend(Text(piece, style=style) for piece in _pieces(safe))
    if len(shown) < len(text):
        parts.append(fold_note(len(text) - len(shown)))
    return parts[0] if len(parts) == 1 else Group(*parts)

"""How an exchange's stream sat on the wire: line endings, data lines, chunk boundaries,
and the shape of OpenAI-compatible chunks.

The Report says what a stream meant; a few SHOULD checks also look at how it was sent
(valid streams that fragile clients read wrong). :func:`wire_of` reads that from the
records the engine's framing layer (:class:`~ssescope.framing.framer.Framer`) makes of the
body, from where the chunks the client received began and ended, and, for a chat stream,
from each chunk's JSON (loaded as the quirk modules load it,
:func:`ssescope.providers._quirks.load`). Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..framing.framer import Framer
from ..framing.records import JSONRecord, SSEComment, SSEEvent
from ..providers._quirks import WireRecord, load

__all__ = ["ChatShape", "Tally", "Wire", "wire_of"]


@dataclass(frozen=True, slots=True)
class Tally:
    """How often one thing happened on the wire, and where first.

    Attributes:
        count: how many times.
        first: where the first one was (a byte offset or a record index, as the fact
            says), or ``None`` when there was none.
    """

    count: int = 0
    first: int | None = None

    @classmethod
    def of(cls, places: list[int]) -> Tally:
        """The tally of ``places``, each where one happened, in order."""
        return cls(len(places), places[0] if places else None)


@dataclass(frozen=True, slots=True)
class Wire:
    """Facts about the bytes of one stream, each with where it first happened.

    Attributes:
        cr_lines: events whose lines end with CR or CRLF rather than LF (first: a byte
            offset).
        multi_line_data: events whose data spans several ``data:`` lines (first: a
            record index).
        split_chars: chunk boundaries that fall inside a UTF-8 character (first: a byte
            offset).
        chunked: whether the chunk boundaries are known (a live read, a timed capture).
        chat: the shape of its OpenAI-compatible chunks, for a chat stream.
    """

    cr_lines: Tally = Tally()
    multi_line_data: Tally = Tally()
    split_chars: Tally = Tally()
    chunked: bool = False
    chat: ChatShape | None = None


@dataclass(frozen=True, slots=True)
class ChatShape:
    """What strict clients trip on in a chat stream's chunks (each first at a record).

    Attributes:
        finish_repeated: choices whose ``finish_reason`` is set on more than one chunk.
        empty_choices: chunks with an empty ``choices`` list that carry no usage.
        roleless: choices whose first delta does not say ``role``.
    """

    finish_repeated: Tally = Tally()
    empty_choices: Tally = Tally()
    roleless: Tally = Tally()


def _chat_shape(items: list[Any]) -> ChatShape | None:
    finished: dict[int, int] = {}
    seen: set[int] = set()
    repeats: list[int] = []
    empty: list[int] = []
    roleless: list[int] = []
    chunks = 0
    for item in items:
        if not isinstance(item, SSEEvent | JSONRecord):
            continue
        value = load(WireRecord(None, item.data))
        if not isinstance(value, dict) or not isinstance(value.get("choices"), list):
            continue
        chunks += 1
        choices = value["choices"]
        if not choices and not value.get("usage"):
            empty.append(item.index)
        for choice in choices:
            if not isinstance(choice, dict) or not isinstance(choice.get("index", 0), int):
                continue
            index = choice.get("index", 0)
            delta = choice.get("delta")
            if index not in seen:
                seen.add(index)
                if not (isinstance(delta, dict) and delta.get("role")):
                    roleless.append(item.index)
            if choice.get("finish_reason") is not None:
                finished[index] = finished.get(index, 0) + 1
                if finished[index] == 2:
                    repeats.append(item.index)
    if not chunks:
        return None
    return ChatShape(Tally.of(repeats), Tally.of(empty), Tally.of(roleless))


def _continuation(byte: int) -> bool:
    return 0x80 <= byte <= 0xBF


def wire_of(chunks: Sequence[bytes], *, chunked: bool = True, chat: bool = False) -> Wire:
    """The wire facts of a stream received as ``chunks`` (``chunked``: whether their
    boundaries are the ones the client saw; ``chat``: whether to read the chunks' shape,
    for an OpenAI-compatible chat stream)."""
    body = b"".join(chunks)
    framer = Framer()
    items = framer.feed(body)
    items.extend(framer.close())
    cr: list[int] = []
    multi: list[int] = []
    if framer.framing == "sse":
        for item in items:
            if not isinstance(item, SSEEvent | SSEComment):
                continue
            if b"\r" in body[item.start : item.end]:
                cr.append(item.start)
            if isinstance(item, SSEEvent) and "\n" in item.data:
                multi.append(item.index)
    split: list[int] = []
    if chunked:
        at = 0
        for chunk in chunks[:-1]:
            at += len(chunk)
            if at < len(body) and _continuation(body[at]):
                split.append(at)
    shape = _chat_shape(items) if chat else None
    return Wire(Tally.of(cr), Tally.of(multi), Tally.of(split), chunked, shape)

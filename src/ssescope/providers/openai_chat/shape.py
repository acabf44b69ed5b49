"""The text of a chunk the stream has already shown the shape of, read without decoding it.

A streaming reply repeats one chunk: the same id, model, choice index and null finish
reason around a few characters of text, and on OpenAI's own API an ``obfuscation``
padding string of random length. :class:`ChunkShape` keeps such a chunk's text with the
two string values cut out. A later chunk made of the same text around two other string
values, neither holding a quote, a backslash or a character that is not printable (so
that each value is its raw characters, and the tokens of the JSON text are the same),
decodes to the same object but for those two values: its text delta is the first value,
found by two string comparisons instead of a JSON decode and the shape checks of the
adapter's fast path.

A shape is only made from a chunk the fast path read (:func:`chunk_shape`), and only
after a probe: the chunk's text with other values in the two places decodes to the same
object with exactly those two values changed. A value that is not raw, or a chunk that
differs anywhere else, is read the ordinary way.
"""

from __future__ import annotations

from typing import Any

from orjson import JSONDecodeError
from orjson import loads as _loads

__all__ = ["ChunkShape", "chunk_shape", "raw"]

_CONTENT = '"content":'
_OBFUSCATION = '"obfuscation":'


def raw(value: str) -> bool:
    """Whether a JSON string value is written as its own characters: it has no quote and
    no backslash (nothing escaped) and every character is printable (JSON forbids raw
    control characters; the rest that Python does not print are left to the decoder)."""
    return '"' not in value and "\\" not in value and value.isprintable()


class ChunkShape:
    """A chunk's text around its content value and, when it has one, its ``obfuscation``
    value (in either order). Made by :func:`chunk_shape`.

    Attributes:
        id: the chunk's ``id`` (the response it belongs to).
        output: its choice's index.
    """

    __slots__ = ("_content_first", "_head", "_mid", "_tail", "_two", "id", "output")

    def __init__(
        self, head: str, mid: str, tail: str, two: bool, content_first: bool, id: str, output: int
    ) -> None:
        self._head = head  # up to the first value's opening quote
        self._mid = mid  # from after the first value's closing quote to the second's opening
        self._tail = tail  # after the last value's closing quote
        self._two = two
        self._content_first = content_first
        self.id = id
        self.output = output

    def text(self, data: str) -> str | None:
        """The content of ``data`` if it is this shape's chunk with raw values, else ``None``."""
        head = self._head
        n = len(head)
        if data[:n] != head:
            return None
        first, quote, rest = data[n:].partition('"')  # (the first quote closes a raw value)
        if not quote:
            return None
        if self._two:
            mid = self._mid
            m = len(mid)
            if rest[:m] != mid:
                return None
            second, quote, rest = rest[m:].partition('"')
            if not quote or rest != self._tail:
                return None
            content, other = (first, second) if self._content_first else (second, first)
            if "\\" in other or not other.isprintable():
                return None
        elif rest != self._tail:
            return None
        else:
            content = first
        if "\\" in content or not content.isprintable():
            return None
        return content


def _place(data: str, key: str, value: str) -> int:
    """Where ``value`` (raw) starts as the value of ``key`` (``"name":``, then any JSON
    white space) in ``data``; -1 unless it appears so exactly once."""
    found = -1
    at = data.find(key)
    while at >= 0:
        pos = at + len(key)
        while pos < len(data) and data[pos] in " \t\n\r":
            pos += 1
        end = pos + 1 + len(value)
        if (
            data[pos : pos + 1] == '"'
            and data[pos + 1 : end] == value
            and data[end : end + 1] == '"'
        ):
            if found >= 0:
                return -1
            found = pos + 1
        at = data.find(key, at + 1)
    return found


def chunk_shape(data: str, obj: dict[str, Any], content: str, output: int) -> ChunkShape | None:
    """The shape of ``data``, a chunk whose JSON is ``obj`` and whose one choice (index
    ``output``) has the delta ``content``; ``None`` when its values are not raw, do not
    appear exactly once, or the probe does not hold."""
    rid = obj.get("id")
    if type(rid) is not str or not content or not raw(content):
        return None
    c = _place(data, _CONTENT, content)
    if c < 0:
        return None
    slots = [(c, c + len(content), content + "~")]
    obfuscation = obj.get("obfuscation")
    if obfuscation is not None:
        if type(obfuscation) is not str or not raw(obfuscation):
            return None
        o = _place(data, _OBFUSCATION, obfuscation)
        if o < 0:
            return None
        slots.append((o, o + len(obfuscation), obfuscation + "~"))
    slots.sort()
    if len(slots) == 2 and slots[0][1] >= slots[1][0]:
        return None
    # The probe: other values (the third of each slot) in the same places must change
    # those values alone.
    pieces: list[str] = []
    pos = 0
    for start, end, probe_value in slots:
        pieces += (data[pos:start], probe_value)
        pos = end
    pieces.append(data[pos:])
    try:
        probe = _loads("".join(pieces))
        delta = probe["choices"][0]["delta"]
        if delta["content"] != content + "~":
            return None
        delta["content"] = content
        if obfuscation is not None:
            if probe["obfuscation"] != obfuscation + "~":
                return None
            probe["obfuscation"] = obfuscation
    except (JSONDecodeError, LookupError, TypeError):
        return None
    if probe != obj:
        return None
    (s0, e0, _), *rest = slots
    if rest:
        s1, e1, _ = rest[0]
        return ChunkShape(data[:s0], data[e0 + 1 : s1], data[e1 + 1 :], True, s0 == c, rid, output)
    return ChunkShape(data[:s0], "", data[e0 + 1 :], False, True, rid, output)

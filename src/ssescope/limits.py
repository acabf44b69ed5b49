"""The limits that keep hostile input in bounded memory and stack depth.

Each limit has a diagnostic that says when it was hit; none raises. They are listed in
``docs/security.md`` ("Limits").
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = [
    "BOUNDED_CONTENT_CHARS",
    "BOUNDED_RECORD_OFFSETS",
    "CONTENT_RECORDS_KEPT",
    "DECODED_BODY_BYTES",
    "DIAGNOSTICS_PER_CODE",
    "EXCERPT_CHARS",
    "MAX_DEPTH",
    "SHALLOW_JSON_CHARS",
    "NonFiniteNumber",
    "decoded_may_be_too_deep",
    "excerpt",
    "loads_finite",
    "loads_strict",
    "too_deep",
]

MAX_DEPTH = 128
"""Deepest nesting of JSON arrays and objects read from a stream (records, tool-call
arguments): deeper values are reported (``json.too-deep``) and left unparsed, so no
serialiser or recursive walk downstream ever meets them."""

SHALLOW_JSON_CHARS = 2 * MAX_DEPTH
"""A valid JSON text of at most this many characters cannot nest deeper than
:data:`MAX_DEPTH` (each level takes an opening and a closing bracket): the test a hot path
makes itself before :func:`decoded_may_be_too_deep`, which makes it too."""

DIAGNOSTICS_PER_CODE = 100
"""How many diagnostics of one code a Report lists; the rest are counted in one
``stream.diagnostics-capped`` diagnostic per code."""

EXCERPT_CHARS = 4096
"""How much of an offending text (an unterminated line, an invalid record) a
diagnostic's ``raw`` keeps; its message gives the offset and the full length."""

DECODED_BODY_BYTES = 64 * 1024 * 1024
"""Most bytes a compressed (gzip, deflate, br, zstd) or base64 body is decoded to; the
rest is left out and reported (``container.decode-limit``). The proxy's recorder stops
recording a compressed stream past it too (the client still gets every byte)."""

BOUNDED_CONTENT_CHARS = 1 << 20
"""In a bounded Pipeline (``Pipeline(bounded=True)``, what ``ssescope proxy`` runs): most
characters of one text, reasoning or refusal part, or of one tool call's arguments, kept
for the Report; the rest is counted and reported (``stream.memory-capped``)."""

BOUNDED_RECORD_OFFSETS = 1 << 17
"""In a bounded Pipeline: how many records keep their byte offset (8 bytes each), so that
a diagnostic about an earlier record can say where it starts; later records are counted
and their diagnostics carry no offset (``stream.memory-capped``)."""

CONTENT_RECORDS_KEPT = 1 << 16
"""How many content records keep their arrival time (8 bytes each), for
the time between content records (:attr:`ssescope.Timing.content_times`, which the
OpenTelemetry export turns into ``time_per_output_chunk``); later ones are not timed."""


def too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """Return whether ``value`` nests lists and dicts more than ``limit`` levels deep.

    Iterative (no recursion), and it stops at the first path that is too deep.
    """
    if not isinstance(value, list | dict):
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        for child in children:
            if isinstance(child, list | dict) and child:
                stack.append((child, depth + 1))
            elif isinstance(child, list | dict) and depth + 1 > limit:
                return True
    return False


def may_be_too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Cheap test before :func:`too_deep`: could ``text`` nest more than ``limit`` levels?"""
    return len(text) > limit and text.count("[") + text.count("{") > limit


def decoded_may_be_too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """:func:`may_be_too_deep` for a ``text`` that is valid JSON (it just decoded).

    Each level of a valid value takes an opening and a closing bracket, so a text of at
    most ``2 * limit`` characters (most stream chunks) cannot nest deeper than ``limit``
    and is not scanned at all.
    """
    return len(text) > 2 * limit and may_be_too_deep(text, limit)


class NonFiniteNumber(ValueError):
    """Raised by :func:`loads_strict` for ``NaN``, ``Infinity`` or a number beyond a double.

    ``args[0]`` is the token as written.
    """


def _refuse(token: str) -> Any:
    raise NonFiniteNumber(token)


def _float(token: str) -> float:
    value = float(token)
    if math.isinf(value):
        raise NonFiniteNumber(token)
    return value


def loads_strict(text: str | bytes) -> Any:
    """``json.loads`` raising :class:`NonFiniteNumber` for values JSON cannot hold.

    Raises:
        NonFiniteNumber: for ``NaN``, ``Infinity`` and numbers too large for a double.
        ValueError: for invalid JSON.
        RecursionError: for values nested too deep for the standard library.
    """
    return json.loads(text, parse_constant=_refuse, parse_float=_float)


def loads_finite(text: str | bytes) -> Any:
    """``json.loads`` that refuses ``NaN``, ``Infinity`` and numbers too large for a double.

    Raises:
        ValueError: for invalid JSON, and for those values (the message names the token);
            RecursionError is turned into ValueError too.
    """
    try:
        return loads_strict(text)
    except NonFiniteNumber as exc:
        raise ValueError(f"{exc.args[0]} is not a JSON number") from None
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """The first ``limit`` characters of ``text`` (all of it when shorter)."""
    return text if len(text) <= limit else text[:limit]

"""Whether a JSON-lines file is a table of bodies or a stream, from its first lines.

A log that keeps each response's bytes as a string field of one line per request
(``{"request_id": …, "ts": …, "route": …, "body": "data: …"}``) is a table of bodies,
one stream per line; an NDJSON stream (Ollama, Bedrock's JSON lines, a provider's
events one per line) or an SDK dump is one stream. The scan looks at a file's first
lines to tell them apart, before it plans the file's reading.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import Any, Literal

from ..json_objects import loads_object
from .kernel import BODY

__all__ = ["JSON_TABLES", "SNIFF_BYTES", "SNIFF_LINES", "Shape", "jsonl_shape"]

JSON_TABLES = (".jsonl", ".ndjson", ".json")
"""The suffixes of files that may be JSON-lines tables of bodies."""
SNIFF_BYTES = 256 * 1024
"""How much of a file's start is read to judge its shape."""
SNIFF_LINES = 64
"""How many of its first lines are looked at."""

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
_STARTS = ("data:", "event:", "id:", "retry:", ":", "{", "[")


@dataclass(frozen=True, slots=True)
class Shape:
    """What a JSON-lines file is.

    Attributes:
        kind: ``"table"`` (one stream per line, in ``column``), ``"stream"`` (one stream,
            or several for a log ``inspect`` reads), or ``"hint"``: it looks like a table
            of bodies that was not asked for (``message`` says which ``--body`` to give).
        column: the body column of a table.
        message: what to do, for a hint.
    """

    kind: Literal["table", "stream", "hint"]
    column: str | None = None
    message: str | None = None


def _lines(path: str) -> list[Any] | None:
    # the first lines, decoded; None when one is not a JSON object (not a table)
    try:
        fd = os.open(path, _FLAGS)  # never blocks on a FIFO; only a regular file is read
    except (OSError, ValueError):
        return None
    try:
        with open(fd, "rb", buffering=0) as file:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            head = file.read(SNIFF_BYTES + 1) or b""
    except OSError:
        return None
    cut = len(head) > SNIFF_BYTES
    raw = head[:SNIFF_BYTES].splitlines()
    if cut and len(raw) > 1:
        raw = raw[:-1]  # (the last line read is not whole)
    found: list[Any] = []
    for line in raw:
        if not line.strip():
            continue
        obj = loads_object(line)
        if obj is None:
            return None
        found.append(obj)
        if len(found) >= SNIFF_LINES:
            break
    return found or None


def _body_like(value: object) -> bool:
    # a string that reads as the bytes of a stream: SSE fields, or JSON values in lines
    if not isinstance(value, str) or not value.strip():
        return False
    return value.lstrip().startswith(_STARTS) and ("\n" in value or value.startswith("data:"))


def _candidates(objects: list[Any]) -> list[str]:
    # the fields whose value reads as a stream's bytes in every line, in first-line order
    first = objects[0]
    return [k for k in first if all(_body_like(o.get(k)) for o in objects)]


def jsonl_shape(path: str | os.PathLike[str], body: str | None) -> Shape:
    """Judge the JSON-lines file at ``path`` from its first lines.

    With ``body`` (``--body`` given): a table when every line looked at carries that
    field as a string (or null); else a hint when another field holds the bodies; else
    a stream. Without it: a table when every line carries a string ``body`` that reads
    as a stream's bytes and the lines are not an SDK dump's (``chunk``); a hint when
    another field does; else a stream.
    """
    objects = _lines(str(path))
    if objects is None or any("chunk" in o for o in objects):
        return Shape("stream")
    if body is not None and all(
        body in o and (o[body] is None or isinstance(o[body], str)) for o in objects
    ):
        return Shape("table", body)
    found = _candidates(objects)
    if body is None and BODY in found:
        return Shape("table", BODY)
    if not found:
        return Shape("stream")
    options = " or ".join(f"`--body {name}`" for name in found[:3])
    return Shape("hint", message=f"this looks like a table of bodies: use {options}")

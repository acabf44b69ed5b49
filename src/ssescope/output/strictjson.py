"""Strict JSON out: no ``NaN`` or ``Infinity``, and any size written in pieces.

``json.dumps`` writes ``NaN`` and ``Infinity`` by default, which no JSON parser (a
browser's included) accepts; and one ``write`` of more than 2 GiB is cut short by the
operating system. Every JSON that ssescope prints or serves goes through here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import IO, Any

from .visible import escape_json_text

__all__ = ["WRITE_PIECE", "dumps", "finite", "write"]

WRITE_PIECE = 1 << 20
"""Characters per ``write`` call: far below the 2 GiB a single write can take."""


def finite(value: Any) -> Any:
    """``value`` with every float that is not finite replaced by ``None``.

    The engine refuses such numbers where they enter (``json.non-finite-number``,
    ``container.invalid-time``); this is the last guarantee that output is strict JSON.
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def _encoder(indent: int | None, default: Callable[[Any], Any] | None = None) -> json.JSONEncoder:
    separators = (",", ": ") if indent is not None else (",", ":")
    return json.JSONEncoder(
        ensure_ascii=False,
        allow_nan=False,
        indent=indent,
        separators=separators,
        default=default,
    )


def dumps(
    value: Any, *, indent: int | None = None, default: Callable[[Any], Any] | None = None
) -> str:
    """Strict JSON text of ``value`` (non-finite floats become ``null``).

    ``default`` turns values JSON has no type for into ones it has, as in ``json.dumps``.
    """
    return escape_json_text(_encoder(indent, default).encode(finite(value)))


def write(
    value: Any,
    stream: IO[str],
    *,
    indent: int | None = None,
    end: str = "\n",
    flush: bool = True,
) -> None:
    """Write strict JSON of ``value`` and ``end`` to ``stream`` in pieces of at most twice
    :data:`WRITE_PIECE` characters (then flush it, unless ``flush`` is false).

    Raises:
        OSError: when the stream refuses the bytes (a full disk): never a silent cut.
    """
    pending: list[str] = []
    size = 0
    for encoded in _encoder(indent).iterencode(finite(value)):
        part = escape_json_text(encoded)
        if len(part) > WRITE_PIECE:
            if pending:
                stream.write("".join(pending))
                pending, size = [], 0
            for i in range(0, len(part), WRITE_PIECE):
                stream.write(part[i : i + WRITE_PIECE])
            continue
        pending.append(part)
        size += len(part)
        if size >= WRITE_PIECE:
            stream.write("".join(pending))
            pending, size = [], 0
    pending.append(end)
    stream.write("".join(pending))
    if flush:
        stream.flush()

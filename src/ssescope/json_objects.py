"""A JSON object read from a record's data or a capture's line, and its ``type``.

Streams and captures carry JSON objects as text or bytes; what is not a JSON object
(text that does not parse, an array, a number) reads as ``None`` here. Nothing here does
I/O.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["loads_object", "object_type"]


def loads_object(data: str | bytes) -> dict[str, Any] | None:
    """The JSON object ``data`` holds, or ``None`` when it holds no JSON object."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def object_type(data: str | bytes) -> str | None:
    """The ``type`` string of the JSON object ``data`` holds, or ``None``."""
    obj = loads_object(data)
    kind = None if obj is None else obj.get("type")
    return kind if isinstance(kind, str) else None

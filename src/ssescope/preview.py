"""Previews of records for frame views (the CLI's ``frames`` and the web page's table).

Most JSON records of a stream repeat an envelope (``id``, ``object``, ``model``,
``created``…) that says nothing about the one record, and a preview that starts with it
shows the same characters on every row. :func:`summaries` drops a key where it has the
value it has in (nearly) every record, and a ``type`` that only repeats the SSE event
name; a record whose ``id`` differs from the others' still shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from .limits import decoded_may_be_too_deep, too_deep

__all__ = ["summaries"]

_SHARE = 0.8  # a key is envelope when its value is the same in this share of the records
_MIN_RECORDS = 3


def summaries(texts: Sequence[str | None], events: Sequence[str | None]) -> list[str]:
    """Return what each record's preview should show, in the records' order.

    Args:
        texts: each record's data (``None`` for a record with no data, e.g. a comment,
            whose text is then passed through as ``""``).
        events: each record's SSE event name (or ``None``).

    Returns:
        For a JSON object: its compact JSON without the envelope keys (``{…}`` if nothing
        else is left). For anything else: the text as it is.
    """
    objects: dict[int, dict[str, Any]] = {}
    for i, text in enumerate(texts):
        if text and text[:1] == "{":
            try:
                value = orjson.loads(text)
            except orjson.JSONDecodeError:
                continue
            if isinstance(value, dict) and not (decoded_may_be_too_deep(text) and too_deep(value)):
                objects[i] = value
    envelope: dict[str, Any] = {}  # key -> the value nearly every record gives it
    if len(objects) >= _MIN_RECORDS:
        seen: dict[tuple[str, bytes], int] = {}
        first: dict[tuple[str, bytes], Any] = {}
        for obj in objects.values():
            for key, value in obj.items():
                pair = (key, orjson.dumps(value))
                seen[pair] = seen.get(pair, 0) + 1
                first.setdefault(pair, value)
        least = max(_MIN_RECORDS, int(len(objects) * _SHARE))
        envelope = {key: first[(key, raw)] for (key, raw), n in seen.items() if n >= least}
    out: list[str] = []
    for i, text in enumerate(texts):
        found = objects.get(i)
        if found is None:
            out.append(text or "")
            continue
        obj = found
        event = events[i]
        rest = {
            k: v
            for k, v in obj.items()
            if not (k in envelope and envelope[k] == v) and not (k == "type" and v == event)
        }
        out.append(orjson.dumps(rest).decode() if rest else "{…}")
    return out

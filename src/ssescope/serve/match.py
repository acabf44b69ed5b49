"""``serve --by-request``: answer each request with the capture whose recorded request is
most like it.

A request body is reduced to its features: every key path it holds (``tools``,
``stream_options.include_usage``, ``n``), for each short scalar the path with its value
(``tool_choice=required``, ``n=2``), and each text said in the messages, wherever it sits
(so that a gateway that translates the request into another protocol's shape still
matches). The capture whose recorded request said the most of the same texts answers it,
and among those the one sharing the most features (Jaccard similarity); a tie goes to the
first by name. Nothing here does I/O.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["MAX_DEPTH", "features", "pick"]

MAX_DEPTH = 8
"""How deep the body is walked."""
_SHORT = 40  # the longest string value kept as a feature
_SAID = 200  # the length of a text said that counts
_TEXT_KEYS = frozenset({"messages", "input", "contents", "content", "text", "prompt", "system"})


class Recorded(Protocol):
    """A capture with the body of the request it answered."""

    @property
    def request(self) -> object:
        """The recorded request body (JSON value or text), or ``None``."""
        ...


def _walk(value: Any, path: str, out: set[str], depth: int) -> None:
    if depth > MAX_DEPTH:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            sub = f"{path}.{key}" if path else str(key)
            out.add(sub)
            if key in _TEXT_KEYS and not isinstance(item, bool | int | float):
                _said(item, out, depth + 1)
                continue
            _walk(item, sub, out, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _walk(item, f"{path}[]", out, depth + 1)
    elif isinstance(value, bool | int | float) or value is None:
        out.add(f"{path}={json.dumps(value)}")
    elif isinstance(value, str) and len(value) <= _SHORT:
        out.add(f"{path}={value}")


def _said(value: Any, out: set[str], depth: int) -> None:
    """Every string inside a message (its text, whatever the shape around it)."""
    if depth > MAX_DEPTH:
        return
    if isinstance(value, str):
        if " " in value.strip():  # a sentence, not a role or a type
            out.add("said=" + value[:_SAID])
    elif isinstance(value, dict):
        for item in value.values():
            _said(item, out, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _said(item, out, depth + 1)


def features(body: object) -> frozenset[str]:
    """The features of a request body (JSON text, bytes, or a decoded value)."""
    if isinstance(body, bytes | str):
        try:
            body = json.loads(body)
        except (ValueError, RecursionError):
            return frozenset()
    found: set[str] = set()
    _walk(body, "", found, 0)
    return frozenset(found)


def pick(captures: Mapping[str, Recorded], body: object) -> str | None:
    """The name of the capture whose recorded request is most like ``body``, or ``None``
    when no capture recorded a request."""
    wanted = features(body)
    best: tuple[tuple[int, float], str] | None = None
    for name, capture in sorted(captures.items()):
        if capture.request is None:
            continue
        have = features(capture.request)
        union = wanted | have
        shared = wanted & have
        said = sum(1 for f in shared if f.startswith("said="))
        score = (said, len(shared) / len(union) if union else 0.0)
        if best is None or score > best[0]:
            best = (score, name)
    return None if best is None else best[1]

"""Typed reading of a client's result: each helper returns the field as the Report needs
it or raises :class:`ResultError` naming the field's path and what it should be."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..errors import UsageError
from ..events import JSON

__all__ = ["ResultError"]


class ResultError(UsageError):
    """A client result that cannot be read: unknown shape or a field of the wrong type."""


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _wrong(path: str, wanted: str, value: object) -> ResultError:
    return ResultError(f"the result's {path!r} must be {wanted}, not {_kind(value)}")


def _obj(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _wrong(path, "an object", value)
    return value


def _opt_obj(value: object, path: str) -> dict[str, Any] | None:
    return None if value is None else _obj(value, path)


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _wrong(path, "a list", value)
    return value


def _text(value: object, path: str) -> str:
    """A stated text: ``null`` is the empty text."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise _wrong(path, "a string or null", value)
    return value


def _opt_str(value: object, path: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise _wrong(path, "a string or null", value)


def _count(value: object, path: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _wrong(path, "a number of tokens", value)
    if isinstance(value, float) and not value.is_integer():
        raise _wrong(path, "a whole number of tokens", value)
    return int(value)


def _first(obj: Mapping[str, Any], *keys: str) -> tuple[str | None, Any]:
    """The first of ``keys`` present in ``obj`` (camelCase or snake_case spellings)."""
    for key in keys:
        if key in obj:
            return key, obj[key]
    return None, None


def _usage(raw: object, path: str, keys: tuple[tuple[tuple[str, ...], str], ...]) -> dict[str, int]:
    """Usage counts, read from ``raw`` by ``(source path, Report key)`` pairs; a source
    path of several names reads a nested object (``("output_tokens_details",
    "reasoning_tokens")``). A ``null`` usage states nothing."""
    if raw is None:
        return {}
    usage = _obj(raw, path)
    out: dict[str, int] = {}
    for source, target in keys:
        value: Any = usage
        where = path
        for name in source:
            if value is None:
                break
            value = _obj(value, where).get(name)
            where = f"{where}.{name}"
        count = _count(value, where)
        if count is not None and target not in out:
            out[target] = count
    return out


def _arguments(value: object) -> JSON:
    """Arguments as the result states them: JSON text is parsed, anything else kept."""
    if isinstance(value, str):
        if not value.strip():
            return {}
        try:
            parsed: JSON = json.loads(value)
        except (ValueError, RecursionError):  # kept as the text the result states
            return value
        return parsed
    return value  # type: ignore[return-value]

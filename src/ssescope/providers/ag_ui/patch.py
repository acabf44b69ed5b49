"""JSON Patch (RFC 6902) applied to an AG-UI state, copy on write."""

from __future__ import annotations

import copy

from ...events import JSON

__all__ = ["PatchError", "apply_patch"]


class PatchError(Exception):
    """A patch operation that does not apply; the message says which and why."""


def _tokens(pointer: object) -> list[str]:
    if not isinstance(pointer, str) or (pointer and not pointer.startswith("/")):
        raise PatchError(f"invalid path {pointer!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def _parent(doc: JSON, tokens: list[str]) -> tuple[JSON, str]:
    node = doc
    for token in tokens[:-1]:
        node = _child(node, token)
    return node, tokens[-1]


def _child(node: JSON, token: str) -> JSON:
    if isinstance(node, dict) and token in node:
        return node[token]
    if isinstance(node, list) and token.isdigit() and int(token) < len(node):
        return node[int(token)]
    raise PatchError(f"no member {token!r}")


def _get(doc: JSON, tokens: list[str]) -> JSON:
    node = doc
    for token in tokens:
        node = _child(node, token)
    return node


def _remove(doc: JSON, tokens: list[str]) -> JSON:
    if not tokens:
        raise PatchError("cannot remove the whole state")
    parent, last = _parent(doc, tokens)
    value = _child(parent, last)
    if isinstance(parent, dict):
        del parent[last]
    elif isinstance(parent, list):
        del parent[int(last)]
    return value


def _add(doc: JSON, tokens: list[str], value: JSON, replace: bool = False) -> JSON:
    if not tokens:
        return value
    parent, last = _parent(doc, tokens)
    if isinstance(parent, dict):
        if replace and last not in parent:
            raise PatchError(f"no member {last!r} to replace")
        parent[last] = value
    elif isinstance(parent, list):
        if last == "-" and not replace:
            parent.append(value)
        elif last.isdigit() and int(last) <= len(parent) - (1 if replace else 0):
            if replace:
                parent[int(last)] = value
            else:
                parent.insert(int(last), value)
        else:
            raise PatchError(f"index {last!r} out of range")
    else:
        raise PatchError(f"cannot add {last!r} to a {type(parent).__name__}")
    return doc


def _op(doc: JSON, op: object) -> JSON:
    if not isinstance(op, dict):
        raise PatchError("an operation is not an object")
    name = op.get("op")
    path = _tokens(op.get("path"))
    if name in ("add", "replace"):
        if "value" not in op:
            raise PatchError(f"{name} without a value")
        return _add(doc, path, copy.deepcopy(op["value"]), replace=name == "replace")
    if name == "remove":
        _remove(doc, path)
        return doc
    if name in ("move", "copy"):
        source = _tokens(op.get("from"))
        value = _remove(doc, source) if name == "move" else copy.deepcopy(_get(doc, source))
        return _add(doc, path, value)
    if name == "test":
        if _get(doc, path) != op.get("value"):
            raise PatchError(f"test failed at {op.get('path')!r}")
        return doc
    raise PatchError(f"unknown op {name!r}")


def apply_patch(state: JSON, patch: JSON) -> JSON:
    """``state`` with ``patch`` applied; ``state`` itself is left unchanged.

    Raises:
        PatchError: an operation does not apply (the whole patch is then not applied).
    """
    if not isinstance(patch, list):
        raise PatchError("the patch is not an array")
    doc = copy.deepcopy(state)
    number = 0
    try:
        for number, op in enumerate(patch):  # noqa: B007 (named in the error)
            doc = _op(doc, op)
    except PatchError as exc:
        raise PatchError(f"operation {number}: {exc}") from None
    return doc

"""JSON Patch (RFC 6902) applied to an AG-UI state in place, all of a patch or none of it.

A stream may send thousands of small patches to a large state, so a patch is applied to
the document itself, each change noted with what undoes it; when an operation does not
apply, the changes made so far are undone in reverse order. The cost of a patch is that of
its operations (and of the values it adds), never that of a copy of the whole state.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from ...events import JSON

__all__ = ["PatchError", "apply_patch"]


class PatchError(Exception):
    """A patch operation that does not apply; the message says which and why."""


_Undo = list[Callable[[], object]]


def _tokens(pointer: object) -> list[str]:
    if not isinstance(pointer, str) or (pointer and pointer[0] != "/"):
        raise PatchError(f"invalid path {pointer!r}")
    tokens = pointer.split("/")[1:]
    if "~" not in pointer:
        return tokens
    return [t.replace("~1", "/").replace("~0", "~") for t in tokens]


def _is_index(token: str) -> bool:
    """Whether ``token`` is an array index: ASCII digits (``str.isdigit`` also takes
    other scripts' digits, which ``int`` refuses)."""
    return token.isdigit() and token.isascii()


def _child(node: JSON, token: str) -> JSON:
    if isinstance(node, dict) and token in node:
        return node[token]
    if isinstance(node, list) and _is_index(token) and int(token) < len(node):
        return node[int(token)]
    raise PatchError(f"no member {token!r}")


def _get(doc: JSON, tokens: list[str]) -> JSON:
    node = doc
    for token in tokens:
        node = _child(node, token)
    return node


def _remove(doc: JSON, tokens: list[str], undo: _Undo) -> JSON:
    if not tokens:
        raise PatchError("cannot remove the whole state")
    parent = _get(doc, tokens[:-1])
    last = tokens[-1]
    value = _child(parent, last)
    if isinstance(parent, dict):
        del parent[last]
        undo.append(lambda: parent.__setitem__(last, value))
    elif isinstance(parent, list):
        index = int(last)
        del parent[index]
        undo.append(lambda: parent.insert(index, value))
    return value


def _set_member(parent: dict[str, JSON], key: str, value: JSON, undo: _Undo) -> None:
    if key in parent:
        old = parent[key]
        undo.append(lambda: parent.__setitem__(key, old))
    else:
        undo.append(lambda: parent.pop(key))
    parent[key] = value


def _add(doc: JSON, tokens: list[str], value: JSON, undo: _Undo, replace: bool = False) -> JSON:
    """``doc`` with ``value`` added (or put in place of what is there, for ``replace``);
    a new document when the path is the whole state."""
    if not tokens:
        return value
    parent = _get(doc, tokens[:-1])
    last = tokens[-1]
    if isinstance(parent, dict):
        if replace and last not in parent:
            raise PatchError(f"no member {last!r} to replace")
        _set_member(parent, last, value, undo)
    elif isinstance(parent, list):
        items = parent
        if last == "-" and not replace:
            items.append(value)
            undo.append(items.pop)
        elif _is_index(last) and int(last) <= len(items) - (1 if replace else 0):
            index = int(last)
            if replace:
                old = items[index]
                items[index] = value
                undo.append(lambda: items.__setitem__(index, old))
            else:
                items.insert(index, value)
                undo.append(lambda: items.pop(index))
        else:
            raise PatchError(f"index {last!r} out of range")
    else:
        raise PatchError(f"cannot add {last!r} to a {type(parent).__name__}")
    return doc


def _op(doc: JSON, op: object, undo: _Undo) -> JSON:
    if not isinstance(op, dict):
        raise PatchError("an operation is not an object")
    name = op.get("op")
    path = _tokens(op.get("path"))
    if name in ("add", "replace"):
        if "value" not in op:
            raise PatchError(f"{name} without a value")
        value = op["value"]
        if isinstance(value, (dict, list)):  # (a scalar is immutable: no copy)
            value = copy.deepcopy(value)
        return _add(doc, path, value, undo, replace=name == "replace")
    if name == "remove":
        _remove(doc, path, undo)
        return doc
    if name in ("move", "copy"):
        source = _tokens(op.get("from"))
        if name == "move" and path[: len(source)] == source and len(path) > len(source):
            raise PatchError("cannot move a value into one of its own members")
        value = _remove(doc, source, undo) if name == "move" else copy.deepcopy(_get(doc, source))
        return _add(doc, path, value, undo)
    if name == "test":
        if _get(doc, path) != op.get("value"):
            raise PatchError(f"test failed at {op.get('path')!r}")
        return doc
    raise PatchError(f"unknown op {name!r}")


def _set_scalar(doc: JSON, op: object) -> bool:
    """The most frequent patch, done at once: one ``replace`` or ``add`` of a scalar into
    an object member, or a ``replace`` of an array item, at a path without escapes.
    Returns whether it was done; ``False`` leaves ``doc`` as it was, for the general path
    (which then reports what does not apply)."""
    if not isinstance(op, dict):
        return False
    name = op.get("op")
    path = op.get("path")
    if (
        name not in ("replace", "add")
        or not isinstance(path, str)
        or path[:1] != "/"
        or "~" in path
        or "value" not in op
    ):
        return False
    value = op["value"]
    if isinstance(value, (dict, list)):
        return False
    tokens = path.split("/")
    node = doc
    for token in tokens[1:-1]:
        if isinstance(node, dict):
            if token not in node:
                return False
            node = node[token]
        elif isinstance(node, list) and _is_index(token) and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    last = tokens[-1]
    if isinstance(node, dict):
        if name == "replace" and last not in node:
            return False
        node[last] = value
        return True
    if name == "replace" and isinstance(node, list) and _is_index(last) and int(last) < len(node):
        node[int(last)] = value
        return True
    return False


def apply_patch(state: JSON, patch: JSON) -> JSON:
    """Apply ``patch`` to ``state`` in place and return the state it makes (a new value
    only when an operation replaces the whole state).

    Raises:
        PatchError: an operation does not apply; ``state`` is then as it was before the
            patch (the whole patch is not applied).
    """
    if not isinstance(patch, list):
        raise PatchError("the patch is not an array")
    if len(patch) == 1 and _set_scalar(state, patch[0]):
        return state
    doc = state
    undo: _Undo = []
    number = 0
    try:
        for number, op in enumerate(patch):  # noqa: B007 (named in the error)
            doc = _op(doc, op, undo)
    except PatchError as exc:
        for step in reversed(undo):
            step()
        raise PatchError(f"operation {number}: {exc}") from None
    return doc

"""A best-effort view of unfinished JSON: what a tool call's arguments say *so far*.

Used only for live views (a chat UI showing arguments as they build up, the web page's
timeline scrubber); the final input of a call is always parsed strictly, once.

``parse_partial('{"city": "Par')`` returns ``{"city": "Par"}``: the text is cut back to
its last point where a value could be closed, open strings are closed, a dangling key or
``:`` or ``,`` is dropped, and open brackets are closed in order.
"""

from __future__ import annotations

import re

from ..events import JSON
from ..limits import MAX_DEPTH, loads_finite, may_be_too_deep

__all__ = ["parse_partial"]

_LITERALS = ("true", "false", "null")

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
"""A JSON string, escapes included; an unterminated one runs to the end of the text."""


def _close(text: str) -> str | None:
    stack: list[str] = []
    in_string = False
    escape = False
    # Positions where the prefix is a consistent place to cut, with the stack then.
    safe = 0
    safe_stack: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if in_string:
            if escape:
                escape = False
            elif c == "\\":
                escape = True
            elif c == '"':
                in_string = False
                safe, safe_stack = i + 1, list(stack)
        elif c == '"':
            in_string = True
        elif c in "[{":
            stack.append("]" if c == "[" else "}")
            safe, safe_stack = i + 1, list(stack)
        elif c in "]}":
            if not stack:
                return None
            stack.pop()
            safe, safe_stack = i + 1, list(stack)
        elif c == ",":
            safe, safe_stack = i, list(stack)
        elif not c.isspace() and c != ":":
            j = i
            while j < n and text[j] not in ',]} \t\r\n"':
                j += 1
            token = text[i:j]
            complete_literal = token in _LITERALS
            number = token.lstrip("-").replace(".", "", 1).replace("e", "", 1).replace("E", "", 1)
            number = number.replace("+", "", 1).replace("-", "", 1)
            if complete_literal or (
                number.isdigit() and not token.endswith((".", "e", "E", "-", "+"))
            ):
                safe, safe_stack = j, list(stack)
            i = j
            continue
        i += 1
    if in_string:
        # Close the open string where it stands, unless it is a dangling object key.
        body = text
        if escape:
            body = body[:-1]
        candidate = body + '"'
        closed = candidate + "".join(reversed(stack))
        try:
            loads_finite(closed)
            return closed
        except ValueError:
            pass
    prefix = text[:safe].rstrip()
    stack = safe_stack
    while prefix.endswith((",", ":")):
        prefix = prefix[:-1].rstrip()
    # drop a dangling object key: {"a": 1, "b"
    if stack and stack[-1] == "}" and prefix.endswith('"'):
        k = prefix.rfind('"', 0, len(prefix) - 1)
        before = prefix[:k].rstrip()
        if before.endswith(("{", ",")):
            prefix = before.rstrip(",").rstrip()
    return prefix + "".join(reversed(stack))


def parse_partial(text: str) -> JSON:
    """Parse the JSON prefix ``text`` as far as it goes.

    Returns:
        The value the prefix describes so far, or ``None`` when nothing can be read yet,
        and when it nests more than :data:`ssescope.limits.MAX_DEPTH` levels deep.
    """
    if not text.strip() or (may_be_too_deep(text) and _nesting(text) > MAX_DEPTH):
        return None
    try:
        value: JSON = loads_finite(text)
        return value
    except ValueError:
        pass
    closed = _close(text)
    if not closed:
        return None
    try:
        value = loads_finite(closed)
        return value
    except ValueError:
        return None


def _nesting(text: str) -> int:
    """The deepest nesting of brackets in ``text``, outside strings."""
    depth = deepest = 0
    for ch in _STRING.sub("", text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest

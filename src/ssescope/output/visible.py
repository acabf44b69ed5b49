"""Make control characters visible before text that came from a stream reaches a terminal.

A stream carries text written by somebody else: a model, a proxy, an attacker who
controls the prompt. Printed raw, ``ESC ] 52 ;`` writes the clipboard, ``ESC ] 0 ;``
sets the window title and ``ESC [ 2 J`` clears the screen. Every human view (the CLI's
``inspect``, ``records``, ``request`` and ``check`` output, the replay server's log)
passes such text through :func:`visible`, which spells each control character out as
an escape (``\\x1b``, ``\\u202e``) instead.

JSON output is protected by JSON's own escaping; :func:`escape_json_text` adds the
characters JSON leaves raw (C1 controls, bidirectional overrides, line separators).
"""

from __future__ import annotations

import re

__all__ = ["escape_json_text", "visible"]

# C0 controls, DEL, C1 controls; bidirectional marks, embeddings, overrides and
# isolates ("Trojan Source"); the Unicode line and paragraph separators.
_OTHERS = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_SINGLE = re.compile(f"[\x00-\x1f{_OTHERS}]")
_MULTI = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")  # keeps \t and \n
_JSON_RAW = re.compile(f"[{_OTHERS}]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _spell(match: re.Match[str]) -> str:
    char = match.group(0)
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, multiline: bool = False) -> str:
    """Return ``text`` with every control character written out as an escape.

    Args:
        text: text that came from a stream (or anything else not written by ssescope).
        multiline: keep line feeds and tabs (for views that show multi-line text); a
            carriage return is always made visible, since it rewrites the line.

    Returns:
        The text, where ESC becomes ``\\x1b``, BEL ``\\x07``, CR ``\\r``, a C1 control
        such as U+009B ``\\x9b``, a bidirectional override ``\\u202e``, and so on. Text
        without control characters is returned as it is.
    """
    pattern = _MULTI if multiline else _SINGLE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_spell, text)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def escape_json_text(text: str) -> str:
    """Escape, in JSON text, the characters JSON would otherwise leave raw.

    JSON escapes the C0 controls itself; DEL, the C1 controls, bidirectional controls
    and U+2028/U+2029 may appear raw in a JSON string. They only ever occur inside
    strings, so writing them as ``\\uXXXX`` keeps the same value and makes the output
    safe to print on a terminal.
    """
    if _JSON_RAW.search(text) is None:
        return text
    return _JSON_RAW.sub(_json_escape, text)

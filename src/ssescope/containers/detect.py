"""Which container a file is, from its first bytes (UX §4; the first rule that matches wins).

========================================================  ==============
rule (after an optional BOM and blank lines)               container
========================================================  ==============
the first line is JSON with ``"ssescope": "capture"``     ``ssecap``
a JSON object whose first key is ``"log"`` (HAR 1.2)      ``har``
a curl trace line: ``== Info:``, ``=> Send …``,            ``curl-trace``
``<= Recv …``, maybe after ``HH:MM:SS.ffffff``
a status line: ``HTTP/1.1 200 …``, ``HTTP/2 200``          ``http``
a WebSocket message (``type`` send/receive, ``data``)     ``jsonl``
a JSON object with ``chunk`` and ``ts`` keys               ``jsonl``
anything else, binary garbage included                     ``raw``
========================================================  ==============
"""

from __future__ import annotations

import json
import re

import orjson

from ..framing import BOM
from ._body import ContainerName
from ._httpbody import STATUS_LINE
from .jsonl import is_jsonl_wrapper
from .ws_forms import is_ws_message

__all__ = ["DETECT_BYTES", "detect_container"]

DETECT_BYTES = 65536
"""How many leading bytes :func:`detect_container` looks at."""

_CAPTURE_PREFIX = re.compile(rb'\{\s*"ssescope"\s*:\s*(?:"capture"|1)\s*[,}]')
_HAR = re.compile(rb'\{\s*"log"\s*:\s*\{')
_TRACE = re.compile(rb"(?:\d\d:\d\d:\d\d\.\d+ )?(?:\[[^\]\r\n]*\] )?(?:== Info:|=> Send |<= Recv )")


def _json(line: bytes) -> object:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        pass
    try:  # what orjson refuses but the JSONL reader takes (integers beyond a double)
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def detect_container(head: bytes) -> tuple[ContainerName, str]:
    """Decide the container from the first bytes of the input.

    Args:
        head: the first bytes (at least the first line; :data:`DETECT_BYTES` is plenty).

    Returns:
        ``(container, rule)``: the container name and a sentence saying which rule decided.
        Never raises; undecidable input is ``"raw"``.
    """
    data = head[:DETECT_BYTES]
    if data.startswith(BOM):
        data = data[3:]
    stripped = data.lstrip(b" \t\r\n")
    nl = stripped.find(b"\n")
    first = stripped if nl < 0 else stripped[:nl]
    first = first.rstrip(b"\r")
    if stripped.startswith(b"{"):
        if _CAPTURE_PREFIX.match(first):
            return "ssecap", 'the first line is a JSON object with "ssescope": "capture"'
        obj = _json(first)
        if isinstance(obj, dict) and obj.get("ssescope") in ("capture", 1):
            return "ssecap", 'the first line is a JSON object with "ssescope": "capture"'
        if _HAR.match(stripped):
            return "har", 'the input is a JSON object with a "log" object (HAR 1.2)'
    if _TRACE.match(first):
        return "curl-trace", "the first line is a curl --trace/--trace-ascii event line"
    if STATUS_LINE.fullmatch(first):
        return "http", "the first line is an HTTP status line (curl -i or a raw response)"
    if first.startswith(b"{") and is_ws_message(_json(first)):
        return "jsonl", 'the first line is a WebSocket message ("type": "send"/"receive", "data")'
    if first.startswith(b"{") and is_jsonl_wrapper(_json(first)):
        return "jsonl", 'the first line is a JSON object wrapping a "chunk" with its time'
    return "raw", "no container matched; the input is the response body itself"

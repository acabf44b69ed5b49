"""The three forms a WebSocket exchange is read from.

- the ``.ssecap`` WebSocket form: a header with ``"version": 2`` and
  ``"transport": "websocket"``, then one line per message,
  ``{"t": 0.41, "dir": "receive", "data": "{…}"}`` (``"b64"`` instead of ``"data"`` for
  a binary message), and a last line ``{"close": {"code": 1000, "reason": ""}, "t": …}``
  or ``{"close": "dropped", "t": …}``;
- a Chrome DevTools HAR entry's ``_webSocketMessages``
  (``{"type": "send" | "receive", "time": <epoch s>, "opcode": 1 | 2, "data": …}``);
- a JSONL log of such messages, one per line (``time`` may be seconds since the
  connection opened or epoch seconds; both are made relative to the first message).
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

import orjson

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..sourceinfo import WebSocketEnd
from ._body import (
    LOST_EXACT_BYTES,
    LOST_FRAMING,
    LOST_HEADERS,
    LOST_REQUEST,
    Body,
    ContainerName,
    RequestInfo,
)
from .websocket import Direction, Message, split_responses

__all__ = [
    "WS_VERSION",
    "WSExchange",
    "is_ws_message",
    "read_ws_capture",
    "read_ws_exchange",
    "read_ws_har_entry",
    "read_ws_jsonl",
]

WS_VERSION = 2
"""The ``.ssecap`` version of the WebSocket form."""

_DIRS: dict[str, Direction] = {"send": "send", "receive": "receive", "recv": "receive"}


def is_ws_message(obj: object) -> bool:
    """Whether a JSON value is one WebSocket message of a DevTools-style log."""
    return (
        isinstance(obj, dict)
        and obj.get("type") in ("send", "receive")
        and "data" in obj
        and "opcode" in obj
    )


def _number(value: object) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e300:
        return float(value)
    return None


def _devtools(obj: object) -> tuple[Message, None] | tuple[None, str]:
    if not isinstance(obj, dict):
        return None, "not an object"
    direction = _DIRS.get(str(obj.get("type")))
    data = obj.get("data")
    if direction is None or not isinstance(data, str):
        return None, "not a message: no send/receive type or no data string"
    opcode = obj.get("opcode")
    if opcode == 2:
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raw = data.encode("utf-8", "surrogatepass")
        return Message(direction, "binary", raw, _number(obj.get("time"))), None
    if opcode not in (1, None):
        return None, f"opcode {opcode!r} is not a data frame"
    return Message(
        direction, "text", data.encode("utf-8", "surrogatepass"), _number(obj.get("time"))
    ), None


def _take(
    obj: object, msgs: list[Message], diags: list[Diagnostic], index: int, at: int | None = None
) -> None:
    """Add the message ``obj`` records to ``msgs``; or, when it records none, say why in
    ``diags`` (``index`` its place in the log, ``at`` its byte offset if known)."""
    msg, why = _devtools(obj)
    if msg is None:
        diags.append(diagnostic(codes.WEBSOCKET_INVALID_MESSAGE, at, index=index, reason=why))
    else:
        msgs.append(msg)


def _relative(messages: list[Message]) -> list[Message]:
    start = next((m.time for m in messages if m.time is not None), None)
    if start is None:
        return messages
    return [
        Message(m.direction, m.opcode, m.data, None if m.time is None else m.time - start)
        for m in messages
    ]


def read_ws_har_entry(
    messages: list[Any],
    *,
    request: RequestInfo,
    status: int | None,
    headers: list[tuple[str, str]],
    diagnostics: list[Diagnostic],
) -> list[Body]:
    """Read a HAR entry's ``_webSocketMessages`` into one body per response.

    DevTools does not record the close frame, so how the connection ended is unknown.
    """
    msgs: list[Message] = []
    for i, item in enumerate(messages):
        _take(item, msgs, diagnostics, i)
    return split_responses(
        _relative(msgs),
        container="har",
        close=None,
        request=request,
        status=status,
        headers=headers,
        diagnostics=diagnostics,
        lost=[LOST_FRAMING, LOST_EXACT_BYTES],
    )


def read_ws_jsonl(data: bytes) -> list[Body]:
    """Read a JSONL log of WebSocket messages into one body per response. Never raises."""
    diags: list[Diagnostic] = []
    msgs: list[Message] = []
    close: WebSocketEnd | None = None
    pos = 0
    for lineno, raw in enumerate(data.split(b"\n"), 1):
        at = pos
        pos += len(raw) + 1
        if not raw.strip():
            continue
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            diags.append(
                diagnostic(codes.WEBSOCKET_INVALID_MESSAGE, at, index=lineno, reason=str(exc))
            )
            continue
        if isinstance(obj, dict) and "close" in obj:
            close = _close(obj["close"])
            continue
        _take(obj, msgs, diags, lineno, at)
    return split_responses(
        _relative(msgs),
        container="jsonl",
        close=close,
        diagnostics=diags,
        lost=[LOST_FRAMING, LOST_EXACT_BYTES, LOST_HEADERS, LOST_REQUEST],
    )


def _close(value: object) -> WebSocketEnd:
    if isinstance(value, dict):
        code = value.get("code")
        return WebSocketEnd(
            code=code if isinstance(code, int) and not isinstance(code, bool) else None,
            reason=str(value.get("reason") or ""),
        )
    return WebSocketEnd(dropped=True)


@dataclass(frozen=True, slots=True)
class WSExchange:
    """A WebSocket connection as a capture recorded it (what ``serve`` replays).

    Attributes:
        messages: every message, both directions, in order.
        close: how the connection ended (``None``: the capture does not say).
        closed_by: who ended it, when the capture says (``"client"``, ``"server"``).
    """

    messages: tuple[Message, ...]
    close: WebSocketEnd | None
    closed_by: str | None = None


def _har_exchange(data: bytes) -> WSExchange | None:
    """The first WebSocket entry of a HAR, or ``None``. DevTools records no close frame."""
    try:
        # the standard library, as the HAR reader: orjson peaks far higher on a large HAR
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return None
    log = doc.get("log") if isinstance(doc, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        items = entry.get("_webSocketMessages") if isinstance(entry, dict) else None
        if isinstance(items, list) and items:
            found = (_devtools(i) for i in items)
            return WSExchange(tuple(_relative([m for m, _ in found if m is not None])), None)
    return None


def read_ws_exchange(data: bytes) -> WSExchange | None:
    """The messages of a ``.ssecap`` WebSocket capture, of a JSONL log of messages, or of
    a HAR's first entry with ``_webSocketMessages``, or ``None`` when ``data`` is none of
    them. Lines that are not messages are skipped."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    if b'"_webSocketMessages"' in data:
        har = _har_exchange(data)
        if har is not None:
            return har
    lines = [line for line in data.split(b"\n") if line.strip()]
    if not lines:
        return None
    try:
        head = orjson.loads(lines[0].removeprefix(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError:
        return None
    objs: list[tuple[int, dict[str, Any]]] = []
    for raw in lines[1:] if isinstance(head, dict) and "ssescope" in head else lines:
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            objs.append((0, obj))
    if isinstance(head, dict) and head.get("transport") == "websocket":
        msgs, close, _, by = _capture_messages(objs, [])
        return WSExchange(tuple(msgs), close, by)
    if not is_ws_message(head):
        return None
    msgs = []
    close = None
    for _, obj in objs:
        if "close" in obj:
            close = _close(obj["close"])
            continue
        msg, _why = _devtools(obj)
        if msg is not None:
            msgs.append(msg)
    return WSExchange(tuple(_relative(msgs)), close)


def _capture_messages(
    lines: list[tuple[int, dict[str, Any]]], diags: list[Diagnostic]
) -> tuple[list[Message], WebSocketEnd | None, float | None, str | None]:
    """The messages, the close, its time and who closed, of a capture's message lines."""
    msgs: list[Message] = []
    close: WebSocketEnd | None = None
    closed_at: float | None = None
    by: str | None = None
    for at, obj in lines:
        if "close" in obj:
            close = _close(obj["close"])
            closed_at = _number(obj.get("t"))
            by = obj["by"] if obj.get("by") in ("client", "server", "proxy") else None
            continue
        direction = _DIRS.get(str(obj.get("dir")))
        t = _number(obj.get("t"))
        if direction is None:
            diags.append(
                diagnostic(codes.WEBSOCKET_INVALID_MESSAGE, at, index=len(msgs), reason="no dir")
            )
            continue
        if isinstance(obj.get("data"), str):
            msgs.append(Message(direction, "text", obj["data"].encode("utf-8", "surrogatepass"), t))
        elif isinstance(obj.get("b64"), str):
            try:
                piece = base64.b64decode(obj["b64"], validate=True)
            except (binascii.Error, ValueError) as exc:
                diags.append(
                    diagnostic(
                        codes.WEBSOCKET_INVALID_MESSAGE, at, index=len(msgs), reason=str(exc)
                    )
                )
                continue
            msgs.append(Message(direction, "binary", piece, t))
        else:
            diags.append(
                diagnostic(
                    codes.WEBSOCKET_INVALID_MESSAGE, at, index=len(msgs), reason="no data or b64"
                )
            )
    return msgs, close, closed_at, by


def read_ws_capture(lines: list[tuple[int, dict[str, Any]]], body: Body) -> list[Body]:
    """Read the message lines of a ``.ssecap`` WebSocket capture whose header was read
    into ``body`` (request, upgrade status and headers, diagnostics so far).

    Args:
        lines: ``(offset, line)`` for each JSON object line after the header.
        body: the capture's header, as read.
    """
    diags = body.diagnostics
    msgs, close, closed_at, by = _capture_messages(lines, diags)
    container: ContainerName = "ssecap"
    bodies = split_responses(
        msgs,
        container=container,
        close=close,
        request=body.request,
        status=body.status,
        headers=body.headers,
        diagnostics=diags,
        closed_by=by,
    )
    if closed_at is not None:
        bodies[-1].timing["total_s"] = closed_at
    return bodies

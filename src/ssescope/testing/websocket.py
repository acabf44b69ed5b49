"""Judge the messages a WebSocket client exchanged, as a test holds them.

A test of a WebSocket client (Responses over WebSocket, OpenAI Realtime) has the
messages it sent and received, not a body: :func:`websocket_reports` reads them as the
WebSocket container reads a capture (each server text message one record, the client's
messages kept as the requests, one stream per response) and judges each response with
the engine, as ``ssescope inspect`` judges a ``.ssecap`` WebSocket capture.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Literal, TypeAlias

from ..aggregate.report import Report
from ..api import feed_chunks
from ..containers.websocket import Direction, Message, split_responses
from ..errors import UsageError
from ..pipeline import Pipeline
from ..sourceinfo import WebSocketEnd

__all__ = ["Close", "WebSocketMessage", "websocket_reports"]

WebSocketMessage: TypeAlias = "Message | tuple[Direction, str | bytes | Mapping[str, object]]"
"""One message: a :class:`~ssescope.containers.websocket.Message`, or ``(direction,
payload)`` with ``direction`` ``"send"`` (client to server) or ``"receive"``, and the
payload as text, bytes (a binary message) or a JSON object (sent as compact JSON text)."""

Close: TypeAlias = "int | tuple[int, str] | Literal['dropped'] | None"
"""How the connection ended: a close code, a code and reason, ``"dropped"`` (no close
frame), or ``None`` when the test does not know (the last response is then judged by its
events alone)."""

_DIRECTIONS = ("send", "receive")


def _message(item: WebSocketMessage) -> Message:
    if isinstance(item, Message):
        return item
    if not isinstance(item, tuple) or len(item) != 2 or item[0] not in _DIRECTIONS:
        raise UsageError(
            f"a WebSocket message is (direction, payload) with direction 'send' or 'receive', "
            f"not {item!r}"
        )
    direction, payload = item
    if isinstance(payload, bytes | bytearray):
        return Message(direction, "binary", bytes(payload))
    if isinstance(payload, str):
        return Message(direction, "text", payload.encode("utf-8", "surrogatepass"))
    if isinstance(payload, Mapping):
        text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        return Message(direction, "text", text.encode())
    raise UsageError(
        f"a WebSocket message's payload is text, bytes or a JSON object, not {payload!r}"
    )


def _end(close: Close) -> WebSocketEnd | None:
    if close is None:
        return None
    if close == "dropped":
        return WebSocketEnd(dropped=True)
    if isinstance(close, int) and not isinstance(close, bool):
        return WebSocketEnd(code=close)
    if isinstance(close, tuple) and len(close) == 2 and isinstance(close[0], int):
        return WebSocketEnd(code=close[0], reason=str(close[1]))
    raise UsageError(f"close is a code, (code, reason), 'dropped' or None, not {close!r}")


def websocket_reports(
    messages: Iterable[WebSocketMessage], *, close: Close = None, provider: str = "auto"
) -> list[Report]:
    """The Report of each response of a WebSocket exchange, in order.

    Args:
        messages: the connection's messages in both directions, in order (see
            :data:`WebSocketMessage`).
        close: how the connection ended (see :data:`Close`).
        provider: ``"auto"`` or a provider name.

    Returns:
        One Report per response: a new one starts at a ``response.create`` once the
        current one has its response, and at a server ``response.created`` once it has
        had one (a Realtime server's turn detection). Each names its ``entry`` when there
        are several; the connection's end belongs to the last one.

    Raises:
        UsageError: a message, ``close`` or ``provider`` that is not one.
    """
    bodies = split_responses([_message(m) for m in messages], container="jsonl", close=_end(close))
    return [
        feed_chunks(Pipeline(provider=provider, source=body.info()), body.chunks).report()
        for body in bodies
    ]

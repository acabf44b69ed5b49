"""What the exchange around the records says about the response (``docs/verdicts.md``).

The :class:`~ssescope.pipeline.Pipeline` reads the records; some verdicts come from
around them instead: an HTTP error status, a body in which no record could be framed,
and how the WebSocket that carried the stream ended. Each is judged here, once, at the
end of the stream.
"""

from __future__ import annotations

import json
from typing import Any

from . import codes
from .aggregate.aggregator import Aggregator
from .aggregate.report import Report
from .diagnostics import Diagnostic, diagnostic
from .framing.sniff import describe_non_stream
from .sourceinfo import WebSocketEnd

__all__ = ["error_from_body", "http_error", "not_a_stream", "websocket_end"]


def error_from_body(body: bytes) -> dict[str, Any]:
    """The provider's error in an HTTP error body (``{"error": {...}}`` and its variants).

    Returns:
        ``{"type": ..., "message": ...}``; the message is the body text when it is not JSON.
    """
    try:
        obj: Any = json.loads(body)
    except ValueError:
        return {"type": None, "message": body.decode("utf-8", "replace").strip()[:500]}
    if isinstance(obj, list) and obj and isinstance(obj[0], dict):
        obj = obj[0]  # Gemini wraps errors in an array outside alt=sse
    if isinstance(obj, dict):
        err = obj.get("error", obj)
        if isinstance(err, dict):
            kind = err.get("type") or err.get("status") or err.get("code")
            message = err.get("message") or json.dumps(err)
            return {"type": None if kind is None else str(kind), "message": str(message)}
        if isinstance(err, str):
            return {"type": None, "message": err}
    return {"type": None, "message": body.decode("utf-8", "replace")[:500]}


def http_error(report: Report, status: int | None, body: bytes) -> None:
    """Make ``report`` say that the server answered HTTP ``status`` (400 or more): a failed
    response, whatever its body (the first bytes of which are ``body``) looks like."""
    if not any(d.spec == codes.HTTP_ERROR_STATUS for d in report.diagnostics):
        report.diagnostics.append(
            diagnostic(
                codes.HTTP_ERROR_STATUS,
                0,
                form="body",
                status=status,
                decode=body.decode("utf-8", "replace"),
            )
        )
    response = report.response
    if response.status != "failed":
        response.status = "failed"
        response.status_reason = f"the server answered HTTP {status}"
    if response.error is None:
        response.error = {**error_from_body(body), "code": status, "record": None}


def not_a_stream(report: Report, head: bytes, size: int) -> None:
    """Make ``report``, of a body of ``size`` bytes (the first of which are ``head``) in
    which not one record was framed, say what the body is: empty, an HTML page, plain
    text."""
    found = describe_non_stream(head, size)
    if found is None:
        return
    report.diagnostics.append(found.diagnostic)
    response = report.response
    response.status_reason = found.reason
    if found.status == "failed" and response.status == "truncated":
        response.status = "failed"
        if response.error is None:
            response.error = {
                "type": None,
                "message": found.error,
                "code": None,
                "record": None,
            }


def _cancel_sent(sent: tuple[str, ...]) -> bool:
    """Whether the client's messages of a WebSocket stream include a ``response.cancel``."""
    for text in sent:
        if '"response.cancel"' in text:
            try:
                obj = json.loads(text)
            except ValueError:
                continue
            if isinstance(obj, dict) and obj.get("type") == "response.cancel":
                return True
    return False


def websocket_end(ws: WebSocketEnd, aggregator: Aggregator) -> list[Diagnostic]:
    """Judge how the WebSocket that carried the stream ended: the response is marked
    cancelled (the client sent ``response.cancel``, or closed the connection itself before
    the terminal event) or cut on ``aggregator``.

    Returns:
        The diagnostics of the WebSocket's end.
    """
    found: list[Diagnostic] = []
    end = ws.describe()
    cancelled = not aggregator.terminal_seen and _cancel_sent(ws.sent)
    if cancelled:
        # the client asked for the cancel: what follows is its doing, not a cut
        after = "the next response began" if ws.next_response else f"the WebSocket {end}"
        aggregator.cancel(f"the client sent response.cancel, and {after} before the terminal event")
    if ws.next_response or not ws.known:
        return found
    if ws.closed_by == "client":
        # the client ended the connection: its close code is its own, and a response it
        # left before the terminal event is its doing too (the app left early)
        if not cancelled:
            aggregator.cancel_open(
                f"the client left: the WebSocket {end} before the terminal event"
            )
        return found
    if ws.dropped:
        found.append(diagnostic(codes.WEBSOCKET_NO_CLOSE_FRAME))
    elif ws.code is not None and ws.code != 1000:
        found.append(diagnostic(codes.WEBSOCKET_CLOSE_CODE, close_code=ws.code, end=end))
    if not aggregator.terminal_seen and not cancelled:
        found.append(diagnostic(codes.WEBSOCKET_CLOSED_BEFORE_TERMINAL, end=end))
        aggregator.cut(f"the WebSocket {end} before the terminal event")
    return found

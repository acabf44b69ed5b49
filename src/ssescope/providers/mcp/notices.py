"""MCP notifications and server-to-client requests as the Report's ``notifications``: the
method, and what the record said in a short line."""

from __future__ import annotations

from ...events import JSON, Notification
from .._base import compact_json
from .._jsonrpc import Envelope

__all__ = ["notification", "summary"]

SUMMARY_CHARS = 200
"""How long a summary may grow before it is cut (with an ellipsis)."""


def _number(value: JSON) -> str | None:
    """A progress figure as a person writes it (``3``, not ``3.0``)."""
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is float:
        number = float(value)  # type: ignore[arg-type]
        return str(int(number)) if number.is_integer() and abs(number) < 1e15 else str(number)
    return None  # (a bool is no figure)


def _text(value: JSON) -> str:
    """A log message's data as text: a string as it is, the ``msg`` / ``message`` of an
    object that carries one (FastMCP's ``{"msg", "extra"}``), else compact JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for key in ("msg", "message"):
            text = value.get(key)
            if isinstance(text, str):
                return text
    return compact_json(value)


def summary(method: str, params: JSON) -> str:
    """What a notification or request said: ``2/3 · counting`` for progress, ``info
    [logger]: data`` for a log message, a request's ``message`` if it has one, else ``""``."""
    if not isinstance(params, dict):
        return ""
    if method == "notifications/progress":
        progress, total = _number(params.get("progress")), _number(params.get("total"))
        line = "" if progress is None else progress if total is None else f"{progress}/{total}"
        message = params.get("message")
        if isinstance(message, str) and message:
            line = f"{line} · {message}" if line else message
    elif method == "notifications/message":
        level = params.get("level")
        logger = params.get("logger")
        head = level if isinstance(level, str) else "log"
        if isinstance(logger, str) and logger:
            head += f" [{logger}]"
        line = f"{head}: {_text(params.get('data'))}" if "data" in params else head
    else:
        message = params.get("message")
        line = message if isinstance(message, str) else ""
    if len(line) > SUMMARY_CHARS:
        line = line[:SUMMARY_CHARS] + "…"
    return line


def notification(record: int, env: Envelope) -> Notification:
    """The event for a notification or a server-to-client request (``env.method`` set)."""
    method = env.method or ""
    request_id = env.id if env.kind == "request" else None
    return Notification(record, method, summary(method, env.params), request_id)

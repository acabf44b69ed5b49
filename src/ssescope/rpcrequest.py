"""The JSON-RPC ids a request body carries: which responses the stream must bring.

An MCP Streamable HTTP client POSTs one JSON-RPC request (or, before protocol version
2025-06-18, a batch: a JSON array of them); the stream's terminal is the response to its
``id``. A capture that keeps the request's body (an ``.ssecap`` header, a HAR entry's
``postData``, a proxy record, the library's ``request=``) tells that id, so a response
to another id is not taken for the answer.

Each id is kept as compact JSON text (``1``, ``"req-1"``): the number ``1`` and the string
``"1"`` are different ids. Notifications (a ``method`` without ``id``) expect no response
and give no id. Nothing here does I/O; a body that is not JSON-RPC gives no ids.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import orjson

__all__ = ["request_ids", "rpc_id_text"]

_BODY_LIMIT = 16 << 20  # request bodies longer than this are not read for ids


def rpc_id_text(value: object) -> str:
    """A JSON-RPC id as compact JSON text, the form :func:`request_ids` gives."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def request_ids(body: object) -> tuple[str, ...]:
    """The ids of the JSON-RPC requests in a request body, in order.

    Args:
        body: JSON text (``str`` or ``bytes``), the decoded JSON value, or a pydantic
            model of it (``model_dump()``).

    Returns:
        One id (compact JSON text) per request in the body: one for a single request,
        one per request of a batch, none for a notification or a body that is no
        JSON-RPC 2.0 request.
    """
    value = _decoded(body)
    items = value if isinstance(value, list) else [value]
    return tuple(rpc_id_text(item["id"]) for item in items if _is_request(item))


def _is_request(item: object) -> bool:
    """Whether ``item`` is a JSON-RPC 2.0 request (a ``method`` and an ``id``)."""
    return (
        isinstance(item, dict)
        and item.get("jsonrpc") == "2.0"
        and isinstance(item.get("method"), str)
        and "id" in item
    )


def _decoded(body: object) -> Any:
    """``body`` as a JSON value, or ``None`` when it holds none."""
    if isinstance(body, bytes | bytearray | memoryview):
        raw = bytes(body)
        if len(raw) > _BODY_LIMIT or b"jsonrpc" not in raw:
            return None
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            return None
    if isinstance(body, str):
        if len(body) > _BODY_LIMIT or "jsonrpc" not in body:
            return None
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            return None
    dump = getattr(body, "model_dump", None)
    if callable(dump) and not isinstance(body, Mapping):
        try:
            return dump(mode="json", by_alias=True, exclude_none=True)
        except Exception:  # (a model that cannot dump itself: no ids known)
            return None
    if isinstance(body, Mapping):
        return dict(body)
    return body

"""MCP Streamable HTTP responses: JSON-RPC 2.0 messages over SSE.

Theory of operation
===================

A client POSTs one JSON-RPC request; the server answers with an SSE stream (``event:
message``) of JSON-RPC messages. Notifications (``notifications/progress``,
``notifications/message``) and server-to-client requests may come first; the stream's
terminal is the one response (``result`` or ``error``) to the request's id.

* The request id: the captured request's (an ``.ssecap`` or HAR entry that keeps the
  body, a proxy record, the library's ``request=``: ``SourceInfo.request_ids``); a
  response to another id is skipped (``mcp.unmatched-response``). Without the request,
  the first response's id, which the status reason names. A batch response (a JSON
  array) is read as its messages; a batch request ends when each of its ids is answered.
* A ``result`` is ``completed``; a ``tools/call`` result with ``isError: true`` is the
  tool's own failure in a successful JSON-RPC result, not a transport or protocol one:
  ``failed`` with ``mcp.tool-error``.
* A JSON-RPC ``error`` is ``failed``, with its code and message (``provider.error``).
* A stream that ends before the response is ``truncated`` (``mcp.missing-response``).
* Resumability: an SSE event id that repeats or goes backwards is reported
  (``mcp.event-id-order``, :mod:`.event_ids`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import McpAdapter

__all__ = ["McpAdapter"]

__getattr__ = lazy_exports(__name__, __all__)

"""The diagnostic codes documented on ``docs/diagnostics/live.md``."""

from __future__ import annotations

from ._spec import Code, Page

PAGE = Page(
    "live",
    ("# Diagnostics of the live client\n"),
)

CODES: tuple[Code, ...] = (
    Code(
        "stream.open-after-finish",
        "warning",
        "live",
        PAGE,
        "The terminal marker arrived but the server kept the connection open; the client closed it after {wait} of silence.",
        (
            "The protocol's terminal marker (`[DONE]`, `message_stop`, `response.completed`…) arrived,\n"
            "but the server kept the connection open; the client closed it after the stall time. The\n"
            "status is unchanged. Example: a proxy that never ends a chunked response after\n"
            "`data: [DONE]`. What to do: clients that wait for the end of the body instead of the\n"
            "marker will hang; fix the server or proxy so it ends the response.\n"
        ),
    ),
    Code(
        "stream.connection-error",
        "error",
        "live",
        PAGE,
        "The connection failed after {bytes_seen} bytes: {name} {exc!q}.",
        (
            "The connection failed mid-body (reset, an incomplete chunked body, a peer that closed\n"
            "early). What arrived is kept and the response is `truncated` unless a terminal marker had\n"
            "come. Example: a load balancer cutting a long response at its idle timeout. What to do:\n"
            "check proxy and load-balancer timeouts; retry.\n"
        ),
        content=("exc",),
    ),
)

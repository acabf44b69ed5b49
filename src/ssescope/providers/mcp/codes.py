"""The diagnostic codes documented on ``docs/diagnostics/mcp.md``."""

from __future__ import annotations

from ...codes.per_provider import provider_error
from ...codes.spec import Code, Page

PAGE = Page(
    "mcp",
    (
        "# MCP diagnostics\n"
        "\n"
        "Codes raised by the MCP Streamable HTTP adapter (`ssescope.providers.mcp`). The\n"
        "adapter also raises `json.invalid`, the JSON-RPC envelope codes (`jsonrpc.*`) and\n"
        "`provider.error` (shared codes). The stream's terminal is the JSON-RPC response to the\n"
        "request: its id is the captured request's when the capture holds the request body\n"
        "(an `.ssecap`, a HAR entry, a proxy record, the library's `request=`), else the first\n"
        "response's, which the status reason names. A batch response (a JSON array) is read\n"
        "as its messages in order; a batch request is answered once every one of its ids is.\n"
        "\n"
        "With resumability, each SSE event's `id:` is what a client sends back as\n"
        "`Last-Event-ID`, so the ids must not repeat or go backwards (`mcp.event-id-order`).\n"
    ),
)

MISSING_RESPONSE = Code(
    "mcp.missing-response",
    "warning",
    "provider",
    PAGE,
    "The stream ended without the JSON-RPC response to its request; the reply is cut off.",
    (
        "- **Means:** notifications or nothing came, but no `result` or `error` answered the\n"
        "  request. The status stays `truncated`.\n"
        '- **Example:** `data: {"jsonrpc":"2.0","method":"notifications/progress",...}` last.\n'
        "- **What to do:** check the tool's run time against the client's read timeout, and any\n"
        "  proxy timeout; resume with `Last-Event-ID` if the server keeps an event store.\n"
    ),
)

TOOL_ERROR = Code(
    "mcp.tool-error",
    "warning",
    "provider",
    PAGE,
    "The tool itself failed: the server answered with a successful JSON-RPC result that reports the tool's own error (isError: true); this is no transport or protocol failure, and the result arrived whole.",
    (
        "- **Means:** a `tools/call` result with `isError: true`: the JSON-RPC call succeeded\n"
        "  and its result carries the tool's own failure; no JSON-RPC `error`, no transport\n"
        "  or protocol fault. The status is `failed`; the result's text is the reply.\n"
        '- **Example:** `{"jsonrpc":"2.0","id":4,"result":{"content":[...],"isError":true}}`\n'
        "- **What to do:** read the result's text; fix the tool call's arguments or the tool.\n"
    ),
)

AFTER_RESPONSE = Code(
    "mcp.after-response",
    "warning",
    "provider",
    PAGE,
    "Record {record} is a second JSON-RPC response; the request was already answered, so it is ignored.",
    (
        "- **Means:** the request is answered by exactly one response; a later one is ignored.\n"
        "- **Example:** two `result` messages in one stream.\n"
        "- **What to do:** report it to the server's authors.\n"
    ),
)

UNMATCHED_RESPONSE = Code(
    "mcp.unmatched-response",
    "warning",
    "provider",
    PAGE,
    "Record {record} is a JSON-RPC response to id {got}, not to the request's id {want}; it does not end the stream, which still waits for its own response.",
    (
        "- **Means:** the capture keeps the request, and this response answers another id\n"
        "  (a response routed to the wrong stream, or a stale one). It is skipped; without the\n"
        "  right response the status stays `truncated`.\n"
        '- **Example:** request `{"jsonrpc":"2.0","id":7,"method":"tools/call",...}`, then\n'
        '  `data: {"jsonrpc":"2.0","id":6,"result":{...}}`.\n'
        "- **What to do:** check the server's routing of responses to streams (a session that\n"
        "  serves several requests at once), or the client's request ids.\n"
    ),
)

EVENT_ID_ORDER = Code(
    "mcp.event-id-order",
    "warning",
    "provider",
    PAGE,
    "Record {record} has the SSE event id {event_id!q:80}, which {what}; a client resuming with Last-Event-ID may miss or replay events.",
    (
        "- **Means:** with resumability the server's event store replays what follows the\n"
        "  client's `Last-Event-ID`, so each event's `id:` must be new. An id that an earlier\n"
        "  event had is reported; so is one that goes backwards, when the ids are numbers or a\n"
        "  shared prefix and a number (`e12` after `e13`). Other ids (UUIDs) are only checked\n"
        "  for repeats. An event without an `id:` line keeps the last one (the SSE rules), so\n"
        "  an id equal to the previous event's is not reported.\n"
        "- **Example:** `id: 5` ... `id: 6` ... `id: 5`.\n"
        "- **What to do:** report it to the server's authors: its event ids must grow.\n"
    ),
)

ERROR = provider_error(PAGE, "The server answered the request with a JSON-RPC error: {text!q:200}.")
"""This provider's form of ``provider.error``."""

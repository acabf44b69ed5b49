"""The diagnostic codes documented on ``docs/diagnostics/mcp.md``."""

from __future__ import annotations

from ... import codes as shared
from ...codes.spec import Code, Form, Page

PAGE = Page(
    "mcp",
    (
        "# MCP diagnostics\n"
        "\n"
        "Codes raised by the MCP Streamable HTTP adapter (`ssescope.providers.mcp`). The\n"
        "adapter also raises `json.invalid`, the JSON-RPC envelope codes (`jsonrpc.*`) and\n"
        "`provider.error` (shared codes). The stream's terminal is the JSON-RPC response to the\n"
        "request: its id is the captured request's when the capture holds the request body,\n"
        "else the first response's.\n"
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
    "The tool failed (its result has isError: true): the tool's own failure, not the transport's, which delivered the result whole.",
    (
        "- **Means:** a `tools/call` result with `isError: true`: the tool's own failure, not a\n"
        "  JSON-RPC error. The status is `failed`; the result's text is the reply.\n"
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

CODES: tuple[Code, ...] = (MISSING_RESPONSE, TOOL_ERROR, AFTER_RESPONSE)
"""This module's codes, in the order their page documents them."""

ERROR = Form(
    shared.PROVIDER_ERROR,
    "mcp",
    "The server answered the request with a JSON-RPC error: {text!q:200}.",
)
"""This provider's form of ``provider.error``."""

FORMS: tuple[Form, ...] = (ERROR,)
"""Its message forms of shared codes."""

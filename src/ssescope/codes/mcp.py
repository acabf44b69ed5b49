"""The diagnostic codes documented on ``docs/diagnostics/mcp.md``."""

from __future__ import annotations

from ._spec import Code, Page

PAGE = Page(
    "mcp",
    (
        "# MCP, A2A and JSON-RPC diagnostics\n"
        "\n"
        "Codes raised by the MCP Streamable HTTP and A2A adapters (`ssescope.providers.mcp`,\n"
        "`ssescope.providers.a2a`) and the\n"
        "JSON-RPC envelope reader it uses. The adapter also raises `json.invalid` and\n"
        "`provider.error` (shared codes). The stream's terminal is the JSON-RPC response to the\n"
        "request; its id is taken from the first response.\n"
    ),
)

CODES: tuple[Code, ...] = (
    Code(
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
    ),
    Code(
        "mcp.tool-error",
        "warning",
        "provider",
        PAGE,
        "The tool failed (its result has isError: true); the transport delivered it whole.",
        (
            "- **Means:** a `tools/call` result with `isError: true`: the tool's own failure, not a\n"
            "  JSON-RPC error. The status is `failed`; the result's text is the reply.\n"
            '- **Example:** `{"jsonrpc":"2.0","id":4,"result":{"content":[...],"isError":true}}`\n'
            "- **What to do:** read the result's text; fix the tool call's arguments or the tool.\n"
        ),
    ),
    Code(
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
    ),
    Code(
        "jsonrpc.invalid-envelope",
        "warning",
        "provider",
        PAGE,
        "Record {record} is not a valid JSON-RPC 2.0 message: {problem}.",
        (
            "- **Means:** a wrong `jsonrpc` version, a response without an id, or a message with\n"
            "  both or neither of `result` and `error`. It is read as far as it can be.\n"
            '- **Example:** `{"jsonrpc":"1.0","id":1,"result":{}}`\n'
            "- **What to do:** report it to the server's authors.\n"
        ),
    ),
    Code(
        "jsonrpc.unexpected-json",
        "warning",
        "provider",
        PAGE,
        "Record {record} is JSON but not a JSON-RPC message: {obj!q}; it is skipped.",
        (
            "- **Means:** a record is valid JSON but not an object (a batch array is not sent in\n"
            "  Streamable HTTP responses); it is skipped.\n"
            "- **Example:** `[1]`\n"
            "- **What to do:** check that the body really is an MCP stream (`--provider`).\n"
        ),
        content=("obj",),
    ),
    Code(
        "a2a.missing-final",
        "warning",
        "provider",
        PAGE,
        "The A2A stream ended while the task was not in a terminal or interrupted state; it is cut off.",
        (
            "- **Means:** the last task state is `submitted` or `working` (or none came): no\n"
            "  final status. The status stays `truncated`.\n"
            "- **Example:** a `working` status-update last.\n"
            "- **What to do:** check the agent server (a cancel that never reached the stream) and\n"
            "  any proxy timeout; resubscribe to the task.\n"
        ),
    ),
    Code(
        "a2a.unknown-result",
        "warning",
        "provider",
        PAGE,
        "Record {record} is a JSON-RPC result that is no A2A task event: {obj!q}; it is skipped.",
        (
            "- **Means:** the result is not a task, message, status update or artifact update.\n"
            '- **Example:** `{"jsonrpc":"2.0","id":1,"result":{"kind":"other"}}`\n'
            "- **What to do:** check the agent server's A2A version.\n"
        ),
        content=("obj",),
    ),
)

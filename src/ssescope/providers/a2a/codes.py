"""The diagnostic codes documented on ``docs/diagnostics/a2a.md``."""

from __future__ import annotations

from ... import codes as shared
from ...codes.spec import Code, Form, Page

PAGE = Page(
    "a2a",
    (
        "# A2A diagnostics\n"
        "\n"
        "Codes raised by the A2A adapter (`ssescope.providers.a2a`), for the 0.x and 1.0\n"
        "shapes of a task stream. The adapter also raises `json.invalid`, the JSON-RPC\n"
        "envelope codes (`jsonrpc.*`) and `provider.error` (shared codes). The last task state\n"
        "decides the verdict.\n"
    ),
)

MISSING_FINAL = Code(
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
)

UNKNOWN_RESULT = Code(
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
)

CODES: tuple[Code, ...] = (MISSING_FINAL, UNKNOWN_RESULT)
"""This module's codes, in the order their page documents them."""

ERROR = Form(
    shared.PROVIDER_ERROR,
    "a2a",
    "The agent answered with a JSON-RPC error: {text!q:200}.",
)
"""This provider's form of ``provider.error``."""

FORMS: tuple[Form, ...] = (ERROR,)
"""Its message forms of shared codes."""

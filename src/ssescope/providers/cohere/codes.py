"""The diagnostic codes documented on ``docs/diagnostics/cohere.md``."""

from __future__ import annotations

from ... import codes as shared
from ...codes.per_provider import provider_error, unexpected_json
from ...codes.spec import Code, Form, Page

PAGE = Page(
    "cohere",
    (
        "# Cohere diagnostics\n"
        "\n"
        "Codes raised by the Cohere v2 chat stream adapter (`ssescope.providers.cohere`). The\n"
        "adapter also raises `json.invalid` and `provider.error` (shared codes). `message-end` is\n"
        "Cohere's only end marker.\n"
    ),
)

MISSING_MESSAGE_END = Code(
    "cohere.missing-message-end",
    "warning",
    "provider",
    PAGE,
    "The stream ended without a message-end event, Cohere's only end marker; the reply may be cut off.",
    (
        "- **Means:** the body ended after a `message-start` without a `message-end` (and without an\n"
        "  error). The reply was probably cut off; the response status stays `truncated`.\n"
        "- **Example:** `message-start`, `content-start`, `content-delta`, then the end of the body.\n"
        "- **What to do:** check for a dropped connection, a proxy timeout, or a client that stopped\n"
        "  reading; retry.\n"
    ),
)

MISSING_FINISH_REASON = Code(
    "cohere.missing-finish-reason",
    "warning",
    "provider",
    PAGE,
    "message-end carries no finish_reason ({raw_text!q}); the response is taken as completed.",
    (
        "- **Means:** `message-end` arrived without a `finish_reason`. The response is taken as\n"
        "  completed, without a finish reason.\n"
        '- **Example:** `{"type":"message-end","delta":{}}`\n'
        "- **What to do:** nothing, usually; if the reply looks short, compare with the usage.\n"
    ),
    content=("raw_text",),
)

EVENT_NAME_MISMATCH = Code(
    "cohere.event-name-mismatch",
    "info",
    "provider",
    PAGE,
    "The SSE event name {event_name!q} differs from the JSON type {etype!q}; the JSON type is used.",
    (
        "- **Means:** the SSE `event:` name differs from the JSON `type` of the same event. The JSON\n"
        "  `type` is used, as Cohere's SDK does.\n"
        '- **Example:** `event: content-delta` with `data: {"type":"message-start",...}`\n'
        "- **What to do:** nothing; a proxy probably rewrote the event names.\n"
    ),
    content=("etype", "event_name"),
)

UNEXPECTED_JSON = unexpected_json(PAGE, "an event object", "data: [1, 2]", "a Cohere v2 stream")

ERROR = provider_error(PAGE, "Cohere reported an error inside the stream: {text!q:200}.")
"""This provider's form of ``provider.error``."""

ERROR_AT_MESSAGE_END = Form(
    shared.PROVIDER_ERROR,
    "cohere-message-end",
    "Cohere reported an error at message-end: {error!q:200}.",
)
"""This provider's form of ``provider.error``."""

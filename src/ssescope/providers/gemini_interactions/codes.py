"""The diagnostic codes documented on ``docs/diagnostics/gemini-interactions.md``."""

from __future__ import annotations

from ...codes.per_provider import invalid_usage, provider_error, unexpected_json
from ...codes.spec import Code, Page

PAGE = Page(
    "gemini-interactions",
    (
        "# Gemini Interactions diagnostics\n"
        "\n"
        "Codes raised by the Gemini Interactions API adapter\n"
        "(`ssescope.providers.gemini_interactions`), for both event generations (`step.*` and\n"
        "the legacy `content.*`). The adapter also raises `json.invalid`, `provider.error` and\n"
        "`provider.unknown-event` (shared codes). `interaction.completed` (legacy\n"
        "`interaction.complete`) is the only end marker; its `status` gives the verdict.\n"
    ),
)

MISSING_COMPLETED = Code(
    "gemini-interactions.missing-completed",
    "warning",
    "provider",
    PAGE,
    "The stream ended without interaction.completed, the Interactions API's only end marker; the reply may be cut off.",
    (
        "- **Means:** the body ended after the interaction started but before its terminal\n"
        "  `interaction.completed` (legacy `interaction.complete`). The status stays `truncated`.\n"
        '- **Example:** `event: step.delta` / `data: {"index":1,"delta":{"type":"text","text":"Hi"},...}` as the last event.\n'
        "- **What to do:** re-read the stream with `GET /v1beta/interactions/{id}?stream=true&last_event_id=...`;\n"
        "  check for a proxy timeout or a translator that stops on an upstream EOF.\n"
    ),
)

UNKNOWN_STATUS = Code(
    "gemini-interactions.unknown-status",
    "warning",
    "provider",
    PAGE,
    "The final interaction's status {status!q} is not one of completed, requires_action, failed, cancelled, incomplete; the response is taken as completed.",
    (
        "- **Means:** the terminal event arrived, but its `interaction.status` is missing or not a\n"
        "  known value. The terminal still ends the response (`completed`), without a finish reason.\n"
        '- **Example:** `{"interaction":{"id":"v1_x"},"event_type":"interaction.completed"}`\n'
        "- **What to do:** check the API revision the server speaks (`Api-Revision`).\n"
    ),
    content=("status",),
)

STEP_UNCLOSED = Code(
    "gemini-interactions.step-unclosed",
    "warning",
    "provider",
    PAGE,
    "Step {index} ({step}) was started but never stopped before the terminal event.",
    (
        "- **Means:** a `step.start` (legacy `content.start`) had no `step.stop` before\n"
        "  `interaction.completed`. Its deltas are kept; the step may be incomplete.\n"
        '- **Example:** `step.start {"index":1,...}` then `interaction.completed`.\n'
        "- **What to do:** compare with the interaction fetched by id.\n"
    ),
)

INVALID_STEP = Code(
    "gemini-interactions.invalid-step",
    "warning",
    "provider",
    PAGE,
    "Record {record} is not a valid step event (no integer index, no step/delta object, or no step opened at that index): {event!q:120}.",
    (
        "- **Means:** a `step.*` / `content.*` event lacks its integer `index` or its `step` /\n"
        "  `delta` object, or stops (or streams arguments into) an index that no start opened.\n"
        "  What can be read is kept.\n"
        '- **Example:** `{"event_type":"step.stop"}`\n'
        "- **What to do:** the stream was rewritten by something other than the API; check it.\n"
    ),
    content=("event",),
)

PREVIOUS_INTERACTION = Code(
    "gemini-interactions.previous-interaction",
    "info",
    "provider",
    PAGE,
    "This interaction continues {previous!q} (previous_interaction_id).",
    (
        "- **Means:** the interaction names the turn it continues (`previous_interaction_id`);\n"
        "  the server keeps the conversation's state.\n"
        '- **Example:** `{"interaction":{"id":"v1_b","previous_interaction_id":"v1_a"},...}`\n'
        "- **What to do:** nothing; it says which stored interaction to look at.\n"
    ),
)

MISSING_EVENT_TYPE = Code(
    "gemini-interactions.missing-event-type",
    "warning",
    "provider",
    PAGE,
    "Record {record} has no event_type (and no SSE event name); it is skipped.",
    (
        "- **Means:** a JSON object with neither an `event_type` member nor an `event:` name.\n"
        '- **Example:** `{"index":0}`\n'
        "- **What to do:** check that the body is an Interactions stream (`--provider`).\n"
    ),
)

INVALID_USAGE = invalid_usage(
    PAGE,
    (
        "- **Means:** the final interaction's `usage` is not an object, or one of its token\n"
        "  counts is not an integer; that value is ignored.\n"
        '- **Example:** `{"interaction":{"status":"completed","usage":{"total_input_tokens":"7"}},...}`\n'
        "- **What to do:** token accounting from this stream is incomplete.\n"
    ),
)

UNEXPECTED_JSON = unexpected_json(PAGE, "an event object", "[1]", "an Interactions stream")

ERROR = provider_error(PAGE, "Gemini reported an error in {where}: {text!q:200}.")
"""This provider's form of ``provider.error``."""

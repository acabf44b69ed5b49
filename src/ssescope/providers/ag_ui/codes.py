"""The diagnostic codes documented on ``docs/diagnostics/ag-ui.md``."""

from __future__ import annotations

from ...codes.per_provider import provider_error, unexpected_json
from ...codes.spec import Code, Page

PAGE = Page(
    "ag-ui",
    (
        "# AG-UI diagnostics\n"
        "\n"
        "Codes raised by the AG-UI adapter (`ssescope.providers.ag_ui`). The adapter also raises\n"
        "`json.invalid`, `provider.error` and `provider.unknown-event` (shared codes). A run ends\n"
        "with exactly one of `RUN_FINISHED` or `RUN_ERROR`; the spec's ordering rules (those its\n"
        "reference verifier checks) are reported as `ag-ui.order`.\n"
    ),
)

MISSING_RUN_END = Code(
    "ag-ui.missing-run-end",
    "warning",
    "provider",
    PAGE,
    "The stream ended without RUN_FINISHED or RUN_ERROR; the run may be cut off.",
    (
        "- **Means:** the run started but the body ended before its `RUN_FINISHED` or\n"
        "  `RUN_ERROR`. The status stays `truncated`: a client that keys on the end of the body\n"
        "  would show it as done.\n"
        '- **Example:** `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hel"}` last.\n'
        "- **What to do:** check the agent server's log and any proxy timeout; run again.\n"
    ),
)

ORDER = Code(
    "ag-ui.order",
    "warning",
    "provider",
    PAGE,
    {
        "not-started": "{event_type} for the {what} {id!q}, which was never started.",
        "ended-twice": "The {what} {id!q} was ended twice.",
        "started-again": "The {what} {id!q} was started again.",
        "left-open": "The {what} {id!q} was started but never ended before the run ended.",
        "finished-after-error": "RUN_FINISHED after RUN_ERROR: the run stays failed.",
        "after-run-end": "{event_type} after the run ended ({ended}); it is not part of the run.",
        "before-run-started": "{event_type} before RUN_STARTED.",
        "started-twice": "RUN_STARTED again while the run is still open.",
    },
    (
        "- **Means:** the events break one of the spec's ordering rules: content or an end for a\n"
        "  message, reasoning message, tool call or step that was never started, an end given\n"
        "  twice, one of them left open when the run ended, `RUN_FINISHED` after `RUN_ERROR` (the\n"
        "  run stays `failed`), events after the run ended, or events before `RUN_STARTED`.\n"
        "  What can be read is kept.\n"
        '- **Example:** `{"type":"RUN_ERROR","message":"x"}` then `{"type":"RUN_FINISHED"}`.\n'
        "- **What to do:** fix the producer (AG-UI's own verifier rejects such streams).\n"
    ),
    content=("id",),
)

PATCH_FAILED = Code(
    "ag-ui.patch-failed",
    "warning",
    "provider",
    PAGE,
    "STATE_DELTA in record {record} does not apply to the state: {reason}; the state is left as it was.",
    (
        "- **Means:** a `STATE_DELTA`'s JSON Patch (RFC 6902) does not apply to the state built\n"
        "  from the last `STATE_SNAPSHOT` and the deltas since: a missing path, a failed `test`, an\n"
        "  unknown `op`. The whole patch is dropped.\n"
        '- **Example:** `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/missing","value":1}]}`\n'
        "- **What to do:** the front end's state has drifted from the agent's; send a snapshot.\n"
    ),
)

SNAKE_CASE_KEYS = Code(
    "ag-ui.snake-case-keys",
    "info",
    "provider",
    PAGE,
    "The producer writes snake_case keys ({key}); they are read as their camelCase names.",
    (
        "- **Means:** the events use `message_id`, `tool_call_id`… where the spec says\n"
        "  `messageId`, `toolCallId`. ssescope reads both; the official clients do not.\n"
        '- **Example:** `{"type":"TEXT_MESSAGE_CONTENT","message_id":"m1","delta":"Hi"}`\n'
        "- **What to do:** fix the producer's encoder (camelCase, as the spec's encoders write).\n"
    ),
)

ERROR_KEY = Code(
    "ag-ui.error-key",
    "info",
    "provider",
    PAGE,
    "RUN_ERROR carries its text in 'error' instead of 'message'.",
    (
        "- **Means:** a `RUN_ERROR` without `message` but with `error` (some middlewares); the\n"
        "  error's text is taken from it.\n"
        '- **Example:** `{"type":"RUN_ERROR","error":"quota exceeded"}`\n'
        "- **What to do:** fix the producer: the spec's field is `message`.\n"
    ),
)

MISSING_ID = Code(
    "ag-ui.missing-id",
    "warning",
    "provider",
    PAGE,
    "{event_type} in record {record} has no {key}; it is skipped.",
    (
        "- **Means:** a message or tool-call event lacks the id that ties it to its start.\n"
        '- **Example:** `{"type":"TEXT_MESSAGE_CONTENT","delta":"Hi"}`\n'
        "- **What to do:** fix the producer.\n"
    ),
)

MISSING_TYPE = Code(
    "ag-ui.missing-type",
    "warning",
    "provider",
    PAGE,
    "Record {record} has no string 'type'; it is skipped.",
    (
        "- **Means:** a JSON object without the event's `type`.\n"
        '- **Example:** `{"delta":"Hi"}`\n'
        "- **What to do:** check that the body is an AG-UI stream (`--provider`).\n"
    ),
)

UNEXPECTED_JSON = unexpected_json(PAGE, "an event object", "[1]", "an AG-UI stream")

ERROR = provider_error(PAGE, "The agent reported RUN_ERROR: {message!q:200}; the run is failed.")
"""This provider's form of ``provider.error``."""

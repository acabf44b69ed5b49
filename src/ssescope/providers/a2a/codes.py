"""The diagnostic codes documented on ``docs/diagnostics/a2a.md``."""

from __future__ import annotations

from ...codes.per_provider import provider_error
from ...codes.spec import Code, Page

PAGE = Page(
    "a2a",
    (
        "# A2A diagnostics\n"
        "\n"
        "Codes raised by the A2A adapter (`ssescope.providers.a2a`), for the 0.x and 1.0\n"
        "shapes of a task stream. The adapter also raises `json.invalid`, the JSON-RPC\n"
        "envelope codes (`jsonrpc.*`) and `provider.error` (shared codes). The last task state\n"
        "decides the verdict; the task, its artifacts and the agent's messages go into the\n"
        "Report's `task` and `artifacts` sections (`docs/report.md`).\n"
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

APPEND_WITHOUT_START = Code(
    "a2a.append-without-start",
    "warning",
    "provider",
    PAGE,
    "Record {record} appends to artifact {artifact!q}, which no earlier chunk started; the artifact starts here.",
    (
        "- **Means:** an artifact-update with `append: true` for an `artifactId` the stream had\n"
        "  not sent before: its first chunk was lost or never sent. The official SDK drops such\n"
        "  a chunk; ssescope keeps it as the artifact's start (`artifacts`), so the text shows.\n"
        "- **Example:** the first chunk of `art-1` carries `append: true`.\n"
        "- **What to do:** check that the agent sends the first chunk of each artifact with\n"
        "  `append: false`, and that a resubscribed stream starts from a task snapshot.\n"
    ),
)

AFTER_LAST_CHUNK = Code(
    "a2a.after-last-chunk",
    "warning",
    "provider",
    PAGE,
    "Record {record} is a chunk of artifact {artifact!q} after its last chunk (record {last}); it is kept.",
    (
        "- **Means:** the artifact was closed by `lastChunk: true`, then another chunk of it\n"
        "  came: the artifact a client kept at its last chunk is not what the agent sent.\n"
        "- **Example:** two artifact-updates of `art-1` with `lastChunk: true`.\n"
        "- **What to do:** report it to the agent's authors; read the artifact in `artifacts`\n"
        "  (assembled from every chunk).\n"
    ),
)

INVALID_ARTIFACT = Code(
    "a2a.invalid-artifact",
    "warning",
    "provider",
    PAGE,
    "Record {record} has an artifact without {what}: there is nothing to assemble it into.",
    (
        "- **Means:** an artifact-update has no `artifact` object, or an artifact (of an\n"
        "  update or of a task's `artifacts`) has no `artifactId`. The artifact is left out of\n"
        "  `artifacts`; an update's text parts still count as the reply.\n"
        '- **Example:** `{"kind":"artifact-update","artifact":{"parts":[...]}}`\n'
        "- **What to do:** check the agent server's A2A version.\n"
    ),
)

UNKNOWN_PART = Code(
    "a2a.unknown-part",
    "warning",
    "provider",
    PAGE,
    "Record {record} has a part that is no text, data or file part: {obj!q}; it is skipped.",
    (
        "- **Means:** a part of an artifact or a message is neither a text part (`text`), a\n"
        "  data part (`data`) nor a file part (0.x `file`, 1.0 `url` / `raw`).\n"
        '- **Example:** `{"kind":"video","frames":3}`\n'
        "- **What to do:** check the agent server's A2A version.\n"
    ),
    content=("obj",),
)

FINAL_MISMATCH = Code(
    "a2a.final-mismatch",
    "warning",
    "provider",
    PAGE,
    "Record {record} says final: {final} with the task state {state!r}; the state decides.",
    (
        "- **Means:** in 0.x, `final: true` marks the stream's last event and should come\n"
        "  with a terminal or interrupted state, and only then. Here they disagree: `final: true`\n"
        "  on a `working` task (the stream ends with the task unfinished), or `final: false`\n"
        "  on a `completed` one. The verdict follows the state (1.0 has no `final`).\n"
        "- **Example:** a status-update `working` with `final: true`, then the end of the body.\n"
        "- **What to do:** report it to the agent server's authors; a client that stops\n"
        "  reading at `final: true` misses what follows.\n"
    ),
)

ERROR = provider_error(PAGE, "The agent answered with a JSON-RPC error: {text!q:200}.")
"""This provider's form of ``provider.error``."""

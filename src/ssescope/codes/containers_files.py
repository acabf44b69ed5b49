"""The diagnostic codes documented on ``docs/diagnostics/containers.md``."""

from __future__ import annotations

from ._spec import Code, code_block, example_doc
from .containers_http import PAGE

CODES: tuple[Code, ...] = (
    Code(
        "har.invalid-json",
        "error",
        "container",
        PAGE,
        "The HAR file is not valid JSON ({error}); it may be cut off.",
        example_doc(
            "The HAR file is not valid JSON, typically because it is cut off. Nothing can be read.",
            "A HAR file missing its last bytes.",
            "Export the HAR again.",
        ),
    ),
    Code(
        "har.no-entries",
        "error",
        "container",
        PAGE,
        "The JSON has no 'log.entries' list: it is not a HAR.",
        example_doc(
            "The JSON has no `log.entries` list: it is not a HAR file.",
            '`{"log": {"pages": []}}`',
            "Check the file; pass the right container.",
        ),
    ),
    Code(
        "har.no-stream-entry",
        "error",
        "container",
        PAGE,
        "None of the HAR's {n_entries} entries is a streamed response (response types: {kinds}). Record the stream with 'Save all as HAR with content' after it has finished.",
        example_doc(
            "No entry of the HAR is a streamed response: no response type is `text/event-stream`, `application/x-ndjson` or the other stream types, no entry has `_eventSourceMessages`, and no body starts like SSE. The message lists the types seen.",
            "A HAR whose only entries are `application/json` and `text/html`.",
            "Record the stream itself (filter on Fetch/XHR in DevTools), and save the HAR after it finished.",
        ),
    ),
    Code(
        "har.multiple-entries",
        "info",
        "container",
        PAGE,
        "The HAR holds {n_bodies} streamed responses; the first is read. The others: {others}.",
        example_doc(
            "The HAR holds several streamed responses; the first is read, and the message names the others.",
            "A HAR with two `text/event-stream` entries.",
            "Use `read_all()` or `ssescope.inspect_all()` to get every one (`ssescope.inspect()` raises `UsageError` rather than pick the first), `ssescope.inspect(..., entry=N)` or `--entry N` for one.",
        ),
    ),
    Code(
        "har.empty-body",
        "warning",
        "container",
        PAGE,
        "Entry {index} ({url!q:80}) has no body in the HAR: the exporter did not keep it (browsers drop the body of a stream still open when the HAR is saved).",
        example_doc(
            "A streamed entry has no body in the HAR: the exporter did not keep it. Browsers drop the body of a stream still open when the HAR is saved.",
            'An entry with `"content": {"mimeType": "text/event-stream", "size": 0}`.',
            'Wait until the stream has finished, then save with "Save all as HAR (with content)".',
        ),
        content=("url",),
    ),
    Code(
        "har.invalid-base64",
        "error",
        "container",
        PAGE,
        "Entry {index}'s body is marked base64 but does not decode ({error}): {text!q}.",
        example_doc(
            'An entry\'s body is marked `"encoding": "base64"` but does not decode. The body is empty.',
            '`"content": {"text": "!!notbase64", "encoding": "base64"}`',
            "Export the HAR again; check that it was not edited.",
        ),
        content=("text",),
    ),
    Code(
        "har.rebuilt-from-messages",
        "info",
        "container",
        PAGE,
        "Entry {index} has no body text; an SSE body was rebuilt from its {n_chunks} '_eventSourceMessages' (comments, retry fields and the original line breaks are not recorded there).",
        example_doc(
            "The entry had no body text, so an SSE body was rebuilt from Chrome's `_eventSourceMessages`. Comments, `retry` fields and the original line breaks are not recorded there, so the framing is rebuilt, not original.",
            'An `EventSource` entry with `"_eventSourceMessages": [{"time": …, "eventName": "message", "data": "…"}]`.',
            "Nothing for content analysis. For exact bytes and framing, capture with `ssescope request --save` or `curl --trace`.",
        ),
    ),
    Code(
        "har.invalid-message",
        "warning",
        "container",
        PAGE,
        "{bad} of entry {index}'s '_eventSourceMessages' have no 'data' string and were skipped.",
        example_doc(
            "Some `_eventSourceMessages` items have no `data` string; they are skipped.",
            '`"_eventSourceMessages": [{"time": 1.0}]`',
            "Check the exporter; the rest of the messages are still read.",
        ),
    ),
    Code(
        "ssecap.invalid-header",
        "error",
        "container",
        PAGE,
        "Line 1 is not a capture header ({reason}): {raw_text!q}; the status, headers and request are unknown.",
        example_doc(
            "The first line of a capture is not a capture header. Status, headers and request are unknown; the chunk lines that follow are still read.",
            code_block('{"ssescope":"capt\n{"t":0.1,"data":"x"}\n'),
            "Check that the file is a capture and was not edited.",
        ),
        content=("raw_text",),
    ),
    Code(
        "ssecap.invalid-line",
        "warning",
        "container",
        PAGE,
        "Line {lineno} is not a capture line ({reason}): {raw_text!q}; it is skipped and the rest is read.",
        example_doc(
            "A line of a capture is not valid JSON, has neither a `data` nor a `b64` string, or has invalid base64. It is skipped and the rest is read.",
            code_block('{"t":0.3,"b64":"@@@"}\n'),
            "Check whether the file was edited; the chunk on that line is lost.",
        ),
        content=("raw_text",),
    ),
    Code(
        "ssecap.truncated-line",
        "warning",
        "container",
        PAGE,
        "The last line ({lineno}) is cut off ({reason}): {raw_text!q}; it is skipped. The capture was probably written by a run that was interrupted.",
        example_doc(
            "The last line of a capture is cut off (no newline, not valid JSON): the run that wrote it was interrupted. It is skipped.",
            'A capture ending with `{"t":0.53,"b64":"w6ki`.',
            "Nothing; the capture is read up to its last complete chunk.",
        ),
        content=("raw_text",),
    ),
    Code(
        "ssecap.unknown-version",
        "warning",
        "container",
        PAGE,
        "The capture says version {version!q}; this ssescope reads version {version2} and reads it as such.",
        example_doc(
            "The capture header gives a version this ssescope does not know. It is read as version 1.",
            '`{"ssescope":"capture","version":2}`',
            "Upgrade ssescope if the result looks wrong.",
        ),
        content=("version",),
    ),
    Code(
        "ssecap.data-after-end",
        "warning",
        "container",
        PAGE,
        "Line {lineno} follows the end line; it is read all the same.",
        example_doc(
            'Chunk lines follow the `{"end": …}` line. They are read all the same.',
            code_block('{"end":"cancelled","t":0.5}\n{"t":0.6,"data":"late"}\n'),
            "Check the program that wrote the capture: it kept writing after closing it.",
        ),
    ),
    Code(
        "ssecap.missing-time",
        "warning",
        "container",
        PAGE,
        "Line {lineno} has no valid time ('t': {time!q}); its chunk is kept without one.",
        example_doc(
            "A chunk line has no valid `t` (missing, not a number, not finite). The chunk is kept without a time.",
            '`{"t":"soon","data":"data: 3\\n\\n"}`',
            "Check the program that wrote the capture.",
        ),
        content=("time",),
    ),
    Code(
        "jsonl.invalid-line",
        "warning",
        "container",
        PAGE,
        "Line {lineno} is not JSON ({error}): {raw_text!q}; it is skipped.",
        example_doc(
            "A line of an SDK dump is not JSON. It is skipped.",
            code_block('{"ts": 1, "chunk": {}}\nnot json\n'),
            "Check the logging code; lines may have been interleaved with other output.",
        ),
        content=("raw_text",),
    ),
    Code(
        "jsonl.missing-chunk",
        "warning",
        "container",
        PAGE,
        "Line {lineno} has no 'chunk' field: {raw_text!q}; it is skipped.",
        example_doc(
            "A line of an SDK dump is JSON but has no `chunk` field. It is skipped.",
            '`{"ts": 2}`',
            "Check the logging code.",
        ),
        content=("raw_text",),
    ),
    Code(
        "jsonl.invalid-time",
        "warning",
        "container",
        PAGE,
        "Line {lineno}'s {key!r} is not a time ({obj!q}); its chunk is kept without one.",
        example_doc(
            "A line's time field (`ts`, `t`, `time` or `timestamp`) is not a number or an ISO 8601 string. Its chunk is kept without a time.",
            '`{"ts": [], "chunk": {}}`',
            "Log `time.time()` (or `time.monotonic()`) as a number.",
        ),
        content=("obj",),
    ),
    Code(
        "jsonl.multiple-streams",
        "info",
        "container",
        PAGE,
        "The log holds {n} streams (told apart by their {keys} field); the first is read.",
        (
            "**Severity:** info\n"
            "\n"
            "The JSONL log holds several streams, told apart by a `request_id`, `stream_id` or `response_id` field next to `chunk`; `read_container` reads the first, and the message says how many there are (`inspect()` does not pick one: it raises `UsageError` and points at `inspect_all()` and `inspect(..., entry=N)`).\n"
            "\n"
            "**Example:**\n"
            "\n"
            "```\n"
            '{"ts": 1, "request_id": "a", "chunk": {...}}\n'
            '{"ts": 2, "request_id": "b", "chunk": {...}}\n'
            "```\n"
            "\n"
            "**What to do:** Use `ssescope inspect` (which reports every stream), `ssescope.inspect_all()` or `read_all()`, or `--entry N` for one.\n"
        ),
    ),
    Code(
        "har.line-break-in-field",
        "warning",
        "container",
        PAGE,
        "{n} of entry {index}'s '_eventSourceMessages' hold a line break in 'eventName' or 'eventId' (shown as \\n / \\r, so it cannot add lines to the rebuilt stream), or a CR in 'data' (read as a line feed, as a browser does).",
        (
            "**Severity:** warning\n"
            "\n"
            "When a stream is rebuilt from `_eventSourceMessages`, an `eventName` or `eventId` holding a CR or LF would end its line and inject lines (fields, whole events) of its own. Such line breaks are written as the two characters `\\n` / `\\r` instead; a CR in `data` is read as a line feed, as a browser's `EventSource` parser does.\n"
            "\n"
            "**Example:**\n"
            "\n"
            '`{"eventName": "x\\ndata: {\\"injected\\": true}", "data": "{}"}`\n'
            "\n"
            "**What to do:** A browser never records such a name: the HAR was edited or forged. Read the entry with care.\n"
        ),
    ),
)

"""The diagnostic codes documented on ``docs/diagnostics/framing.md``."""

from __future__ import annotations

from ._spec import Code, Page

PAGE = Page(
    "framing",
    (
        "# Framing diagnostics\n"
        "\n"
        "What the framing layer (`ssescope.framing`: SSE, NDJSON, JSON array, AWS event-stream) reports.\n"
        "Every diagnostic carries its byte `offset` in the body and, when it belongs to one, the `record`\n"
        "index; the stream is always processed to the end.\n"
    ),
)

CODES: tuple[Code, ...] = (
    Code(
        "sse.bom-stripped",
        "info",
        "framing",
        PAGE,
        "A UTF-8 byte order mark at byte 0 was stripped, as the standard says.",
        (
            "- **Means:** The body began with a UTF-8 byte order mark (EF BB BF). As the standard says, that one BOM is removed; a second BOM, or one later in the body, is ordinary text.\n"
            "- **Example:** `\\xef\\xbb\\xbfdata: hi\\n\\n`\n"
            "- **What to do:** Nothing: this is informational. If a second BOM follows, the first line's field name is wrong (see `sse.unknown-field`); fix the server so it writes at most one BOM.\n"
        ),
    ),
    Code(
        "sse.unknown-field",
        "info",
        "framing",
        PAGE,
        "The line {line!q} names the unknown field {field!q}; it is ignored.",
        (
            "- **Means:** A line names a field other than `data`, `event`, `id` and `retry`. Names are compared literally, so `Data`, `data ` (trailing space) and ` data` are unknown. The line is ignored.\n"
            "- **Example:** `Data: hello\\n\\n`\n"
            "- **What to do:** Check the spelling and case of the field name on the server; a stray space before the colon is a common cause.\n"
        ),
        content=("field", "line"),
    ),
    Code(
        "sse.nul-in-id",
        "warning",
        "framing",
        PAGE,
        "The id field {value!q} contains U+0000 NULL; as the standard says, the whole field is ignored.",
        (
            "- **Means:** An `id` value contains U+0000 NULL; the standard ignores the whole field, so the last event ID keeps its previous value.\n"
            "- **Example:** `id: 12\\x003\\ndata: x\\n\\n`\n"
            "- **What to do:** Send ids without NUL characters.\n"
        ),
        content=("value",),
    ),
    Code(
        "sse.invalid-retry",
        "warning",
        "framing",
        PAGE,
        "The retry field {value!q} is not made only of ASCII digits; as the standard says, it is ignored.",
        (
            "- **Means:** A `retry` value is not made only of ASCII digits (`+5`, `1_000`, `-1`, ` 5` after the one stripped space, Arabic-Indic digits, or empty), so the reconnection time is not changed.\n"
            "- **Example:** `retry: 1_000\\n\\n`\n"
            "- **What to do:** Send the reconnection time in milliseconds as plain ASCII digits: `retry: 1000`.\n"
        ),
        content=("value",),
    ),
    Code(
        "sse.dataless-block",
        "info",
        "framing",
        PAGE,
        "The block {raw_text!q} has no data field, so no event is dispatched (its id and retry still take effect).",
        (
            "- **Means:** A block ended by a blank line had no `data` field, so no event is dispatched (a browser fires nothing either). Its `id` and `retry` still take effect. `raw` holds the block's lines.\n"
            "- **Example:** `retry: 3000\\n\\n`\n"
            "- **What to do:** Usually harmless (gateways send `retry`-only or `event`-only blocks). If an event was expected, the server forgot its `data:` line; clients that dispatch such blocks hand an empty string to the JSON decoder.\n"
        ),
        content=("raw_text",),
    ),
    Code(
        "sse.unprefixed-json",
        "warning",
        "framing",
        PAGE,
        "A block of lines without any SSE field looks like JSON written without 'data:': {raw_text!q}; it is not an event, but it is passed on as a record.",
        (
            "- **Means:** A block made only of lines that are not SSE fields looks like JSON: a provider wrote a JSON body (typically an error) without `data:`. It is not an event, but it is passed on as a `JSONRecord` so the provider layer can still read it. `raw` holds the text.\n"
            '- **Example:** `{\\n  "error": {"code": 429}\\n}\\n\\n`\n'
            "- **What to do:** Read the error it carries; the endpoint answered with a plain JSON body inside an event stream.\n"
        ),
        content=("raw_text",),
        invalidates=True,
    ),
    Code(
        "sse.unterminated-event",
        "warning",
        "framing",
        PAGE,
        "The stream ended inside {what} that no blank line terminated; per the WHATWG algorithm it is discarded, not dispatched: {raw_text!q}{kept}.",
        (
            "- **Means:** The body ended inside an event block (or in the middle of a line) that no blank line terminated. The standard discards it, so it is not dispatched; `raw` holds its text so nothing is silently lost.\n"
            '- **Example:** `data: {"partial": tr`\n'
            "- **What to do:** The stream was cut off (timeout, dropped connection, proxy) or the server did not end its last event with a blank line. Compare with the terminal status of the stream.\n"
        ),
        content=("raw_text",),
    ),
    Code(
        "sse.terminal-event-unterminated",
        "warning",
        "framing",
        PAGE,
        "The last event ({marker}) lacks only its final blank line: its bytes arrived whole and parse, so it is read as the stream's end marker. A WHATWG-exact client (a browser's EventSource, eventsource-parser) discards it and sees a stream cut before its end.",
        (
            "- **Means:** The body ended inside its last event block, but that block is the\n"
            "  detected provider's terminal event (`message_stop`, `response.completed`,\n"
            "  `message-end`, `data: [DONE]`…) and its data parses: every byte of the end marker\n"
            "  arrived, only the blank line after it is missing. ssescope reads it, so the status\n"
            "  is what the marker says (`completed`, say) rather than `truncated`;\n"
            "  `sse.unterminated-event` still reports the block. A block that is not a terminal\n"
            "  event, or whose data does not parse, stays discarded and the status `truncated`.\n"
            "  See `docs/verdicts.md`.\n"
            '- **Example:** a body ending in `event: message_stop\\ndata: {"type":"message_stop"}` with\n'
            "  no newline after it (the anthropic SDK reads it as complete).\n"
            "- **What to do:** Clients that follow the standard exactly, a browser's `EventSource`\n"
            "  and eventsource-parser among them, drop this event and see a stream cut before its\n"
            "  end. Make the server (or the proxy, or whatever wrote the capture) end every event\n"
            "  with a blank line.\n"
        ),
    ),
    Code(
        "sse.event-too-large",
        "error",
        "framing",
        PAGE,
        "An event block starting at byte {start} grew past max_event_bytes={max}; it is dropped and parsing resumes at the next blank line.",
        (
            "- **Means:** An event block grew past the opt-in `max_event_bytes`. The block is dropped (nothing of it is kept in memory) and parsing resumes after its blank line; ids read in it still take effect. Comment lines count towards the cap, since a line that has not ended cannot yet be told to be a comment.\n"
            "- **Example:** `SSEParser(max_event_bytes=1024) fed data: <2 KiB of text>\\n\\n`\n"
            "- **What to do:** Raise or remove `max_event_bytes` (there is no default cap) if such events are legitimate, for example base64 images.\n"
        ),
    ),
    Code(
        "utf8.invalid-bytes",
        "warning",
        "framing",
        PAGE,
        {
            "text": "Invalid UTF-8 at byte {at} was replaced by U+FFFD in {text!q}.",
            "line": "Invalid UTF-8 at byte {at} was replaced by U+FFFD in the line {text!q}.",
        },
        (
            "- **Means:** Bytes that are not valid UTF-8 were replaced by U+FFFD. The offset is that of the first invalid byte; the record is the event, comment or JSON record the bytes belong to (none for a block that was not dispatched). SSE and every other framing are always read as UTF-8, whatever `charset` the headers declare.\n"
            "- **Example:** `data: caf\\xe9\\n\\n`\n"
            "- **What to do:** Make the server send UTF-8. Bytes such as 1F 8B mean a gzip body that was not decompressed: check Content-Encoding.\n"
        ),
        content=("text",),
        invalidates=True,
    ),
    Code(
        "ndjson.bom-stripped",
        "info",
        "framing",
        PAGE,
        "A UTF-8 BOM at byte 0 was stripped.",
        (
            "- **Means:** An NDJSON body began with a UTF-8 BOM, which was removed.\n"
            '- **Example:** `\\xef\\xbb\\xbf{"a": 1}\\n`\n'
            "- **What to do:** Nothing.\n"
        ),
    ),
    Code(
        "ndjson.not-json-line",
        "warning",
        "framing",
        PAGE,
        "The line {text!q} does not start like a JSON object or array.",
        (
            "- **Means:** A non-blank NDJSON line does not start like a JSON object or array. It is still passed on as a record (the provider layer reports whether it decodes).\n"
            '- **Example:** `{"a": 1}\\nnot json\\n`\n'
            "- **What to do:** Check what wrote the line: a log message or an HTML error page mixed into the stream are common causes.\n"
        ),
        content=("text",),
    ),
    Code(
        "json-array.bom-stripped",
        "info",
        "framing",
        PAGE,
        "A UTF-8 BOM at byte 0 was stripped.",
        (
            "- **Means:** A JSON-array body began with a UTF-8 BOM, which was removed.\n"
            '- **Example:** `\\xef\\xbb\\xbf[{"a": 1}]`\n'
            "- **What to do:** Nothing.\n"
        ),
        invalidates=True,
    ),
    Code(
        "json-array.unexpected-text",
        "warning",
        "framing",
        PAGE,
        "Unexpected {text!q} at byte {byte_offset} {where}; it is skipped.",
        (
            "- **Means:** Text where the JSON array allows none: before the opening `[`, after the closing `]`, a stray `,` or `}` between elements. A run of text is reported once, whole, however the bytes were chunked: outside the array, everything up to the next space (before the array, up to its `[`), brackets included; inside it, a run of stray `,` or of `}`. It is skipped.\n"
            '- **Example:** `)]}\'\\n[{"a": 1}]`\n'
            "- **What to do:** Remove the prefix or suffix on the server, or check that the body really is a JSON array (a `alt=sse` Gemini stream is SSE).\n"
        ),
        content=("text",),
        invalidates=True,
    ),
    Code(
        "json-array.missing-comma",
        "warning",
        "framing",
        PAGE,
        "An array element starts at byte {at} without a comma after the previous one.",
        (
            "- **Means:** An element starts without a comma after the previous one. The element is still passed on.\n"
            '- **Example:** `[{"a": 1} {"b": 2}]`\n'
            "- **What to do:** The body is not valid JSON; check the server or whatever concatenated the elements.\n"
        ),
        invalidates=True,
    ),
    Code(
        "json-array.unterminated-element",
        "warning",
        "framing",
        PAGE,
        {
            "element": "The body ended inside an array element: {text!q}{kept}.",
            "document": "The body ended inside the JSON document: {text!q}{kept}.",
        },
        (
            "- **Means:** The body ended inside an array element. It is not passed on; `raw` holds its text.\n"
            '- **Example:** `[{"a": 1}, {"b": "cut`\n'
            "- **What to do:** The stream was cut off.\n"
        ),
        content=("text",),
        invalidates=True,
    ),
    Code(
        "json-array.missing-open",
        "error",
        "framing",
        PAGE,
        "The body never opened a JSON array with '['.",
        (
            "- **Means:** The body never opened a JSON array with `[` (only whitespace or unexpected text arrived).\n"
            "- **Example:** `oops`\n"
            "- **What to do:** Check the framing: the body is probably NDJSON, SSE or an error page.\n"
        ),
        invalidates=True,
    ),
    Code(
        "json-array.unclosed",
        "warning",
        "framing",
        PAGE,
        "The body ended before the JSON array was closed with ']'.",
        (
            "- **Means:** The body ended before the array's closing `]`.\n"
            '- **Example:** `[{"a": 1}`\n'
            "- **What to do:** The stream was cut off before it finished.\n"
        ),
        invalidates=True,
    ),
    Code(
        "eventstream.bad-prelude",
        "error",
        "framing",
        PAGE,
        "The event-stream message at byte {start} declares an impossible length (total {total}, headers {hlen}); framing stops here.",
        (
            "- **Means:** An AWS event-stream message declares an impossible length (under 16 bytes, over the 16 MiB limit, or headers longer than the message). Framing stops there, since message boundaries can no longer be found.\n"
            "- **Example:** `00 00 00 05 00 00 00 00 ...`\n"
            "- **What to do:** The body is not (or no longer) an event stream: check the framing, or for corruption in transit.\n"
        ),
        invalidates=True,
    ),
    Code(
        "eventstream.crc-mismatch",
        "error",
        "framing",
        PAGE,
        {
            "message": "The message CRC of the event-stream message at byte {start} does not match.",
            "prelude-trusted": "The prelude CRC of the event-stream message at byte {start} does not match, but its lengths check out, so the message is read.",
            "prelude-untrusted": "The prelude CRC of the event-stream message at byte {start} does not match, and its lengths (total {total}) lead nowhere valid: they cannot be trusted, so framing stops here.",
        },
        (
            "- **Means:** The prelude CRC or the message CRC of an event-stream message does not match. The message is still passed on, since its bytes may be fine.\n"
            "- **Example:** `a message whose last four bytes were altered`\n"
            "- **What to do:** Suspect corruption in transit or a proxy that rewrote the body.\n"
        ),
        invalidates=True,
    ),
    Code(
        "eventstream.bad-headers",
        "error",
        "framing",
        PAGE,
        "The headers of the event-stream message at byte {start} cannot be read: {error}.",
        (
            "- **Means:** The headers of an event-stream message cannot be read (unknown value type, or they run past their declared length). The payload is still passed on, without an event type.\n"
            "- **Example:** `a header with value type 0x63`\n"
            "- **What to do:** Check the producer of the stream.\n"
        ),
        invalidates=True,
    ),
    Code(
        "eventstream.truncated-message",
        "warning",
        "framing",
        PAGE,
        "The body ended {n_buf} bytes into an unfinished event-stream message.",
        (
            "- **Means:** The body ended part-way through an event-stream message.\n"
            "- **Example:** `the first 30 bytes of a message`\n"
            "- **What to do:** The stream was cut off.\n"
        ),
        invalidates=True,
    ),
)

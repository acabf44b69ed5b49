"""The diagnostic codes documented on ``docs/diagnostics/containers.md``."""

from __future__ import annotations

from ._spec import Code, Page, code_block, example_doc

PAGE = Page(
    "containers",
    (
        "# Container diagnostics\n"
        "\n"
        "Diagnostics produced while unwrapping a container (`ssescope.containers`): `http.*` for\n"
        "HTTP heads and bodies (`curl -i`, raw dumps, and the HTTP inside curl traces), `curl-trace.*`,\n"
        "`har.*`, `ssecap.*`, `jsonl.*` and `container.*`. Their `offset` is a byte offset in the\n"
        "container file (not in the body) when known; their `record` is `None`. See\n"
        "[../containers.md](../containers.md) for the formats.\n"
    ),
)

CODES: tuple[Code, ...] = (
    Code(
        "container.read-failed",
        "error",
        "container",
        PAGE,
        "Reading the input as {name!r} failed unexpectedly ({error_type}: {error}); it is read as a raw body instead. Please report this.",
        example_doc(
            "Reading the input as the detected (or given) container failed with an unexpected exception. This is a bug in ssescope; the input is read as a raw body instead so that nothing is lost.",
            "Any input that triggers the bug.",
            'Report it with the input (redacted). Meanwhile, pass `container="raw"` or another form explicitly.',
        ),
    ),
    Code(
        "http.interim-response-skipped",
        "info",
        "container",
        PAGE,
        "The head {head!q} is followed by another response; it is skipped.",
        example_doc(
            "A response head was followed directly by another status line, so it is an interim response (`100 Continue`, `103 Early Hints`), a proxy's `200 Connection established`, or a redirect followed by `curl -iL`. It is skipped; the last head is the response.",
            code_block(
                "HTTP/1.1 100 Continue\n"
                "\n"
                "HTTP/1.1 200 OK\n"
                "Content-Type: text/event-stream\n"
                "\n"
                "data: 1\n"
                "\n"
                "\n"
            ),
            "Nothing; it says which heads were skipped.",
        ),
        content=("head",),
    ),
    Code(
        "http.chunked-already-decoded",
        "info",
        "container",
        PAGE,
        "The headers say 'Transfer-Encoding: chunked' but the body does not start with a chunk size ({head!q}); it is read as already decoded, as curl -i prints it.",
        example_doc(
            "The headers say `Transfer-Encoding: chunked`, but the body does not start with a chunk-size line. `curl -i` prints the body decoded under the original headers, so this is the normal case there; the body is used as it is.",
            code_block("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\ndata: 1\n\n\n"),
            "Nothing for `curl -i` output. For a raw socket dump, the dump was decoded by something on the way.",
        ),
        content=("head",),
    ),
    Code(
        "http.chunked-invalid",
        "warning",
        "container",
        PAGE,
        "The chunked body has {what} ({raw_text!q}); the rest is kept as it is.",
        example_doc(
            "The chunked body has an invalid chunk-size line, or no CRLF after a chunk's data. Decoding stops there and the rest of the body is kept as it is (chunk-size lines included).",
            code_block("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5\nhello\nzz\n\n"),
            "Check how the dump was made: a body edited by hand, or a dump that mixes two connections.",
        ),
        content=("raw_text",),
    ),
    Code(
        "http.chunked-truncated",
        "warning",
        "container",
        PAGE,
        {
            "between-chunks": "The chunked body ends without its last (zero-size) chunk: the connection closed before the server finished the response.",
            "in-chunk": "The chunked body ends without its last (zero-size) chunk, {remaining} bytes short of the chunk it was in: the connection closed before the server finished the response.",
        },
        example_doc(
            "The chunked body ends before its last, zero-size chunk: the connection closed (or the capture stopped) before the server finished the response. What arrived is kept.",
            code_block("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n9\ndata: 1\n\n\n\n"),
            "Treat the stream as cut off; look at the stream verdict and the last events.",
        ),
    ),
    Code(
        "http.data-after-last-chunk",
        "warning",
        "container",
        PAGE,
        "{extra} bytes follow the last (zero-size) chunk, starting {data!q}; they are not part of the body.",
        example_doc(
            "Bytes follow the zero-size chunk that ends a chunked body. They are not part of the body and are dropped (often the next response on a kept-alive connection).",
            code_block("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nhi\n0\n\nextra\n"),
            "Capture one response per file.",
        ),
        content=("data",),
    ),
    Code(
        "http.content-decoded",
        "info",
        "container",
        PAGE,
        "The body was {encoding!q}-compressed and was decompressed.",
        example_doc(
            "The body was `gzip` or `deflate` compressed (its first bytes are gzip/zlib magic) and was decompressed, chunk by chunk.",
            "A raw dump with `Content-Encoding: gzip` and a gzip body.",
            "Nothing.",
        ),
        content=("encoding",),
    ),
    Code(
        "http.content-encoding-unsupported",
        "warning",
        "container",
        PAGE,
        {
            "container": "The body is {encoding!q}-encoded and {why}; it is passed on as is. Capture it decoded (curl --compressed, or --trace instead of --trace-ascii).",
            "recorder": "The body is recorded as it arrived: {why}.",
            "transport": "The body is judged as far as it decoded: {why}; the app still gets every byte.",
        },
        example_doc(
            "The body is compressed with an encoding ssescope cannot decode (`br`, `zstd`), or it came from curl `--trace-ascii`, whose dump of compressed bytes cannot be recovered. The body is passed on as it is and will not parse.",
            code_block("HTTP/1.1 200 OK\nContent-Encoding: br\n\n\\x8b\\x02\\x80…\n"),
            "Capture the decoded body (`curl --compressed -i`), use `--trace` instead of `--trace-ascii`, or ask the server for `Accept-Encoding: identity`.",
        ),
        content=("encoding",),
    ),
    Code(
        "http.content-decoding-failed",
        "warning",
        "container",
        PAGE,
        "Decompressing the {encoding!q} body failed ({error}) in the chunk at body byte {pos}; that chunk and the rest are passed on compressed.",
        example_doc(
            "Decompressing the body failed part-way (corrupt data). The chunk where it failed and the rest are passed on compressed.",
            "A gzip body with bytes flipped in the middle.",
            "Re-capture the response; check that the dump was written in binary mode.",
        ),
        content=("encoding",),
    ),
    Code(
        "http.content-truncated",
        "warning",
        "container",
        PAGE,
        "The {encoding!q} stream ends before its end marker: the response was cut off.",
        example_doc(
            "The compressed body ends before the compressor's end marker: the response was cut off. What was decompressed is kept.",
            "A `Content-Encoding: deflate` body missing its last bytes.",
            "Treat the stream as cut off.",
        ),
        content=("encoding",),
    ),
    Code(
        "http.error-status",
        "error",
        "container",
        PAGE,
        {
            "head": "The response status is {status} {reason!q}: the body is an error response from the server, not the stream that was asked for.",
            "body": "The server answered HTTP {status} with {decode!q}: the body is the provider's error, not the stream asked for.",
        },
        example_doc(
            "The final response status is 400 or more: the body is the server's error response (usually JSON), not the stream asked for. The Report's status is `failed` and its `error` is read from that body, whether it came from a capture or a live request.",
            code_block(
                'HTTP/1.1 429 Too Many Requests\nContent-Type: application/json\n\n{"error":{…}}\n'
            ),
            "Read the error body; fix the request, key, quota or model name.",
        ),
        content=("decode", "reason"),
    ),
    Code(
        "http.headers-unterminated",
        "warning",
        "container",
        PAGE,
        "The response head has no blank line after it: there is no body.",
        example_doc(
            "The response head has no blank line after it, so the input holds no body.",
            code_block("HTTP/1.1 200 OK\nContent-Type: text/event-stream\n\n"),
            "The capture stopped before the body arrived, or only headers were saved (`curl -I`).",
        ),
    ),
    Code(
        "http.no-status-line",
        "error",
        "container",
        PAGE,
        "The first line {lines!q} is not an HTTP status line; the whole input is read as the body.",
        example_doc(
            'The input was read as an HTTP response (`container="http"`) but its first line is not a status line. The whole input is read as the body.',
            '`read_container(b"data: 1\\n\\n", container="http")`',
            "Let the container be auto-detected, or pass the right one.",
        ),
        content=("lines",),
    ),
    Code(
        "http.bad-header-line",
        "warning",
        "container",
        PAGE,
        "The head line {line!q} is not 'Name: value'; it is ignored.",
        example_doc(
            "A line of the response head is not `Name: value`. It is ignored.",
            code_block("HTTP/1.1 200 OK\nthis is not a header\n\n\n"),
            "Check the dump: a head edited by hand or two outputs mixed together.",
        ),
        content=("line",),
    ),
    Code(
        "http.body-short",
        "warning",
        "container",
        PAGE,
        "The body has {got} bytes but Content-Length says {expected}: the response was cut off.",
        example_doc(
            "The body has fewer bytes than its `Content-Length` header says: the response was cut off.",
            code_block("HTTP/1.1 200 OK\nContent-Length: 100\n\ndata: 1\n\n\n"),
            "Treat the stream as cut off.",
        ),
    ),
    Code(
        "curl-trace.line-feeds-guessed",
        "info",
        "container",
        PAGE,
        "--trace-ascii prints a line feed as '.'; {guessed} '.' characters standing where lines end were read as line feeds. Use --trace for exact bytes.",
        example_doc(
            "`curl --trace-ascii` prints a line feed as `.`; this many dots standing where lines must end (before `data:`/`event:`/`id:`/`retry:`/`:`, between `}` and `{`, at the end of a read after `}`/`]` or two dots) were read as line feeds, at most two per run.",
            code_block("<= Recv data, 14 bytes (0xe)\n0000: data: hello..\n"),
            "Nothing if the frames look right. For exact bytes, trace with `--trace` (hex) instead.",
        ),
    ),
    Code(
        "curl-trace.unprintable-bytes",
        "info",
        "container",
        PAGE,
        "The body has {unprintable} runs of '.' that probably stand for bytes --trace-ascii cannot print (non-ASCII text such as accented letters or emoji, control bytes); the text there is not the text sent. Use --trace for exact bytes.",
        example_doc(
            "Runs of two or more `.` remain in the body: they probably stand for bytes `--trace-ascii` cannot print, most often the bytes of a non-ASCII character (`é` prints as `..`). The text there is not the text that was sent.",
            code_block('0004: data: {"delta":{"content":"Caf.. ok."}}..\n'),
            "Trace with `--trace` (hex) to get the exact bytes.",
        ),
    ),
    Code(
        "curl-trace.size-mismatch",
        "warning",
        "container",
        PAGE,
        "The dump of the {decode!q} event at byte {at} does not add up to the {size} bytes its header announces: the trace is cut off or was edited.",
        example_doc(
            "The dump lines of an event do not add up to the byte count its header announces: the trace is cut off or was edited. The bytes that are there are kept.",
            code_block("<= Recv data, 100 bytes (0x64)\n0000: data: partial\n"),
            "Re-capture, and let curl finish writing the trace.",
        ),
        content=("decode",),
    ),
    Code(
        "curl-trace.bad-line",
        "warning",
        "container",
        PAGE,
        {
            "line": "The line {line!q} is neither a trace event nor a dump line; it is ignored.",
            "more": "{more} more lines were neither trace events nor dump lines.",
        },
        example_doc(
            "A line is neither a trace event line nor a dump line (`0000: …`), for example output of another program interleaved with the trace. It is ignored; after three, the rest are counted in one diagnostic.",
            code_block("== Info: Connected\nsome stray output\n"),
            "Write the trace to its own file (`--trace FILE`) rather than to a shared terminal.",
        ),
        content=("line",),
    ),
    Code(
        "curl-trace.multiple-exchanges",
        "info",
        "container",
        PAGE,
        "The trace holds {exchanges} requests (redirects or retries); only the last exchange is read.",
        example_doc(
            "The trace holds several requests (redirects followed with `-L`, or retries); only the last exchange is read.",
            "A trace with two `=> Send header` events, each followed by a response.",
            "Nothing, unless the stream you want is an earlier one: trace that request alone.",
        ),
    ),
    Code(
        "curl-trace.no-response",
        "error",
        "container",
        PAGE,
        "The trace has no '<= Recv header' or '<= Recv data' event: no response was received.",
        example_doc(
            "The trace has no `<= Recv header` or `<= Recv data` event: no response was received (DNS, connection or TLS failure).",
            code_block("== Info: Could not resolve host: api.example.test\n"),
            "Read the `Info` lines of the trace for the reason.",
        ),
    ),
    Code(
        "http.invalid-status",
        "warning",
        "container",
        PAGE,
        "The recorded HTTP status {status!q} is not a status code (100 to 999); it is left out.",
        (
            "**Severity:** warning\n"
            "\n"
            "The HTTP status recorded by the container (a capture header, a HAR entry) is not a status code from 100 to 999, for example a negative number; it is left out, so the Report's `http_status` is `null`.\n"
            "\n"
            "**Example:**\n"
            "\n"
            '`{"ssescope": "capture", "version": 1, "response": {"status": -200}}`\n'
            "\n"
            "**What to do:** The capture was edited or written by a faulty tool; the body is still read.\n"
        ),
    ),
    Code(
        "http.content-trailing-data",
        "warning",
        "container",
        PAGE,
        "{n:,} byte(s) follow the end of the {encoding!q} stream and are not compressed data; they are left out.",
        (
            "**Severity:** warning\n"
            "\n"
            "Bytes follow the end of the compressed stream and are not another gzip member: they are left out. A body made of several gzip members one after the other is decoded whole, member by member, without this warning.\n"
            "\n"
            "**Example:**\n"
            "\n"
            "A gzip body followed by a stray `\\r\\n0\\r\\n\\r\\n` that a proxy appended.\n"
            "\n"
            "**What to do:** Check the capture: a proxy or the tool that wrote it added bytes after the body.\n"
        ),
    ),
    Code(
        "container.decode-limit",
        "warning",
        "container",
        PAGE,
        {
            "body": "The body decodes ({encoding}) to more than {cap:,} bytes, the most ssescope decodes; the rest is left out (a decompression bomb, or a capture to split).",
            "entry": "Entry {entry}'s body decodes ({encoding}) to more than {cap:,} bytes, the most ssescope decodes; the rest is left out (a decompression bomb, or a capture to split).",
        },
        (
            "**Severity:** warning\n"
            "\n"
            "Decoding the body (gzip, deflate, or a HAR's base64 text) would give more than 64 MiB (`ssescope.limits.DECODED_BODY_BYTES`), so decoding stopped there and the rest is left out. A few kilobytes of compressed zeros can decode to gigabytes (a decompression bomb); this limit keeps memory bounded. See `docs/security.md`.\n"
            "\n"
            "**Example:**\n"
            "\n"
            "A 1 MiB gzip body in a `curl -i` dump that decompresses to 1 GiB.\n"
            "\n"
            "**What to do:** A real stream this large is unusual: check where the capture came from. Split a genuine one, or save it decoded (`curl --compressed`).\n"
        ),
    ),
    Code(
        "container.invalid-time",
        "warning",
        "container",
        PAGE,
        "{n} chunk arrival time(s) are not a time since the request started (the first is {value!q}: negative, not finite or too large); they are left out of the timing.",
        (
            "**Severity:** warning\n"
            "\n"
            "Chunk arrival times recorded by the container are negative, not finite, or too large to be a time since the request started; those chunks are fed without a time, so timing is computed from the others. One diagnostic counts them all and quotes the first.\n"
            "\n"
            "**Example:**\n"
            "\n"
            'An `.ssecap` line `{"t": -5.0, "data": "..."}`.\n'
            "\n"
            "**What to do:** The capture was edited or written by a faulty tool; do not trust its timing.\n"
        ),
    ),
    Code(
        "container.time-out-of-order",
        "warning",
        "container",
        PAGE,
        "{n} chunk arrival time(s) go back in time (the first from {was} s to {now} s); each is read as the time before it.",
        (
            "**Severity:** warning\n"
            "\n"
            "A chunk's recorded arrival time is earlier than the chunk before it; it is read as that earlier chunk's time, so no gap is negative. One diagnostic counts them all and names the first.\n"
            "\n"
            "**Example:**\n"
            "\n"
            'An `.ssecap` capture whose lines hold `"t": 0.5` then `"t": 0.2`.\n'
            "\n"
            "**What to do:** The capture was merged or edited; its gaps and stalls are not reliable.\n"
        ),
    ),
)

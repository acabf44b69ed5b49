"""The diagnostic codes documented on ``docs/diagnostics/live.md``."""

from __future__ import annotations

from ._spec import Code, Page

PAGE = Page(
    "live",
    ("# Diagnostics of the live client\n"),
)

CODES: tuple[Code, ...] = (
    Code(
        "stream.open-after-finish",
        "warning",
        "live",
        PAGE,
        {
            "client": "The terminal marker arrived but the server kept the connection open; the client closed it after {wait} of silence.",
            "proxy": "The terminal marker arrived but the upstream kept the connection open; the proxy closed it after {wait} of silence.",
        },
        (
            "The protocol's terminal marker (`[DONE]`, `message_stop`, `response.completed`…) arrived,\n"
            "but the server kept the connection open; the client closed it after the stall time. The\n"
            "status is unchanged. Example: a proxy that never ends a chunked response after\n"
            "`data: [DONE]`. What to do: clients that wait for the end of the body instead of the\n"
            "marker will hang; fix the server or proxy so it ends the response.\n"
        ),
    ),
    Code(
        "stream.connection-error",
        "error",
        "live",
        PAGE,
        {
            "client": "The connection failed after {bytes_seen} bytes: {name} {exc!q}.",
            "proxy": "The upstream connection failed after {bytes_seen} bytes: {name} {exc!q}; the proxy dropped the client's connection too.",
        },
        (
            "The connection failed mid-body (reset, an incomplete chunked body, a peer that closed\n"
            "early). What arrived is kept and the response is `truncated` unless a terminal marker had\n"
            "come. Example: a load balancer cutting a long response at its idle timeout. What to do:\n"
            "check proxy and load-balancer timeouts; retry.\n"
        ),
        content=("exc",),
    ),
    Code(
        "stream.decode-error",
        "error",
        "live",
        PAGE,
        {
            "named": "The body could not be decoded (Content-Encoding {encoding!q}) after {bytes_seen} decoded bytes: {name} {exc!q}. What decoded is kept; the rest of the body is lost.",
            "unnamed": "The body could not be decoded (its Content-Encoding) after {bytes_seen} decoded bytes: {name} {exc!q}. What decoded is kept; the rest of the body is lost.",
        },
        (
            "The server compressed the body (`Content-Encoding: gzip`, `deflate`, `br`…) and the\n"
            "compressed bytes stopped decoding part-way (a corrupt or cut gzip member). What decoded is\n"
            'kept, in the Report and in the `--save` capture (which then ends with `"end": "error"`);\n'
            "the rest of the body is lost. Example: a proxy that truncates a gzip'd response. What to\n"
            "do: ask for an uncompressed body (`Accept-Encoding: identity`) or fix the proxy.\n"
        ),
        content=("exc",),
    ),
    Code(
        "http.redirect",
        "error",
        "live",
        PAGE,
        {
            "location": "The server answered HTTP {status}, a redirect to {location!q:200}; `request` does not follow redirects (the request's credentials would go to the new address): send the request there if it is the right one.",
            "no-location": "The server answered HTTP {status}, with no Location; `request` does not follow redirects (the request's credentials would go to the new address): send the request there if it is the right one.",
        },
        (
            "`ssescope request` got a 3xx answer. It does not follow redirects: the request's\n"
            "credentials (an `x-api-key` header, a key in the URL) would go to the new address. The\n"
            'response is `failed` ("a redirect (not followed)") and the exit code is 4; the message\n'
            "gives the `Location` (redacted). Example: `http://` to `https://`, or an old API path.\n"
            "What to do: check the new address and send the request there.\n"
        ),
        content=("location",),
    ),
    Code(
        "http.body-capped",
        "warning",
        "live",
        PAGE,
        "The HTTP {status} answer's body is longer than {cap:,} bytes; only the first {cap:,} were read before the connection was closed.",
        (
            "The body of an HTTP error (or redirect) answer was longer than the 1 MiB `request` reads\n"
            "of it; the first 1 MiB is kept and the connection is closed. An error body is a short\n"
            "JSON document; an endless one is a misbehaving server. What to do: look at the start of\n"
            "the body; it usually says what went wrong.\n"
        ),
    ),
    Code(
        "http.secret-echoed",
        "warning",
        "live",
        PAGE,
        "The server's answer repeats a credential sent with the request; it is replaced by {replacement} in the Report, the output and the capture.",
        (
            "The server's answer repeated a credential the request carried (an API key in a `401`\n"
            "body saying which key was refused). `request` and the recording proxy replace it by\n"
            "`[redacted]` before the body reaches the Report, the screen, the capture, the proxy's\n"
            "index or the web page's Live view (a key split across two chunks included). The client\n"
            "of the proxy still gets the body as the server sent it. What to do: nothing; the\n"
            "capture is safe to share.\n"
        ),
    ),
    Code(
        "stream.judging-stopped",
        "warning",
        "live",
        PAGE,
        "Judging this stream stopped after {bytes_seen:,} bytes: {why}. The app read the stream as usual; the Report covers what was judged before.",
        (
            "The in-process transport (`ssescope.Transport`) could not go on judging a stream: the\n"
            "engine failed on it. The app is not affected: it reads every byte as the server sent them,\n"
            "and the transport never raises into it. The Report describes what was judged before the\n"
            "failure. Example: a stream whose judging hit an unexpected error in ssescope itself. What\n"
            "to do: record the stream (`CaptureSampler`, or `ssescope proxy --record`) and report the\n"
            "capture; `ssescope inspect` on it shows where judging fails.\n"
        ),
    ),
)

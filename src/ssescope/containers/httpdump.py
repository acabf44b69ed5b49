"""``curl -i`` output and raw HTTP response dumps.

The form is a status line, header lines and a blank line, then the body. Before the
final response there may be heads without a body (``HTTP/1.1 100 Continue``, a proxy's
``HTTP/1.1 200 Connection established``, the redirects of ``curl -iL``): a head followed
directly by another status line is skipped. Lines may end with CRLF (as sent) or LF (as
pasted).

What it loses: timing and chunk boundaries (curl prints the body as one stream), and
the request.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, quote
from ..framing import BOM
from ._body import LOST_CHUNKS, LOST_REQUEST, LOST_TIMING, Body, Chunk
from ._httpbody import (
    STATUS_LINE,
    check_status,
    decode_transfer,
    parse_header_line,
    parse_status_line,
)
from .redact import redact_headers

__all__ = ["read_http"]

_BLANK = re.compile(rb"\r?\n\r?\n")


def read_http(data: bytes) -> Body:
    """Read a ``curl -i`` dump or a raw HTTP/1.x response into a :class:`Body`.

    Never raises: what is wrong becomes a diagnostic.
    """
    diags: list[Diagnostic] = []
    pos = 3 if data.startswith(BOM) else 0
    while pos < len(data) and data[pos] in b" \t\r\n":
        pos += 1
    status: int | None = None
    reason = ""
    headers: list[tuple[str, str]] = []
    status_at = pos
    while True:
        m = _BLANK.search(data, pos)
        if m is None:
            head_end = body_start = len(data)
            if pos < len(data):
                diags.append(
                    Diagnostic(
                        "http.headers-unterminated",
                        "warning",
                        "The response head has no blank line after it: there is no body.",
                        len(data),
                    )
                )
        else:
            head_end, body_start = m.start(), m.end()
        lines = data[pos:head_end].split(b"\n")
        status_at = pos
        parsed = parse_status_line(lines[0].rstrip(b"\r"))
        if parsed is None:
            diags.append(
                Diagnostic(
                    "http.no-status-line",
                    "error",
                    f"The first line {quote(lines[0][:60])} is not an HTTP status line; the "
                    "whole input is read as the body.",
                    pos,
                )
            )
            return _finish(data[pos:], pos, None, [], diags)
        status, reason = parsed
        headers = []
        offset = pos + len(lines[0]) + 1
        for raw in lines[1:]:
            line = raw.rstrip(b"\r")
            if line[:1] in (b" ", b"\t") and headers:
                # obs-fold: a continuation of the previous header's value
                name, value = headers[-1]
                headers[-1] = (name, f"{value} {line.strip().decode('utf-8', 'replace')}")
            else:
                header = parse_header_line(line)
                if header is None:
                    diags.append(
                        Diagnostic(
                            "http.bad-header-line",
                            "warning",
                            f"The head line {quote(line[:60])} is not 'Name: value'; it is "
                            "ignored.",
                            offset,
                        )
                    )
                else:
                    headers.append(header)
            offset += len(raw) + 1
        if body_start < len(data) and STATUS_LINE.match(data, body_start):
            first = lines[0].rstrip(b"\r").decode("utf-8", "replace")
            diags.append(
                Diagnostic(
                    "http.interim-response-skipped",
                    "info",
                    f"The head {quote(first)} is followed by another response; it is skipped.",
                    pos,
                )
            )
            pos = body_start
            continue
        break
    diags.extend(check_status(status, reason, status_at))
    return _finish(data[body_start:], body_start, status, headers, diags)


def _finish(
    body: bytes,
    base: int,
    status: int | None,
    headers: list[tuple[str, str]],
    diags: list[Diagnostic],
) -> Body:
    chunks = [Chunk(body, None)] if body else []
    if status is not None:
        _check_length(headers, len(body), base, diags)
        chunks, more = decode_transfer(chunks, headers, base)
        diags.extend(more)
    lost = [LOST_TIMING, LOST_CHUNKS, LOST_REQUEST]
    return Body(
        chunks, "http", status=status, headers=redact_headers(headers), lost=lost, diagnostics=diags
    )


def _check_length(
    headers: list[tuple[str, str]], got: int, base: int, diags: list[Diagnostic]
) -> None:
    for name, value in headers:
        if name.lower() == "content-length":
            try:
                expected = int(value)
            except ValueError:
                return
            if got < expected:
                diags.append(
                    Diagnostic(
                        "http.body-short",
                        "warning",
                        f"The body has {got} bytes but Content-Length says {expected}: the "
                        "response was cut off.",
                        base + got,
                    )
                )
            return

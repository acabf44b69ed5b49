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

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..framing import BOM
from ._body import LOST_CHUNKS, LOST_REQUEST, LOST_TIMING, Body, Chunk
from ._httpbody import (
    STATUS_LINE,
    check_status,
    decode_transfer,
    parse_header_line,
    parse_status_line,
)
from .redact import redact_header_bytes, redact_headers

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
                diags.append(diagnostic(codes.HTTP_HEADERS_UNTERMINATED, len(data)))
        else:
            head_end, body_start = m.start(), m.end()
        lines = data[pos:head_end].split(b"\n")
        status_at = pos
        parsed = parse_status_line(lines[0].rstrip(b"\r"))
        if parsed is None:
            diags.append(diagnostic(codes.HTTP_NO_STATUS_LINE, pos, lines=lines[0][:60]))
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
                    shown = redact_header_bytes(line)[:60]  # (a Set-Cookie without its colon)
                    diags.append(diagnostic(codes.HTTP_BAD_HEADER_LINE, offset, line=shown))
                else:
                    headers.append(header)
            offset += len(raw) + 1
        if body_start < len(data) and STATUS_LINE.match(data, body_start):
            first = lines[0].rstrip(b"\r").decode("utf-8", "replace")
            diags.append(diagnostic(codes.HTTP_INTERIM_RESPONSE_SKIPPED, pos, head=first))
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
                    diagnostic(codes.HTTP_BODY_SHORT, base + got, got=got, expected=expected)
                )
            return

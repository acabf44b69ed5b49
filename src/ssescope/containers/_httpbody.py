"""HTTP/1.x pieces shared by the ``curl -i`` and curl trace readers.

* :func:`parse_status_line` / :func:`parse_header_line`: one line of a response head.
* :func:`dechunk`: undo ``Transfer-Encoding: chunked`` over a list of timed chunks,
  keeping each payload byte in the chunk (and so at the time) it arrived in.
* :func:`decode_content`: undo ``Content-Encoding: gzip``/``deflate`` the same way.

Both decoders first check that the body really is encoded: ``curl -i`` prints the
body *after* curl decoded it while still printing the original headers, so a header
saying ``chunked`` or ``gzip`` over a plain body is normal there, not an error.
"""

from __future__ import annotations

import re
import zlib

from .. import codes
from ..diagnostics import Diagnostic, diagnostic
from ..limits import DECODED_BODY_BYTES
from ._body import Chunk

__all__ = [
    "STATUS_LINE",
    "check_status",
    "dechunk",
    "decode_content",
    "decode_limit_diagnostic",
    "decode_transfer",
    "looks_like_text",
    "parse_header_line",
    "parse_status_line",
]

STATUS_LINE = re.compile(rb"HTTP/(\d(?:\.\d)?)[ \t]+(\d{3})(?:[ \t]+([^\r\n]*))?[ \t]*\r?")
"""A status line: ``HTTP/1.1 200 OK``, ``HTTP/2 200``, ``HTTP/1.1 100 Continue``."""

_CHUNK_SIZE = re.compile(rb"[ \t]*([0-9A-Fa-f]+)[ \t]*(?:;[^\r\n]*)?\r?")
_LOOKS_CHUNKED = re.compile(rb"[ \t]*[0-9A-Fa-f]+[ \t]*(?:;[^\r\n]*)?\r?\n")

_SIZE, _DATA, _DATA_END, _TRAILER, _DONE = range(5)


def parse_status_line(line: bytes) -> tuple[int, str] | None:
    """Return ``(status, reason)`` for a status line, or ``None`` if it is not one."""
    m = STATUS_LINE.fullmatch(line)
    if m is None:
        return None
    return int(m[2]), (m[3] or b"").decode("utf-8", "replace").strip()


def parse_header_line(line: bytes) -> tuple[str, str] | None:
    """Return ``(name, value)`` for a ``Name: value`` line, or ``None`` if it is not one."""
    name, colon, value = line.partition(b":")
    if not colon or not name.strip() or name[:1] in b" \t":
        return None
    return (
        name.strip().decode("utf-8", "replace"),
        value.strip().decode("utf-8", "replace"),
    )


def check_status(status: int | None, reason: str, offset: int | None) -> list[Diagnostic]:
    """Return ``http.error-status`` when the final response is an HTTP error."""
    if status is None or status < 400:
        return []
    return [diagnostic(codes.HTTP_ERROR_STATUS, offset, form="head", status=status, reason=reason)]


def looks_like_text(data: bytes) -> bool:
    """Return whether the first bytes look like text (not compressed or binary)."""
    head = data[:64]
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:
            return False
        text = head[: exc.start].decode("utf-8")
    return all(ch.isprintable() or ch in "\t\r\n" for ch in text)


def _header(headers: list[tuple[str, str]], name: str) -> str:
    values = [v for k, v in headers if k.lower() == name]
    return ", ".join(values)


def decode_transfer(
    chunks: list[Chunk], headers: list[tuple[str, str]], base: int | None, *, lossy: bool = False
) -> tuple[list[Chunk], list[Diagnostic]]:
    """Undo the transfer and content encodings the headers name, when the body has them.

    Args:
        chunks: the body as read from the container.
        headers: the response headers.
        base: offset of the body in the container (for diagnostics), or ``None``.
        lossy: the bytes are not exact (curl ``--trace-ascii``): compressed bodies
            cannot be recovered.
    """
    diags: list[Diagnostic] = []
    te = _header(headers, "transfer-encoding").lower()
    if "chunked" in te:
        chunks, more = dechunk(chunks, base)
        diags.extend(more)
    ce = _header(headers, "content-encoding")
    if ce and ce.lower() not in ("identity", ""):
        chunks, more = decode_content(chunks, ce, base, lossy=lossy)
        diags.extend(more)
    return chunks, diags


def dechunk(chunks: list[Chunk], base: int | None) -> tuple[list[Chunk], list[Diagnostic]]:
    """Decode a chunked transfer-encoding spread over ``chunks``.

    Returns:
        The payload, each piece in the chunk (and at the time) its bytes arrived in, and
        diagnostics. A body that does not start like a chunked body is returned as is,
        with the info ``http.chunked-already-decoded``.
    """
    head = b"".join(c.data for c in chunks[:4])[:80]
    if not head:
        return chunks, []
    if not _LOOKS_CHUNKED.match(head):
        return chunks, [diagnostic(codes.HTTP_CHUNKED_ALREADY_DECODED, base, head=head[:20])]
    diags: list[Diagnostic] = []
    out: list[Chunk] = []
    state = _SIZE
    line = bytearray()
    remaining = 0
    pos = 0  # offset in the encoded body
    line_start = 0
    broken = False
    extra_reported = False
    total = sum(len(c.data) for c in chunks)
    for chunk in chunks:
        data = chunk.data
        n = len(data)
        i = 0
        piece = bytearray()
        while i < n:
            if broken:
                piece += data[i:]
                break
            if state == _DATA:
                take = min(remaining, n - i)
                piece += data[i : i + take]
                i += take
                remaining -= take
                if remaining == 0:
                    state = _DATA_END
                continue
            if state == _DONE:
                if not extra_reported:
                    extra_reported = True
                    diags.append(
                        diagnostic(
                            codes.HTTP_DATA_AFTER_LAST_CHUNK,
                            _at(base, pos + i),
                            extra=total - pos - i,
                            data=data[i : i + 30],
                        )
                    )
                break
            j = data.find(b"\n", i)
            if j < 0:
                if not line:
                    line_start = pos + i
                line += data[i:]
                break
            if not line:
                line_start = pos + i
            line += data[i : j + 1]
            i = j + 1
            raw = bytes(line)
            line.clear()
            text = raw.rstrip(b"\r\n")
            if state == _DATA_END:
                state = _SIZE
                if text:
                    diags.append(_bad_chunk("no CRLF after a chunk's data", raw, base, line_start))
                    broken = True
                    piece += raw
            elif state == _SIZE:
                m = _CHUNK_SIZE.fullmatch(text)
                if m is None:
                    diags.append(_bad_chunk("an invalid chunk size line", raw, base, line_start))
                    broken = True
                    piece += raw
                elif int(m[1], 16) == 0:
                    state = _TRAILER
                else:
                    remaining = int(m[1], 16)
                    state = _DATA
            elif state == _TRAILER and not text:
                state = _DONE
        if piece:
            out.append(Chunk(bytes(piece), chunk.time))
        pos += n
    if not broken and state in (_SIZE, _DATA, _DATA_END):
        diags.append(
            diagnostic(
                codes.HTTP_CHUNKED_TRUNCATED,
                _at(base, pos),
                form="in-chunk" if state == _DATA else "between-chunks",
                remaining=remaining,
            )
        )
    return out, diags


def _at(base: int | None, pos: int) -> int | None:
    return None if base is None else base + pos


def _bad_chunk(what: str, raw: bytes, base: int | None, pos: int) -> Diagnostic:
    return diagnostic(codes.HTTP_CHUNKED_INVALID, _at(base, pos), what=what, raw_text=raw[:40])


def decode_content(
    chunks: list[Chunk], encoding: str, base: int | None, *, lossy: bool = False
) -> tuple[list[Chunk], list[Diagnostic]]:
    """Undo ``gzip``/``deflate`` content encoding chunk by chunk, when the body has it.

    A body that is already text (curl ``--compressed`` prints it decoded) is left alone.
    """
    enc = encoding.strip().lower()
    head = b"".join(c.data for c in chunks[:4])[:64]
    if not head or (not lossy and looks_like_text(head)):
        return chunks, []
    gzip_magic = head[:2] == b"\x1f\x8b"
    zlib_magic = (
        len(head) >= 2 and head[0] & 0x0F == 8 and int.from_bytes(head[:2], "big") % 31 == 0
    )
    if lossy or enc not in ("gzip", "x-gzip", "deflate") or not (gzip_magic or zlib_magic):
        why = (
            "curl --trace-ascii replaced its unprintable bytes, so it cannot be decompressed"
            if lossy
            else "ssescope cannot decode it"
        )
        return chunks, [
            diagnostic(
                codes.HTTP_CONTENT_ENCODING_UNSUPPORTED,
                base,
                form="container",
                encoding=encoding,
                why=why,
            )
        ]
    inflater = _Inflater(gzip_magic)
    out: list[Chunk] = []
    diags: list[Diagnostic] = []
    pos = 0
    failed = False
    for chunk in chunks:
        if failed or inflater.capped:
            if failed:
                out.append(chunk)
            continue
        try:
            data = inflater.feed(chunk.data)
        except zlib.error as exc:
            failed = True
            diags.append(
                diagnostic(
                    codes.HTTP_CONTENT_DECODING_FAILED,
                    _at(base, pos),
                    encoding=encoding,
                    error=str(exc),
                    pos=pos,
                )
            )
            out.append(chunk)
            continue
        if data:
            out.append(Chunk(data, chunk.time))
        pos += len(chunk.data)
    if inflater.capped:
        diags.append(decode_limit_diagnostic(encoding, None, base))
    elif not failed:
        tail = inflater.flush()
        if tail:
            last = chunks[-1].time if chunks else None
            out.append(Chunk(tail, last))
        if not inflater.eof:
            diags.append(
                diagnostic(codes.HTTP_CONTENT_TRUNCATED, _at(base, pos), encoding=encoding)
            )
        if inflater.trailing:
            diags.append(
                diagnostic(
                    codes.HTTP_CONTENT_TRAILING_DATA,
                    _at(base, pos),
                    n=inflater.trailing,
                    encoding=encoding,
                )
            )
    diags.append(diagnostic(codes.HTTP_CONTENT_DECODED, base, encoding=encoding))
    return out, diags


def decode_limit_diagnostic(encoding: str, entry: int | None, offset: int | None) -> Diagnostic:
    """The ``container.decode-limit`` warning: a decoded body was cut at the cap."""
    return diagnostic(
        codes.CONTAINER_DECODE_LIMIT,
        offset,
        form="body" if entry is None else "entry",
        entry=entry,
        encoding=encoding,
        cap=DECODED_BODY_BYTES,
    )


class _Inflater:
    """zlib/gzip decompression with an output cap, reading every gzip member."""

    def __init__(self, gzip: bool) -> None:
        self._gzip = gzip
        self._d = zlib.decompressobj(47 if gzip else 15)
        self._room = DECODED_BODY_BYTES
        self.capped = False
        self.trailing = 0
        self.members = 1

    @property
    def eof(self) -> bool:
        """Whether the last member reached its end marker."""
        return self._d.eof

    def feed(self, data: bytes) -> bytes:
        """Decompress ``data``; stop (and set :attr:`capped`) at the output cap."""
        parts: list[bytes] = []
        while data and not self.capped:
            if self._d.eof:
                if self._gzip and data[:2] == b"\x1f\x8b":  # the next gzip member
                    self._d = zlib.decompressobj(47)
                    self.members += 1
                else:
                    self.trailing += len(data)
                    break
            if self._room <= 0:  # (a max_length of 0 would mean no limit)
                self.capped = True
                break
            piece = self._d.decompress(data, self._room)
            self._room -= len(piece)
            parts.append(piece)
            data = self._d.unconsumed_tail or self._d.unused_data
        return b"".join(parts)

    def flush(self) -> bytes:
        """What the decompressor still holds (within the cap)."""
        tail = self._d.flush()[: max(self._room, 0)]
        self._room -= len(tail)
        return tail

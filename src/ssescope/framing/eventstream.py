"""AWS event-stream framing (``application/vnd.amazon.eventstream``), as Bedrock's
``ConverseStream`` and ``InvokeModelWithResponseStream`` send it.

Each message is::

    total length (u32) | headers length (u32) | prelude CRC32 (u32)
    headers            | payload              | message CRC32 (u32)

all big-endian; the prelude CRC covers the first 8 bytes, the message CRC everything
before it. A header is ``name length (u8) | name | type (u8) | value``. The headers that
matter are ``:message-type`` (``event``, ``exception`` or ``error``), ``:event-type`` /
``:exception-type`` / ``:error-code`` and ``:content-type``.

Each message becomes a :class:`JSONRecord` whose ``event`` is ``"<message-type>:<type>"``
(e.g. ``"event:contentBlockDelta"``) and whose ``data`` is the payload text. A CRC
mismatch is an error diagnostic and the message is still passed on (its bytes may be
fine); an impossible length stops framing, reported with the offset.
"""

from __future__ import annotations

import binascii
import json
from typing import ClassVar

from .. import codes
from ..diagnostics import diagnostic
from ..incremental import close_once, refuse_feed_after_close
from ._text import decode_utf8
from .records import FramingOutput, JSONRecord, Tail

__all__ = ["EventStreamParser", "encode_message", "encode_record"]

_MAX_MESSAGE = 16 * 1024 * 1024  # the AWS limit is 16 MiB per message


def _read_headers(raw: bytes) -> dict[str, object]:
    headers: dict[str, object] = {}
    i = 0
    n = len(raw)
    while i < n:
        name_len = raw[i]
        name = raw[i + 1 : i + 1 + name_len].decode("utf-8", "replace")
        i += 1 + name_len
        kind = raw[i]
        i += 1
        value: object
        if kind in (0, 1):  # bool true / false
            value = kind == 0
        elif kind == 2:
            value = int.from_bytes(raw[i : i + 1], "big", signed=True)
            i += 1
        elif kind == 3:
            value = int.from_bytes(raw[i : i + 2], "big", signed=True)
            i += 2
        elif kind == 4:
            value = int.from_bytes(raw[i : i + 4], "big", signed=True)
            i += 4
        elif kind in (5, 8):  # int64, timestamp
            value = int.from_bytes(raw[i : i + 8], "big", signed=True)
            i += 8
        elif kind in (6, 7):  # bytes, string
            size = int.from_bytes(raw[i : i + 2], "big")
            blob = raw[i + 2 : i + 2 + size]
            value = blob.decode("utf-8", "replace") if kind == 7 else blob
            i += 2 + size
        elif kind == 9:  # uuid
            value = raw[i : i + 16].hex()
            i += 16
        else:
            raise ValueError(f"unknown header value type {kind}")
        headers[name] = value
    return headers


def encode_message(headers: dict[str, str], payload: bytes) -> bytes:
    """Encode one event-stream message with string headers (for tests and the replay server)."""
    hdr = b"".join(
        bytes([len(k)]) + k.encode() + b"\x07" + len(v.encode()).to_bytes(2, "big") + v.encode()
        for k, v in headers.items()
    )
    total = 12 + len(hdr) + len(payload) + 4
    prelude = total.to_bytes(4, "big") + len(hdr).to_bytes(4, "big")
    prelude += binascii.crc32(prelude).to_bytes(4, "big")
    body = prelude + hdr + payload
    return body + binascii.crc32(body).to_bytes(4, "big")


_TYPE_HEADER = {"event": ":event-type", "exception": ":exception-type", "error": ":error-code"}


def encode_record(event: str, payload: bytes) -> bytes:
    """Encode a record back into one JSON message: the inverse of what the parser makes of
    it (``event`` is ``"<message-type>:<type>"``, e.g. ``"event:contentBlockDelta"``).

    Raises:
        ValueError: ``event`` names no message type of the event-stream framing.
    """
    kind, sep, name = event.partition(":")
    if not sep or kind not in _TYPE_HEADER:
        raise ValueError(f"not an event-stream message type: {event!r}")
    headers = {":message-type": kind, _TYPE_HEADER[kind]: name, ":content-type": "application/json"}
    return encode_message(headers, payload)


class EventStreamParser:
    """Incremental, sans-I/O parser of the AWS binary event-stream framing."""

    name: ClassVar[str] = "aws-eventstream"

    def __init__(self) -> None:
        self._closed = False
        self._buf = bytearray()
        self._buf_start = 0  # absolute offset of _buf[0]
        self.tail: Tail | None = None  # an unfinished message the body ended inside
        self._index = 0
        self._broken = False

    def feed(self, data: bytes, time: float | None = None) -> list[FramingOutput]:
        """Parse another chunk.

        Returns:
            One record per complete message, and diagnostics.

        Raises:
            UsageError: if called after :meth:`close`.
        """
        if self._closed:
            refuse_feed_after_close()
        out: list[FramingOutput] = []
        if self._broken:
            return out
        self._buf += data
        return self._drain(time, final=False)

    def _drain(self, time: float | None, *, final: bool) -> list[FramingOutput]:
        """Cut every complete message off the buffer (``final``: no more bytes will come)."""
        out: list[FramingOutput] = []
        pos = 0
        buf = self._buf
        while len(buf) - pos >= 12:
            total = int.from_bytes(buf[pos : pos + 4], "big")
            hlen = int.from_bytes(buf[pos + 4 : pos + 8], "big")
            start = self._buf_start + pos
            if total < 16 or total > _MAX_MESSAGE or hlen > total - 16:
                out.append(
                    diagnostic(
                        codes.EVENTSTREAM_BAD_PRELUDE, start, start=start, total=total, hlen=hlen
                    )
                )
                self._broken = True
                pos = len(buf)
                break
            if len(buf) - pos < total:
                break
            msg = bytes(buf[pos : pos + total])
            if binascii.crc32(msg[:8]) != int.from_bytes(msg[8:12], "big"):
                trusted = self._lengths_hold(buf, pos, total, final=final)
                if trusted is None:
                    break  # decided once the next prelude (or the end) has arrived
                out.append(
                    diagnostic(
                        codes.EVENTSTREAM_CRC_MISMATCH,
                        start,
                        self._index if trusted else None,
                        form="prelude-trusted" if trusted else "prelude-untrusted",
                        start=start,
                        total=total,
                    )
                )
                if not trusted:
                    # A flipped bit in a length would swallow the rest of the body as one
                    # message; stop rather than guess.
                    self._broken = True
                    pos = len(buf)
                    break
            pos += total
            out.extend(self._message(msg, start, time))
        del buf[:pos]
        self._buf_start += pos
        return out

    @staticmethod
    def _lengths_hold(buf: bytearray, pos: int, total: int, *, final: bool) -> bool | None:
        """Whether a message whose prelude CRC failed still has the right lengths.

        They hold if its message CRC matches, or if a valid prelude (or the end of the
        body) follows where it says it ends. ``None``: not known until more bytes come.
        """
        end = pos + total
        if binascii.crc32(buf[pos : end - 4]) == int.from_bytes(buf[end - 4 : end], "big"):
            return True
        if len(buf) >= end + 12:
            return binascii.crc32(buf[end : end + 8]) == int.from_bytes(
                buf[end + 8 : end + 12], "big"
            )
        if final:
            return len(buf) == end
        return None

    def close(self, time: float | None = None) -> list[FramingOutput]:
        """Signal the end of the body; leftover bytes are reported.

        Raises:
            UsageError: if called twice.
        """
        close_once(self)
        out: list[FramingOutput] = [] if self._broken else self._drain(time, final=True)
        if self._buf and not self._broken:
            rest = bytes(self._buf)
            self.tail = Tail(
                self._buf_start,
                self._buf_start + len(rest),
                rest.decode("utf-8", "replace"),
                codes.EVENTSTREAM_TRUNCATED_MESSAGE,
            )
            out.append(
                diagnostic(
                    codes.EVENTSTREAM_TRUNCATED_MESSAGE, self._buf_start, n_buf=len(self._buf)
                )
            )
        return out

    def _message(self, msg: bytes, start: int, time: float | None) -> list[FramingOutput]:
        out: list[FramingOutput] = []
        index = self._index
        self._index += 1
        # A bad prelude CRC was reported before the lengths were trusted; it also breaks
        # the message CRC, which is then not reported a second time.
        prelude_ok = binascii.crc32(msg[:8]) == int.from_bytes(msg[8:12], "big")
        if prelude_ok and binascii.crc32(msg[:-4]) != int.from_bytes(msg[-4:], "big"):
            out.append(
                diagnostic(
                    codes.EVENTSTREAM_CRC_MISMATCH, start, index, form="message", start=start
                )
            )
        hlen = int.from_bytes(msg[4:8], "big")
        try:
            headers = _read_headers(msg[12 : 12 + hlen])
        except (IndexError, ValueError) as exc:
            headers = {}
            out.append(
                diagnostic(codes.EVENTSTREAM_BAD_HEADERS, start, index, start=start, error=str(exc))
            )
        mtype = str(headers.get(":message-type", "event"))
        etype = (
            headers.get(":event-type")
            or headers.get(":exception-type")
            or headers.get(":error-code")
            or ""
        )
        payload = msg[12 + hlen : -4]
        if not payload and mtype == "error":
            # An error message carries its text in headers, not in the payload.
            message = headers.get(":error-message", "")
            payload = json.dumps({"message": str(message)}).encode()
        text, diag = decode_utf8(payload, start + 12 + hlen, index)
        if diag is not None:
            out.append(diag)
        out.append(JSONRecord(index, text, start, start + len(msg), time, f"{mtype}:{etype}"))
        return out

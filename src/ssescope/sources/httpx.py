"""Live events from an ``httpx`` streaming response (sync and async).

::

    with httpx.stream("POST", url, json=body, timeout=httpx.Timeout(10, read=5)) as r:
        live = iter_events(r, stall=5)
        for event in live:
            ...
        print(live.report.status)

The body is read with ``iter_raw``, never decoded with the server's charset; a compressed
one (gzip, deflate, br, zstd) is decoded by :class:`~ssescope.sources.decode.ContentDecoder`
a bounded step at a time (``iter_bytes`` only for an encoding it does not know, such as a
list of two). Arrival times are ``time.monotonic()`` seconds
since ``start`` (default: when the adapter was created).

Stalls: ``stall`` seconds without a chunk, or without content while keep-alives and pings
go on arriving (counted from the first byte). The async adapter times each read itself;
the sync adapter relies on httpx's read timeout for the first kind, so give the client
``read=stall``, and for the second shuts the connection's socket from a watchdog thread
when the content deadline passes. A stall before the
terminal marker ends the stream ``truncated`` with ``timing.stall``; after it, the
connection is closed and ``stream.open-after-finish`` is reported. A compressed body
that stops decoding (corrupt gzip) keeps every byte that decoded before the fault (in the
Report and the capture) and reports ``stream.decode-error``.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Iterator

import httpx

from ..containers.redact import secret_values
from ._live import AsyncStream, SyncStream
from .decode import ContentDecoder

__all__ = [
    "AsyncLiveStream",
    "LiveStream",
    "aiter_body",
    "aiter_events",
    "iter_body",
    "iter_events",
]

_DECODED = ("gzip", "x-gzip", "deflate", "br", "zstd")

_IDENTITY = ("", "identity")


def _secrets(response: httpx.Response) -> list[str]:
    """The credentials the request carried (kept out of error messages)."""
    try:
        request = response.request
    except RuntimeError:  # a response built by hand has no request
        return []
    return secret_values(list(request.headers.items()), str(request.url))


def _encoding(response: httpx.Response) -> str:
    return str(response.headers.get("content-encoding", "")).strip()


def _compressed(response: httpx.Response) -> bool:
    return _encoding(response).lower() not in _IDENTITY


async def _once(data: bytes) -> AsyncIterator[bytes]:
    yield data


def _decoder(response: httpx.Response) -> ContentDecoder | None:
    encoding = _encoding(response).lower()
    if encoding not in _DECODED:
        return None
    # no cap: the whole body is the caller's; what decoded before a fault is kept
    return ContentDecoder(encoding, limit=None, recover=True)


def _pieces(decoder: ContentDecoder, chunk: bytes) -> list[bytes]:
    """The decoded steps of one raw chunk; on corrupt data, the last of what decoded, then
    ``httpx.DecodingError``."""
    pieces = list(decoder.pieces(chunk))
    if decoder.failed:
        raise _Fault(pieces, decoder)
    return pieces


class _Fault(Exception):
    def __init__(self, pieces: list[bytes], decoder: ContentDecoder) -> None:
        self.pieces = pieces
        self.error = httpx.DecodingError(decoder.error or decoder.problem or "decoding failed")


def _tail(decoder: ContentDecoder) -> list[bytes]:
    tail = decoder.close()
    if decoder.failed:
        raise _Fault([tail] if tail else [], decoder)
    return [tail] if tail else []


def iter_body(response: httpx.Response) -> Iterator[bytes]:
    """The body of a sync httpx streaming response as it arrives, decoded.

    Raw bytes for an uncompressed body; a compressed one is decoded a bounded step at a
    time, and on corrupt data every byte that decoded before the fault comes out before
    ``httpx.DecodingError`` is raised.
    """
    decoder = _decoder(response)
    if decoder is None:
        yield from (response.iter_bytes() if _compressed(response) else response.iter_raw())
        return
    try:
        for chunk in response.iter_raw():
            yield from _pieces(decoder, chunk)
        yield from _tail(decoder)
    except _Fault as fault:
        yield from fault.pieces
        raise fault.error from None


async def aiter_body(response: httpx.Response) -> AsyncIterator[bytes]:
    """The async form of :func:`iter_body`."""
    decoder = _decoder(response)
    if decoder is None:
        source = response.aiter_bytes() if _compressed(response) else response.aiter_raw()
        async for chunk in source:
            yield chunk
        return
    try:
        async for chunk in response.aiter_raw():
            for piece in _pieces(decoder, chunk):
                yield piece
        for piece in _tail(decoder):
            yield piece
    except _Fault as fault:
        for piece in fault.pieces:
            yield piece
        raise fault.error from None


def _status_and_secrets(response: httpx.Response) -> tuple[int, list[str]]:
    return response.status_code, _secrets(response)


class LiveStream(SyncStream):
    """Iterator of unified events (and diagnostics) over a sync httpx response.

    ``report`` holds the Report once the iterator is exhausted or :meth:`close` d.
    """

    _stall_errors = (httpx.ReadTimeout,)
    _transport_errors = (httpx.TransportError,)
    _decode_errors = (httpx.DecodingError,)

    def _open(self, response: httpx.Response) -> tuple[int, list[str]]:
        if response.is_stream_consumed:  # already read (not a streaming request)
            self._raw = iter([response.content])
        else:
            self._raw = iter_body(response)
        return _status_and_secrets(response)

    def _encoding(self) -> str:
        return _encoding(self._response)

    def _close_response(self) -> None:
        self._response.close()

    def _socket(self) -> socket.socket | None:
        stream = self._response.extensions.get("network_stream")
        found = None if stream is None else stream.get_extra_info("socket")
        return found if isinstance(found, socket.socket) else None

    def fail(self, exc: BaseException) -> None:
        """Record that reading the body outside the iterator failed (decoding or transport)."""
        if isinstance(exc, httpx.DecodingError):
            self._core.on_decode_error(exc, _encoding(self._response))
        else:
            self._core.on_error(exc)


class AsyncLiveStream(AsyncStream):
    """Async iterator of unified events over an ``httpx.AsyncClient`` streaming response.

    ``stall`` is enforced by the adapter itself (each read waits at most that long).
    """

    _stall_errors = (asyncio.TimeoutError, httpx.ReadTimeout)
    _transport_errors = (httpx.TransportError,)
    _decode_errors = (httpx.DecodingError,)

    def _open(self, response: httpx.Response) -> tuple[int, list[str]]:
        if response.is_stream_consumed:  # already read (not a streaming request)
            self._raw = _once(response.content)
        else:
            self._raw = aiter_body(response)
        return _status_and_secrets(response)

    def _encoding(self) -> str:
        return _encoding(self._response)

    async def _close_response(self) -> None:
        await self._response.aclose()


iter_events = LiveStream
"""Yield unified events from a sync httpx streaming response as bytes arrive.

``iter_events(response, *, provider="auto", capture=None, stall=None, start=None,
timing=None)``: pair ``stall`` with httpx's read timeout. The :class:`LiveStream`'s
``report`` is set once it is exhausted.
"""

aiter_events = AsyncLiveStream
"""Async form of :data:`iter_events` for ``httpx.AsyncClient`` streaming responses."""

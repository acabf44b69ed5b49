"""Live events from an ``httpx`` streaming response (sync and async).

::

    with httpx.stream("POST", url, json=body, timeout=httpx.Timeout(10, read=5)) as r:
        live = iter_events(r, stall=5)
        for event in live:
            ...
        print(live.report.status)

The body is read with ``iter_raw`` (``iter_bytes`` only when the server compressed it):
never decoded with the server's charset. Arrival times are ``time.monotonic()`` seconds
since ``start`` (default: when the adapter was created).

Stalls: the async adapter times each read itself (``stall`` seconds); the sync adapter
relies on httpx's read timeout, so give the client ``read=stall``. A stall before the
terminal marker ends the stream ``truncated`` with ``timing.stall``; after it, the
connection is closed and ``stream.open-after-finish`` is reported. A compressed body
that stops decoding (corrupt gzip) keeps what decoded and reports ``stream.decode-error``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx

from ..containers.redact import secret_values
from ._live import AsyncStream, SyncStream

__all__ = ["AsyncLiveStream", "LiveStream", "aiter_events", "iter_events"]

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
            self._raw = response.iter_bytes() if _compressed(response) else response.iter_raw()
        return _status_and_secrets(response)

    def _encoding(self) -> str:
        return _encoding(self._response)

    def _close_response(self) -> None:
        self._response.close()

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
            self._raw = response.aiter_bytes() if _compressed(response) else response.aiter_raw()
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

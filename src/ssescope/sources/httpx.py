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
from collections.abc import AsyncIterator, Iterator

import httpx

from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..containers.redact import secret_values
from ..providers._base import AdapterOutput
from ._live import AsyncStream, CaptureSink, StreamBase

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


class LiveStream(StreamBase, Iterator[AdapterOutput]):
    """Iterator of unified events (and diagnostics) over a sync httpx response.

    ``report`` holds the Report once the iterator is exhausted or :meth:`close` d.
    """

    def __init__(
        self,
        response: httpx.Response,
        *,
        provider: str = "auto",
        capture: CaptureSink | None = None,
        stall: float | None = None,
        start: float | None = None,
        timing: TimingOptions | None = None,
    ) -> None:
        super().__init__(
            response.status_code,
            provider=provider,
            capture=capture,
            stall=stall,
            start=start,
            timing=timing,
        )
        self._response = response
        self._core.secrets = _secrets(response)
        self._raw: Iterator[bytes]
        if response.is_stream_consumed:  # already read (not a streaming request)
            self._raw = iter([response.content])
        else:
            self._raw = response.iter_bytes() if _compressed(response) else response.iter_raw()

    def __iter__(self) -> LiveStream:
        return self

    def __next__(self) -> AdapterOutput:
        while not self._pending:
            if self._done:
                raise StopIteration
            self._pull()
        return self._pending.popleft()

    def _pull(self) -> None:
        core = self._core
        try:
            chunk = next(self._raw)
        except StopIteration:
            self._end()
            return
        except httpx.ReadTimeout:
            core.on_stall()
            self._response.close()
            self._end()
            return
        except httpx.DecodingError as exc:
            core.on_decode_error(exc, _encoding(self._response))
            self._response.close()
            self._end()
            return
        except httpx.TransportError as exc:
            core.on_error(exc)
            self._end()
            return
        except KeyboardInterrupt:
            self.close()
            raise
        self._pending.extend(core.feed(chunk))

    def fail(self, exc: BaseException) -> None:
        """Record that reading the body outside the iterator failed (decoding or transport)."""
        if isinstance(exc, httpx.DecodingError):
            self._core.on_decode_error(exc, _encoding(self._response))
        else:
            self._core.on_error(exc)

    def close(self, reason: str = "the client aborted the stream") -> Report:
        """Stop reading: the response is ``cancelled`` unless it had already ended."""
        if not self._done:
            if not self._core.terminal_seen:
                self._core.on_cancel(reason)
            self._response.close()
            self._end()
        report = self._core.report
        assert report is not None
        return report

    def run(self) -> Report:
        """Read the whole stream and return the Report."""
        for _ in self:
            pass
        report = self._core.report
        assert report is not None
        return report


class AsyncLiveStream(AsyncStream):
    """Async iterator of unified events over an ``httpx.AsyncClient`` streaming response."""

    def __init__(
        self,
        response: httpx.Response,
        *,
        provider: str = "auto",
        capture: CaptureSink | None = None,
        stall: float | None = None,
        start: float | None = None,
        timing: TimingOptions | None = None,
    ) -> None:
        super().__init__(
            response.status_code,
            provider=provider,
            capture=capture,
            stall=stall,
            start=start,
            timing=timing,
        )
        self._response = response
        self._core.secrets = _secrets(response)
        self._raw: AsyncIterator[bytes]
        if response.is_stream_consumed:  # already read (not a streaming request)
            self._raw = _once(response.content)
        else:
            self._raw = response.aiter_bytes() if _compressed(response) else response.aiter_raw()

    _stall_errors = (asyncio.TimeoutError, httpx.ReadTimeout)
    _transport_errors = (httpx.TransportError,)
    _decode_errors = (httpx.DecodingError,)

    def _encoding(self) -> str:
        return _encoding(self._response)

    async def _close_response(self) -> None:
        await self._response.aclose()


def iter_events(
    response: httpx.Response,
    *,
    provider: str = "auto",
    capture: CaptureSink | None = None,
    stall: float | None = None,
    start: float | None = None,
    timing: TimingOptions | None = None,
) -> LiveStream:
    """Yield unified events from a sync httpx streaming response as bytes arrive.

    Args:
        response: an open streaming response (``client.stream(...)``).
        provider: ``"auto"`` or a provider name.
        capture: a sink (``CaptureWriter``) every raw chunk is teed into.
        stall: seconds of silence that count as a stall (pair it with httpx's read timeout).
        start: ``time.monotonic()`` at the request's start (default: now).
        timing: thresholds for the timing diagnostics.

    Returns:
        A :class:`LiveStream`; its ``report`` is set once it is exhausted.
    """
    return LiveStream(
        response, provider=provider, capture=capture, stall=stall, start=start, timing=timing
    )


def aiter_events(
    response: httpx.Response,
    *,
    provider: str = "auto",
    capture: CaptureSink | None = None,
    stall: float | None = None,
    start: float | None = None,
    timing: TimingOptions | None = None,
) -> AsyncLiveStream:
    """Async form of :func:`iter_events` for ``httpx.AsyncClient`` streaming responses.

    ``stall`` is enforced by the adapter itself (each read waits at most that long).
    """
    return AsyncLiveStream(
        response, provider=provider, capture=capture, stall=stall, start=start, timing=timing
    )

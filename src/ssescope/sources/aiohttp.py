"""Live events from an ``aiohttp`` client response.

::

    async with session.post(url, json=body) as r:
        live = aiter_events(r, stall=5)
        async for event in live:
            ...
        print(live.report.status)

Chunks are read as they arrive (``response.content.iter_any()``), never decoded with the
server's charset (aiohttp undoes a ``Content-Encoding`` itself).
"""

from __future__ import annotations

import aiohttp

from ..aggregate.timing import TimingOptions
from ..containers.redact import secret_values
from ._live import AsyncStream, CaptureSink

__all__ = ["AiohttpLiveStream", "aiter_events"]


class AiohttpLiveStream(AsyncStream):
    """Async iterator of unified events over an aiohttp response; ``report`` at the end."""

    def __init__(
        self,
        response: aiohttp.ClientResponse,
        *,
        provider: str = "auto",
        capture: CaptureSink | None = None,
        stall: float | None = None,
        start: float | None = None,
        timing: TimingOptions | None = None,
    ) -> None:
        super().__init__(
            response.status,
            provider=provider,
            capture=capture,
            stall=stall,
            start=start,
            timing=timing,
        )
        self._response = response
        self._raw = response.content.iter_any()
        info = response.request_info
        self._core.secrets = secret_values(list(info.headers.items()), str(info.url))

    _transport_errors = (aiohttp.ClientError,)

    async def _close_response(self) -> None:
        self._response.close()


def aiter_events(
    response: aiohttp.ClientResponse,
    *,
    provider: str = "auto",
    capture: CaptureSink | None = None,
    stall: float | None = None,
    start: float | None = None,
    timing: TimingOptions | None = None,
) -> AiohttpLiveStream:
    """Yield unified events from an aiohttp response as bytes arrive.

    Args:
        response: the response of ``session.get/post(...)`` (body not read yet).
        provider: ``"auto"`` or a provider name.
        capture: a sink (``CaptureWriter``) every raw chunk is teed into.
        stall: seconds of silence after which the stream is aborted.
        start: ``time.monotonic()`` at the request's start (default: now).
        timing: thresholds for the timing diagnostics.
    """
    return AiohttpLiveStream(
        response, provider=provider, capture=capture, stall=stall, start=start, timing=timing
    )

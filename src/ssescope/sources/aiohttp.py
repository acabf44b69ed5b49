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

import asyncio
from collections.abc import AsyncIterator

import aiohttp

from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..providers._base import AdapterOutput
from ._live import CaptureSink, LiveCore
from .httpx import _Base

__all__ = ["AiohttpLiveStream", "aiter_events"]


class AiohttpLiveStream(_Base, AsyncIterator[AdapterOutput]):
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
            LiveCore(
                provider=provider,
                capture=capture,
                stall=stall,
                start=start,
                http_status=response.status,
                timing=timing,
            )
        )
        self._response = response
        self._raw = response.content.iter_any()

    def __aiter__(self) -> AiohttpLiveStream:
        return self

    async def __anext__(self) -> AdapterOutput:
        while not self._pending:
            if self._done:
                raise StopAsyncIteration
            await self._pull()
        return self._pending.popleft()

    async def _pull(self) -> None:
        core = self._core
        try:
            if core.stall is None:
                chunk = await self._raw.__anext__()
            else:
                chunk = await asyncio.wait_for(self._raw.__anext__(), core.stall)
        except StopAsyncIteration:
            self._end()
            return
        except asyncio.TimeoutError:
            core.on_stall()
            self._response.close()
            self._end()
            return
        except aiohttp.ClientError as exc:
            core.on_error(exc)
            self._end()
            return
        except asyncio.CancelledError:
            await self.aclose()
            raise
        self._pending.extend(core.feed(chunk))

    async def aclose(self, reason: str = "the client aborted the stream") -> Report:
        """Stop reading: the response is ``cancelled`` unless it had already ended."""
        if not self._done:
            if not self._core.terminal_seen:
                self._core.on_cancel(reason)
            self._response.close()
            self._end()
        report = self._core.report
        assert report is not None
        return report

    async def run(self) -> Report:
        """Read the whole stream and return the Report."""
        async for _ in self:
            pass
        report = self._core.report
        assert report is not None
        return report


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

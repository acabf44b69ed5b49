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

from ..containers.redact import secret_values
from ._live import AsyncStream

__all__ = ["AiohttpLiveStream", "aiter_events"]


class AiohttpLiveStream(AsyncStream):
    """Async iterator of unified events over an aiohttp response; ``report`` at the end."""

    _transport_errors = (aiohttp.ClientError,)

    def _open(self, response: aiohttp.ClientResponse) -> tuple[int, list[str]]:
        self._raw = response.content.iter_any()
        info = response.request_info
        return response.status, secret_values(list(info.headers.items()), str(info.url))

    async def _close_response(self) -> None:
        self._response.close()


aiter_events = AiohttpLiveStream
"""Yield unified events from an aiohttp response (body not read yet) as bytes arrive.

``aiter_events(response, *, provider="auto", capture=None, stall=None, start=None,
timing=None)``: ``stall`` is the seconds of silence after which the stream is aborted.
"""

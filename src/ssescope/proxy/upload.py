"""Request bodies: streamed through to the upstream, a capped copy kept for the capture.

An LLM request is small, but nothing stops a client from posting a gigabyte: the body is
handed to the upstream piece by piece as it arrives (the client's ``Content-Length``, or
its chunked framing, goes on unchanged), and the recorder keeps at most
:data:`RECORDED_REQUEST_BYTES` of it. A body over that, or one that is neither JSON nor
text, is recorded by its size with a note saying why; a client that stops sending in the
middle of its body for ``idle`` seconds is given up on.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import orjson

__all__ = ["DISCONNECT", "RECORDED_REQUEST_BYTES", "ClientGone", "ClientIdle", "Upload"]

RECORDED_REQUEST_BYTES = 4 * 1024 * 1024
"""The largest request body recorded in a capture (4 MiB); larger ones are forwarded whole."""

DISCONNECT = "http.disconnect"
"""The type of the ASGI message of a client that hung up."""


class ClientGone(Exception):
    """The client hung up before sending its whole request."""


class ClientIdle(Exception):
    """The client sent nothing for ``idle`` seconds in the middle of its request body."""


class Upload:
    """One request body: its first part read at once, the rest streamed on demand.

    Args:
        receive: the ASGI ``receive`` of the request.
        idle: the longest wait for the next piece of the body (``None``: no limit).
        keep: the most bytes recorded.

    Attributes:
        size: bytes received so far.
        complete: the whole body has arrived.
    """

    def __init__(
        self, receive: Any, *, idle: float | None = None, keep: int = RECORDED_REQUEST_BYTES
    ) -> None:
        self._receive = receive
        self.idle = idle
        self.keep = keep
        self.size = 0
        self.complete = False
        self._kept: list[bytes] = []
        self._kept_size = 0
        self._first = b""

    async def _next(self) -> bytes:
        try:
            message = await asyncio.wait_for(self._receive(), self.idle)
        except asyncio.TimeoutError:
            raise ClientIdle(
                f"the client sent nothing for {self.idle:g} s in the middle of its request body"
            ) from None
        if message["type"] == DISCONNECT:
            raise ClientGone("the client hung up before sending its whole request")
        data: bytes = message.get("body", b"")
        self.complete = not message.get("more_body", False)
        self.size += len(data)
        room = self.keep - self._kept_size
        if room > 0 and data:
            piece = data[:room]
            self._kept.append(piece)
            self._kept_size += len(piece)
        return data

    async def start(self) -> bytes | AsyncIterator[bytes]:
        """Read the first piece: the whole body if it came in one (``bytes``), else an
        iterator that streams it on (to hand to the upstream client as its content).

        Raises:
            ClientGone, ClientIdle: as the first piece is awaited (later ones raise from
                the iterator).
        """
        self._first = await self._next()
        if self.complete:
            return self._first
        return self._rest()

    async def _rest(self) -> AsyncIterator[bytes]:
        first, self._first = self._first, b""
        if first:
            yield first
        while not self.complete:
            data = await self._next()
            if data:
                yield data

    def recorded(self, content_type: str | None) -> Any:
        """The body as the capture records it: JSON, text, or its size and why."""
        if self.size == 0:
            return None if self.complete else _omitted(0, "the client sent no body yet")
        if not self.complete:
            return _omitted(self.size, "the body had not all arrived when the answer began")
        if self.size > self.keep:
            why = f"the body is over the {self.keep:,} bytes the proxy records; it was forwarded whole"
            return _omitted(self.size, why)
        data = b"".join(self._kept)
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return {
                **_omitted(self.size, "the body is neither JSON nor text"),
                "content_type": content_type,
            }


def _omitted(size: int, why: str) -> dict[str, Any]:
    return {"ssescope_omitted_bytes": size, "ssescope_omitted": why}

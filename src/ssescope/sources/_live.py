"""The I/O-free core shared by the HTTP adapters: stamp, tee, feed, close.

Each adapter reads raw body chunks from its client library and hands them to a
:class:`LiveCore`, which stamps arrival times, tees them into a capture, feeds the
:class:`~ssescope.pipeline.Pipeline` and keeps track of the end (a clean end of body, a
stall abort, a connection error or a cancellation).

A stall is ``stall`` seconds without a chunk (kind ``bytes``), or without a content record
(text, reasoning, refusal, tool-call arguments, the terminal event) while keep-alives,
pings or other records go on arriving (kind ``content``), counted from the first byte.
The async loop waits for the next chunk at most until the nearer of the two deadlines; the
sync loop's reads are bounded by the client's read timeout (the bytes stall), and a
:class:`~ssescope.sources._watchdog.Watchdog` wakes a read blocked past the content
deadline.
"""

from __future__ import annotations

import asyncio
import socket
import time as _time
from abc import abstractmethod
from collections import deque
from collections.abc import AsyncIterator, Iterator
from typing import Any, Protocol

from .. import codes
from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..containers.redact import scrub
from ..diagnostics import build, diagnostic
from ..events import Terminal
from ..pipeline import Pipeline
from ..providers._base import AdapterOutput
from ..rpcrequest import request_ids
from ..sourceinfo import EndReason, SourceInfo, WebSocketEnd
from ..toolschema.request import request_tools
from ._watchdog import Watchdog, shut_reading

__all__ = ["AsyncStream", "CaptureSink", "EndReason", "LiveCore", "StreamBase", "SyncStream"]


class CaptureSink(Protocol):
    """Where raw chunks are teed (``ssescope.containers.CaptureWriter`` fits)."""

    def write_chunk(self, data: bytes, time: float) -> None:
        """Record one received chunk and its arrival time."""

    def close(self, end: EndReason | None = None, time: float | None = None) -> None:
        """Flush and close the capture, saying how the stream ended."""


class LiveCore:
    """Shared state of one live stream (no I/O: the adapters do the reading).

    Args:
        provider: ``"auto"`` or a provider name.
        capture: an optional sink every chunk is teed into.
        stall: seconds without a chunk after which the adapter aborts (``None`` = never).
        start: the ``time.monotonic()`` value the request started at (default: now).
        http_status: the response's HTTP status.
        timing: thresholds for the timing diagnostics; ``stall`` sets ``stall_s`` if given.
        source: what is known about the source (default: an HTTP answer with
            ``http_status``).
        bounded: run a bounded pipeline (:class:`~ssescope.pipeline.Pipeline`'s ``bounded``).
        collect_events: have :meth:`feed` return the events (off: only the Report is
            wanted; :attr:`terminal_seen` is then read from the aggregator).
        max_event_bytes: the pipeline's cap on one SSE event block.
    """

    def __init__(
        self,
        *,
        provider: str = "auto",
        capture: CaptureSink | None = None,
        stall: float | None = None,
        start: float | None = None,
        http_status: int | None = None,
        timing: TimingOptions | None = None,
        source: SourceInfo | None = None,
        bounded: bool = False,
        collect_events: bool = True,
        max_event_bytes: int | None = None,
    ) -> None:
        if timing is None and stall is not None:
            timing = TimingOptions(stall_s=stall)
        self.pipeline = Pipeline(
            provider=provider,
            timing=timing,
            source=source or SourceInfo(container="http", status=http_status),
            bounded=bounded,
            collect_events=collect_events,
            max_event_bytes=max_event_bytes,
        )
        self._collect = collect_events
        self.capture = capture
        self.stall = stall
        self.start = _time.monotonic() if start is None else start
        self.terminal_seen = False
        self.stalled = False
        self.cancelled = False
        self.failed = False
        self.secrets: list[str] = []  # credentials of the request, kept out of messages
        self._report: Report | None = None
        self._records_at_content = 0  # the record count when content last arrived
        self._content_seen: float | None = None
        self._stall_kind: str | None = None

    def now(self) -> float:
        """Seconds since the start."""
        return _time.monotonic() - self.start

    def content_deadline(self) -> float | None:
        """When a content stall begins (seconds since the start): ``stall`` seconds after
        the latest content record, or after the first byte before any; ``None`` without
        ``stall``, before the first byte, or once the terminal marker arrived."""
        if self.stall is None or self.terminal_seen:
            return None
        pipeline = self.pipeline
        base = pipeline.last_content_time
        if base is None:
            base = pipeline.first_byte_time
        return None if base is None else base + self.stall

    def read_timeout(self) -> float | None:
        """How long the next read may wait: ``stall``, or less when the content deadline
        is nearer (``0`` once it passed)."""
        deadline = self.content_deadline()
        if deadline is None:
            return self.stall
        left = max(0.0, deadline - self.now())
        return left if self.stall is None else min(self.stall, left)

    def content_overdue(self) -> bool:
        """Whether the content deadline has passed."""
        deadline = self.content_deadline()
        return deadline is not None and self.now() >= deadline

    def feed(self, data: bytes, t: float | None = None) -> list[AdapterOutput]:
        """Stamp (now, unless ``t`` says when it arrived), tee and feed one raw chunk;
        return the events it completed."""
        if not data:
            return []
        if t is None:
            t = self.now()
        if self.capture is not None:
            self.capture.write_chunk(data, t)
        events = self.pipeline.feed(data, t)
        if self.pipeline.last_content_time != self._content_seen:
            self._content_seen = self.pipeline.last_content_time
            self._records_at_content = self.pipeline.record_count
        if not self._collect:
            self.terminal_seen = self.pipeline.aggregator.terminal_seen
        elif not self.terminal_seen:
            for ev in events:
                if isinstance(ev, Terminal):
                    self.terminal_seen = True
                    break
        return events

    def on_stall(self) -> None:
        """Nothing arrived for ``stall`` seconds: record why the stream was closed."""
        t = self.now()
        offset = self.pipeline.bytes_seen
        wait = "the read timeout" if self.stall is None else f"{self.stall:g} s"
        if self.terminal_seen:
            self.pipeline.add_diagnostic(
                diagnostic(codes.STREAM_OPEN_AFTER_FINISH, offset, form="client", wait=wait)
            )
            return
        self.stalled = True
        last = self.pipeline.last_time
        # content, when records went on arriving: the last chunk came within ``stall``
        content = (
            self.content_overdue()
            and last is not None
            and self.stall is not None
            and t - last < self.stall
        )
        count = self.pipeline.record_count
        self._stall_kind = "content" if content else "bytes"
        args: dict[str, object] = {
            "kind": self._stall_kind,
            "wait": wait,
            "byte_offset": offset,
            "time": t,
        }
        if content:
            args["records"] = count - self._records_at_content
        form = "content-aborted" if content else "aborted"
        self.pipeline.add_diagnostic(
            build(codes.TIMING_STALL, args, offset, count or None, None, form)
        )

    def on_error(self, exc: BaseException) -> None:
        """The connection failed mid-body: keep what arrived, say why it stopped."""
        self.failed = True
        self.pipeline.add_diagnostic(
            diagnostic(
                codes.STREAM_CONNECTION_ERROR,
                self.pipeline.bytes_seen,
                form="client",
                bytes_seen=self.pipeline.bytes_seen,
                name=type(exc).__name__,
                exc=scrub(str(exc), self.secrets),
            )
        )

    def on_decode_error(self, exc: BaseException, encoding: str = "") -> None:
        """The compressed body could not be decoded: keep what decoded, say why it stopped."""
        self.failed = True
        self.pipeline.add_diagnostic(
            diagnostic(
                codes.STREAM_DECODE_ERROR,
                self.pipeline.bytes_seen,
                form="named" if encoding else "unnamed",
                encoding=encoding,
                bytes_seen=self.pipeline.bytes_seen,
                name=type(exc).__name__,
                exc=scrub(str(exc), self.secrets),
            )
        )

    def on_cancel(self, reason: str = "the client aborted the stream") -> None:
        """The caller stopped reading (Ctrl-C, ``close()`` before the end)."""
        self.cancelled = True
        self.pipeline.cancel(reason)

    def finish(self, websocket: WebSocketEnd | None = None) -> list[AdapterOutput]:
        """Close the pipeline and the capture; build the Report. Idempotent.

        Args:
            websocket: how the WebSocket that carried the stream ended (``request`` over a
                WebSocket), judged by the pipeline (:meth:`Pipeline.close`).
        """
        if self._report is not None:
            return []
        t = self.now()
        out = self.pipeline.close(t, websocket=websocket)
        if self.capture is not None:
            end: EndReason = "eof"
            if self.cancelled:
                end = "cancelled"
            elif self.stalled:
                end = "stalled"
            elif self.failed:
                end = "error"
            self.capture.close(end, t)
        report = self.pipeline.report()
        if self.stalled and report.status == "truncated":
            # the client's decision, not the server's: say so in the verdict
            wait = "its read timeout" if self.stall is None else f"{self.stall:g} s"
            what = "content" if self.stall_kind == "content" else "data"
            report.response.status_reason = (
                f"the client gave up after {wait} without {what} (stall abort)"
            )
        self._report = report
        return out

    @property
    def report(self) -> Report | None:
        """The Report, once the stream is over (``None`` before)."""
        return self._report

    @property
    def stall_kind(self) -> str | None:
        """``"content"`` or ``"bytes"`` once the stream was aborted on a stall, else ``None``."""
        return self._stall_kind


class StreamBase:
    """What every live adapter exposes: the pipeline, the Report at the end, the state.

    A subclass says how its library's response is read (:meth:`_open`), which of the
    library's exceptions mean a stall, an undecodable body or a broken transport, and how
    its response is closed.

    Args:
        response: the library's streaming response (its body not read yet).
        provider: ``"auto"`` or a provider name.
        capture: a sink (``CaptureWriter``) every raw chunk is teed into.
        stall: seconds of silence that count as a stall.
        start: ``time.monotonic()`` at the request's start (default: now).
        timing: thresholds for the timing diagnostics.
        request: the request body that was sent (a dict, SDK request params, JSON text
            or a pydantic model): each tool call is checked against its tool's schema,
            and a JSON-RPC request's id is the one its response must answer.
    """

    _stall_errors: tuple[type[BaseException], ...] = (asyncio.TimeoutError,)
    _transport_errors: tuple[type[BaseException], ...] = ()
    _decode_errors: tuple[type[BaseException], ...] = ()

    def __init__(
        self,
        response: Any,
        *,
        provider: str = "auto",
        capture: CaptureSink | None = None,
        stall: float | None = None,
        start: float | None = None,
        timing: TimingOptions | None = None,
        request: object = None,
    ) -> None:
        self._response = response
        status, secrets = self._open(response)
        tools = request_tools(request) if request is not None else ()
        ids = request_ids(request) if request is not None else ()
        self._core = LiveCore(
            provider=provider,
            capture=capture,
            stall=stall,
            start=start,
            http_status=status,
            timing=timing,
            source=(
                SourceInfo(container="http", status=status, tools=tools, request_ids=ids)
                if tools or ids
                else None
            ),
        )
        self._core.secrets = secrets
        self._pending: deque[AdapterOutput] = deque()
        self._done = False
        self._watchdog: Watchdog | None = None

    @abstractmethod
    def _open(self, response: Any) -> tuple[int, list[str]]:
        """Start reading the body (set ``_raw``); return the HTTP status and the request's
        credentials (kept out of error messages)."""

    def _encoding(self) -> str:
        """The response's Content-Encoding (for the decode-error diagnostic)."""
        return ""

    @property
    def _read_errors(self) -> tuple[type[BaseException], ...]:
        return self._stall_errors + self._decode_errors + self._transport_errors

    def _stopped(self, exc: BaseException) -> bool:
        """Record why reading failed; return whether the response must still be closed."""
        core = self._core
        if isinstance(exc, self._stall_errors):
            core.on_stall()
            return True
        if isinstance(exc, self._decode_errors):
            core.on_decode_error(exc, self._encoding())
            return True
        core.on_error(exc)
        return False

    def _cancelling(self, reason: str) -> bool:
        """Whether closing stops a stream still being read (cancelled unless it ended)."""
        if self._done:
            return False
        if not self._core.terminal_seen:
            self._core.on_cancel(reason)
        return True

    @property
    def pipeline(self) -> Pipeline:
        """The pipeline being fed (live state: records, tool calls so far, …)."""
        return self._core.pipeline

    @property
    def report(self) -> Report | None:
        """The final Report once the stream is exhausted or closed, else ``None``."""
        return self._core.report

    @property
    def stalled(self) -> bool:
        """Whether the stream was aborted because nothing arrived for ``stall`` seconds."""
        return self._core.stalled

    @property
    def terminal_seen(self) -> bool:
        """Whether the protocol's terminal marker arrived."""
        return self._core.terminal_seen

    @property
    def elapsed(self) -> float:
        """Seconds since the start."""
        return self._core.now()

    def _end(self) -> Report:
        if self._watchdog is not None:
            self._watchdog.stop()
        if not self._done:
            self._done = True
            self._pending.extend(self._core.finish())
        report = self._core.report
        assert report is not None
        return report


class SyncStream(StreamBase, Iterator[AdapterOutput]):
    """The blocking reading loop (a sync client hands over an iterator of byte chunks)."""

    _raw: Iterator[bytes]

    @abstractmethod
    def _close_response(self) -> None:
        """Close the library's response."""

    def _socket(self) -> socket.socket | None:
        """The response's socket, for the content-stall watchdog (``None``: none known;
        the content deadline is then checked as each chunk arrives)."""
        return None

    def _watch(self) -> None:
        """Start the content-stall watchdog on the first read (with ``stall`` only)."""
        core = self._core
        if self._watchdog is not None or core.stall is None:
            return
        sock = self._socket()
        if sock is not None:
            self._watchdog = Watchdog(core.content_deadline, core.now, shut_reading(sock))
            self._watchdog.start()

    def _content_stall(self) -> None:
        self._core.on_stall()
        self._close_response()
        self._end()

    def __iter__(self) -> SyncStream:
        return self

    def __next__(self) -> AdapterOutput:
        while not self._pending:
            if self._done:
                raise StopIteration
            self._pull()
        return self._pending.popleft()

    def _pull(self) -> None:
        self._watch()
        fired = self._watchdog is not None and self._watchdog.fired
        try:
            chunk = next(self._raw)
        except StopIteration:
            if fired or (self._watchdog is not None and self._watchdog.fired):
                self._content_stall()  # the watchdog ended the read
                return
            self._end()
            return
        except self._read_errors as exc:
            if self._watchdog is not None and self._watchdog.fired:
                self._content_stall()
                return
            if self._stopped(exc):
                self._close_response()
            self._end()
            return
        except KeyboardInterrupt:
            self.close()
            raise
        self._pending.extend(self._core.feed(chunk))
        if self._core.content_overdue():
            self._content_stall()

    def close(self, reason: str = "the client aborted the stream") -> Report:
        """Stop reading: the response is ``cancelled`` unless it had already ended."""
        if self._cancelling(reason):
            self._close_response()
        return self._end()

    def run(self) -> Report:
        """Read the whole stream and return the Report."""
        for _ in self:
            pass
        return self._end()


class AsyncStream(StreamBase, AsyncIterator[AdapterOutput]):
    """The async reading loop shared by the async adapters (httpx, aiohttp)."""

    _raw: AsyncIterator[bytes]

    @abstractmethod
    async def _close_response(self) -> None:
        """Close the library's response (each library does it its own way)."""

    def __aiter__(self) -> AsyncStream:
        return self

    async def __anext__(self) -> AdapterOutput:
        while not self._pending:
            if self._done:
                raise StopAsyncIteration
            await self._pull()
        return self._pending.popleft()

    async def _pull(self) -> None:
        # at most until the nearer of the bytes and the content deadlines
        timeout = self._core.read_timeout()
        try:
            if timeout is None:
                chunk = await self._raw.__anext__()
            else:
                chunk = await asyncio.wait_for(self._raw.__anext__(), timeout)
        except StopAsyncIteration:
            self._end()
            return
        except self._read_errors as exc:
            if self._stopped(exc):
                await self._close_response()
            self._end()
            return
        except asyncio.CancelledError:
            await self.aclose()
            raise
        self._pending.extend(self._core.feed(chunk))

    async def aclose(self, reason: str = "the client aborted the stream") -> Report:
        """Stop reading: the response is ``cancelled`` unless it had already ended."""
        if self._cancelling(reason):
            await self._close_response()
        return self._end()

    async def run(self) -> Report:
        """Read the whole stream and return the Report."""
        async for _ in self:
            pass
        return self._end()

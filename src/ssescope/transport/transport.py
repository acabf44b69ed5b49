"""``ssescope.Transport`` and ``ssescope.AsyncTransport``: judge every stream in the app.

::

    client = httpx2.Client(transport=ssescope.Transport(on_report=print))
    openai.OpenAI(http_client=client)

Each wraps the app's own transport (by default the HTTP library's ``HTTPTransport``).
A streamed response (:func:`~ssescope.transport.kind.is_stream`) gets a byte stream that
tees every chunk, as the app reads it, into a :class:`~ssescope.transport.judge.StreamJudge`;
every other response is returned as it came. The transports work with ``httpx`` and with
``httpx2`` (the SDKs' fork): the library is the request's own.
"""

from __future__ import annotations

import importlib
import logging
import time as _time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..containers.redact import redact_pairs, redact_url, secret_values
from ..rpcrequest import request_ids
from ..sourceinfo import RequestSummary, SourceInfo
from ..toolschema.request import request_tools
from .judge import JudgeOptions, ReportSink, StreamJudge, Tape
from .kind import asked_for_stream, is_stream, request_model
from .streams import async_tee, library_of, sync_tee

__all__ = ["AsyncTransport", "OnReport", "Recording", "Transport", "sinks_of"]

log = logging.getLogger("ssescope.transport")

OnReport = ReportSink | Sequence[ReportSink] | None
"""``on_report=``: one callable, several, or none."""


class Recording(Protocol):
    """What records captures for a transport (:class:`ssescope.transport.CaptureSampler`)."""

    def open(self, request: dict[str, Any], status: int, headers: list[tuple[str, str]]) -> Tape:
        """Open the tape of one stream (its request redacted by the capture writer)."""
        ...


def sinks_of(on_report: OnReport) -> tuple[ReportSink, ...]:
    """``on_report`` as a tuple of callables."""
    if on_report is None:
        return ()
    if callable(on_report):
        return (on_report,)
    return tuple(on_report)


class _Common:
    """What the sync and async transports share: which responses to judge, and how."""

    def __init__(
        self,
        inner: Any = None,
        *,
        on_report: OnReport = None,
        record: Recording | None = None,
        provider: str = "auto",
        timing: TimingOptions | None = None,
        max_event_bytes: int | None = 16 * 1024 * 1024,
    ) -> None:
        self._inner = inner
        self._record = record
        self._options = JudgeOptions(
            sinks=sinks_of(on_report),
            provider=provider,
            timing=timing,
            max_event_bytes=max_event_bytes,
        )

    @property
    def sinks(self) -> tuple[Callable[[Report], None], ...]:
        """The ``on_report`` callables."""
        return self._options.sinks

    def _judge(self, request: Any, response: Any, start: float, wall: float) -> StreamJudge | None:
        """A judge for ``response`` if it is a stream (or a streamed request's error)."""
        headers = response.headers
        url = request.url
        path = url.path
        if not is_stream(headers.get("content-type", ""), path):
            if response.status_code < 400:
                return None
            body = _body(request)
            query = str(url.query, "ascii", "replace") if isinstance(url.query, bytes) else ""
            if not asked_for_stream(path, query, body, request.headers.get("accept", "")):
                return None
        pairs = list(headers.multi_items())
        req_headers = list(request.headers.multi_items())
        raw_url = str(url)
        source = SourceInfo(
            container="http",
            status=response.status_code,
            headers=tuple(redact_pairs(pairs)),
            tools=request_tools(_body(request), req_headers),
            request_ids=request_ids(_body(request)),
        )

        def summary() -> RequestSummary:
            return RequestSummary(
                method=request.method,
                url=redact_url(raw_url),
                model=request_model(path, _body(request)),
                started=wall,
            )

        tape = None
        if self._record is not None:
            try:
                tape = self._record.open(
                    {"method": request.method, "url": raw_url, "headers": req_headers},
                    response.status_code,
                    redact_pairs(pairs),
                )
            except Exception:
                log.exception("opening a capture failed")
        return StreamJudge(
            self._options,
            source,
            start,
            summary,
            encoding=headers.get("content-encoding", ""),
            secrets=secret_values(req_headers, raw_url),
            tape=tape,
        )


def _body(request: Any) -> bytes | None:
    try:
        content = request.content
    except Exception:  # a streamed request body: not read here
        return None
    return content if isinstance(content, bytes) else None


class Transport(_Common):
    """An httpx / httpx2 transport that judges every streamed response the app reads.

    Args:
        inner: the transport that does the I/O (default: the request library's
            ``HTTPTransport()``, made at the first request).
        on_report: called with each stream's :class:`~ssescope.Report` as the stream ends,
            however it ends; one callable or a sequence of them. A sink that raises is
            logged (``ssescope.transport``), never raised into the app.
        record: a capture sink (:class:`~ssescope.transport.CaptureSampler`), or ``None``.
        provider: ``"auto"`` or the provider every stream is read as.
        timing: thresholds for the timing diagnostics.
        max_event_bytes: the largest SSE event judged (memory per stream stays bounded).
    """

    def handle_request(self, request: Any) -> Any:
        """Send ``request`` through the inner transport; tee the response if it streams."""
        start = _time.monotonic()
        wall = _time.time()
        inner = self._inner
        if inner is None:
            inner = self._inner = importlib.import_module(library_of(request)).HTTPTransport()
        response = inner.handle_request(request)
        try:
            judge = self._judge(request, response, start, wall)
            if judge is not None:
                response.stream = sync_tee(response.stream, judge, library_of(response))
        except Exception:  # judging is never the app's problem
            log.exception("the transport could not judge a response")
        return response

    def close(self) -> None:
        """Close the inner transport."""
        if self._inner is not None:
            self._inner.close()

    def __enter__(self) -> Transport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncTransport(_Common):
    """The async form of :class:`Transport` (for ``AsyncClient``); same arguments."""

    async def handle_async_request(self, request: Any) -> Any:
        """Send ``request`` through the inner transport; tee the response if it streams."""
        start = _time.monotonic()
        wall = _time.time()
        inner = self._inner
        if inner is None:
            lib = importlib.import_module(library_of(request))
            inner = self._inner = lib.AsyncHTTPTransport()
        response = await inner.handle_async_request(request)
        try:
            judge = self._judge(request, response, start, wall)
            if judge is not None:
                response.stream = async_tee(response.stream, judge, library_of(response))
        except Exception:
            log.exception("the transport could not judge a response")
        return response

    async def aclose(self) -> None:
        """Close the inner transport."""
        if self._inner is not None:
            await self._inner.aclose()

    async def __aenter__(self) -> AsyncTransport:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

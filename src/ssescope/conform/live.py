"""URL mode: send the request set to a server and judge each answer with the one engine.

Each :class:`~ssescope.conform.cases.Case` is sent with ``httpx`` and read by the live
adapter of ``ssescope request`` (:data:`ssescope.sources.httpx.iter_events`), which feeds
the :class:`~ssescope.pipeline.Pipeline` as bytes arrive; an error answer is read as
``request`` reads it (:func:`~ssescope.sources.answer.read_answer`). The ``hangup`` case
closes the connection after the first content. With ``record``, every exchange is also
written as an ``.ssecap`` capture (credentials redacted). A request that gets no answer
at all (refused, timed out before its headers) still gives a Report: the engine's, with
``stream.connection-error``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path

import httpx

from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..containers import CaptureWriter
from ..containers.redact import redact_headers, redact_url, secret_values
from ..containers.request_tools import request_tools
from ..events import Terminal
from ..sourceinfo import EndReason, RequestInfo, SourceInfo
from ..sources._live import LiveCore
from ..sources.answer import read_answer
from ..sources.httpx import LiveStream, iter_events
from .cases import Case
from .exchange import Exchange, UpstreamView
from .upstream import Upstream
from .wire import wire_of

__all__ = ["HANGUP_RECORDS", "Target", "join_url", "url_exchanges"]

HANGUP_RECORDS = 3
"""The ``hangup`` case hangs up after its first content, or after this many records."""


@dataclass(frozen=True, slots=True)
class Target:
    """The server under test.

    Attributes:
        url: the API base URL (``http://host:port/v1``; Gemini's ``…/v1beta``); each
            case's path is appended to its path, and its query kept.
        protocol: the protocol spoken (a key of :data:`~ssescope.conform.cases.PROTOCOLS`).
        headers: headers sent with every request (the credentials among them).
        timeout: seconds to wait for a connection, for each read, and for content.
        record: a folder to write each exchange into as ``CASE.ssecap``, if any.
        upstream: the URL of an ``ssescope serve`` the server forwards to, if any.
        stall_s: a silence between records at least this long is a stall
            (``timing.stall``, judged by ``timing.no-stall``).
    """

    url: str
    protocol: str
    headers: tuple[tuple[str, str], ...] = ()
    timeout: float = 60.0
    record: Path | None = None
    upstream: str | None = None
    stall_s: float = TimingOptions().stall_s


def join_url(base: str, path: str) -> str:
    """``path`` (with its own query, if any) appended to ``base``'s path, the queries merged."""
    url = httpx.URL(base)
    sub, _, query = path.partition("?")
    parts = [q for q in (url.query.decode(), query) if q]
    joined = url.copy_with(path=url.path.rstrip("/") + sub, query=None)
    return str(joined.copy_with(query="&".join(parts).encode())) if parts else str(joined)


def _hang_up(live: LiveStream) -> Report:
    """Read until the first content (or :data:`HANGUP_RECORDS` records), then hang up."""
    for event in live:
        if isinstance(event, Terminal):
            break
        pipeline = live.pipeline
        if pipeline.last_content_time is not None or pipeline.record_count >= HANGUP_RECORDS:
            break
    if live.report is not None:
        return live.report
    report: Report = live.close()
    return report


def _no_answer(target: Target, exc: BaseException, secrets: list[str]) -> Report:
    core = LiveCore(provider=target.protocol, stall=target.timeout)
    core.secrets = secrets
    core.on_error(exc)
    core.finish()
    report = core.report
    assert report is not None
    return report


class _Tee:
    """The chunks as the client received them, passed on to a capture (if any)."""

    def __init__(self, capture: CaptureWriter | None) -> None:
        self.capture = capture
        self.chunks: list[bytes] = []

    def write_chunk(self, data: bytes, time: float) -> None:
        """Keep one received chunk (and record it)."""
        self.chunks.append(bytes(data))
        if self.capture is not None:
            self.capture.write_chunk(data, time)

    def close(self, end: EndReason | None = None, time: float | None = None) -> None:
        """Close the capture."""
        if self.capture is not None:
            self.capture.close(end, time)


def _capture(
    target: Target,
    case: Case,
    url: str,
    headers: Sequence[tuple[str, str]],
    response: httpx.Response,
) -> CaptureWriter | None:
    if target.record is None:
        return None
    target.record.mkdir(parents=True, exist_ok=True)
    return CaptureWriter(
        target.record / f"{case.id}.ssecap",
        request={"method": "POST", "url": url, "headers": list(headers), "body": case.body},
        response_status=response.status_code,
        response_headers=list(response.headers.multi_items()),
    )


def _send(client: httpx.Client, target: Target, case: Case) -> Exchange:
    url = join_url(target.url, case.path)
    headers = [
        ("Content-Type", "application/json"),
        ("Accept", "text/event-stream"),
        *target.headers,
    ]
    secrets = secret_values(headers, url)
    content = json.dumps(case.body).encode()
    status: int | None = None
    got: list[tuple[str, str]] = []
    live: LiveStream | None = None
    tee = _Tee(None)
    try:
        request = client.build_request("POST", url, headers=headers, content=content)
        start = time.monotonic()
        with closing(client.send(request, stream=True)) as response:
            status = response.status_code
            got = list(response.headers.multi_items())
            tee.capture = _capture(target, case, url, headers, response)
            live = iter_events(
                response,
                provider=target.protocol,
                capture=tee,
                stall=target.timeout,
                start=start,
                timing=TimingOptions(stall_s=target.stall_s),
                request=case.body,
            )
            if status >= 300:
                report = read_answer(response, live, tee, start, secrets)
            elif case.expect.hangup:
                report = _hang_up(live)
            else:
                for _ in live:
                    pass
                report = live.report if live.report is not None else live.close()
    except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError) as exc:
        if live is not None and live.report is not None:
            report = live.report
        else:
            tee.close("error")
            report = _no_answer(target, exc, secrets)
    info = SourceInfo(
        container="http",
        status=status,
        headers=tuple(redact_headers(got)),
        request=RequestInfo(
            method="POST", url=redact_url(url), headers=list(redact_headers(headers))
        ),
        tools=request_tools(case.body),
    )
    wire = wire_of(tee.chunks, chat=report.provider == "openai-chat")
    return Exchange(case.id, report, info, case, wire=wire, protocol=target.protocol)


def url_exchanges(target: Target, cases: Sequence[Case]) -> Iterator[Exchange]:
    """Send each case to ``target`` in order and yield its judged exchange."""
    timeout = httpx.Timeout(target.timeout)
    upstream = Upstream(target.upstream, target.timeout) if target.upstream else None
    with httpx.Client(timeout=timeout, follow_redirects=False) as client:
        for case in cases:
            mark = upstream.mark() if upstream is not None and case.expect.hangup else None
            exchange = _send(client, target, case)
            if upstream is not None and mark is not None:
                view: UpstreamView = upstream.after_hangup(mark)
                exchange = replace(exchange, upstream=view)
            yield exchange

"""One judged stream: the chunks the app read, stamped, fed to the engine, one Report.

The transport's byte stream hands every chunk to :meth:`StreamJudge.chunk` as the app
reads it. That call only stamps the chunk (``time.monotonic()``) and keeps it; the chunks
kept are fed to the :class:`~ssescope.pipeline.Pipeline` (the same engine as ``inspect``)
a batch at a time, each with its own arrival time, so the Report is the one a per-chunk
feed gives while the app's read pays for a list append. The pipeline is bounded
(``Pipeline(bounded=True)``, what the proxy runs), so memory per stream stays bounded
however long the stream is.

However the stream ends (:meth:`end`), the judge makes exactly one Report and hands it to
the sinks. Nothing here raises into the app: a failure of the engine stops the judging
with a ``stream.judging-stopped`` diagnostic, and a failing sink is logged.
"""

from __future__ import annotations

import logging
import threading
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias

from .. import codes
from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..containers.redact import REDACTED, EchoScrubber
from ..diagnostics import diagnostic
from ..silence import hung_up
from ..sourceinfo import RequestSummary, SourceInfo
from ..sources._live import CaptureSink, LiveCore
from ..sources.decode import ContentDecoder

__all__ = [
    "BATCH_BYTES",
    "BATCH_CHUNKS",
    "Ending",
    "JudgeOptions",
    "ReportSink",
    "StreamJudge",
    "Tape",
]

log = logging.getLogger("ssescope.transport")

ReportSink: TypeAlias = Callable[[Report], None]
"""What receives each stream's Report (``on_report=``)."""

Ending: TypeAlias = Literal["eof", "closed", "collected", "timeout", "error", "cancelled"]
"""How a stream ended, as the transport saw it: read to its end, closed by the app before
its end, garbage-collected unread, a read timeout, a transport error, or the reading
task cancelled (an exception in the app's loop closes the response: ``closed``)."""

BATCH_BYTES = 64 * 1024
"""Bytes kept before they are fed to the engine."""
BATCH_CHUNKS = 256
"""Chunks kept before they are fed to the engine. Between two reads the app's own work
(the SDK's parsing) takes the CPU's caches; a batch of 256 feeds with the engine warm, at
about a third of the CPU per chunk of a feed per chunk (``bench/transport.py``)."""

_REASONS = {
    "closed": "the app closed the stream before it ended",
    "collected": "the app dropped the stream unread before it ended (garbage-collected)",
    "cancelled": "the app's task was cancelled while it read the stream",
}


@dataclass(frozen=True, slots=True)
class JudgeOptions:
    """How every stream of one transport is judged (see :class:`ssescope.Transport`)."""

    sinks: tuple[ReportSink, ...]
    provider: str = "auto"
    timing: TimingOptions | None = None
    max_event_bytes: int | None = 16 * 1024 * 1024


class Tape(CaptureSink, Protocol):
    """What a capture sink opens for one stream (:class:`ssescope.transport.CaptureSampler`):
    it is written like a capture, then told the Report."""

    def keep(self, report: Report) -> None:
        """The stream is over: keep the capture or drop it, given its Report."""


class StreamJudge:
    """The state of one judged stream (no I/O of its own but the sinks').

    Args:
        options: the transport's options.
        source: what is known about the exchange (its status and headers).
        summary: what the request was (method, redacted URL, model, start), made at
            the end (it reads the request body): the Report's ``request``.
        start: ``time.monotonic()`` when the request started.
        encoding: the response's ``Content-Encoding`` (the judge decodes it).
        secrets: the request's credentials, scrubbed from what the server echoes.
        tape: where the decoded body is recorded (a capture sink's tape), or ``None``.
    """

    def __init__(
        self,
        options: JudgeOptions,
        source: SourceInfo,
        start: float,
        summary: Callable[[], RequestSummary],
        *,
        encoding: str = "",
        secrets: Sequence[str] = (),
        tape: Tape | None = None,
    ) -> None:
        self._options = options
        self._source = source
        self._start = start
        self._summary = summary
        self._encoding = encoding
        self._secrets = list(secrets)
        self._tape = tape
        self._chunks: list[bytes] = []
        self._times: list[float] = []
        self._kept = 0
        self._core: LiveCore | None = None
        self._decoder: ContentDecoder | None = None
        self._scrubber: EchoScrubber | None = None
        self._stopped: str | None = None
        self._lock = threading.Lock()
        self.report: Report | None = None
        """The Report, once the stream has ended."""

    # -- the app's read path -------------------------------------------------------------

    def chunk(self, data: bytes) -> None:
        """Keep one chunk the app just read, stamped with its arrival time."""
        self._chunks.append(data)
        self._times.append(_time.monotonic())
        self._kept += len(data)
        if self._kept >= BATCH_BYTES or len(self._chunks) >= BATCH_CHUNKS:
            self._flush()

    # -- the engine ---------------------------------------------------------------------

    def _open(self) -> LiveCore:
        opts = self._options
        core = LiveCore(
            provider=opts.provider,
            capture=self._tape,
            start=self._start,
            timing=opts.timing,
            source=self._source,
            bounded=True,
            collect_events=False,
            max_event_bytes=opts.max_event_bytes,
        )
        core.secrets = self._secrets
        encoding = self._encoding.strip().lower()
        if encoding not in ("", "identity"):
            self._decoder = ContentDecoder(encoding)
        if self._secrets:
            self._scrubber = EchoScrubber(self._secrets)
        self._core = core
        return core

    def _flush(self) -> None:
        chunks, times = self._chunks, self._times
        self._chunks, self._times, self._kept = [], [], 0
        if self._stopped is not None or not chunks:
            return
        try:
            core = self._core or self._open()
            start = self._start
            if self._decoder is not None:
                self._decoded(core, chunks, times)
            elif self._scrubber is not None:
                self._scrubbed(core, chunks, times)
            elif core.capture is not None:
                for data, stamp in zip(chunks, times, strict=True):
                    core.feed(data, stamp - start)
            else:
                # no tape to write: the whole batch into the pipeline in one call
                core.pipeline.feed_many(chunks, [stamp - start for stamp in times])
        except Exception as exc:
            self._stop(exc)

    def _decoded(self, core: LiveCore, chunks: list[bytes], times: list[float]) -> None:
        """Feed a compressed batch: decoded a bounded step at a time, then scrubbed."""
        decoder, scrubber, start = self._decoder, self._scrubber, self._start
        assert decoder is not None
        for data, stamp in zip(chunks, times, strict=True):
            for piece in decoder.pieces(data):
                core.feed(scrubber.feed(piece) if scrubber is not None else piece, stamp - start)

    def _scrubbed(self, core: LiveCore, chunks: list[bytes], times: list[float]) -> None:
        """Feed a batch with the request's credentials scrubbed, searched for once in the
        whole batch: when none is found, each chunk goes in as it came, with its own time
        (what the scrubber holds back, a possible start of a secret, comes first in the
        next batch); when one is, the scrubbed batch goes in at its last chunk's time."""
        scrubber, start = self._scrubber, self._start
        assert scrubber is not None
        held, found = scrubber.held, scrubber.found
        joined = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        out = scrubber.feed(joined)
        if scrubber.found != found:
            pieces, stamps = [out], [times[-1] - start]
        elif not held and len(out) == len(joined) and all(chunks):
            # nothing held before or now, nothing replaced, no empty chunk: the chunks as they came
            pieces, stamps = chunks, [stamp - start for stamp in times]
        else:
            pieces, stamps = [], []
            end = len(out)
            pos = 0
            for data, stamp in zip(chunks, times, strict=True):
                stop = min(pos + len(data) + held, end)
                if stop > pos:
                    pieces.append(out if pos == 0 and stop == end else out[pos:stop])
                    stamps.append(stamp - start)
                pos, held = stop, 0
        if core.capture is not None:
            for piece, t in zip(pieces, stamps, strict=True):
                core.feed(piece, t)
        elif pieces:
            core.pipeline.feed_many(pieces, stamps)

    def _stop(self, exc: BaseException) -> None:
        """The engine failed: judge no more of this stream, and say so in its Report."""
        self._stopped = f"{type(exc).__name__}: {exc}"
        log.debug("judging stopped", exc_info=exc)

    # -- the end --------------------------------------------------------------------------

    def end(self, how: Ending, exc: BaseException | None = None) -> None:
        """The stream is over (``how``): make its Report and hand it to the sinks. Once."""
        with self._lock:
            if self.report is not None:
                return
            self.report = _placeholder()  # (a second end, even reentrant, does nothing)
        try:
            report = self._judge(how, exc)
        except Exception as err:  # the engine failed at the end: still one Report
            self._stop(err)
            report = self._fallback(how)
        self.report = report
        for sink in self._options.sinks:
            try:
                sink(report)
            except Exception:  # noqa: PERF203 (one failing sink must not stop the others)
                log.exception("an on_report sink failed")

    def _judge(self, how: Ending, exc: BaseException | None) -> Report:
        self._flush()
        core = self._core or self._open()
        t = _time.monotonic() - self._start
        if self._stopped is None:
            self._tail(core, t)
        if how == "timeout":
            core.terminal_seen = core.pipeline.aggregator.terminal_seen
            if core.terminal_seen:
                core.on_stall()  # (the stream had ended: it was only kept open)
            else:
                # the client gave up: cancelled, with how long it had waited for a byte
                last = core.pipeline.last_time
                core.on_cancel(hung_up(t - (last if last is not None else 0.0)))
        elif how == "error" and exc is not None:
            core.on_error(exc)
        elif how in _REASONS:
            core.on_cancel(_REASONS[how])
        if self._stopped is not None:
            core.pipeline.add_diagnostic(
                diagnostic(
                    codes.STREAM_JUDGING_STOPPED,
                    core.pipeline.bytes_seen,
                    bytes_seen=core.pipeline.bytes_seen,
                    why=self._stopped,
                )
            )
        if self._scrubber is not None and self._scrubber.found:
            core.pipeline.add_diagnostic(
                diagnostic(codes.HTTP_SECRET_ECHOED, 0, replacement=REDACTED)
            )
        if self._decoder is not None and self._decoder.problem:
            core.pipeline.add_diagnostic(
                diagnostic(
                    codes.HTTP_CONTENT_ENCODING_UNSUPPORTED,
                    form="transport",
                    why=self._decoder.problem,
                )
            )
        core.finish()
        report = core.report
        assert report is not None
        report.request = self._summary()
        if self._tape is not None:
            self._tape.keep(report)
        return report

    def _tail(self, core: LiveCore, t: float) -> None:
        """What the decoder and the scrubber still held, fed at the end."""
        try:
            if self._decoder is not None:
                tail = self._decoder.close()
                if tail:
                    core.feed(self._scrubber.feed(tail) if self._scrubber else tail, t)
            if self._scrubber is not None:
                rest = self._scrubber.close()
                if rest:
                    core.feed(rest, t)
        except Exception as exc:
            self._stop(exc)

    def _fallback(self, how: Ending) -> Report:
        """The Report of a stream whose judging failed at its very end."""
        report = Report(container="http", http_status=self._source.status)
        try:
            report.request = self._summary()
        except Exception:
            log.debug("the request summary failed", exc_info=True)
        report.response.status = "cancelled" if how in _REASONS else "truncated"
        report.diagnostics.append(
            diagnostic(
                codes.STREAM_JUDGING_STOPPED, 0, bytes_seen=0, why=self._stopped or "an error"
            )
        )
        return report


def _placeholder() -> Report:
    return Report()

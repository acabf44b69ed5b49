"""The recorder: every chunk's copy goes to the capture writer and the Pipeline, off the
hot path.

The forwarder hands a chunk to the client first, then queues a copy with its arrival time
(:meth:`Recorder.chunk` only appends to a queue). One thread drains the queue: it decodes
the copy (``Content-Encoding``, :mod:`ssescope.sources.decode`, a bounded step at a
time), feeds the exchange's :class:`~ssescope.pipeline.Pipeline`
(the same engine as ``inspect``), writes the capture line and keeps the live numbers. A
slow disk therefore delays only the recorder; the queue is bounded by bytes
(:attr:`Recorder.limit`) so that memory stays bounded too; only a backlog beyond it makes
the forwarder wait.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from .. import codes
from ..aggregate.content import CONTENT_KINDS, content_kind_code
from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..containers.capture import EndReason
from ..containers.redact import REDACTED, EchoScrubber
from ..containers.request_tools import request_tools
from ..containers.websocket import Direction, Opcode
from ..diagnostics import Diagnostic, diagnostic
from ..events import ReasoningDelta, RefusalDelta, Terminal, TextDelta, ToolCall, ToolCallDelta
from ..pipeline import Pipeline
from ..rpcrequest import request_ids
from ..silence import hung_up
from ..sourceinfo import SourceInfo
from ..sources.decode import ContentDecoder
from ..toolschema.check import mismatched_calls
from .exchange import Exchange, Registry
from .folder import RecordFolder
from .headers import header, redact_pairs
from .redact import LineRedactor, redact_json, redact_value
from .tape import Tape
from .ws_record import SocketClose, SocketTape, close_socket, message, open_socket

__all__ = ["Recorder", "capture_name"]

_CONTENT = (TextDelta, ReasoningDelta, RefusalDelta, ToolCallDelta, ToolCall)
_REPLY_TAIL = 60  # the characters of the reply so far the terminal keeps
_SLUG = re.compile(r"[^A-Za-z0-9]+")
_OVERHEAD = 384  # what a queued chunk costs besides its bytes (task, partial, bound method, float)


# -- what crosses from the forwarder's event loop to the recorder thread -------------------


@dataclass(frozen=True, slots=True)
class _Task:
    """One piece of the recorder thread's work, run in the order it was queued.

    Attributes:
        run: the work.
        ex: the exchange it records, if any: a failure is noted on it.
        cost: what it counts in the backlog until it has run (a chunk's or a message's
            bytes and :data:`_OVERHEAD`; 0 for the rest).
    """

    run: Callable[[], None]
    ex: Exchange | None = None
    cost: int = 0


log = logging.getLogger("ssescope.proxy")


def capture_name(ex: Exchange) -> str:
    """``20261201T041512.123456Z-0001-post-v1-chat-completions``: ``ls`` sorts by time."""
    stamp = ex.started.strftime("%Y%m%dT%H%M%S.%fZ")
    slug = _SLUG.sub("-", ex.path.split("?", 1)[0]).strip("-").lower()[:48] or "root"
    verb = "ws" if ex.transport == "websocket" else ex.method.lower()
    return f"{stamp}-{ex.seq:04d}-{verb}-{slug}"


class Recorder:
    """Record and judge every exchange on one background thread.

    Args:
        registry: where exchanges are listed.
        directory: where captures and ``index.jsonl`` go (``None``: judge only).
        provider: the provider every exchange is read as (``"auto"`` by default).
        timing: the timing thresholds (``--idle-threshold``); ``None`` for the defaults.
        redact_content: hash the text in captures (:mod:`ssescope.proxy.redact`).
        limit: the most bytes waiting in the queue (counting each chunk's bookkeeping)
            before the forwarder waits.
        say: called with one line when the recording stops (a full disk); exchanges are
            still judged and listed (:mod:`ssescope.proxy.folder`).
        on_report: called on the recorder's thread with each judged exchange and its
            Report (what ``--otel`` exports); an exception it raises is logged, never
            passed on.
    """

    def __init__(
        self,
        registry: Registry,
        directory: Path | None = None,
        *,
        provider: str = "auto",
        timing: TimingOptions | None = None,
        redact_content: bool = False,
        limit: int = 16 * 1024 * 1024,
        say: Callable[[str], None] | None = None,
        on_report: Callable[[Exchange, Report], None] | None = None,
    ) -> None:
        self.registry = registry
        self.on_report = on_report
        self.directory = directory
        self.provider = provider
        self.timing = timing
        self.redact_content = redact_content
        self.limit = limit
        self._queue: queue.SimpleQueue[_Task | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._backlog = 0
        self._tapes: dict[int, Tape] = {}
        self.errors: list[str] = []

        def stopped(line: str) -> None:
            self.errors.append(line)
            if say is not None:
                say(line)

        self.folder = RecordFolder(directory, stopped)
        self._thread = threading.Thread(target=self._run, name="ssescope-recorder", daemon=True)
        self._thread.start()

    # -- called by the forwarder (event loop) ---------------------------------------------

    def start(self, ex: Exchange) -> None:
        """The response's status and headers are known: open the capture."""
        self._later(_Task(partial(self._open, ex), ex))

    def chunk(self, ex: Exchange, data: bytes, t: float) -> None:
        """Queue a copy of a chunk already handed to the client."""
        self._later(_Task(partial(self._chunk, ex, data, t), ex, len(data) + _OVERHEAD))

    def diagnostic(self, ex: Exchange, diagnostic: Diagnostic) -> None:
        """Attach a diagnostic found by the forwarder (open after finish, connection error)."""
        self._later(_Task(partial(self._diagnostic, ex, diagnostic), ex))

    def end(self, ex: Exchange, end: EndReason, t: float) -> None:
        """The exchange is over: judge it, close its capture, write its index line."""
        self._later(_Task(partial(self._ended, ex, end, t), ex))

    def open_socket(self, ex: Exchange) -> None:
        """A WebSocket upgrade succeeded: open its capture (:mod:`.ws_record`)."""
        self._later(_Task(partial(self._socket_opened, ex), ex))

    def message(
        self, ex: Exchange, direction: Direction, opcode: Opcode, data: bytes, t: float
    ) -> None:
        """Queue a copy of a WebSocket message already handed on (either direction)."""
        run = partial(self._message, ex, direction, opcode, data, t)
        self._later(_Task(run, ex, len(data) + _OVERHEAD))

    def close_socket(self, ex: Exchange, end: SocketClose, t: float) -> None:
        """The WebSocket connection ended (``end``): judge its last response, close its
        capture, write its index line."""
        self._later(_Task(partial(self._close_socket, ex, end, t), ex))

    @property
    def backlog(self) -> int:
        """Bytes queued and not yet recorded."""
        return self._backlog

    async def wait_below_limit(self) -> None:
        """Wait (without blocking the loop) until the backlog is under :attr:`limit`."""
        while self._backlog > self.limit:
            await asyncio.sleep(0.005)

    def call(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the recorder thread after everything queued so far."""
        self._later(_Task(fn))

    def stop(self, timeout: float = 30.0) -> None:
        """Record what is queued, then stop the thread and close the index."""
        self._queue.put(None)
        self._thread.join(timeout)
        self.folder.close()

    # -- the recorder thread --------------------------------------------------------------

    def _later(self, task: _Task) -> None:
        if task.cost:
            with self._lock:
                self._backlog += task.cost
        self._queue.put(task)

    def _run(self) -> None:
        while True:
            task = self._queue.get()
            if task is None:
                return
            try:
                task.run()
            except Exception as exc:  # a recording problem must never stop the proxy
                message = f"recording failed: {type(exc).__name__}: {exc}"
                self.errors.append(message)
                if task.ex is not None and task.ex.error is None:
                    task.ex.error = message
            finally:
                if task.cost:
                    with self._lock:
                        self._backlog -= task.cost

    def _chunk(self, ex: Exchange, data: bytes, t: float) -> None:
        tape = self._tapes.get(ex.seq)
        if tape is not None:
            self._feed(ex, tape, data, t)

    def _diagnostic(self, ex: Exchange, diagnostic: Diagnostic) -> None:
        tape = self._tapes.get(ex.seq)
        if tape is not None:
            tape.pipeline.add_diagnostic(diagnostic)

    def _socket_opened(self, ex: Exchange) -> None:
        self._tapes[ex.seq] = open_socket(self, ex)

    def _message(
        self, ex: Exchange, direction: Direction, opcode: Opcode, data: bytes, t: float
    ) -> None:
        tape = self._tapes.get(ex.seq)
        if isinstance(tape, SocketTape):
            message(self, ex, tape, direction, opcode, data, t)

    @contextmanager
    def _always_listed(self, ex: Exchange, end: EndReason | None) -> Iterator[None]:
        """Around the judging of an exchange's end: should it fail, the exchange is still
        listed and indexed, failed, ended by ``end`` (for a WebSocket ``None``: the end it
        had, else ``error``)."""
        try:
            yield
        finally:
            if not ex.finished:  # judging failed: still list and index the exchange
                ex.end = end if end is not None else (ex.end or "error")
                ex.finished = True
                ex.verdict = ex.verdict or "failed"
                self._tapes.pop(ex.seq, None)
                self._index_line(ex)
                self.registry.finish(ex)

    def _ended(self, ex: Exchange, end: EndReason, t: float) -> None:
        with self._always_listed(ex, end):
            self._close(ex, end, t)

    def _close_socket(self, ex: Exchange, end: SocketClose, t: float) -> None:
        with self._always_listed(ex, None):
            tape = self._tapes.pop(ex.seq, None)
            close_socket(self, ex, tape if isinstance(tape, SocketTape) else None, end, t)
            self._index_line(ex)
            self.registry.finish(ex)

    def _open(self, ex: Exchange) -> None:
        pipeline = Pipeline(
            provider=self.provider,
            bounded=True,
            timing=self.timing,
            source=SourceInfo(
                container="http",
                status=ex.status,
                headers=tuple(redact_pairs(ex.response_headers)),
                tools=request_tools(ex.request_body, ex.request_headers),
                request_ids=request_ids(ex.request_body),
            ),
        )
        decoder = ContentDecoder(header(ex.response_headers, "content-encoding") or "")
        writer = None
        if self.directory is not None:
            ex.name = capture_name(ex)
            body = ex.request_body
            if self.redact_content and body is not None:
                body = _redacted_body(body)
            writer = self.folder.capture(
                ex.name,
                request={
                    "method": ex.method,
                    "url": ex.upstream,
                    "headers": ex.request_headers,
                    "body": body,
                },
                response_status=ex.status,
                response_headers=redact_pairs(ex.response_headers),
            )
            if writer is not None:
                ex.capture = str(self.directory / f"{ex.name}.ssecap")
            else:
                ex.unrecorded = self.folder.stopped
        redactor = LineRedactor() if self.redact_content else None
        scrubber = EchoScrubber(ex.secrets) if ex.secrets else None
        self._tapes[ex.seq] = Tape(pipeline, decoder, writer, redactor, scrubber)

    def _feed(self, ex: Exchange, tape: Tape, data: bytes, t: float) -> None:
        if tape.last_byte is not None:
            ex.byte_idle_max_s = _longest(ex.byte_idle_max_s, t - tape.last_byte)
        elif ex.first_byte_s is None:
            ex.first_byte_s = t
        tape.last_byte = t
        ex.last_byte_s = t
        # a bounded step at a time: a small chunk of a bomb may inflate to gigabytes, and
        # each step is recorded and judged before the next is made
        for body in tape.decoder.pieces(data):
            ex.body_bytes += len(body)
            self._body(ex, tape, body, t)

    def _body(self, ex: Exchange, tape: Tape, body: bytes, t: float) -> None:
        """Record and judge a piece of the decoded body (a credential it repeats scrubbed)."""
        if tape.scrubber is not None:
            body = tape.scrubber.feed(body)
        if body:
            self._write(ex, tape, body, t)
            self.note(ex, tape, tape.pipeline.feed(body, t), t)

    def _write(self, ex: Exchange, tape: Tape, body: bytes, t: float) -> None:
        if tape.writer is None:
            return
        if tape.redactor is not None:
            body = tape.redactor.feed(body)
            if not body:
                return
        if not self.folder.write(tape.writer, body, t):
            self._unrecorded(ex, tape)

    def _unrecorded(self, ex: Exchange, tape: Tape) -> None:
        """The recording stopped: this exchange is judged on, its capture is not whole."""
        tape.writer = None
        ex.capture = None
        ex.unrecorded = self.folder.stopped

    def note(self, ex: Exchange, tape: Tape, events: list[Any], t: float) -> None:
        """Keep the live figures of an exchange from the events a piece of it completed."""
        before = ex.content_kind  # what was being sent when a silence began
        for ev in events:
            if isinstance(ev, _CONTENT):
                ex.content_kind = CONTENT_KINDS[content_kind_code(ev)]
                if isinstance(ev, TextDelta) and not self.redact_content:
                    ex.reply_tail = (ex.reply_tail + ev.text)[-_REPLY_TAIL:]
            elif isinstance(ev, Terminal) and ex.terminal_s is None:
                ex.terminal_s = t
        # content-idle as the engine counts it (content records, the terminal event
        # included, from the first byte); the Report's figure replaces it at the end
        pipeline = tape.pipeline
        if ex.first_content_s is None:
            ex.first_content_s = pipeline.first_content_time  # (the Report's own figure)
        content = pipeline.last_content_time
        if content is not None and content != tape.last_content:
            since = tape.last_content
            if since is None:
                since = pipeline.first_byte_time
            if since is not None:
                gap = content - since
                if ex.content_idle_max_s is None or gap > ex.content_idle_max_s:
                    ex.content_idle_after = before
                ex.content_idle_max_s = _longest(ex.content_idle_max_s, gap)
            tape.last_content = content
            ex.last_content_s = content
        ex.records = pipeline.record_count
        if ex.provider is None:
            ex.provider = pipeline.provider

    def _close(self, ex: Exchange, end: EndReason, t: float) -> None:
        tape = self._tapes.pop(ex.seq, None)
        ex.request_body = None  # recorded in the capture; not kept for the listing
        if tape is None:  # no answer from the upstream (or no capture): nothing to judge
            ex.end = end
            ex.verdict = "cancelled" if end == "cancelled" else "failed"
            ex.status_reason = ex.error
            ex.finished = True
            self._index_line(ex)
            self.registry.finish(ex)
            return
        tail = tape.decoder.close()
        if tail:
            ex.body_bytes += len(tail)
            self._body(ex, tape, tail, t)
        if tape.scrubber is not None:
            scrubber, tape.scrubber = tape.scrubber, None
            self._body(ex, tape, scrubber.close(), t)  # (what it held back)
            if scrubber.found:
                tape.pipeline.add_diagnostic(
                    diagnostic(codes.HTTP_SECRET_ECHOED, 0, replacement=REDACTED)
                )
        if tape.decoder.problem:
            tape.pipeline.add_diagnostic(
                diagnostic(
                    codes.HTTP_CONTENT_ENCODING_UNSUPPORTED,
                    form="recorder",
                    why=tape.decoder.problem,
                )
            )
        if tape.redactor is not None and tape.writer is not None:
            rest = tape.redactor.close()
            if rest and not self.folder.write(tape.writer, rest, t):
                self._unrecorded(ex, tape)
        if end == "cancelled":
            # how long the client had waited without a byte: a client timeout says so
            waited = t - (ex.last_byte_s if ex.last_byte_s is not None else 0.0)
            tape.pipeline.cancel(hung_up(waited))
        tape.pipeline.close(t)
        report = tape.pipeline.report()
        ex.end = end
        ex.provider = report.provider
        ex.records = report.records.total
        ex.verdict = report.status
        ex.status_reason = report.response.status_reason
        ex.total_s = t
        if report.timing.first_content_s is not None:
            ex.first_content_s = report.timing.first_content_s
        # the idle figures are the Report's, the ones `inspect` of the capture gives
        # (a silence until the client hung up included)
        if report.timing.max_gap_s is not None:
            ex.byte_idle_max_s = report.timing.max_gap_s
        longest = report.timing.max_content_idle_s
        if longest is not None:
            ex.content_idle_max_s = longest
            ex.content_idle_after = report.timing.max_content_idle_after
        ex.diagnostics = sorted({d.code for d in report.diagnostics})
        if tape.pipeline.source.tools:  # the request declared tools: its calls were checked
            ex.schema_mismatches = mismatched_calls(report.diagnostics)
        if self.on_report is not None:
            try:
                self.on_report(ex, report)
            except Exception:
                log.warning("the proxy's report hook failed", exc_info=True)
        if tape.writer is not None:
            extra = {
                "content_idle_max_s": ex.content_idle_max_s,
                "byte_idle_max_s": ex.byte_idle_max_s,
                "wire_bytes": ex.wire_bytes,
                **({"undecoded": tape.decoder.problem} if tape.decoder.problem else {}),
            }
            if not self.folder.finish(tape.writer, end, t, extra):
                self._unrecorded(ex, tape)
        ex.finished = True
        self._index_line(ex)
        self.registry.finish(ex)

    def _index_line(self, ex: Exchange) -> None:
        if not self.folder.recording:
            if self.folder.stopped is not None and ex.capture is None:
                ex.unrecorded = ex.unrecorded or self.folder.stopped
            return
        if not ex.name:
            ex.name = capture_name(ex)
        self.folder.index(ex.to_dict())


def _redacted_body(body: Any) -> Any:
    if isinstance(body, str):
        out = redact_json(body.encode("utf-8", "surrogatepass"))
        return redact_value(body, "content") if out is None else out.decode("utf-8")
    return redact_value(body)


def _longest(longest: float | None, gap: float) -> float:
    """The longer of the longest gap so far (``None`` before the first) and ``gap``."""
    return gap if longest is None or gap > longest else longest

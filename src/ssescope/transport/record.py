"""Sampled ``.ssecap`` captures into a record folder that ``ssescope scan`` reads.

::

    Transport(record=CaptureSampler("captures/", sample=0.01))

Every stream is written as it is read, into memory first (a bounded buffer; past it, a
hidden part file in the folder). When it ends, its Report decides: a broken stream (a
verdict in ``keep``, or an error diagnostic) is kept, and so is a sampled share of the rest
(``sample``, decided when the stream starts); the others are dropped. A kept capture is
written whole and listed in ``index.jsonl``, the folder's index as ``ssescope proxy
--record`` writes it, so ``ssescope scan captures/`` reads it the same way.

The request's headers and URL are redacted as the proxy redacts them (the capture writer
replaces every credential), a credential the server echoes is scrubbed before it reaches
the capture (the judge does it), and ``redact_content=True`` hashes the text as ``proxy
--redact-content`` does. A full disk stops the recording with one log line; the app and
the judging go on.
"""

from __future__ import annotations

import io
import itertools
import logging
import os
import random
import threading
from collections.abc import Collection
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

import orjson

from ..aggregate.report import Report
from ..containers.capture import CaptureWriter
from ..sourceinfo import EndReason
from .transport import Recording

if TYPE_CHECKING:
    from ..proxy.redact import LineRedactor

__all__ = ["BROKEN", "INDEX_NAME", "CaptureSampler"]

log = logging.getLogger("ssescope.transport")

BROKEN: frozenset[str] = frozenset({"failed", "truncated", "cancelled"})
"""The verdicts of a broken stream: always recorded by default."""

INDEX_NAME = "index.jsonl"
"""The record folder's index, as ``ssescope proxy --record`` names it (``scan`` reads it)."""

_MEMORY = 4 * 1024 * 1024  # bytes of one capture kept in memory before it spills to disk


class _Spill(io.RawIOBase):
    """A write-only file: memory up to ``limit`` bytes, then a part file on disk."""

    def __init__(self, part: Path, limit: int) -> None:
        super().__init__()
        self._memory: io.BytesIO | None = io.BytesIO()
        self._file: IO[bytes] | None = None
        self._part = part
        self._limit = limit

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self._file is not None:
            return self._file.write(data)
        assert self._memory is not None
        n = self._memory.write(data)
        if self._memory.tell() > self._limit:
            self._file = open(self._part, "wb")  # noqa: SIM115 (closed by save/drop)
            self._file.write(self._memory.getvalue())
            self._memory = None
        return n

    def save(self, path: Path) -> None:
        """Write everything to ``path``."""
        if self._file is not None:
            self._file.close()
            os.replace(self._part, path)
            return
        assert self._memory is not None
        path.write_bytes(self._memory.getvalue())

    def drop(self) -> None:
        """Forget everything."""
        if self._file is not None:
            self._file.close()
            self._part.unlink(missing_ok=True)
        self._memory = None


class _Tape:
    """One stream's capture in the making."""

    def __init__(
        self,
        sampler: CaptureSampler,
        name: str,
        header: dict[str, Any],
        sampled: bool,
        redactor: LineRedactor | None,
    ) -> None:
        self._sampler = sampler
        self._name = name
        self._header = header
        self._sampled = sampled
        self._redactor = redactor
        self._buffer = _Spill(sampler.directory / f".{name}.ssecap.part", sampler.memory)
        self._writer = CaptureWriter(cast("IO[bytes]", self._buffer), **header)
        self._end: tuple[EndReason | None, float | None] = (None, None)
        self._failed = False

    def write_chunk(self, data: bytes, time: float) -> None:
        if self._failed:
            return
        try:
            if self._redactor is not None:
                data = self._redactor.feed(data)
            if data:
                self._writer.write_chunk(data, time)
        except OSError as exc:
            self._fail(exc)

    def close(self, end: EndReason | None = None, time: float | None = None) -> None:
        if self._failed:
            return
        try:
            if self._redactor is not None:
                rest = self._redactor.close()
                if rest:
                    self._writer.write_chunk(rest, time)
            self._writer.close(end, time)
        except OSError as exc:
            self._fail(exc)

    def _fail(self, exc: OSError) -> None:
        self._failed = True
        self._buffer.drop()
        self._sampler.stop(exc)

    def keep(self, report: Report) -> None:
        """Keep the capture if the stream was broken or sampled, else drop it."""
        if self._failed:
            return
        if not (self._sampled or self._sampler.broken(report)):
            self._buffer.drop()
            return
        self._sampler.save(self._name, self._buffer, report)


class CaptureSampler(Recording):
    """Record streams as ``.ssecap`` captures in ``directory``: every broken one, and a
    sampled share of the rest.

    Args:
        directory: the record folder (created if needed).
        sample: the share of the other streams that is recorded too (``0.01``: 1 %).
        keep: the verdicts always recorded (:data:`BROKEN`); a stream with an error
            diagnostic is always recorded too.
        redact_content: hash the text of every record (as ``proxy --redact-content``).
        memory: bytes of one capture held in memory before it goes to a part file.
        seed: seeds the sampling (tests); ``None``: random.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        sample: float = 0.01,
        keep: Collection[str] = BROKEN,
        redact_content: bool = False,
        memory: int = _MEMORY,
        seed: int | None = None,
    ) -> None:
        if not 0.0 <= sample <= 1.0:
            raise ValueError(f"sample must be between 0 and 1, got {sample!r}")
        self.directory = Path(directory)
        self.sample = sample
        self.keep = frozenset(keep)
        self.redact_content = redact_content
        self.memory = memory
        self._random = random.Random(seed)
        self._lock = threading.Lock()
        self._seq = itertools.count(1)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.stopped: str | None = None
        """Why the recording stopped (a write failed), or ``None`` while it runs."""
        self.saved: list[Path] = []
        """The captures written so far."""

    @property
    def recording(self) -> bool:
        """Whether captures are still written."""
        return self.stopped is None

    def broken(self, report: Report) -> bool:
        """Whether ``report`` is of a broken stream (always recorded)."""
        if report.status in self.keep:
            return True
        return any(d.severity == "error" for d in report.diagnostics)

    def open(self, request: dict[str, Any], status: int, headers: list[tuple[str, str]]) -> Any:
        """Open the tape of one stream (``None`` once the recording has stopped)."""
        if not self.recording:
            return None
        with self._lock:
            seq = next(self._seq)
            sampled = self._random.random() < self.sample
        now = datetime.now(timezone.utc)
        path = str(request.get("url", "")).split("?", 1)[0].split("://", 1)[-1]
        slug = "".join(c if c.isalnum() else "-" for c in path.partition("/")[2])
        slug = "-".join(p for p in slug.lower().split("-") if p)[:48] or "root"
        name = f"{now:%Y%m%dT%H%M%S.%fZ}-{os.getpid()}-{seq:04d}-{slug}"
        header = {"request": request, "response_status": status, "response_headers": headers}
        redactor = None
        if self.redact_content:
            from ..proxy.redact import LineRedactor

            redactor = LineRedactor()
        return _Tape(self, name, header, sampled, redactor)

    def save(self, name: str, buffer: _Spill, report: Report) -> None:
        """Write a kept capture and its index line."""
        path = self.directory / f"{name}.ssecap"
        with self._lock:
            if not self.recording:
                buffer.drop()
                return
            try:
                buffer.save(path)
            except OSError as exc:
                buffer.drop()
                self.stop(exc, path)
                return
            self.saved.append(path)
            req = report.request
            self._index(
                {
                    "name": name,
                    "capture": path.name,
                    "time": None if req is None else req.started,
                    "method": None if req is None else req.method,
                    "upstream": None if req is None else req.url,
                    "model": None if req is None else req.model,
                    "status": report.http_status,
                    "provider": report.provider,
                    "verdict": report.status,
                    "status_reason": report.response.status_reason,
                    "first_content_s": report.timing.first_content_s,
                    "total_s": report.timing.total_s,
                    "records": report.records.total,
                    "body_bytes": report.bytes,
                    "diagnostics": sorted({d.code for d in report.diagnostics}),
                }
            )

    def _index(self, line: dict[str, Any]) -> None:
        """Append one kept stream's line to ``index.jsonl`` (opened for each line: kept
        streams are few, and no file stays open between them)."""
        index = self.directory / INDEX_NAME
        try:
            with open(index, "ab") as fp:
                fp.write(orjson.dumps(line) + b"\n")
        except OSError as exc:
            self.stop(exc, index)

    def stop(self, exc: OSError, path: Path | None = None) -> None:
        """A write failed: stop recording for good, with one log line."""
        if self.stopped is not None:
            return
        self.stopped = f"cannot write {path or self.directory}: {exc.strerror or exc}"
        log.warning(
            "ssescope transport: recording stopped: %s. Streams are still judged and "
            "reported; nothing more is written to %s.",
            self.stopped,
            self.directory,
        )

"""The record folder: the captures and ``index.jsonl``, and what happens when the disk fills.

Every write the recorder makes goes through :class:`RecordFolder`. The first one that
fails (``ENOSPC``, a file-size limit, a folder removed under the proxy) stops the recording
for good, with one line saying why; the exchanges go on being forwarded, judged from
memory and printed, and the captures already open are closed where they stand. Writing
never raises into the recorder: a full disk costs the records, never a verdict.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any, TypeVar

import orjson

from ..containers.capture import CaptureWriter, EndReason
from ..containers.websocket import Direction, Opcode
from ..containers.ws_writer import WebSocketCaptureWriter

__all__ = ["INDEX_NAME", "RecordFolder"]

_W = TypeVar("_W", bound=CaptureWriter)

INDEX_NAME = "index.jsonl"
"""The index file in the record folder: one line per exchange as it ends."""


class RecordFolder:
    """Captures and the index of one ``--record`` folder (or none).

    Args:
        directory: the folder (created if needed), or ``None``: nothing is written.
        say: called once, with one line, when the recording stops.

    Attributes:
        stopped: why the recording stopped (``None`` while it runs).
    """

    def __init__(self, directory: Path | None, say: Callable[[str], None] | None = None) -> None:
        self.directory = directory
        self.say = say
        self.stopped: str | None = None
        self._index: IO[bytes] | None = None
        self._writers: dict[CaptureWriter, Path] = {}
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
            self._index = open(directory / INDEX_NAME, "ab")  # noqa: SIM115 (closed by close())

    @property
    def recording(self) -> bool:
        """Whether captures are still written."""
        return self.directory is not None and self.stopped is None

    def capture(self, name: str, **header: Any) -> CaptureWriter | None:
        """Open ``name.ssecap`` with its header line (``CaptureWriter``'s arguments), or
        ``None`` if the recording has stopped or stops now."""
        return self._open(CaptureWriter, name, header)

    def socket(self, name: str, **header: Any) -> WebSocketCaptureWriter | None:
        """Open ``name.ssecap`` in the WebSocket form (as :meth:`capture`)."""
        return self._open(WebSocketCaptureWriter, name, header)

    def _open(self, kind: type[_W], name: str, header: dict[str, Any]) -> _W | None:
        if self.directory is None or self.stopped is not None:
            return None
        path = self.directory / f"{name}.ssecap"
        try:
            writer = kind(path, **header)
        except OSError as exc:
            self._stop(path, exc)
            return None
        self._writers[writer] = path
        return writer

    def message(
        self,
        writer: WebSocketCaptureWriter,
        direction: Direction,
        data: bytes,
        t: float,
        opcode: Opcode,
    ) -> bool:
        """Write one WebSocket message line; ``False`` once the recording has stopped."""
        if self.stopped is not None:
            return False
        try:
            writer.write_message(direction, data, t, opcode)
        except OSError as exc:
            self._stop(self._writers.get(writer), exc)
            return False
        return True

    def finish_socket(
        self,
        writer: WebSocketCaptureWriter,
        code: int | None,
        reason: str,
        dropped: bool,
        t: float,
        extra: Mapping[str, Any],
    ) -> bool:
        """Write the close line and close the WebSocket capture; ``False`` if it could not be."""
        path = self._writers.pop(writer, None)
        if self.stopped is not None:
            return False
        try:
            writer.close_connection(code, reason, dropped=dropped, time=t, extra=extra)
        except OSError as exc:
            self._stop(path, exc)
            return False
        return True

    def write(self, writer: CaptureWriter, data: bytes, t: float) -> bool:
        """Write one chunk line; ``False`` once the recording has stopped."""
        if self.stopped is not None:
            return False
        try:
            writer.write_chunk(data, t)
        except OSError as exc:
            self._stop(self._writers.get(writer), exc)
            return False
        return True

    def finish(
        self, writer: CaptureWriter, end: EndReason, t: float, extra: Mapping[str, Any]
    ) -> bool:
        """Write the end line and close the capture; ``False`` if it could not be."""
        path = self._writers.pop(writer, None)
        if self.stopped is not None:
            return False
        try:
            writer.close(end, t, extra=extra)
        except OSError as exc:
            self._stop(path, exc)
            return False
        return True

    def index(self, line: dict[str, Any]) -> None:
        """Append one exchange's line to the index (nothing once the recording stopped)."""
        if self._index is None or self.stopped is not None:
            return
        try:
            self._index.write(orjson.dumps(line) + b"\n")
            self._index.flush()
        except OSError as exc:
            self._stop(self.directory / INDEX_NAME if self.directory else None, exc)

    def close(self) -> None:
        """Close the index and any capture left open."""
        for writer in list(self._writers):
            with contextlib.suppress(OSError):
                writer.close()
        self._writers.clear()
        if self._index is not None:
            with contextlib.suppress(OSError):
                self._index.close()
            self._index = None

    def _stop(self, path: Path | None, exc: OSError) -> None:
        reason = exc.strerror or str(exc)
        self.stopped = f"cannot write {path}: {reason}"
        self.close()
        if self.say is not None:
            self.say(
                f"ssescope proxy: recording stopped: {self.stopped}. Exchanges are still "
                f"forwarded, judged and printed; nothing more is written to {self.directory}."
            )

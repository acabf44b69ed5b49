"""Incremental ``Content-Encoding`` decoding in bounded steps: the proxy's recorder and
``request`` decode a compressed body with it.

gzip and deflate come with Python; ``br`` needs ``brotli`` (or ``brotlicffi``) and
``zstd`` needs ``zstandard``. An encoding that cannot be decoded is passed on as it is,
with a reason (:attr:`ContentDecoder.problem`).

Decoding never makes more than :data:`DECODE_STEP` bytes at once: a chunk of a few
kilobytes may inflate to gigabytes (a decompression bomb), so :meth:`ContentDecoder.pieces`
yields the decoded bytes a step at a time, and whoever reads them (the recorder's
Pipeline, a capture) handles each step before the next is made. The libraries release
the GIL while they inflate, and a step is short, so other threads (the proxy's event
loop) keep running. The decoded total is capped too (``limit``).
"""

from __future__ import annotations

import importlib
import importlib.util
import zlib
from collections.abc import Callable, Iterator
from typing import Any

from ..limits import DECODED_BODY_BYTES

__all__ = ["DECODE_STEP", "ContentDecoder"]

DECODE_STEP = 64 * 1024
"""The most decoded bytes made at once."""

_SLICE = 128  # input bytes per call where a library cannot bound its output (zstd, old brotli)


def _brotli() -> Any:
    for name in ("brotli", "brotlicffi"):
        if importlib.util.find_spec(name) is not None:
            return importlib.import_module(name)
    return None


class _Sink:
    """Where zstandard's stream writer puts what it decoded."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def take(self) -> list[bytes]:
        parts, self.parts = self.parts, []
        return parts


class ContentDecoder:
    """Decode one body, chunk by chunk, a bounded step at a time.

    Args:
        encoding: the response's ``Content-Encoding`` (empty or ``identity``: nothing to do).
        limit: the most decoded bytes (``None``: no cap); beyond it decoding stops and
            :attr:`problem` says so.
        recover: on corrupt data, keep every byte that decoded before the fault and stop
            (``request``: its capture keeps what arrived); without it, the chunk where
            decoding failed and the rest are passed on as they are (the proxy records them
            as they arrived).
        step: the most decoded bytes made at once.

    Attributes:
        problem: why the body is (from some point) not decoded: an unknown encoding, a
            missing library, corrupt data, the cap. ``None`` while all is well.
        failed: decoding stopped on corrupt data.
        error: the library's message about the corrupt data, or ``None``.
    """

    def __init__(
        self,
        encoding: str,
        *,
        limit: int | None = DECODED_BODY_BYTES,
        recover: bool = False,
        step: int = DECODE_STEP,
    ) -> None:
        self.encoding = encoding.strip().lower()
        self.problem: str | None = None
        self.failed = False
        self.error: str | None = None
        self.limit = limit
        self.recover = recover
        self.step = step
        self.decoded = 0
        self._steps: Callable[[bytes], Iterator[bytes]] | None = None
        self._end: Callable[[], bytes] | None = None
        self._zlib: Any = None
        enc = self.encoding
        if enc in ("", "identity"):
            return
        if enc in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(47)
            self._steps, self._end = self._inflate, self._zlib.flush
        elif enc == "deflate":
            self._steps = self._deflate
        elif enc == "br":
            brotli = _brotli()
            if brotli is None:
                self.problem = "br needs the brotli package, which is not installed"
            else:
                self._brotli = brotli.Decompressor()
                self._steps = self._unbrotli
        elif enc == "zstd":
            try:
                import zstandard  # type: ignore[import-not-found,unused-ignore]
            except ImportError:
                self.problem = "zstd needs the zstandard package, which is not installed"
            else:
                self._sink = _Sink()
                sink: Any = self._sink  # (only its write() is called)
                self._zstd = zstandard.ZstdDecompressor().stream_writer(
                    sink, write_size=step, closefd=False
                )
                self._steps = self._unzstd
        else:
            self.problem = f"the encoding {enc!r} is not one ssescope decodes"

    @property
    def active(self) -> bool:
        """Whether chunks are being decoded (rather than passed on as they are)."""
        return self._steps is not None

    # -- the libraries, a step at a time ---------------------------------------------------

    def _deflate(self, data: bytes) -> Iterator[bytes]:
        # "deflate" is zlib-wrapped by the standard, raw deflate by some servers
        wrapped = (
            len(data) >= 2 and data[0] & 0x0F == 8 and int.from_bytes(data[:2], "big") % 31 == 0
        )
        self._zlib = zlib.decompressobj(15 if wrapped else -15)
        self._steps, self._end = self._inflate, self._zlib.flush
        return self._inflate(data)

    def _inflate(self, data: bytes) -> Iterator[bytes]:
        d = self._zlib
        if self.recover:
            self._before = d.copy()  # to find, on corrupt data, what decoded before it
        pending = data
        while True:
            out = d.decompress(pending, self.step)
            if out:
                yield out
            pending = d.unconsumed_tail
            if not pending and len(out) < self.step:
                return

    def _unbrotli(self, data: bytes) -> Iterator[bytes]:
        process = self._brotli.process
        try:
            out = process(data, output_buffer_limit=self.step)
        except TypeError:  # a brotli without output limits: small slices instead
            yield from self._sliced(data, lambda piece: [process(piece)])
            return
        # what it holds back beyond the limit comes out with empty input, until none is left
        while out:
            yield out
            if self._brotli.is_finished():
                return
            out = process(b"", output_buffer_limit=self.step)

    def _unzstd(self, data: bytes) -> Iterator[bytes]:
        def write(piece: bytes) -> list[bytes]:
            self._zstd.write(piece)
            return self._sink.take()

        yield from self._sliced(data, write)

    @staticmethod
    def _sliced(data: bytes, decode: Callable[[bytes], list[bytes]]) -> Iterator[bytes]:
        # a few input bytes at a time: what one call makes stays small even for a bomb
        view = memoryview(data)
        for at in range(0, len(data), _SLICE):
            for out in decode(bytes(view[at : at + _SLICE])):
                if out:
                    yield out

    # -- the public side ----------------------------------------------------------------

    def pieces(self, data: bytes) -> Iterator[bytes]:
        """The decoded bytes of ``data``, at most ``step`` at a time (``data`` itself when
        not decoding).

        On corrupt data, with ``recover``, the bytes that decoded before the fault come
        last; without it, the chunk itself does (after the steps of it already made)."""
        if self._steps is None:
            if data and not (self.failed and self.recover):
                yield data
            return
        given = 0
        step = self.step
        try:
            for made in self._steps(data):
                # (brotli may go a little past its output limit: never more than a step out)
                for at in range(0, len(made), step):
                    out = made[at : at + step] if len(made) > step else made
                    if self._over(out):
                        yield out[: len(out) - (self.decoded - (self.limit or 0))]
                        return
                    given += len(out)
                    yield out
        except Exception as exc:  # each library has its own error class
            self.error = str(exc) or type(exc).__name__
            self.problem = f"decoding the {self.encoding} body failed: {self.error}"
            self.failed = True
            self._steps = None
            self._end = None
            if self.recover:
                yield from self._recovered(data, given)
            elif data:
                yield data

    def _over(self, out: bytes) -> bool:
        self.decoded += len(out)
        if self.limit is None or self.decoded <= self.limit:
            return False
        # a decompression bomb, or a body past any real stream: the client still gets
        # every byte; decoding stops here and says so
        self.problem = (
            f"the {self.encoding} body decodes to more than {self.limit:,} bytes, "
            "the most the recorder decodes; the rest is not recorded"
        )
        self._steps = self._drop
        self._end = None
        return True

    def _recovered(self, data: bytes, given: int) -> Iterator[bytes]:
        """What ``data`` decodes to before its fault, past the ``given`` bytes already out."""
        before = getattr(self, "_before", None)
        if self._zlib is None or before is None:
            return  # (brotli, zstd: what decoded before the failing call is already out)
        out: list[bytes] = []
        for i in range(len(data)):  # byte by byte from the state the chunk started in
            try:
                piece = before.decompress(data[i : i + 1])
            except zlib.error:
                break
            if piece:
                out.append(piece)
        recovered = b"".join(out)[given:]
        for at in range(0, len(recovered), self.step):
            yield recovered[at : at + self.step]

    @staticmethod
    def _drop(_data: bytes) -> Iterator[bytes]:
        return iter(())

    def feed(self, data: bytes) -> bytes:
        """The decoded bytes of ``data``, joined (:meth:`pieces` bounds them)."""
        return b"".join(self.pieces(data))

    def close(self) -> bytes:
        """What the decoder still held at the end of the body."""
        if self._end is None:
            return b""
        try:
            out = self._end()
        except Exception as exc:
            self.error = str(exc) or type(exc).__name__
            self.problem = f"decoding the {self.encoding} body failed at its end: {self.error}"
            self.failed = True
            return b""
        if self.limit is not None and self.decoded + len(out) > self.limit:
            out = out[: max(0, self.limit - self.decoded)]
        self.decoded += len(out)
        return out

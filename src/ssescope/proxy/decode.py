"""Incremental ``Content-Encoding`` decoding, used only on the recorder's copy.

The client always gets the bytes as the upstream sent them; the recorder decodes its copy
so that the capture and the verdict are about the body, not its compression. gzip and
deflate come with Python; ``br`` needs ``brotli`` (or ``brotlicffi``) and ``zstd`` needs
``zstandard``. An encoding that cannot be decoded is recorded as it is, with a reason.
"""

from __future__ import annotations

import importlib
import importlib.util
import zlib
from collections.abc import Callable
from typing import Any

from ..limits import DECODED_BODY_BYTES

__all__ = ["ContentDecoder"]


def _brotli() -> Any:
    for name in ("brotli", "brotlicffi"):
        if importlib.util.find_spec(name) is not None:
            return importlib.import_module(name)
    return None


class ContentDecoder:
    """Decode one body, chunk by chunk.

    Args:
        encoding: the response's ``Content-Encoding`` (empty or ``identity``: nothing to do).

    Attributes:
        problem: why the body is recorded as it arrived (unknown encoding, missing library,
            corrupt data), or ``None``.
    """

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding.strip().lower()
        self.problem: str | None = None
        self._step: Callable[[bytes], bytes] | None = None
        self._flush: Callable[[], bytes] | None = None
        self._left = DECODED_BODY_BYTES
        enc = self.encoding
        if enc in ("", "identity"):
            return
        if enc in ("gzip", "x-gzip"):
            d = zlib.decompressobj(47)
            self._zlib = d
            self._step, self._flush = self._bounded, d.flush
        elif enc == "deflate":
            self._deflate_first = True
            self._step = self._deflate
        elif enc == "br":
            brotli = _brotli()
            if brotli is None:
                self.problem = "br needs the brotli package, which is not installed"
            else:
                self._step = brotli.Decompressor().process
        elif enc == "zstd":
            try:
                import zstandard  # type: ignore[import-not-found,unused-ignore]
            except ImportError:
                self.problem = "zstd needs the zstandard package, which is not installed"
            else:
                self._step = zstandard.ZstdDecompressor().decompressobj().decompress
        else:
            self.problem = f"the encoding {enc!r} is not one ssescope decodes"

    def _deflate(self, data: bytes) -> bytes:
        # "deflate" is zlib-wrapped by the standard, raw deflate by some servers
        if self._deflate_first:
            self._deflate_first = False
            wrapped = (
                len(data) >= 2 and data[0] & 0x0F == 8 and int.from_bytes(data[:2], "big") % 31 == 0
            )
            d = zlib.decompressobj(15 if wrapped else -15)
            self._zlib = d
            self._flush = d.flush
        return self._bounded(data)

    def _bounded(self, data: bytes) -> bytes:
        # never more than the cap allows in one call: a small chunk may inflate to gigabytes
        out = self._zlib.decompress(data, self._left + 1)
        if self._zlib.unconsumed_tail:
            self._left = -1
        return out

    @property
    def active(self) -> bool:
        """Whether chunks are being decoded (rather than passed on as they are)."""
        return self._step is not None

    def feed(self, data: bytes) -> bytes:
        """The decoded bytes of ``data`` (``data`` itself when not decoding)."""
        if self._step is None:
            return data
        try:
            out = self._step(data)
        except Exception as exc:  # each library has its own error class
            self.problem = f"decoding the {self.encoding} body failed: {exc}"
            self._step = None
            self._flush = None
            return data
        self._left -= len(out)
        if self._left < 0:
            # a decompression bomb, or a body past any real stream: the client still gets
            # every byte; the recording stops here and says so
            self.problem = (
                f"the {self.encoding} body decodes to more than {DECODED_BODY_BYTES:,} bytes, "
                "the most the recorder decodes; the rest is not recorded"
            )
            self._step = self._drop
            self._flush = None
            return out[: len(out) + self._left]
        return out

    @staticmethod
    def _drop(_data: bytes) -> bytes:
        return b""

    def close(self) -> bytes:
        """What the decoder still held at the end of the body."""
        if self._flush is None:
            return b""
        try:
            return self._flush()
        except Exception as exc:
            self.problem = f"decoding the {self.encoding} body failed at its end: {exc}"
            return b""

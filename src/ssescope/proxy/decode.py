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
        enc = self.encoding
        if enc in ("", "identity"):
            return
        if enc in ("gzip", "x-gzip"):
            d = zlib.decompressobj(47)
            self._step, self._flush = d.decompress, d.flush
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
            self._deflate_obj = d
            self._flush = d.flush
        return self._deflate_obj.decompress(data)

    @property
    def active(self) -> bool:
        """Whether chunks are being decoded (rather than passed on as they are)."""
        return self._step is not None

    def feed(self, data: bytes) -> bytes:
        """The decoded bytes of ``data`` (``data`` itself when not decoding)."""
        if self._step is None:
            return data
        try:
            return self._step(data)
        except Exception as exc:  # each library has its own error class
            self.problem = f"decoding the {self.encoding} body failed: {exc}"
            self._step = None
            self._flush = None
            return data

    def close(self) -> bytes:
        """What the decoder still held at the end of the body."""
        if self._flush is None:
            return b""
        try:
            return self._flush()
        except Exception as exc:
            self.problem = f"decoding the {self.encoding} body failed at its end: {exc}"
            return b""

"""The byte streams the transport puts in place of a judged response's own.

Each wraps the inner transport's stream: the app reads the same chunks, at the same
moments, and each goes to :meth:`StreamJudge.chunk` on its way. The stream's end, in
whichever way it comes, ends the judge (exactly once):

========================================  ===========================================
the app reads to the end                  ``eof``
``break``, ``response.close()``, an       ``closed`` (the ``with`` block or the SDK closes
exception in the app's loop               the response)
the response garbage-collected unread     ``collected`` (a ``weakref.finalize``)
a read timeout                            ``timeout``
a transport error                         ``error``
the reading task cancelled                ``cancelled``
========================================  ===========================================

The classes are made for the HTTP library the response comes from (``httpx`` or its fork
``httpx2``, which the openai, anthropic and google-genai SDKs use): each client checks that
a response's stream is one of its own byte streams.
"""

from __future__ import annotations

import asyncio
import importlib
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from .judge import StreamJudge

__all__ = ["async_tee", "library_of", "sync_tee"]


def library_of(obj: object) -> str:
    """The HTTP library (``"httpx"`` or ``"httpx2"``) that ``obj``'s class comes from."""
    return type(obj).__module__.partition(".")[0]


def _ended(judge: StreamJudge, exc: BaseException, lib: Any) -> None:
    if isinstance(exc, lib.TimeoutException):
        judge.end("timeout", exc)
    elif isinstance(exc, lib.TransportError | lib.DecodingError):
        judge.end("error", exc)
    elif isinstance(exc, asyncio.CancelledError):
        judge.end("cancelled")
    else:  # GeneratorExit (closed mid-read), KeyboardInterrupt, …
        judge.end("closed")


@contextmanager
def _reading(judge: StreamJudge, lib: Any) -> Iterator[Callable[[bytes], None]]:
    """Around one read of a stream: gives the judge's ``chunk``, and ends the judge with
    ``eof`` when the read runs to the end, or by the exception that stops it (re-raised)."""
    try:
        yield judge.chunk
    except BaseException as exc:
        _ended(judge, exc, lib)
        raise
    judge.end("eof")


def _cancelling() -> bool:
    """Whether the current asyncio task is being cancelled (Python 3.11+ can tell)."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return False
    cancelling = getattr(task, "cancelling", None)
    return bool(cancelling is not None and cancelling())


class _Tee:
    """What both tees hold: the inner stream, the judge, and a finalizer that ends the judge
    when the response is collected unread."""

    def __init__(self, inner: Any, judge: StreamJudge) -> None:
        self._inner = inner
        self._judge = judge
        self._finalizer = weakref.finalize(self, judge.end, "collected")
        self._finalizer.atexit = False


@cache
def _classes(name: str) -> tuple[type[Any], type[Any]]:
    lib = importlib.import_module(name)

    class SyncTee(_Tee, lib.SyncByteStream):  # type: ignore[misc,name-defined,unused-ignore]
        """A sync byte stream that tees each chunk into a judge."""

        def __iter__(self) -> Iterator[bytes]:
            with _reading(self._judge, lib) as keep:
                for chunk in self._inner:
                    keep(chunk)
                    yield chunk

        def close(self) -> None:
            try:
                self._inner.close()
            finally:
                self._finalizer.detach()
                self._judge.end("closed")

    class AsyncTee(_Tee, lib.AsyncByteStream):  # type: ignore[misc,name-defined,unused-ignore]
        """An async byte stream that tees each chunk into a judge."""

        async def __aiter__(self) -> AsyncIterator[bytes]:
            with _reading(self._judge, lib) as keep:
                async for chunk in self._inner:
                    keep(chunk)
                    yield chunk

        async def aclose(self) -> None:
            cancelled = _cancelling()
            try:
                await self._inner.aclose()
            finally:
                self._finalizer.detach()
                self._judge.end("cancelled" if cancelled else "closed")

    return SyncTee, AsyncTee


def sync_tee(inner: Any, judge: StreamJudge, library: str) -> Any:
    """A sync byte stream of ``library`` that reads ``inner`` and tees it into ``judge``."""
    return _classes(library)[0](inner, judge)


def async_tee(inner: Any, judge: StreamJudge, library: str) -> Any:
    """An async byte stream of ``library`` that reads ``inner`` and tees it into ``judge``."""
    return _classes(library)[1](inner, judge)

"""Run the Pipeline over an input, unwrapping its container (curl -i, trace, HAR, .ssecap).

The container layer needs the whole input; a raw body is fed from disk in 64 KiB pieces
and never held in memory. Every input is fed the same way: a Pipeline built with what the
source knows (:attr:`Input.info`), then :func:`ssescope.api.feed_chunks`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..aggregate.report import Report
from ..aggregate.timing import TimingOptions
from ..api import RAW_FILE, feed_chunks, unwrap_chunks
from ..containers import CONTAINERS, Body, Chunk
from ..pipeline import Pipeline
from ..providers._base import AdapterOutput
from ..sourceinfo import SourceInfo
from ._input import Source

__all__ = ["CONTAINER_CHOICES", "Input", "feed", "load", "load_all", "run_pipeline", "start"]

CONTAINER_CHOICES: tuple[str, ...] = ("auto", *CONTAINERS)


@dataclass(slots=True)
class Input:
    """The input to feed: an unwrapped container :class:`Body`, or a raw body streamed."""

    container: str
    body: Body | None = None
    raw: Iterator[bytes] | None = None

    @property
    def info(self) -> SourceInfo:
        """What the source knows about the stream (the Pipeline is built with it)."""
        return RAW_FILE if self.body is None else self.body.info()

    @property
    def original(self) -> list[bytes] | None:
        """The chunking the container recorded (``None`` for a raw body)."""
        if self.body is None or self.body.container == "raw":
            return None
        return [c.data for c in self.body.chunks]

    def pieces(self) -> Iterator[bytes]:
        """The body bytes, in the pieces they were read or recorded in."""
        if self.body is not None:
            yield from (c.data for c in self.body.chunks)
        elif self.raw is not None:
            yield from self.raw

    def chunks(self) -> Iterator[Chunk | bytes]:
        """The body as it arrived (with arrival times when the container has them)."""
        if self.body is not None:
            yield from self.body.chunks
        else:
            yield from self.pieces()


def _inputs(source: Source, container: str, every: bool) -> list[Input]:
    # A raw body is streamed on, never held whole; a container is read whole.
    opened = unwrap_chunks(source.chunks(), container, every=every)
    if isinstance(opened, list):
        return [Input(body.container, body=body) for body in opened]
    return [Input("raw", raw=opened)]


def load(source: Source, container: str = "auto") -> Input:
    """Open the input: stream a raw body, or unwrap a container (which reads it whole).

    A capture holding several streams gives its first (naming the others in an info).
    """
    return _inputs(source, container, every=False)[0]


def load_all(source: Source, container: str = "auto") -> list[Input]:
    """Open every stream of the input: each streamed entry of a HAR or a JSONL log."""
    return _inputs(source, container, every=True)


def start(
    source: Input,
    *,
    provider: str = "auto",
    framing: str = "auto",
    keep_records: bool = False,
    timing: TimingOptions | None = None,
) -> Pipeline:
    """A new Pipeline for the input, built with its source info (fed by :func:`feed`)."""
    return Pipeline(
        provider=provider,
        framing=framing,
        keep_records=keep_records,
        source=source.info,
        timing=timing,
    )


def feed(
    pipeline: Pipeline,
    source: Input,
    on_events: Callable[[list[AdapterOutput]], None] | None = None,
) -> Pipeline:
    """Feed the input through ``pipeline`` (from :func:`start`) and close it.

    Args:
        pipeline: the pipeline to feed.
        source: the opened input.
        on_events: called as in :func:`ssescope.api.feed_chunks`.

    Returns:
        The pipeline, closed.
    """
    return feed_chunks(pipeline, source.chunks(), on_events)


def run_pipeline(
    source: Input, provider: str, framing: str, timing: TimingOptions | None = None
) -> Report:
    """Feed the input through a new Pipeline and return its Report."""
    return feed(start(source, provider=provider, framing=framing, timing=timing), source).report()

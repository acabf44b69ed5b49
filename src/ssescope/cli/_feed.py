"""Run the Pipeline over an input, unwrapping its container (curl -i, trace, HAR, .ssecap).

The container layer needs the whole input; a raw body is fed from disk in 64 KiB pieces
and never held in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..aggregate.report import Report
from ..api import feed_body, feed_raw, open_chunks
from ..containers import CONTAINERS, Body
from ..pipeline import Pipeline
from ..providers._base import AdapterOutput
from ._input import Source

__all__ = ["CONTAINER_CHOICES", "Input", "feed", "load", "run_pipeline"]

CONTAINER_CHOICES: tuple[str, ...] = ("auto", *CONTAINERS)


@dataclass(slots=True)
class Input:
    """The input to feed: an unwrapped container :class:`Body`, or a raw body streamed."""

    container: str
    body: Body | None = None
    raw: Iterator[bytes] | None = None

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


def load(source: Source, container: str = "auto") -> Input:
    """Open the input: stream a raw body, or unwrap a container (which reads it whole)."""
    opened = open_chunks(source.chunks(), container)
    if isinstance(opened, Body):
        return Input(opened.container, body=opened)
    return Input("raw", raw=opened)


def feed(
    source: Input,
    pipeline: Pipeline,
    on_events: Callable[[list[AdapterOutput]], None] | None = None,
) -> Pipeline:
    """Feed the input through ``pipeline`` and close it (``on_events`` as in ``feed_body``)."""
    if source.body is not None:
        return feed_body(pipeline, source.body, on_events)
    return feed_raw(pipeline, source.pieces(), on_events)


def run_pipeline(source: Input, provider: str, framing: str) -> Report:
    """Feed the input through a new Pipeline and return its Report."""
    return feed(source, Pipeline(provider=provider, framing=framing)).report()

"""Run the Pipeline over an input, unwrapping its container (curl -i, trace, HAR, .ssecap).

The container layer (``ssescope.containers``) needs the whole input; a raw body is fed
from disk in 64 KiB pieces and never held in memory. Without the container layer every
input is read as a raw body.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..aggregate.report import Report
from ..pipeline import Pipeline
from ._input import Source

__all__ = ["CONTAINER_CHOICES", "Input", "load", "run_pipeline"]

try:
    from .. import containers as _containers
except ImportError:  # the container layer is not installed
    _containers = None  # type: ignore[assignment]

CONTAINER_CHOICES: tuple[str, ...] = (
    ("auto", *_containers.CONTAINERS) if _containers is not None else ("auto", "raw")
)


@dataclass(slots=True)
class Input:
    """The body to feed: pieces with arrival times, and what the container knew."""

    container: str
    pieces: Iterable[tuple[bytes, float | None]]
    status: int | None = None
    lost: list[str] = field(default_factory=list)
    diagnostics: list[Any] = field(default_factory=list)
    cancelled: bool = False
    original: list[bytes] | None = None


def _raw(head: bytes, rest: Iterator[bytes]) -> Iterator[tuple[bytes, float | None]]:
    if head:
        yield head, None
    for chunk in rest:
        yield chunk, None


def load(source: Source, container: str = "auto") -> Input:
    """Open the input: stream a raw body, or unwrap a container (which reads it whole)."""
    chunks = source.chunks()
    if _containers is None or container == "raw":
        return Input("raw", _raw(b"", chunks))
    head = b""
    if container == "auto":
        for chunk in chunks:
            head += chunk
            if len(head) >= _containers.DETECT_BYTES:
                break
        name, _ = _containers.detect_container(head)
        if name == "raw":
            return Input("raw", _raw(head, chunks))
        container = name
    data = head + b"".join(chunks)
    body = _containers.read_container(data, container=container)
    return Input(
        body.container,
        [(c.data, c.time) for c in body.chunks],
        status=body.status,
        lost=list(body.lost),
        diagnostics=list(body.diagnostics),
        cancelled=body.end == "cancelled",
        original=[c.data for c in body.chunks] if body.container != "raw" else None,
    )


def run_pipeline(source: Input, provider: str, framing: str) -> Report:
    """Feed the input through a new Pipeline and return its Report."""
    pipeline = Pipeline(provider=provider, framing=framing, container=source.container)
    pipeline.http_status = source.status
    pipeline.lost = list(source.lost)
    for diagnostic in source.diagnostics:
        pipeline.add_diagnostic(diagnostic)
    for data, time in source.pieces:
        pipeline.feed(data, time)
    if source.cancelled:
        pipeline.cancel("the capture says the client aborted the stream")
    pipeline.close()
    return pipeline.report()

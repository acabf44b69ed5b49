"""What the quirks of ``serve --quirk`` make of a body: the :class:`QuirkPlan` that the
provider-level quirks (:mod:`ssescope.serve.quirks`) and the wire-level ones
(:mod:`ssescope.serve.wire_quirks`) both fill in."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["QuirkPlan"]


@dataclass(slots=True)
class QuirkPlan:
    """What the quirks make of a body, before faults, chunking and delays.

    Attributes:
        body: the bytes to serve (faults apply to these).
        headers: extra response headers.
        dropped: the names of the usual stream headers to leave out (lowercase).
        status: answer with this status and ``body`` instead of a stream, if set.
        wait_before: seconds before the response starts.
        hold_after: seconds the connection stays open after the last byte.
        burst: send everything in one chunk, once all of it would have been sent.
        tail: chunks sent after the body, each with the seconds to wait before it.
        provider: the provider detected in the original body.
        framing: the framing of the original body.
    """

    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    dropped: set[str] = field(default_factory=set)
    status: int | None = None
    wait_before: float = 0.0
    hold_after: float = 0.0
    burst: bool = False
    tail: list[tuple[bytes, float]] = field(default_factory=list)
    provider: str = "unknown"
    framing: str = "sse"

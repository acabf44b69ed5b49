"""The recorder's state for one exchange (:mod:`ssescope.proxy.recorder`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..containers.capture import CaptureWriter
from ..containers.redact import EchoScrubber
from ..diagnostics import Diagnostic
from ..pipeline import Pipeline
from ..sources.decode import ContentDecoder
from .redact import LineRedactor

__all__ = ["Tape"]


@dataclass
class Tape:
    """The recorder's state for one exchange: its Pipeline, decoder, capture and the
    figures kept between two pieces."""

    pipeline: Pipeline
    decoder: ContentDecoder
    writer: CaptureWriter | None
    redactor: LineRedactor | None
    scrubber: EchoScrubber | None
    last_byte: float | None = None
    last_content: float | None = None
    pending_diags: list[Diagnostic] = field(default_factory=list)

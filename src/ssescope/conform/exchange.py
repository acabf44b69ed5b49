"""An exchange to judge: the Report the engine built, and what the capture knew around it."""

from __future__ import annotations

from dataclasses import dataclass

from ..aggregate.report import Report
from ..sourceinfo import SourceInfo

__all__ = ["Exchange"]


@dataclass(frozen=True, slots=True)
class Exchange:
    """One recorded (or live) response and its context.

    Attributes:
        name: how evidence names it (a file, with its entry when the capture holds several).
        report: the engine's Report of the stream.
        info: what the source knew: the response headers, the request, the offered tools.
    """

    name: str
    report: Report
    info: SourceInfo

    def header(self, name: str) -> str | None:
        """The first response header called ``name`` (case-insensitive), or ``None``."""
        wanted = name.lower()
        for key, value in self.info.headers:
            if key.lower() == wanted:
                return value
        return None

    @property
    def has_headers(self) -> bool:
        """Whether the capture recorded the response headers."""
        return bool(self.info.headers)

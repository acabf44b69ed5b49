"""An exchange to judge: the Report the engine built, and what the capture knew around it."""

from __future__ import annotations

from dataclasses import dataclass

from ..aggregate.report import Report
from ..sourceinfo import SourceInfo
from .cases import Case, Expectation
from .wire import Wire

__all__ = ["Exchange", "UpstreamView"]


@dataclass(frozen=True, slots=True)
class UpstreamView:
    """What the upstream behind the server under test saw of one request (URL mode's
    ``--upstream``: an ``ssescope serve`` the server forwards to).

    Attributes:
        seen: whether the upstream received the forwarded request.
        closed: whether the server closed its upstream connection before that stream's end.
        waited: the seconds conform waited for it to close.
    """

    seen: bool
    closed: bool
    waited: float


@dataclass(frozen=True, slots=True)
class Exchange:
    """One recorded (or live) response and its context.

    Attributes:
        name: how evidence names it (a file, with its entry when the capture holds several).
        report: the engine's Report of the stream.
        info: what the source knew: the response headers, the request, the offered tools.
        case: the request of URL mode's set this answered (``None`` for a capture).
        upstream: what the upstream saw of it, when ``--upstream`` names one.
        wire: how the stream sat on the wire (line endings, data lines, chunks).
        protocol: the protocol URL mode spoke (the Report's provider when it saw none).
        recorded: the request body a capture kept (a JSON value, or text), or ``None``.
        asked: what that recorded request asked for
            (:func:`~ssescope.conform.asked.expectation_of`), or ``None`` when the capture
            keeps no request, or one conform does not read.
    """

    name: str
    report: Report
    info: SourceInfo
    case: Case | None = None
    upstream: UpstreamView | None = None
    wire: Wire | None = None
    protocol: str | None = None
    recorded: object = None
    asked: Expectation | None = None

    @property
    def request_body(self) -> object:
        """The body of the request this answered, when known (URL mode's case, or the
        request a capture kept), else ``None``."""
        return self.recorded if self.case is None else self.case.body

    @property
    def expect(self) -> Expectation | None:
        """What the request asked for: URL mode's case's, else what the recorded request
        says (``None`` when neither is known)."""
        return self.asked if self.case is None else self.case.expect

    @property
    def provider(self) -> str:
        """The stream's provider: the Report's, else the protocol URL mode spoke."""
        found = self.report.provider
        if found == "unknown" and self.protocol is not None:
            return self.protocol
        return found

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

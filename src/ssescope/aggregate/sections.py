"""The Report's general sections for agent streams: the task a stream reported on, the
artifacts it built and the notifications it carried beside the reply (``docs/report.md``).

Every protocol fills them in the same form; a stream without them leaves them out of the
Report's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..events import JSON
from ..fieldform import field_dict

__all__ = ["ArtifactReport", "NotificationReport", "TaskReport"]


@dataclass(slots=True)
class TaskReport:
    """The task an agent stream reported on (A2A): who it is, the states it went through,
    the messages the agent sent with them and what it asked for when it stopped to wait.

    Each entry of ``states``, ``messages`` and ``asks`` names the record it came from.
    """

    id: str | None = None
    """The task's id (the first one the stream gave)."""
    context_id: str | None = None
    """The id of the context (conversation) the task belongs to."""
    state: str | None = None
    """Its last state (``completed``, ``input-required``…), in the lowercase spelling."""
    states: list[dict[str, Any]] = field(default_factory=list)
    """Every state it took, in order: ``{"state", "record"}``."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    """The messages the agent sent beside the reply, in order: ``{"record", "role",
    "text", "state"}``, ``state`` being the state the message came with (``None`` for a
    message sent on its own)."""
    asks: list[dict[str, Any]] = field(default_factory=list)
    """What the agent asked the client for when the task stopped to wait
    (``input-required``, ``auth-required``): ``{"record", "state", "text"}``, ``text``
    ``None`` when it said nothing."""

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (the Report's ``task``)."""
        return field_dict(
            self,
            states=[dict(s) for s in self.states],
            messages=[dict(m) for m in self.messages],
            asks=[dict(a) for a in self.asks],
        )


@dataclass(slots=True)
class ArtifactReport:
    """One artifact an agent built, its chunks assembled.

    ``parts`` are in the general form of :class:`~ssescope.events.ArtifactChunk`: text parts
    that followed each other across ``append`` chunks are one part; data parts are kept as
    JSON; file parts as name, MIME type, URI and byte count, never the bytes.
    """

    id: str
    name: str | None = None
    description: str | None = None
    parts: list[dict[str, Any]] = field(default_factory=list)
    complete: bool = False
    """Whether its latest chunk says the artifact is whole (A2A's ``lastChunk``)."""
    chunks: int = 0
    """How many chunks built it (a restart counts as one more)."""
    record: int | None = None
    """The record of its first chunk."""
    last_record: int | None = None
    """The record of its latest chunk."""

    @property
    def text(self) -> str:
        """Its text parts, joined."""
        return "".join(p["text"] for p in self.parts if p.get("kind") == "text")

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (one entry of the Report's ``artifacts``)."""
        return field_dict(self, _ARTIFACT_KEYS, parts=[dict(p) for p in self.parts])


_ARTIFACT_KEYS = (
    "id",
    "name",
    "description",
    "text",
    "parts",
    "complete",
    "chunks",
    "record",
    "last_record",
)
"""The keys of :class:`ArtifactReport`'s JSON form: its fields, with its ``text`` too."""


@dataclass(slots=True)
class NotificationReport:
    """A record the client received beside the reply (MCP's progress and log
    notifications, a server-to-client request)."""

    record: int
    method: str
    summary: str = ""
    """What it said, in a short line (``2/3 · counting``, ``info: started``)."""
    request_id: JSON = None
    """The id of a server-to-client request; ``None`` for a notification."""

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (one entry of the Report's ``notifications``)."""
        return field_dict(self)

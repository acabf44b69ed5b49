"""Folding the agent events (task updates, agent messages, artifact chunks,
notifications) into the Report's general sections (:mod:`ssescope.aggregate.sections`).

What each adapter judges (a chunk that appends to an artifact never started, one after
the artifact's last chunk) it reports itself; here the events are only assembled.
"""

from __future__ import annotations

from typing import Any, final

from ..events import JSON, AgentMessage, ArtifactChunk, Notification, TaskUpdate
from .sections import ArtifactReport, NotificationReport, TaskReport

__all__ = ["AgentSections"]


@final
class _Artifact:
    """An artifact being assembled: a text part is kept as its pieces until the end."""

    __slots__ = ("chunks", "complete", "description", "first", "id", "last", "name", "parts")

    def __init__(self, artifact_id: str, record: int) -> None:
        self.id = artifact_id
        self.name: str | None = None
        self.description: str | None = None
        self.parts: list[list[str] | dict[str, Any]] = []
        self.complete = False
        self.chunks = 0
        self.first = record
        self.last = record

    def add(self, parts: list[JSON]) -> None:
        """Add ``parts``; a text part right after a text part continues it."""
        own = self.parts
        if len(parts) == 1 and own:  # (the usual chunk: one text part that continues one)
            part, tail = parts[0], own[-1]
            if isinstance(tail, list) and isinstance(part, dict) and part.get("kind") == "text":
                piece = part.get("text")
                tail.append(piece if isinstance(piece, str) else "")
                return
        for part in parts:
            if not isinstance(part, dict):
                continue
            if part.get("kind") == "text":
                piece = part.get("text")
                text = piece if isinstance(piece, str) else ""
                last = self.parts[-1] if self.parts else None
                if isinstance(last, list):
                    last.append(text)
                else:
                    self.parts.append([text])
            else:
                self.parts.append(dict(part))

    def trim(self, limit: int) -> int:
        """Keep the first ``limit`` characters of each text part; return how many were cut."""
        cut = 0
        for part in self.parts:
            if isinstance(part, list) and sum(map(len, part)) > limit:
                text = "".join(part)
                cut += len(text) - limit
                part[:] = [text[:limit]]
        return cut

    def report(self) -> ArtifactReport:
        parts = [
            {"kind": "text", "text": "".join(p)} if isinstance(p, list) else dict(p)
            for p in self.parts
        ]
        return ArtifactReport(
            id=self.id,
            name=self.name,
            description=self.description,
            parts=parts,
            complete=self.complete,
            chunks=self.chunks,
            record=self.first,
            last_record=self.last,
        )


@final
class AgentSections:
    """The task, artifacts and notifications of one stream, as their events arrive."""

    __slots__ = ("_artifacts", "_notes", "task")

    def __init__(self) -> None:
        self.task: TaskReport | None = None
        """The task the stream reported on, once a task event arrived."""
        self._notes: list[Notification] = []
        self._artifacts: dict[str, _Artifact] = {}

    def _task(self) -> TaskReport:
        task = self.task
        if task is None:
            task = self.task = TaskReport()
        return task

    def task_update(self, ev: TaskUpdate) -> None:
        """The task took a state (with the message it came with, what it asks for)."""
        task = self._task()
        if task.id is None and ev.task_id:
            task.id = ev.task_id
        if task.context_id is None and ev.context_id:
            task.context_id = ev.context_id
        task.state = ev.state
        task.states.append({"state": ev.state, "record": ev.record})
        if ev.message is not None:
            task.messages.append(
                {"record": ev.record, "role": ev.role, "text": ev.message, "state": ev.state}
            )
        if ev.interrupted:
            task.asks.append({"record": ev.record, "state": ev.state, "text": ev.message})

    def message(self, ev: AgentMessage) -> None:
        """A message the agent sent on its own in the task's stream."""
        self._task().messages.append(
            {"record": ev.record, "role": ev.role, "text": ev.text, "state": None}
        )

    def artifact(self, ev: ArtifactChunk) -> None:
        """A chunk of an artifact: it starts, restarts or adds to the artifact."""
        art = self._artifacts.get(ev.artifact_id)
        if art is None:
            art = self._artifacts[ev.artifact_id] = _Artifact(ev.artifact_id, ev.record)
        elif not ev.append:  # a restart: what it held is replaced
            art.parts = []
        art.chunks += 1
        art.last = ev.record
        if ev.name is not None:
            art.name = ev.name
        if ev.description is not None:
            art.description = ev.description
        art.add(ev.parts)
        art.complete = ev.last_chunk  # (the latest chunk says whether it is whole)

    def notification(self, ev: Notification) -> None:
        """A record received beside the reply (kept as it came: reported at the end)."""
        self._notes.append(ev)

    def notifications(self) -> list[NotificationReport]:
        """The records received beside the reply, in order."""
        return [
            NotificationReport(n.record, n.method, n.summary, n.request_id) for n in self._notes
        ]

    def artifacts(self) -> list[ArtifactReport]:
        """The artifacts as assembled, in the order each began."""
        return [art.report() for art in self._artifacts.values()]

    def trim(self, limit: int) -> int:
        """Keep the first ``limit`` characters of each artifact text part (a bounded
        pipeline); return how many were cut."""
        return sum(art.trim(limit) for art in self._artifacts.values())

"""The A2A adapter: task events in; the last task state's verdict, the task, its artifacts
and the agent's messages out."""

from __future__ import annotations

from typing import ClassVar

from ...events import (
    JSON,
    AgentMessage,
    ArtifactChunk,
    Status,
    TaskUpdate,
    TextDelta,
)
from ...framing.records import DataRecord
from .._base import (
    AdapterBase,
    AdapterOutput,
    diag,
    str_or_none,
)
from .._jsonrpc import failed, read_message
from . import codes
from .parts import message_fields, parts_and_text

__all__ = ["A2aAdapter"]

_STATUS: dict[str, Status] = {
    "completed": "completed",
    "failed": "failed",
    "rejected": "failed",
    "canceled": "cancelled",
    "input-required": "incomplete",
    "auth-required": "incomplete",
}
_INTERRUPTED = ("input-required", "auth-required")


def _state(raw: str) -> str:
    """``TASK_STATE_INPUT_REQUIRED`` (1.0) → ``input-required`` (0.x)."""
    if raw.startswith("TASK_STATE_"):
        return raw[len("TASK_STATE_") :].lower().replace("_", "-").replace("cancelled", "canceled")
    return raw


_WRAPPERS = {"statusUpdate": "status-update", "artifactUpdate": "artifact-update"}
"""A 1.0 ``StreamResponse`` wrapper's key → the 0.x ``kind`` it stands for (``task`` and
``message`` are the same in both)."""


def _kind(result: dict[str, JSON]) -> tuple[str | None, dict[str, JSON]]:
    kind = result.get("kind")
    if isinstance(kind, str):
        return kind, result
    if len(result) == 1:
        for key, value in result.items():
            if isinstance(value, dict):
                return _WRAPPERS.get(key, key), value
    return None, result


class _Artifact:
    """What the adapter keeps of an artifact: its text so far (as pieces, joined only when a
    restart compares it), and where it was closed."""

    __slots__ = ("closed", "pieces")

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.closed: int | None = None  # the record of its lastChunk

    @property
    def text(self) -> str:
        """Its text so far."""
        return "".join(self.pieces)


class A2aAdapter(AdapterBase):
    """Adapter for A2A streaming responses (0.x and 1.0), JSON-RPC over SSE."""

    name: ClassVar[str] = "a2a"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._state: str | None = None
        self._task = False  # whether a task event came (else a message is the reply)
        self._artifacts: dict[str, _Artifact] = {}

    def _read(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map one JSON-RPC message to events and diagnostics."""
        env = read_message(self, record, out)
        if env is None:
            return
        if not self._started:
            self._response_start(record, out)
        if env.kind == "error":
            failed(record, env.error, out, codes.ERROR)
            self._ended = True
            return
        if env.kind != "response" or not isinstance(env.result, dict):
            return
        kind, body = _kind(env.result)
        if kind == "artifact-update":
            self._task = True
            self._artifact_update(record, body, out)
        elif kind == "task":
            self._task = True
            self._status(record, body, body.get("id"), out)
            self._restated(record, body.get("artifacts"), out)
        elif kind == "status-update":
            self._task = True
            self._status(record, body, body.get("taskId"), out)
        elif kind == "message":
            self._message(record, body, out)
        else:
            out.append(diag(codes.UNKNOWN_RESULT, record, obj=env.result))

    def _status(
        self, record: DataRecord, body: dict[str, JSON], task_id: JSON, out: list[AdapterOutput]
    ) -> None:
        """A task's status (a task snapshot's or a status update's): its state, the message
        sent with it, and the verdict once the state is terminal or interrupted."""
        status = body.get("status")
        raw = status.get("state") if isinstance(status, dict) else None
        if not isinstance(status, dict) or not isinstance(raw, str):
            return
        state = self._state = _state(raw)
        fields = message_fields(status.get("message"), record, out)
        text, role = (None, None) if fields is None else fields
        out.append(
            TaskUpdate(
                record.index,
                state,
                str_or_none(task_id),
                str_or_none(body.get("contextId")),
                text,
                role,
                state in _INTERRUPTED,
            )
        )
        verdict = _STATUS.get(state)
        final = body.get("final")
        if isinstance(final, bool) and final != (verdict is not None):
            out.append(diag(codes.FINAL_MISMATCH, record, final=final, state=state))
        if verdict is not None and not self._ended:
            self._response_end(record, out, verdict, f"task state {state}")

    def _message(self, record: DataRecord, body: dict[str, JSON], out: list[AdapterOutput]) -> None:
        """A message event: before any task it is the reply (a message-only stream, which
        ends with it); in a task's stream, a message kept with the task."""
        fields = message_fields(body, record, out)
        text, role = ("", None) if fields is None else fields
        if self._task or self._ended:
            out.append(AgentMessage(record.index, text, role))
            return
        if text:
            out.append(TextDelta(record.index, 0, text))
        self._response_end(record, out, "completed", "agent message (no task)")

    def _artifact_update(
        self, record: DataRecord, body: dict[str, JSON], out: list[AdapterOutput]
    ) -> None:
        artifact = body.get("artifact")
        if not isinstance(artifact, dict):
            out.append(diag(codes.INVALID_ARTIFACT, record, what="an artifact object"))
            return
        parts, text = parts_and_text(artifact.get("parts"), record, out)
        artifact_id = artifact.get("artifactId")
        if not isinstance(artifact_id, str) or not artifact_id:
            out.append(diag(codes.INVALID_ARTIFACT, record, what="an artifactId"))
            if text:
                out.append(TextDelta(record.index, 0, text))
            return
        append = body.get("append") is True
        known = self._artifacts.get(artifact_id)
        if known is None:
            if append:
                out.append(diag(codes.APPEND_WITHOUT_START, record, artifact=artifact_id))
            append = False
        elif known.closed is not None:
            out.append(
                diag(codes.AFTER_LAST_CHUNK, record, artifact=artifact_id, last=known.closed)
            )
        last = body.get("lastChunk") is True
        # a 0.x update with neither flag is a whole artifact (both are optional there; 1.0
        # leaves out a flag that is false)
        whole = "kind" in body and "append" not in body and "lastChunk" not in body
        self._chunk(record, artifact_id, artifact, parts, text, append, last or whole, last, out)

    def _restated(self, record: DataRecord, artifacts: JSON, out: list[AdapterOutput]) -> None:
        """The artifacts a task snapshot restates: each starts, or restarts, its artifact;
        one restated as the stream already built it changes nothing. They are complete
        when the task's state is terminal."""
        if not isinstance(artifacts, list):
            return
        final = (
            self._state is not None and self._state in _STATUS and self._state not in _INTERRUPTED
        )
        for artifact in artifacts:
            artifact_id = artifact.get("artifactId") if isinstance(artifact, dict) else None
            if (
                not isinstance(artifact, dict)
                or not isinstance(artifact_id, str)
                or not artifact_id
            ):
                out.append(diag(codes.INVALID_ARTIFACT, record, what="an artifactId"))
                continue
            parts, text = parts_and_text(artifact.get("parts"), record, out)
            known = self._artifacts.get(artifact_id)
            if known is not None and known.text == text:
                continue
            self._chunk(record, artifact_id, artifact, parts, text, False, final, False, out)

    def _chunk(
        self,
        record: DataRecord,
        artifact_id: str,
        artifact: dict[str, JSON],
        parts: list[JSON],
        text: str,
        append: bool,
        complete: bool,
        closes: bool,
        out: list[AdapterOutput],
    ) -> None:
        """One chunk of an artifact (``text``: its text parts joined): its new text as the
        reply (a restart that repeats the text so far adds only what follows it), then the
        chunk itself, ``complete`` if the artifact is whole with it; ``closes`` if it says
        so with ``lastChunk``."""
        known = self._artifacts.get(artifact_id)
        if known is None:
            known = self._artifacts[artifact_id] = _Artifact()
        new = text
        if append:
            known.pieces.append(text)
        else:  # a start, or a restart: the artifact is open again
            if known.pieces:
                before = known.text
                if before and text.startswith(before):
                    new = text[len(before) :]
            known.pieces = [text]
            known.closed = None
        if new:
            out.append(TextDelta(record.index, 0, new))
        if closes and known.closed is None:
            known.closed = record.index
        name = artifact.get("name")
        description = artifact.get("description")
        out.append(
            ArtifactChunk(
                record.index,
                artifact_id,
                parts,
                append,
                complete,
                name if type(name) is str else None,
                description if type(description) is str else None,
            )
        )

    def _unfinished(self) -> list[AdapterOutput]:
        """End of the body: a task not in a terminal or interrupted state is truncated."""
        return self._unended(codes.MISSING_FINAL)

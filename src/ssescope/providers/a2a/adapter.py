"""The A2A adapter: task events in, the last task state's verdict and the artifacts out."""

from __future__ import annotations

from typing import ClassVar

from ...events import JSON, ResponseStart, Status, Terminal, TextDelta
from ...framing.records import DataRecord
from .._base import (
    AdapterBase,
    AdapterOutput,
    close_once,
    diag,
    refuse_feed_after_close,
)
from .._jsonrpc import failed, read_message
from . import codes

__all__ = ["A2aAdapter"]

_STATUS: dict[str, Status] = {
    "completed": "completed",
    "failed": "failed",
    "rejected": "failed",
    "canceled": "cancelled",
    "input-required": "incomplete",
    "auth-required": "incomplete",
}


def _state(raw: str) -> str:
    """``TASK_STATE_INPUT_REQUIRED`` (1.0) → ``input-required`` (0.x)."""
    if raw.startswith("TASK_STATE_"):
        return raw[len("TASK_STATE_") :].lower().replace("_", "-").replace("cancelled", "canceled")
    return raw


def _kind(result: dict[str, JSON]) -> tuple[str | None, dict[str, JSON]]:
    kind = result.get("kind")
    if isinstance(kind, str):
        return kind, result
    if len(result) == 1:
        key, value = next(iter(result.items()))
        if isinstance(value, dict):
            name = {"statusUpdate": "status-update", "artifactUpdate": "artifact-update"}
            return name.get(key, key), value
    return None, result


def _texts(parts: JSON) -> str:
    out = []
    if isinstance(parts, list):
        for part in parts:
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str):
                out.append(text)
    return "".join(out)


class A2aAdapter(AdapterBase):
    """Adapter for A2A streaming responses (0.x and 1.0), JSON-RPC over SSE."""

    name: ClassVar[str] = "a2a"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._done = False
        self._state: str | None = None

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one JSON-RPC message to events and diagnostics."""
        if self._closed:
            refuse_feed_after_close()
        out: list[AdapterOutput] = []
        env = read_message(self, record, out)
        if env is None:
            return out
        rec = record.index
        if not self._started:
            out.append(ResponseStart(rec, None, None))
            self._started = True
        if env.kind == "error":
            failed(record, env.error, out, codes.ERROR)
            self._done = True
            return out
        if env.kind != "response" or not isinstance(env.result, dict):
            return out
        kind, body = _kind(env.result)
        if kind == "artifact-update":
            artifact = body.get("artifact")
            if isinstance(artifact, dict):
                text = _texts(artifact.get("parts"))
                if text:
                    out.append(TextDelta(rec, 0, text))
        elif kind in ("task", "status-update"):
            status = body.get("status")
            state = status.get("state") if isinstance(status, dict) else None
            if isinstance(state, str):
                self._state = _state(state)
                verdict = _STATUS.get(self._state)
                if verdict is not None and not self._done:
                    out.append(Terminal(rec, verdict, f"task state {self._state}"))
                    self._done = True
        elif kind != "message":
            out.append(diag(codes.UNKNOWN_RESULT, record, obj=env.result))
        return out

    def close(self) -> list[AdapterOutput]:
        """End of the body: a task not in a terminal or interrupted state is truncated."""
        close_once(self)
        return self._unended(self._done, codes.MISSING_FINAL)

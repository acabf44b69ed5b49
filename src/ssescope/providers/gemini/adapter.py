"""The Gemini adapter: chunks in, dispatched by shape (see the package docstring)."""

from __future__ import annotations

from typing import ClassVar, cast

from ...diagnostics import build, quote
from ...events import JSON, Finish, Status, Terminal, Usage
from ...framing.records import DataRecord
from .._base import (
    INVALID,
    AdapterBase,
    AdapterOutput,
    decode_record,
    diag,
    str_or_none,
    token_count,
)
from . import codes
from .maps import _USAGE_KEYS
from .parts import candidate
from .state import _STATUS_RANK, _Response


class GeminiAdapter(AdapterBase):
    """Adapter for Gemini ``streamGenerateContent`` in SSE, JSON-array and JSONL form."""

    name: ClassVar[str] = "gemini"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._resp = _Response()

    def _read(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map one chunk (or error object) to events and diagnostics."""
        self._note(record)
        value = decode_record(record, out, done=codes.UNEXPECTED_DONE)
        if value is INVALID:
            return
        value = cast("JSON", value)
        if isinstance(value, list):
            # An array-wrapped error ([{"error": ...}]) or several chunks in one record.
            for item in value:
                self._value(item, record, out)
        else:
            self._value(value, record, out)

    def _unfinished(self) -> list[AdapterOutput]:
        """End of the body: unfinished streamed calls and candidates without a finish."""
        out: list[AdapterOutput] = []
        resp = self._resp
        calls = resp.calls
        for output in calls.open_outputs():
            calls.abandon(output, "the stream ended", self._last_end, self._last_index, out)
        if self._started and not resp.terminated:
            waiting = sorted(c for c, status in resp.finished.items() if status is None)
            which = ", ".join(str(c) for c in waiting) if waiting else "0"
            out.append(
                build(codes.NO_FINISH_REASON, {"which": which}, self._last_end, self._last_index)
            )
        return out

    def _value(self, value: JSON, record: DataRecord, out: list[AdapterOutput]) -> None:
        if not isinstance(value, dict):
            out.append(diag(codes.UNEXPECTED_JSON, record, form="record", value=value))
            return
        if "error" in value:
            self._resp.error(value, record, out)
            return
        self._chunk(value, record, out)

    def _chunk(self, chunk: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        rec = record.index
        rid = chunk.get("responseId")
        rid = rid if isinstance(rid, str) and rid else None
        resp = self._resp
        if not self._started or (
            rid is not None and rid != resp.id and (resp.terminated or resp.id)
        ):
            resp = self._resp = _Response(rid)
            self._response_start(record, out, rid, str_or_none(chunk.get("modelVersion")))
        elif rid is not None and resp.id is None:
            resp.id = rid

        candidates = chunk.get("candidates")
        finishing: list[int] = []
        if isinstance(candidates, list):
            for cand in candidates:
                if isinstance(cand, dict):
                    output = candidate(resp, cand, record, out)
                    if output is not None:
                        finishing.append(output)
        elif candidates is not None:
            out.append(
                diag(codes.UNEXPECTED_JSON, record, form="candidates", candidates=candidates)
            )

        feedback = chunk.get("promptFeedback")
        blocked = None
        if isinstance(feedback, dict) and not candidates:
            reason = feedback.get("blockReason")
            if isinstance(reason, str) and reason:
                blocked = reason
                out.append(Finish(rec, 0, "content_filter", reason))
                message = feedback.get("blockReasonMessage")
                extra = f" ({quote(message, 200)})" if isinstance(message, str) else ""
                out.append(diag(codes.PROMPT_BLOCKED, record, reason=reason, extra=extra))

        usage = chunk.get("usageMetadata")
        if isinstance(usage, dict):
            values: dict[str, int | None] = {}
            found = False
            for key, name in _USAGE_KEYS:
                v = usage.get(key)
                if (n := token_count(v)) is not None:
                    values[name] = n
                    found = True
                else:
                    values[name] = None
            if found:
                out.append(Usage(rec, values, usage, "usageMetadata"))

        if resp.terminated:
            return
        if blocked is not None:
            out.append(Terminal(rec, "incomplete", f"prompt blocked ({blocked})"))
            resp.terminated = True
            return
        if finishing and all(s is not None for s in resp.finished.values()):
            worst: Status = "completed"
            for status in resp.finished.values():
                if status is not None and _STATUS_RANK[status] > _STATUS_RANK[worst]:
                    worst = status
            raws = sorted(set(resp.raw_finish.values()))
            out.append(Terminal(rec, worst, "finishReason " + ", ".join(raws)))
            resp.terminated = True

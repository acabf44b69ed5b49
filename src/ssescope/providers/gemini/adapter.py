"""The Gemini adapter: chunks in, dispatched by shape (see the package docstring)."""

from __future__ import annotations

from typing import cast

from ...diagnostics import quote
from ...events import JSON, Finish, ResponseStart, Status, Terminal, Usage
from ...framing.records import DataRecord
from .._base import (
    INVALID,
    AdapterOutput,
    close_once,
    decode_record,
    diag,
    refuse_feed_after_close,
    token_count,
)
from . import codes
from .maps import _USAGE_KEYS
from .parts import _GeminiParts
from .state import _STATUS_RANK


class GeminiAdapter(_GeminiParts):
    """Adapter for Gemini ``streamGenerateContent`` in SSE, JSON-array and JSONL form."""

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one chunk (or error object) to events and diagnostics."""
        if self._closed:
            refuse_feed_after_close()
        out: list[AdapterOutput] = []
        self._last_index = record.index
        self._last_end = record.end
        value = decode_record(record, out, done=codes.UNEXPECTED_DONE)
        if value is INVALID:
            return out
        value = cast("JSON", value)
        if isinstance(value, list):
            # An array-wrapped error ([{"error": ...}]) or several chunks in one record.
            for item in value:
                self._value(item, record, out)
        else:
            self._value(value, record, out)
        return out

    def close(self) -> list[AdapterOutput]:
        """End of the body: unfinished streamed calls and candidates without a finish."""
        close_once(self)
        out: list[AdapterOutput] = []
        for output in list(self._open):
            self._abandon(output, None, "the stream ended", out)
        if self._started and not self._terminated:
            waiting = sorted(c for c, status in self._finished.items() if status is None)
            which = ", ".join(str(c) for c in waiting) if waiting else "0"
            out.append(self._end_diag(codes.NO_FINISH_REASON, which=which))
        return out

    def _value(self, value: JSON, record: DataRecord, out: list[AdapterOutput]) -> None:
        if not isinstance(value, dict):
            out.append(diag(codes.UNEXPECTED_JSON, record, form="record", value=value))
            return
        if "error" in value:
            self._error(value, record, out)
            return
        self._chunk(value, record, out)

    def _chunk(self, chunk: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        rec = record.index
        rid = chunk.get("responseId")
        rid = rid if isinstance(rid, str) and rid else None
        if not self._started or (
            rid is not None and rid != self._response_id and (self._terminated or self._response_id)
        ):
            self._new_response()
            model = chunk.get("modelVersion")
            out.append(ResponseStart(rec, rid, model if isinstance(model, str) else None))
            self._started = True
            self._response_id = rid
        elif rid is not None and self._response_id is None:
            self._response_id = rid

        candidates = chunk.get("candidates")
        finishing: list[int] = []
        if isinstance(candidates, list):
            for cand in candidates:
                if isinstance(cand, dict):
                    output = self._candidate(cand, record, out)
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

        if self._terminated:
            return
        if blocked is not None:
            out.append(Terminal(rec, "incomplete", f"prompt blocked ({blocked})"))
            self._terminated = True
            return
        if finishing and all(s is not None for s in self._finished.values()):
            worst: Status = "completed"
            for status in self._finished.values():
                if status is not None and _STATUS_RANK[status] > _STATUS_RANK[worst]:
                    worst = status
            raws = sorted(set(self._raw_finish.values()))
            out.append(Terminal(rec, worst, "finishReason " + ", ".join(raws)))
            self._terminated = True

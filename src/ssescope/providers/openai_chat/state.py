"""What the Chat Completions adapter remembers across chunks, and the end of a response."""

from __future__ import annotations

from typing import Any, ClassVar

from ...diagnostics import quote
from ...events import FinishReason, Status, Terminal
from ...framing.records import DataRecord
from .._base import AdapterOutput, diag, error_fields, provider_error

_SHORT: frozenset[str] = frozenset(("length", "content_filter", "refusal"))
"""Unified finish reasons that make a response ``incomplete``."""


_NO_TOOL_END: frozenset[str] = frozenset(("length", "error"))
"""Finishes after which open tool calls are left unended (cut, not finished)."""


_KNOWN_OBJECTS: frozenset[str] = frozenset(
    ("chat.completion.chunk", "chat.completion.done", "chat.completion", "text_completion", "")
)


_TOP_RARE: frozenset[str] = frozenset(
    ("x_groq", "citations", "search_results", "prompt_filter_results", "error")
)
"""Top-level chunk keys that need more than the choices (checked in one set operation).
``usage`` needs more only when it is not null (real chunks carry ``"usage": null``)."""


_CHUNK_KEYS: frozenset[str] = frozenset(
    ("choices", "usage", "x_groq", "citations", "search_results", "prompt_filter_results")
)
"""Keys that make an object without ``choices`` a chunk rather than an unknown record."""


_DELTA_RARE: frozenset[str] = frozenset(
    (
        "reasoning_content",
        "reasoning",
        "reasoning_details",
        "refusal",
        "audio",
        "tool_calls",
        "function_call",
        "annotations",
    )
)
"""Delta keys other than ``content`` / ``role``: a delta with none of them is plain text."""


_CHOICE_RARE: frozenset[str] = frozenset(("message", "text", "error", "content_filter_results"))
"""Choice keys besides ``index``, ``delta``, ``finish_reason`` and ``logprobs``."""


_PARALLEL_WRAPPER = "multi_tool_use.parallel"


_DONE = "[DONE]"


def _quote_error(err: object) -> str:
    return quote(err, 200)


def _is_whole(choices: Any) -> bool:
    """Whether ``choices`` are those of a whole completion: messages, no deltas."""
    return (
        type(choices) is list
        and bool(choices)
        and all(type(c) is dict and "message" in c and "delta" not in c for c in choices)
    )


def _invalid(out: list[AdapterOutput], record: DataRecord, message: str) -> None:
    """Report a field whose JSON type is not the one the protocol defines."""
    out.append(diag("openai-chat.invalid-shape", record, message=message))


class _Choice:
    """What the adapter remembers about one choice of the current response."""

    __slots__ = ("finish", "index_ids", "last_index", "raw_finish", "refused", "tools")

    def __init__(self) -> None:
        self.finish: FinishReason | None = None
        self.raw_finish: str | None = None
        self.tools = False
        self.refused = False  # refusal text arrived (``delta.refusal``, ``message.refusal``)
        self.index_ids: dict[int, str] = {}
        self.last_index: int | None = None


class _ChatState:
    """The adapter's state across records: the open response, its choices, what was said once."""

    _closed = False  # the Incremental contract: closed once, never fed after
    name: ClassVar[str] = "openai-chat"

    def __init__(self, framing: str) -> None:
        self._framing = framing
        self._sse = framing == "sse"
        self._last: DataRecord | None = None
        self._reset()

    def _reset(self) -> None:
        """Forget the current response (a new one starts)."""
        self._choices: dict[int, _Choice] = {}
        self._id: str | None = None
        self._started = False
        self._terminated = False
        self._done_seen = False
        self._error_seen = False
        self._citations: set[str] = set()
        self._said: set[tuple[str, object]] = set()

    def _status(self) -> Status:
        """The status the end marker implies: ``failed`` on an error; ``incomplete`` when
        a choice finished short (length, content filter, refusal), refused (refusal text
        with whatever finish reason: the README's rule, the same as Anthropic's
        ``stop_reason: refusal``) or never said why it stopped; else ``completed``."""
        if self._error_seen:
            return "failed"
        short = not self._choices
        for st in self._choices.values():
            if st.finish == "error":
                return "failed"
            if st.finish in _SHORT or st.finish is None or st.refused:
                short = True
        return "incomplete" if short else "completed"

    def _finish_summary(self) -> str:
        return ", ".join(
            f"{o}: {st.raw_finish}" for o, st in self._choices.items() if st.raw_finish
        )

    def _refused_phrase(self) -> str:
        """``"; choice 0 refused"`` (or several choices), or ``""`` when none refused."""
        refused = [o for o, st in self._choices.items() if st.refused]
        if not refused:
            return ""
        return f"; {self._outputs_phrase(refused)} refused (refusal text)"

    @staticmethod
    def _outputs_phrase(missing: list[int]) -> str:
        if not missing:
            return "any choice"
        if len(missing) == 1:
            return f"choice {missing[0]}"
        return "choices " + ", ".join(str(o) for o in missing)

    def _end_marker(self, record: DataRecord, marker: str, out: list[AdapterOutput]) -> None:
        """An explicit end marker arrived: emit the terminal with the status it implies."""
        choices = self._choices
        missing = [o for o, st in choices.items() if st.finish is None]
        if not choices or len(missing) == len(choices):
            out.append(diag("stream.done-without-finish", record, form="no-finish", marker=marker))
        elif missing:
            out.append(
                diag(
                    "stream.done-without-finish",
                    record,
                    form="some-outputs",
                    marker=marker,
                    outputs_phrase=self._outputs_phrase(missing),
                )
            )
        summary = self._finish_summary()
        if not summary:
            reason = f"{marker} without any finish_reason"
        elif missing:
            reason = f"{marker} after finish_reason {summary}, before {self._outputs_phrase(missing)} got one"
        else:
            reason = f"{marker} after finish_reason {summary}"
        out.append(Terminal(record.index, self._status(), reason + self._refused_phrase()))
        self._terminated = True

    def _provider_error(self, err: Any, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Emit a ProviderError and its ``provider.error`` diagnostic."""
        etype, message, code = error_fields(err, _quote_error)
        self._error_seen = True
        detail = ", ".join(
            part
            for part in (f"type {etype!r}" if etype else "", f"code {code!r}" if code else "")
            if part
        )
        provider_error(
            record,
            out,
            message,
            etype,
            code,
            err,
            form="openai-chat",
            message=message,
            detail=f" ({detail})" if detail else "",
        )

    def _once(self, key: str, scope: object = None) -> bool:
        """True the first time ``(key, scope)`` is seen in this response."""
        k = (key, scope)
        if k in self._said:
            return False
        self._said.add(k)
        return True

"""What the Chat Completions adapter remembers about a response: its choices, what was said once, how it ended."""

from __future__ import annotations

from typing import Any

from ... import codes as shared
from ...codes.spec import Code
from ...diagnostics import build, quote
from ...events import FinishReason, Status, Terminal
from ...framing.records import DataRecord
from .._base import AdapterOutput, diag, error_fields, provider_error
from .._tools import ToolCallTracker
from . import codes

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

# The three tests every chunk takes, as the bound methods themselves: a method called on
# an imported name compiles to an attribute lookup (and a new bound method) on each call.
plain_chunk = _TOP_RARE.isdisjoint
"""Whether a chunk object has none of the top-level keys that need more than its choices."""
plain_choice = _CHOICE_RARE.isdisjoint
"""Whether a choice object has none of the keys besides its delta and finish reason."""
plain_delta = _DELTA_RARE.isdisjoint
"""Whether a delta has none of the keys besides its text and role."""


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


def _invalid(
    out: list[AdapterOutput], record: DataRecord, form: str, value: object, **args: object
) -> None:
    """Report a field whose JSON type is not the one the protocol defines: ``value``, in
    the message form ``form`` of ``openai-chat.invalid-shape``."""
    out.append(
        build(codes.INVALID_SHAPE, {"value": value, **args}, record.start, record.index, None, form)
    )


class _Choice:
    """What the adapter remembers about one choice of the current response."""

    __slots__ = ("calls", "finish", "last_index", "raw_finish", "refused", "tools")

    def __init__(self) -> None:
        self.finish: FinishReason | None = None
        self.raw_finish: str | None = None
        self.tools = False
        self.refused = False  # refusal text arrived (``delta.refusal``, ``message.refusal``)
        # the calls met by index: their first id ("" until one arrives)
        self.calls: ToolCallTracker[int] = ToolCallTracker()
        self.last_index: int | None = None


def outputs_phrase(missing: list[int]) -> str:
    """``"choice 0"``, ``"choices 0, 2"``, or ``"any choice"`` when none is missing."""
    if not missing:
        return "any choice"
    if len(missing) == 1:
        return f"choice {missing[0]}"
    return "choices " + ", ".join(str(o) for o in missing)


class _Response:
    """The current response: its id, its choices, how far it got, what was said once."""

    __slots__ = (
        "choices",
        "citations",
        "done_seen",
        "error_seen",
        "id",
        "said",
        "started",
        "terminated",
    )

    def __init__(self) -> None:
        self.choices: dict[int, _Choice] = {}
        self.id: str | None = None
        self.started = False
        self.terminated = False
        self.done_seen = False
        self.error_seen = False
        self.citations: set[str] = set()
        self.said: set[tuple[Code, object]] = set()

    def once(self, key: Code, scope: object = None) -> bool:
        """True the first time ``(key, scope)`` is seen in this response."""
        k = (key, scope)
        if k in self.said:
            return False
        self.said.add(k)
        return True

    def choice(self, o: int) -> _Choice:
        """The state of choice ``o``, made on its first chunk."""
        st = self.choices.get(o)
        if st is None:
            st = self.choices[o] = _Choice()
        return st

    def missing(self) -> list[int]:
        """The choices without a finish reason yet."""
        return [o for o, st in self.choices.items() if st.finish is None]

    def all_finished(self) -> bool:
        """Whether some choice appeared and every one has a finish reason."""
        return bool(self.choices) and all(st.finish is not None for st in self.choices.values())

    def status(self) -> Status:
        """The status the end marker implies: ``failed`` on an error; ``incomplete`` when
        a choice finished short (length, content filter, refusal), refused (refusal text
        with whatever finish reason: the README's rule, the same as Anthropic's
        ``stop_reason: refusal``) or never said why it stopped; else ``completed``."""
        if self.error_seen:
            return "failed"
        short = not self.choices
        for st in self.choices.values():
            if st.finish == "error":
                return "failed"
            if st.finish in _SHORT or st.finish is None or st.refused:
                short = True
        return "incomplete" if short else "completed"

    def finish_summary(self) -> str:
        """``"0: stop, 1: length"``: each choice's raw finish reason."""
        return ", ".join(f"{o}: {st.raw_finish}" for o, st in self.choices.items() if st.raw_finish)

    def refused_phrase(self) -> str:
        """``"; choice 0 refused"`` (or several choices), or ``""`` when none refused."""
        refused = [o for o, st in self.choices.items() if st.refused]
        if not refused:
            return ""
        return f"; {outputs_phrase(refused)} refused (refusal text)"

    def end_marker(self, record: DataRecord, marker: str, out: list[AdapterOutput]) -> None:
        """An explicit end marker arrived: emit the terminal with the status it implies."""
        choices = self.choices
        missing = self.missing()
        if not choices or len(missing) == len(choices):
            out.append(
                diag(shared.STREAM_DONE_WITHOUT_FINISH, record, form="no-finish", marker=marker)
            )
        elif missing:
            out.append(
                diag(
                    shared.STREAM_DONE_WITHOUT_FINISH,
                    record,
                    form="some-outputs",
                    marker=marker,
                    outputs_phrase=outputs_phrase(missing),
                )
            )
        summary = self.finish_summary()
        if not summary:
            reason = f"{marker} without any finish_reason"
        elif missing:
            reason = (
                f"{marker} after finish_reason {summary}, before {outputs_phrase(missing)} got one"
            )
        else:
            reason = f"{marker} after finish_reason {summary}"
        out.append(Terminal(record.index, self.status(), reason + self.refused_phrase()))
        self.terminated = True

    def provider_error(self, err: Any, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Emit a ProviderError and its ``provider.error`` diagnostic."""
        etype, message, code = error_fields(err, _quote_error)
        self.error_seen = True
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
            form=codes.ERROR,
            message=message,
            detail=f" ({detail})" if detail else "",
        )

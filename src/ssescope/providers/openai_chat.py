"""OpenAI Chat Completions streams (``chat.completion.chunk``) and every compatible server.

Theory of operation
===================

Each record is one chunk: ``{"id", "object", "model", "choices": [{"index", "delta",
"finish_reason", ...}], "usage"?}``; the SSE wire ends with the literal ``data: [DONE]``.
The adapter maps every chunk to unified events and keeps only the state the protocol
needs to judge how the stream ended and to diagnose irregular tool-call fragments: per
choice, its finish reason and which tool indexes / ids it has seen.

Outputs and parts
    ``output`` is the choice index (``n > 1`` choices interleave). Each field has a single
    part (``part=None``): text, reasoning and refusal are plain appends.

Text and reasoning
    ``delta.content`` is a string, or (Mistral Magistral) an array of typed chunks
    ``{"type": "text", "text"}`` / ``{"type": "thinking", "thinking": [{"type": "text",
    "text"}]}``. Reasoning comes as ``delta.reasoning_content`` (DeepSeek, xAI, Moonshot,
    DashScope, llama.cpp), ``delta.reasoning`` (vLLM, Groq, OpenRouter, Ollama) and
    OpenRouter's ``delta.reasoning_details[]`` (``reasoning.text`` with an optional
    signature, ``reasoning.summary``, ``reasoning.encrypted``). A chunk carrying the same
    text in several of these spellings contributes it once: ``reasoning_content`` /
    ``reasoning`` win over the text of ``reasoning_details`` (whose signatures and
    encrypted data still become :class:`ReasoningMeta`). ``delta.refusal`` is refusal
    text, ``delta.audio`` becomes :class:`Audio`; logprobs and ``obfuscation`` padding
    are not read.

Tool calls
    ``delta.tool_calls[]`` entries become :class:`ToolCallDelta` with ``index``, ``id``,
    ``name``, ``type`` passed as sent (the aggregator matches fragments to calls: by new
    id, else index, else the open call). Entries of a whole call in one chunk are still
    fragments: the call ends when the choice's ``finish_reason`` arrives, which emits
    :class:`ToolCallsEnd` (not for ``length`` or ``error``: calls cut there stay
    incomplete). Irregular fragments are accepted and diagnosed (missing index, an index
    reused with a new id, two entries for one index in a chunk, a non-contiguous index,
    interleaved calls, a non-string id or name, arguments sent as an object, the
    ``multi_tool_use.parallel`` wrapper). Legacy ``delta.function_call`` is a call
    without index or id. Chat custom tools (``{"type": "custom", "custom": {"name",
    "input"}}``) are freeform text calls.

Usage
    Any ``usage`` object (finish chunk, empty-choices chunk, ``choices: null`` chunk,
    Perplexity's cumulative usage on every chunk) and Groq's ``x_groq.usage`` become
    :class:`Usage`, mapped by name only: ``prompt_tokens`` -> input, ``completion_tokens``
    -> output, ``total_tokens``, ``completion_tokens_details.reasoning_tokens``,
    ``prompt_tokens_details.cached_tokens`` (else DeepSeek ``prompt_cache_hit_tokens``,
    else a top-level ``cached_tokens``) -> cached input.

Errors
    A chunk with a truthy top-level ``error`` (OpenAI, OpenRouter with
    ``finish_reason: "error"``), a vLLM ``{"object": "error", ...}`` chunk and an SSE
    ``event: error`` record each give :class:`ProviderError`, a ``provider.error``
    diagnostic and ``Terminal(failed)``. A choice-level ``error`` object gives the error
    without a terminal (the status is then ``failed`` unless a later marker says
    otherwise, and ``[DONE]`` keeps it ``failed``).

How the stream ended
    ``data: [DONE]`` gives a :class:`Terminal`: ``failed`` if an error was reported or a
    choice finished with ``error``, else ``incomplete`` if a choice finished with
    ``length`` / ``content_filter`` / ``refusal``, else ``completed``. ``[DONE]`` before
    any finish reason (or before a choice's) adds ``stream.done-without-finish``.
    Perplexity's last chunk (``object: "chat.completion.done"``) is an end marker as
    well. On the SSE wire a stream that ends without ``[DONE]`` gets
    ``stream.missing-done`` and no terminal (status ``truncated``). JSONL dumps
    (framings other than SSE) cannot carry ``[DONE]``: there, at :meth:`close`, "every
    choice that appeared got a finish reason" is the end marker and gives the terminal.

Responses
    The first chunk with an id starts the response (:class:`ResponseStart`). A chunk with
    a different id after the end marker, or one with choices after every choice finished,
    starts a new response; any other different id (choices still open, a usage-only
    chunk) is diagnosed (``openai-chat.id-changed``) and kept in the current response. Azure's
    prompt-filter first chunk (``id: ""``, ``object: ""``, ``choices: []``) and its
    content-filter annotation chunks are ordinary chunks with no delta.

Speed
    Most records are plain chunks: one choice whose delta holds only ``content``. They
    take a short path (orjson directly, set-disjointness tests instead of a lookup per
    optional key); every other shape goes through the full handling.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from orjson import JSONDecodeError
from orjson import loads as _loads

from ..diagnostics import diagnostic, quote
from ..errors import UsageError
from ..events import (
    JSON,
    Audio,
    Citation,
    Finish,
    FinishReason,
    ReasoningDelta,
    ReasoningMeta,
    RefusalDelta,
    ResponseStart,
    Snapshot,
    Status,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallsEnd,
    Unknown,
    Usage,
)
from ..framing.records import DataRecord
from ..incremental import CLOSE_TWICE
from ..limits import may_be_too_deep
from ._base import (
    AdapterOutput,
    compact_json,
    decode_json,
    diag,
    error_fields,
    not_streamed,
    provider_error,
    refuse_feed,
    token_count,
)

__all__ = ["FINISH_REASONS", "OpenAIChatAdapter", "map_finish_reason"]

FINISH_REASONS: dict[str, FinishReason] = {  # the wire's reason -> the unified one
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "content_filter",
    "eos": "stop",
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "refusal": "refusal",
    "error": "error",
}

_SHORT: frozenset[str] = frozenset(("length", "content_filter", "refusal"))
"""Unified finish reasons that make a response ``incomplete``."""

_NO_TOOL_END: frozenset[str] = frozenset(("length", "error"))
"""Finishes after which open tool calls are left unended (cut, not finished)."""

_KNOWN_OBJECTS: frozenset[str] = frozenset(
    ("chat.completion.chunk", "chat.completion.done", "chat.completion", "text_completion", "")
)

_TOP_RARE: frozenset[str] = frozenset(
    ("usage", "x_groq", "citations", "search_results", "prompt_filter_results", "error")
)
"""Top-level chunk keys that need more than the choices (checked in one set operation)."""

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


def map_finish_reason(raw: str) -> FinishReason:
    """Map a raw Chat Completions ``finish_reason`` to the unified reason.

    ``stop``, ``length``, ``tool_calls``, ``content_filter`` are kept; ``function_call``
    and ``tool_use`` are tool calls; ``eos``, ``end_turn``, ``stop_sequence`` are
    ``stop``; ``max_tokens`` is ``length``; ``refusal`` and ``error`` are kept; anything
    else is ``other``.
    """
    return FINISH_REASONS.get(raw, "other")


def _quote_error(err: object) -> str:
    return quote(err, 200)


def _usage_values(usage: dict[str, Any]) -> dict[str, int | None]:
    """Normalised usage keys from a Chat Completions usage object (no arithmetic)."""
    get = usage.get
    inp = get("prompt_tokens")
    if inp is None:
        inp = get("input_tokens")
    outp = get("completion_tokens")
    if outp is None:
        outp = get("output_tokens")
    ptd = get("prompt_tokens_details")
    ctd = get("completion_tokens_details")
    cached = token_count(ptd.get("cached_tokens")) if isinstance(ptd, dict) else None
    if cached is None:
        cached = token_count(get("prompt_cache_hit_tokens"))
        if cached is None:
            cached = token_count(get("cached_tokens"))
    return {
        "input_tokens": token_count(inp),
        "output_tokens": token_count(outp),
        "total_tokens": token_count(get("total_tokens")),
        "reasoning_tokens": token_count(ctd.get("reasoning_tokens"))
        if isinstance(ctd, dict)
        else None,
        "cached_input_tokens": cached,
    }


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

    __slots__ = ("finish", "index_ids", "last_index", "raw_finish", "tools")

    def __init__(self) -> None:
        self.finish: FinishReason | None = None
        self.raw_finish: str | None = None
        self.tools = False
        self.index_ids: dict[int, str] = {}
        self.last_index: int | None = None


class OpenAIChatAdapter:
    """Adapter for OpenAI Chat Completions chunk streams and compatible servers.

    Args:
        framing: the framing the records came from. ``"sse"`` carries ``data: [DONE]``;
            any other framing (a JSONL dump, a JSON array) does not, so there the
            response is complete when every choice that appeared got a finish reason.
    """

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

    # ------------------------------------------------------------------ entry points

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one record (a chunk, ``[DONE]`` or an error frame) to events and diagnostics."""
        self._last = record
        data = record.data
        if data[:1] == "{" and record.event != "error":
            # The hot path: a chunk object. Anything orjson refuses takes the slow path,
            # which retries with the standard library and reports invalid JSON.
            try:
                obj = _loads(data)
            except JSONDecodeError:
                pass
            else:
                # (a record with many brackets takes the slow path's depth check)
                if type(obj) is dict and not may_be_too_deep(data):
                    return self._chunk(obj, record)
        return self._other(record)

    def _other(self, record: DataRecord) -> list[AdapterOutput]:
        """Every record that is not a plain JSON chunk object."""
        data = record.data
        if record.event == "error":
            return self._error_event(record)
        if data.startswith(_DONE) or (data[:1].isspace() and data.strip().startswith(_DONE)):
            return self._done(record)
        if not data or data.isspace():
            return [diag("openai-chat.empty-data", record, data=data)]
        obj, bad = decode_json(record)
        if bad is not None:
            return [bad]
        if not isinstance(obj, dict):
            kind = type(obj).__name__
            out: list[AdapterOutput] = []
            _invalid(out, record, f"the record is a JSON {kind}, not a chunk object: {quote(obj)}.")
            out.append(Unknown(record.index, f"json-{kind}", cast("JSON", obj)))
            return out
        return self._chunk(obj, record)

    def close(self) -> list[AdapterOutput]:
        """End of the stream: judge how it ended when no end marker came."""
        if self._closed:
            raise UsageError(CLOSE_TWICE)
        self._closed = True
        refuse_feed(self)
        last = self._last
        if self._terminated:
            return []
        choices = self._choices
        missing = [o for o, st in choices.items() if st.finish is None]
        offset = last.end if last is not None else None
        rec = last.index if last is not None else None
        if self._sse:
            if last is None:
                form = "empty"
            elif choices and not missing:
                form = "all-finished"
            else:
                form = "open-choices"
            return [
                diagnostic(
                    "stream.missing-done",
                    offset,
                    rec,
                    form=form,
                    outputs=self._outputs_phrase(missing),
                )
            ]
        if not choices or last is None:
            return []
        if missing:
            return [
                diagnostic(
                    "openai-chat.missing-finish",
                    offset,
                    rec,
                    outputs_phrase=self._outputs_phrase(missing),
                )
            ]
        status = self._status()
        self._terminated = True
        return [
            Terminal(
                last.index,
                status,
                f"every choice finished ({self._finish_summary()}); {self._framing} framing has no [DONE]",
            )
        ]

    # ------------------------------------------------------------------ markers

    def _status(self) -> Status:
        if self._error_seen:
            return "failed"
        short = False
        for st in self._choices.values():
            if st.finish == "error":
                return "failed"
            if st.finish in _SHORT:
                short = True
        return "incomplete" if short else "completed"

    def _finish_summary(self) -> str:
        return ", ".join(
            f"{o}: {st.raw_finish}" for o, st in self._choices.items() if st.raw_finish
        )

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
        reason = f"{marker} after finish_reason {summary}" if summary else f"{marker}"
        out.append(Terminal(record.index, self._status(), reason))
        self._terminated = True

    def _done(self, record: DataRecord) -> list[AdapterOutput]:
        out: list[AdapterOutput] = []
        data = record.data.strip()
        if data != _DONE:
            out.append(diag("openai-chat.malformed-done", record, data=data))
        if self._terminated:
            if self._done_seen:
                out.append(diag("openai-chat.duplicate-done", record))
            self._done_seen = True
            return out
        self._done_seen = True
        self._end_marker(record, "[DONE]", out)
        return out

    def _error_event(self, record: DataRecord) -> list[AdapterOutput]:
        """An SSE ``event: error`` record: its data is the error, JSON or not."""
        out: list[AdapterOutput] = []
        data = record.data
        err: Any = data
        if data.strip():
            obj, bad = decode_json(record)
            if bad is None:
                err = obj
                if isinstance(obj, dict) and obj.get("error"):
                    err = obj["error"]
        self._provider_error(err, record, out)
        if not self._terminated:
            out.append(Terminal(record.index, "failed", "event: error"))
            self._terminated = True
        return out

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

    # ------------------------------------------------------------------ chunks

    def _once(self, key: str, scope: object = None) -> bool:
        """True the first time ``(key, scope)`` is seen in this response."""
        k = (key, scope)
        if k in self._said:
            return False
        self._said.add(k)
        return True

    def _chunk(self, obj: dict[str, Any], record: DataRecord) -> list[AdapterOutput]:
        get = obj.get
        choices = get("choices")
        obj_type = get("object")
        if (
            type(choices) is list
            and len(choices) == 1
            and obj_type == "chat.completion.chunk"
            and self._started
            and get("id") == self._id
            and _TOP_RARE.isdisjoint(obj)
        ):
            # The shape of almost every chunk: one known choice with a plain content
            # delta and no finish reason. Same result as the general path below, with
            # a third of its work (it is most of the adapter's time on long replies).
            ch = choices[0]
            if type(ch) is dict and ch.get("finish_reason") is None and _CHOICE_RARE.isdisjoint(ch):
                o = ch.get("index")
                delta = ch.get("delta")
                if (
                    type(o) is int
                    and o in self._choices
                    and type(delta) is dict
                    and _DELTA_RARE.isdisjoint(delta)
                ):
                    content = delta.get("content")
                    if type(content) is str:
                        return [TextDelta(record.index, o, content)] if content else []
                    if content is None:
                        return []
        out: list[AdapterOutput] = []
        if choices is None and not self._is_chunk(obj, obj_type):
            key = get("type") or obj_type or "chunk-without-choices"
            out.append(
                Unknown(record.index, key if isinstance(key, str) else "chunk-without-choices", obj)
            )
            return out
        cid = get("id")
        if cid != self._id or not self._started:
            self._identity(cid, choices, obj, record, out)
        if obj_type != "chat.completion.chunk":
            self._object_type(obj_type, record, out)

        finished = False
        if type(choices) is list:
            for pos, ch in enumerate(choices):
                if type(ch) is dict:
                    if self._choice(ch, pos, record, out):
                        finished = True
                else:
                    _invalid(
                        out, record, f"choices[{pos}] is not an object: {quote(ch)}; it is skipped."
                    )
        elif choices is not None:
            _invalid(out, record, f"`choices` is not a list: {quote(choices)}; it is ignored.")
        if obj_type != "chat.completion.chunk" or not _TOP_RARE.isdisjoint(obj):
            self._chunk_rest(obj, obj_type, choices, finished, record, out)
        return out

    def _chunk_rest(
        self,
        obj: dict[str, Any],
        obj_type: Any,
        choices: Any,
        finished: bool,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """The less common parts of a chunk: usage, citations, filters, errors, end marker."""
        ri = record.index
        get = obj.get
        usage = get("usage")
        if usage is not None:
            if isinstance(usage, dict):
                source = "usage chunk" if not choices else "finish chunk" if finished else "chunk"
                out.append(Usage(ri, _usage_values(usage), usage, source))
            else:
                _invalid(out, record, f"`usage` is not an object: {quote(usage)}; it is ignored.")
        xg = get("x_groq")
        if isinstance(xg, dict):
            xu = xg.get("usage")
            if isinstance(xu, dict):
                out.append(Usage(ri, _usage_values(xu), xu, "x_groq.usage"))

        cits = get("citations")
        if cits is None:
            cits = get("search_results")
        if isinstance(cits, list) and cits:
            self._citations_of(cits, ri, out)

        pfr = get("prompt_filter_results")
        if isinstance(pfr, list):
            for item in pfr:
                if isinstance(item, dict):
                    res = item.get("content_filter_results")
                    if isinstance(res, dict) and res:
                        self._filtered(res, "the prompt", record, out)

        err = get("error")
        if err or obj_type == "error":
            self._provider_error(err if err else obj, record, out)
            if not self._terminated:
                out.append(Terminal(ri, "failed", "error chunk"))
                self._terminated = True
        elif obj_type == "chat.completion.done" and not self._terminated:
            self._end_marker(record, "The chat.completion.done chunk", out)
        elif obj_type == "chat.completion" and _is_whole(choices) and not self._terminated:
            self._whole_completion(record, out)

    def _whole_completion(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """A whole ``chat.completion`` (not streamed): its choices' messages were taken as
        snapshots; it ends the response when every choice has a finish reason."""
        out.append(not_streamed("chat.completion object", record))
        if self._choices and all(st.finish is not None for st in self._choices.values()):
            out.append(
                Terminal(
                    record.index,
                    self._status(),
                    f"a whole chat.completion, not streamed (finish_reason {self._finish_summary()})",
                )
            )
            self._terminated = True

    @staticmethod
    def _is_chunk(obj: dict[str, Any], obj_type: Any) -> bool:
        """Whether a record without ``choices`` is still a chunk (usage, error, ...)."""
        return bool(obj.get("error")) or obj_type == "error" or not _CHUNK_KEYS.isdisjoint(obj)

    def _identity(
        self,
        cid: Any,
        choices: Any,
        obj: dict[str, Any],
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """Start the response, or react to a chunk id different from the response's."""
        if isinstance(cid, str) and cid:
            if self._id is None:
                self._id = cid
                if not self._started:
                    self._started = True
                    model = obj.get("model")
                    out.append(
                        ResponseStart(
                            record.index, cid, model if isinstance(model, str) and model else None
                        )
                    )
            elif cid != self._id:
                self._new_id(cid, obj, record, out)
        elif not self._started and choices:
            self._started = True
            model = obj.get("model")
            out.append(
                ResponseStart(
                    record.index, None, model if isinstance(model, str) and model else None
                )
            )

    def _object_type(self, obj_type: Any, record: DataRecord, out: list[AdapterOutput]) -> None:
        if (
            obj_type is not None
            and (not isinstance(obj_type, str) or obj_type not in _KNOWN_OBJECTS)
            and obj_type != "error"
            and self._once("openai-chat.unexpected-object", quote(obj_type))
        ):
            out.append(diag("openai-chat.unexpected-object", record, obj_type=obj_type))

    def _new_id(
        self, cid: str, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A chunk with an id different from the response's."""
        choices = self._choices
        all_finished = bool(choices) and all(st.finish is not None for st in choices.values())
        # A new response needs content: a usage-only chunk with another id stays here.
        if not self._terminated and not (all_finished and obj.get("choices")):
            if self._once("openai-chat.id-changed"):
                out.append(
                    diag(
                        "openai-chat.id-changed",
                        record,
                        form="finished" if all_finished else "open",
                        cid=cid,
                        id=self._id,
                    )
                )
            return
        if not self._terminated:
            # Every choice finished but no end marker came before the next response.
            if self._sse:
                out.append(
                    diag("stream.missing-done", record, form="next-response", id=self._id, cid=cid)
                )
            else:
                out.append(
                    Terminal(
                        record.index,
                        self._status(),
                        f"every choice finished ({self._finish_summary()}) before the next response",
                    )
                )
        self._reset()
        self._id = cid
        self._started = True
        model = obj.get("model")
        out.append(
            ResponseStart(record.index, cid, model if isinstance(model, str) and model else None)
        )

    def _choice(
        self, ch: dict[str, Any], pos: int, record: DataRecord, out: list[AdapterOutput]
    ) -> bool:
        """Map one entry of ``choices``; return whether it carried a finish reason."""
        ri = record.index
        o = ch.get("index")
        if type(o) is not int:
            if o is None:
                if self._once("openai-chat.missing-choice-index"):
                    out.append(diag("openai-chat.missing-choice-index", record, pos=pos))
            else:
                _invalid(
                    out,
                    record,
                    f"choices[{pos}].index is not an integer: {quote(o)}; position {pos} is used.",
                )
            o = pos
        st = self._choices.get(o)
        if st is None:
            st = self._choices[o] = _Choice()

        delta = ch.get("delta")
        if type(delta) is dict:
            if _DELTA_RARE.isdisjoint(delta):
                content = delta.get("content")
                if content is not None:
                    if type(content) is str:
                        if content:
                            out.append(TextDelta(ri, o, content))
                    else:
                        self._content(content, o, record, out)
            else:
                self._delta(delta, o, st, record, out)
        elif delta is not None:
            _invalid(
                out,
                record,
                f"choices[{pos}].delta is not an object: {quote(delta)}; it is ignored.",
            )
        if not _CHOICE_RARE.isdisjoint(ch):
            self._choice_rest(ch, o, st, delta is None, record, out)

        fr = ch.get("finish_reason")
        if fr is None or fr == "":
            return False
        if not isinstance(fr, str):
            _invalid(
                out,
                record,
                f"choices[{pos}].finish_reason is not a string: {quote(fr)}; it is ignored.",
            )
            return False
        reason = map_finish_reason(fr)
        if reason == "other" and self._once("openai-chat.unknown-finish-reason", fr):
            out.append(diag("openai-chat.unknown-finish-reason", record, fr=fr, choice=o))
        st.finish = reason
        st.raw_finish = fr
        out.append(Finish(ri, o, reason, fr))
        if st.tools and reason not in _NO_TOOL_END:
            out.append(ToolCallsEnd(ri, o))
        return True

    def _choice_rest(
        self,
        ch: dict[str, Any],
        o: int,
        st: _Choice,
        no_delta: bool,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """Legacy ``text``, ``message`` snapshots, choice errors and filter results."""
        if no_delta:
            text = ch.get("text")
            if isinstance(text, str) and text:
                out.append(TextDelta(record.index, o, text))
        message = ch.get("message")
        if isinstance(message, dict):
            self._message(message, o, st, no_delta, record, out)
        cerr = ch.get("error")
        if cerr:
            self._provider_error(cerr, record, out)
        cfr = ch.get("content_filter_results")
        if cfr and isinstance(cfr, dict):
            self._filtered(cfr, f"choice {o}", record, out)

    def _content(self, content: Any, o: int, record: DataRecord, out: list[AdapterOutput]) -> None:
        """``delta.content`` of any shape: a string, a content-part array, or a wrong type."""
        if type(content) is str:
            if content:
                out.append(TextDelta(record.index, o, content))
        elif isinstance(content, list):
            self._content_parts(content, o, record, out)
        else:
            _invalid(
                out,
                record,
                f"delta.content of choice {o} is neither a string nor a list: {quote(content)}; it is ignored.",
            )

    def _delta(
        self,
        delta: dict[str, Any],
        o: int,
        st: _Choice,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        ri = record.index
        get = delta.get
        rc = get("reasoning_content")
        rs = get("reasoning")
        rd = get("reasoning_details")
        if rc is not None or rs is not None or rd is not None:
            self._reasoning(rc, rs, rd, o, record, out)

        content = get("content")
        if content is not None:
            self._content(content, o, record, out)
        refusal = get("refusal")
        if refusal and isinstance(refusal, str):
            out.append(RefusalDelta(ri, o, refusal))
        audio = get("audio")
        if audio and isinstance(audio, dict):
            data = audio.get("data")
            transcript = audio.get("transcript")
            aid = audio.get("id")
            fmt = audio.get("format")
            out.append(
                Audio(
                    ri,
                    o,
                    data if isinstance(data, str) else None,
                    transcript if isinstance(transcript, str) else None,
                    fmt if isinstance(fmt, str) else None,
                    aid if isinstance(aid, str) else None,
                )
            )
        tool_calls = get("tool_calls")
        if tool_calls:
            self._tool_calls(tool_calls, o, st, record, out)
        fc = get("function_call")
        if fc:
            if isinstance(fc, dict):
                st.tools = True
                name = self._name(fc.get("name"), o, record, out)
                args = self._arguments(fc.get("arguments"), o, record, out)
                if name == _PARALLEL_WRAPPER:
                    self._parallel_wrapper(o, None, record, out)
                out.append(ToolCallDelta(ri, o, None, None, name, args, None))
            else:
                _invalid(
                    out,
                    record,
                    f"delta.function_call of choice {o} is not an object: {quote(fc)}; it is ignored.",
                )
        annotations = get("annotations")
        if annotations and isinstance(annotations, list):
            out.extend(Citation(ri, o, ann) for ann in annotations)

    def _reasoning(
        self, rc: Any, rs: Any, rd: Any, o: int, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Reasoning from every spelling of one delta, each piece of text counted once."""
        ri = record.index
        plain = rc if isinstance(rc, str) else ""
        if isinstance(rs, str) and rs:
            if not plain:
                plain = rs
            elif rs != plain:
                if self._once("openai-chat.reasoning-fields-differ", o):
                    out.append(
                        diag(
                            "openai-chat.reasoning-fields-differ",
                            record,
                            form="content",
                            plain=plain,
                            rs=rs,
                            choice=o,
                        )
                    )
                plain += rs
        if not rd:
            if plain:
                out.append(ReasoningDelta(ri, o, plain))
            return
        if not isinstance(rd, list):
            _invalid(
                out,
                record,
                f"delta.reasoning_details of choice {o} is not a list: {quote(rd)}; it is ignored.",
            )
            if plain:
                out.append(ReasoningDelta(ri, o, plain))
            return
        pieces: list[tuple[str, str]] = []
        metas: list[ReasoningMeta] = []
        for item in rd:
            if not isinstance(item, dict):
                continue
            t = item.get("type")
            if t == "reasoning.text":
                text = item.get("text")
                if isinstance(text, str) and text:
                    pieces.append((text, "text"))
                sig = item.get("signature")
                if isinstance(sig, str) and sig:
                    metas.append(ReasoningMeta(ri, o, None, sig))
            elif t == "reasoning.summary":
                text = item.get("summary")
                if isinstance(text, str) and text:
                    pieces.append((text, "summary"))
            elif t == "reasoning.encrypted":
                data = item.get("data")
                if isinstance(data, str) and data:
                    metas.append(ReasoningMeta(ri, o, None, None, None, data))
            elif self._once(
                "openai-chat.unknown-reasoning-detail", t if isinstance(t, str) else None
            ):
                out.append(diag("openai-chat.unknown-reasoning-detail", record, detail_type=t))
        if plain:
            joined = "".join(p[0] for p in pieces)
            kind = "text"
            if joined == plain:
                if all(p[1] == "summary" for p in pieces):
                    kind = "summary"
            elif joined and self._once("openai-chat.reasoning-fields-differ", o):
                out.append(
                    diag(
                        "openai-chat.reasoning-fields-differ",
                        record,
                        form="details",
                        plain=plain,
                        joined=joined,
                        choice=o,
                    )
                )
            out.append(ReasoningDelta(ri, o, plain, None, kind))
        else:
            for text, kind in pieces:
                out.append(ReasoningDelta(ri, o, text, None, kind))
        out.extend(metas)

    def _content_parts(
        self, parts: list[Any], o: int, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Mistral-style content arrays of typed chunks."""
        ri = record.index
        for part in parts:
            if isinstance(part, str):
                if part:
                    out.append(TextDelta(ri, o, part))
                continue
            if not isinstance(part, dict):
                continue
            t = part.get("type")
            if t == "text":
                text = part.get("text")
                if isinstance(text, str) and text:
                    out.append(TextDelta(ri, o, text))
            elif t == "thinking":
                thinking = part.get("thinking")
                if isinstance(thinking, str):
                    if thinking:
                        out.append(ReasoningDelta(ri, o, thinking))
                elif isinstance(thinking, list):
                    for item in thinking:
                        if isinstance(item, str):
                            text = item
                        elif isinstance(item, dict):
                            text = item.get("text")
                        else:
                            continue
                        if isinstance(text, str) and text:
                            out.append(ReasoningDelta(ri, o, text))
            elif t == "reference":
                out.append(Citation(ri, o, part))
            elif self._once("openai-chat.unknown-content-part", t if isinstance(t, str) else None):
                out.append(diag("openai-chat.unknown-content-part", record, part_type=t, choice=o))

    # ------------------------------------------------------------------ tool calls

    def _name(self, name: Any, o: int, record: DataRecord, out: list[AdapterOutput]) -> str | None:
        if name is None or isinstance(name, str):
            return name
        out.append(diag("openai-chat.tool-name-not-string", record, choice=o, name=name))
        return None

    def _arguments(
        self, args: Any, o: int, record: DataRecord, out: list[AdapterOutput]
    ) -> str | None:
        if args is None or isinstance(args, str):
            return args
        text = compact_json(args)
        out.append(
            diag(
                "openai-chat.tool-arguments-not-string",
                record,
                choice=o,
                name=type(args).__name__,
                args=args,
            )
        )
        return text

    def _parallel_wrapper(
        self, o: int, call: object, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Report the ``multi_tool_use.parallel`` pseudo-tool once per call."""
        if not self._once("openai-chat.parallel-wrapper", (o, call)):
            return
        out.append(
            diag(
                "openai-chat.parallel-wrapper", record, choice=o, parallel_wrapper=_PARALLEL_WRAPPER
            )
        )

    def _tool_calls(
        self, entries: Any, o: int, st: _Choice, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        ri = record.index
        if not isinstance(entries, list):
            how = "it is read as a one-entry list" if isinstance(entries, dict) else "it is ignored"
            _invalid(
                out,
                record,
                f"delta.tool_calls of choice {o} is not a list: {quote(entries)}; {how}.",
            )
            if not isinstance(entries, dict):
                return
            entries = [entries]
        st.tools = True
        here: set[int] | None = None
        for e in entries:
            if not isinstance(e, dict):
                _invalid(
                    out,
                    record,
                    f"a delta.tool_calls entry of choice {o} is not an object: {quote(e)}; it is skipped.",
                )
                continue
            get = e.get
            idx = get("index")
            if type(idx) is not int:
                if idx is not None:
                    _invalid(
                        out,
                        record,
                        f"a tool call index of choice {o} is not an integer: {quote(idx)}; "
                        "it is treated as absent.",
                    )
                    idx = None
                if self._once("tool.missing-index", o):
                    out.append(diag("tool.missing-index", record, form="choice", choice=o))
            cid = get("id")
            if cid is not None and not isinstance(cid, str):
                out.append(diag("openai-chat.tool-id-not-string", record, choice=o, cid=cid))
                cid = None
            ctype = get("type")
            if not isinstance(ctype, str):
                ctype = None
            kind = "function"
            fmt = "json"
            fn = get("function")
            args_key = "arguments"
            if fn is None:
                custom = get("custom")
                if isinstance(custom, dict):
                    fn = custom
                    kind = "custom"
                    fmt = "text"
                    args_key = "input"
            name: str | None = None
            args: str | None = None
            if isinstance(fn, dict):
                name = self._name(fn.get("name"), o, record, out)
                args = self._arguments(fn.get(args_key), o, record, out)
            elif fn is not None:
                _invalid(
                    out,
                    record,
                    f"a tool call `function` of choice {o} is not an object: {quote(fn)}; it is ignored.",
                )
            if idx is not None:
                if here is None:
                    here = {idx}
                elif idx in here:
                    out.append(diag("openai-chat.duplicate-tool-index", record, choice=o, idx=idx))
                else:
                    here.add(idx)
                known = st.index_ids
                prev = known.get(idx)
                if prev is None:
                    if idx != len(known) and self._once("openai-chat.tool-index-gap", o):
                        out.append(
                            diag(
                                "openai-chat.tool-index-gap",
                                record,
                                choice=o,
                                idx=idx,
                                n_known=len(known),
                            )
                        )
                    known[idx] = cid or ""
                else:
                    if cid:
                        if prev and cid != prev:
                            out.append(
                                diag(
                                    "openai-chat.tool-index-reused",
                                    record,
                                    idx=idx,
                                    choice=o,
                                    cid=cid,
                                    prev=prev,
                                )
                            )
                            known[idx] = cid
                        elif not prev:
                            known[idx] = cid
                    if (
                        st.last_index is not None
                        and idx != st.last_index
                        and self._once("openai-chat.tool-calls-interleaved", o)
                    ):
                        out.append(
                            diag(
                                "openai-chat.tool-calls-interleaved",
                                record,
                                idx=idx,
                                choice=o,
                                last_index=st.last_index,
                            )
                        )
                st.last_index = idx
            if name == _PARALLEL_WRAPPER:
                self._parallel_wrapper(o, idx if idx is not None else cid, record, out)
            out.append(ToolCallDelta(ri, o, idx, cid, name, args, ctype, kind, fmt))

    # ------------------------------------------------------------------ other pieces

    def _message(
        self,
        message: dict[str, Any],
        o: int,
        st: _Choice,
        calls: bool,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """A ``choices[].message`` snapshot (old Perplexity chunks, a whole completion)."""
        ri = record.index
        content = message.get("content")
        if isinstance(content, str):
            out.append(Snapshot(ri, o, "text", content))
        refusal = message.get("refusal")
        if isinstance(refusal, str):
            out.append(Snapshot(ri, o, "refusal", refusal))
        reasoning = message.get("reasoning_content")
        if not isinstance(reasoning, str):
            reasoning = message.get("reasoning")
        if isinstance(reasoning, str):
            out.append(Snapshot(ri, o, "reasoning", reasoning))
        tool_calls = message.get("tool_calls")
        if calls and isinstance(tool_calls, list):
            for pos, e in enumerate(tool_calls):
                if not isinstance(e, dict):
                    continue
                fn = e.get("function")
                fn = fn if isinstance(fn, dict) else {}
                cid = e.get("id")
                idx = e.get("index")
                st.tools = True
                out.append(
                    ToolCall(
                        ri,
                        o,
                        idx if type(idx) is int else pos,
                        cid if isinstance(cid, str) else None,
                        self._name(fn.get("name"), o, record, out),
                        self._arguments(fn.get("arguments"), o, record, out) or "",
                    )
                )

    def _citations_of(self, cits: list[Any], ri: int, out: list[AdapterOutput]) -> None:
        """Top-level citations (Perplexity repeats the whole list on every chunk): each once."""
        seen = self._citations
        for c in cits:
            if isinstance(c, str):
                key = c
            elif isinstance(c, dict) and isinstance(c.get("url"), str):
                key = c["url"]
            else:
                key = compact_json(c)
            if key not in seen:
                seen.add(key)
                out.append(Citation(ri, 0, c))

    def _filtered(
        self, results: dict[str, Any], what: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Azure content-filter results: report each category that filtered, once."""
        for category, res in results.items():
            if (
                isinstance(res, dict)
                and res.get("filtered") is True
                and self._once("openai-chat.content-filtered", (what, category))
            ):
                out.append(
                    diag(
                        "openai-chat.content-filtered",
                        record,
                        what=what,
                        category=category,
                        res=res,
                    )
                )

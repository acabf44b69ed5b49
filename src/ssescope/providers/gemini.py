"""Google Gemini / Vertex AI ``streamGenerateContent``.

Theory of operation
===================

Every record is one ``GenerateContentResponse`` chunk, whatever the framing: an SSE event
(``alt=sse``: ``data:`` lines, CRLF line ends, no terminator event), an element of the
streamed JSON array (no ``alt=sse``), or a line of a JSONL dump. A chunk carries
``candidates[]`` (one per requested candidate, keyed by ``index``; Vertex often omits the
index, which then means 0), ``usageMetadata`` (cumulative: the latest report wins),
``promptFeedback`` (only when the prompt itself was blocked), ``modelVersion`` and
``responseId``.

Parts of ``candidates[].content.parts``:

* ``text`` is reply text; with ``thought: true`` it is a reasoning summary.
* ``thoughtSignature`` may sit on any part (even an otherwise empty ``{"text": ""}``); it
  is opaque replay data, reported as :class:`ReasoningMeta`, never as text.
* ``functionCall {name, args?, id?}`` is a whole call (``args`` is an object, absent for
  a call without arguments). Each call gets its own synthetic ``index`` so that calls
  without ids stay separate in the aggregator.
* Gemini 3 streams arguments: ``{name, willContinue: true}`` opens a call,
  ``{partialArgs: [{jsonPath, stringValue|numberValue|boolValue|nullValue, ...}],
  willContinue: true}`` fragments fill it (string values of one path concatenate), and an
  empty ``functionCall: {}`` closes it. The adapter builds the arguments object and emits
  one :class:`ToolCall` when the call ends. Some captures never send the empty
  terminator: their last fragment simply lacks ``willContinue``; that fragment is read as
  the end (``gemini.function-call-end-inferred``, info). A call still open when a new
  call starts, when its candidate's ``finishReason`` arrives, or at the end of the body is
  emitted with ``complete=False`` (``gemini.unterminated-function-call``).
* ``executableCode`` is a provider-executed call (a ``server`` :class:`ToolCall` named
  ``code_execution``); ``codeExecutionResult`` is its result (:class:`ServerToolResult`);
  ``inlineData`` with an ``audio/*`` type is :class:`Audio`, other inline data and
  ``fileData`` are reported by size only (``gemini.inline-data``, info): base64 never
  becomes text. ``functionResponse`` parts are known and carry nothing for the reply.

End of a response: Gemini sends no end event; the chunk that gives a candidate its
``finishReason`` is the marker. A :class:`Terminal` is emitted once every candidate seen
has finished (``completed`` for STOP, ``incomplete`` for length / content filters /
other reasons, ``failed`` for the tool-call failures). A prompt blocked before any
candidate (``promptFeedback.blockReason``) ends the response as ``incomplete``. An
``{"error": {...}}`` object (also array-wrapped, also written without ``data:`` inside an
SSE body) is a :class:`ProviderError` and ends the response as ``failed``. The same rules
hold in every framing: the JSON array's closing ``]`` is checked by the framer.
"""

from __future__ import annotations

import re
from typing import ClassVar, cast

from ..diagnostics import Diagnostic, build, quote
from ..errors import UsageError
from ..events import (
    JSON,
    Audio,
    Citation,
    Finish,
    FinishReason,
    ReasoningDelta,
    ReasoningMeta,
    ResponseStart,
    ServerToolResult,
    Status,
    Terminal,
    TextDelta,
    ToolCall,
    Unknown,
    Usage,
)
from ..framing.records import DataRecord
from ..incremental import CLOSE_TWICE
from ._base import (
    INVALID,
    AdapterOutput,
    compact_json,
    decode_json,
    diag,
    error_fields,
    provider_error,
    refuse_feed,
    token_count,
)

__all__ = ["GeminiAdapter", "finish_status", "map_finish_reason"]

_FILTER_REASONS = frozenset(
    {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"}
)
_TOOL_FAILURES = frozenset(
    {"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"}
)

_STATUS_RANK: dict[str, int] = {"completed": 0, "incomplete": 1, "failed": 2}

_USAGE_KEYS = (
    ("promptTokenCount", "input_tokens"),
    ("candidatesTokenCount", "output_tokens"),
    ("totalTokenCount", "total_tokens"),
    ("thoughtsTokenCount", "reasoning_tokens"),
    ("cachedContentTokenCount", "cached_input_tokens"),
)

# Part keys that carry no content of their own.
_PART_META_KEYS = frozenset(
    {"thought", "thoughtSignature", "partMetadata", "videoMetadata", "mediaResolution"}
)

_PATH_TOKEN = re.compile(
    r"""\.([^.\[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]"""
)
_VALUE_KEYS = ("stringValue", "numberValue", "boolValue", "nullValue", "structValue", "listValue")


def map_finish_reason(raw: str) -> FinishReason:
    """Map a Gemini ``finishReason`` to the unified finish reason.

    STOP is a natural stop (also for tool-calling turns, which Gemini ends with STOP);
    MAX_TOKENS is ``length``; the safety, recitation, blocklist, PII and ``IMAGE_*``
    reasons are ``content_filter``; the tool-call failures are ``error``; everything else
    (LANGUAGE, OTHER, NO_IMAGE, unknown values) is ``other``.
    """
    if raw == "STOP":
        return "stop"
    if raw == "MAX_TOKENS":
        return "length"
    if raw in _FILTER_REASONS or raw.startswith("IMAGE_"):
        return "content_filter"
    if raw in _TOOL_FAILURES:
        return "error"
    return "other"


def finish_status(raw: str) -> Status:
    """The status a Gemini ``finishReason`` gives its candidate: STOP is ``completed``,
    the tool-call failures are ``failed``, anything else is ``incomplete``."""
    if raw == "STOP":
        return "completed"
    return "failed" if raw in _TOOL_FAILURES else "incomplete"


def _parse_path(path: str) -> list[str | int] | None:
    """``$.a.b[0]['c d']`` -> ``["a", "b", 0, "c d"]``; ``None`` if it is not a path."""
    if not path.startswith("$"):
        return None
    tokens: list[str | int] = []
    pos = 1
    n = len(path)
    while pos < n:
        m = _PATH_TOKEN.match(path, pos)
        if m is None:
            return None
        name, idx, single, double = m.groups()
        if name is not None:
            tokens.append(name)
        elif idx is not None:
            tokens.append(int(idx))
        else:
            quoted = single if single is not None else double
            tokens.append(re.sub(r"\\(.)", r"\1", quoted))
        pos = m.end()
    return tokens


class _StreamedCall:
    """A Gemini 3 function call whose arguments arrive as ``partialArgs`` fragments."""

    __slots__ = ("args", "id", "index", "name")

    def __init__(self, name: str | None, call_id: str | None, index: int) -> None:
        self.name = name
        self.id = call_id
        self.index = index
        self.args: dict[str, JSON] = {}

    def set(self, tokens: list[str | int], value: JSON) -> bool:
        """Put ``value`` at ``tokens``; strings concatenate with a string already there.

        Returns ``False`` when the path contradicts what is already built (an index
        into an object, a key into an array, a path through a scalar).
        """
        if not tokens:
            if isinstance(value, dict):
                self.args.update(value)
                return True
            return False
        node: dict[str, JSON] | list[JSON] = self.args
        last = len(tokens) - 1
        for i, tok in enumerate(tokens):
            if isinstance(tok, str):
                if not isinstance(node, dict):
                    return False
                existing = node.get(tok)
                if i == last:
                    if isinstance(value, str) and isinstance(existing, str):
                        node[tok] = existing + value
                    else:
                        node[tok] = value
                    return True
                if existing is None:
                    existing = node[tok] = [] if isinstance(tokens[i + 1], int) else {}
            else:
                if not isinstance(node, list):
                    return False
                if len(node) <= tok:
                    node.extend([None] * (tok + 1 - len(node)))
                existing = node[tok]
                if i == last:
                    if isinstance(value, str) and isinstance(existing, str):
                        node[tok] = existing + value
                    else:
                        node[tok] = value
                    return True
                if existing is None:
                    existing = node[tok] = [] if isinstance(tokens[i + 1], int) else {}
            if not isinstance(existing, (dict, list)):
                return False
            node = existing
        return True  # pragma: no cover - the loop always returns at the last token


class GeminiAdapter:
    """Adapter for Gemini ``streamGenerateContent`` in SSE, JSON-array and JSONL form."""

    _closed = False  # the Incremental contract: closed once, never fed after

    name: ClassVar[str] = "gemini"

    def __init__(self, framing: str) -> None:
        self.framing = framing
        self._started = False
        self._response_id: str | None = None
        self._terminated = False
        self._finished: dict[int, Status | None] = {}  # candidate -> status once finished
        self._raw_finish: dict[int, str] = {}
        self._open: dict[int, _StreamedCall] = {}  # candidate -> streamed call being built
        self._next_index: dict[int, int] = {}  # candidate -> next synthetic call index
        self._seen_citations: dict[int, set[str]] = {}
        self._paths: dict[str, list[str | int] | None] = {}
        self._last_index = 0  # where end-of-stream findings are located
        self._last_end = 0

    # -- public --------------------------------------------------------------------------

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one chunk (or error object) to events and diagnostics."""
        out: list[AdapterOutput] = []
        self._last_index = record.index
        self._last_end = record.end
        value, problem = decode_json(record)
        if problem is not None or value is INVALID:
            if record.data.strip() == "[DONE]":
                out.append(diag("gemini.unexpected-done", record))
            elif problem is not None:
                out.append(problem)
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
        if self._closed:
            raise UsageError(CLOSE_TWICE)
        self._closed = True
        refuse_feed(self)
        out: list[AdapterOutput] = []
        for output in list(self._open):
            self._abandon(output, None, "the stream ended", out)
        if self._started and not self._terminated:
            waiting = sorted(c for c, status in self._finished.items() if status is None)
            which = ", ".join(str(c) for c in waiting) if waiting else "0"
            out.append(self._end_diag("gemini.no-finish-reason", which=which))
        return out

    # -- chunks --------------------------------------------------------------------------

    def _value(self, value: JSON, record: DataRecord, out: list[AdapterOutput]) -> None:
        if not isinstance(value, dict):
            out.append(diag("gemini.unexpected-json", record, form="record", value=value))
            return
        if "error" in value:
            self._error(value, record, out)
            return
        self._chunk(value, record, out)

    def _error(self, value: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        err = value["error"]
        error_type, text, code_text = error_fields(err, compact_json, type_key="status")
        rec = record.index
        label = " ".join(x for x in (code_text, error_type) if x)
        provider_error(
            record,
            out,
            text,
            error_type,
            code_text,
            err,
            form="gemini",
            label=" (" + label + ")" if label else "",
            text=text,
        )
        # Calls left open by the error are unfinished.
        for output in list(self._open):
            self._abandon(output, record, "an error arrived", out)
        out.append(Terminal(rec, "failed", f"error {label}".strip()))
        self._terminated = True

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
                diag("gemini.unexpected-json", record, form="candidates", candidates=candidates)
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
                out.append(diag("gemini.prompt-blocked", record, reason=reason, extra=extra))

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

    def _new_response(self) -> None:
        self._terminated = False
        self._finished = {}
        self._raw_finish = {}
        self._open = {}
        self._next_index = {}
        self._seen_citations = {}

    def _candidate(
        self, cand: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> int | None:
        """Map one candidate; return its index if it finished in this chunk."""
        rec = record.index
        idx = cand.get("index", 0)
        output = idx if isinstance(idx, int) and not isinstance(idx, bool) and idx >= 0 else 0
        if output not in self._finished:
            self._finished[output] = None
        content = cand.get("content")
        if isinstance(content, dict):
            parts = content.get("parts")
            if isinstance(parts, list):
                for part in parts:
                    if isinstance(part, dict):
                        self._part(part, output, record, out)
        citations = cand.get("citationMetadata")
        if isinstance(citations, dict):
            items = citations.get("citations", citations.get("citationSources"))
            if isinstance(items, list):
                for item in items:
                    self._citation(output, item, rec, out)
        grounding = cand.get("groundingMetadata")
        if isinstance(grounding, dict) and grounding:
            self._citation(output, {"groundingMetadata": grounding}, rec, out)
        raw = cand.get("finishReason")
        if not isinstance(raw, str) or not raw:
            return None
        if output in self._open:
            self._abandon(output, record, f"its candidate finished ({raw})", out)
        reason, status = map_finish_reason(raw), finish_status(raw)
        out.append(Finish(rec, output, reason, raw))
        if status == "failed":
            message = cand.get("finishMessage")
            extra = f": {quote(message, 200)}" if isinstance(message, str) else ""
            out.append(
                diag("gemini.tool-call-failed", record, output=output, raw_text=raw, extra=extra)
            )
        if self._finished.get(output) is None:
            self._finished[output] = status
            self._raw_finish[output] = raw
        return output

    def _citation(self, output: int, item: JSON, rec: int, out: list[AdapterOutput]) -> None:
        # Gemini may restate citation / grounding metadata on later chunks: keep each once.
        key = compact_json(item)
        seen = self._seen_citations.setdefault(output, set())
        if key not in seen:
            seen.add(key)
            out.append(Citation(rec, output, item))

    # -- parts ---------------------------------------------------------------------------

    def _part(
        self, part: dict[str, JSON], output: int, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        rec = record.index
        text = part.get("text")
        if isinstance(text, str):
            if text:
                if part.get("thought") is True:
                    out.append(ReasoningDelta(rec, output, text, None, "summary"))
                else:
                    out.append(TextDelta(rec, output, text))
        elif "functionCall" in part:
            call = part["functionCall"]
            if isinstance(call, dict):
                self._function_call(call, output, record, out)
            else:
                out.append(diag("gemini.invalid-function-call", record, call=call))
        elif "executableCode" in part:
            code = part["executableCode"]
            call_id = code.get("id") if isinstance(code, dict) else None
            out.append(
                ToolCall(
                    rec,
                    output,
                    self._take_index(output),
                    call_id if isinstance(call_id, str) else None,
                    "code_execution",
                    compact_json(code),
                    "server",
                )
            )
        elif "codeExecutionResult" in part:
            result = part["codeExecutionResult"]
            call_id = result.get("id") if isinstance(result, dict) else None
            out.append(
                ServerToolResult(
                    rec,
                    output,
                    call_id if isinstance(call_id, str) else None,
                    "code_execution_result",
                    result,
                )
            )
        elif "inlineData" in part or "fileData" in part:
            self._media(part, output, record, out)
        elif "functionResponse" in part:
            pass  # a tool result echoed in the content: nothing for the reply
        else:
            unknown = [k for k in part if k not in _PART_META_KEYS]
            if unknown:
                out.append(Unknown(rec, "part." + unknown[0], part))
        signature = part.get("thoughtSignature")
        if isinstance(signature, str) and signature:
            out.append(ReasoningMeta(rec, output, None, signature))

    def _media(
        self, part: dict[str, JSON], output: int, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        inline = part.get("inlineData")
        if isinstance(inline, dict):
            mime = inline.get("mimeType")
            mime = mime if isinstance(mime, str) else None
            data = inline.get("data")
            data = data if isinstance(data, str) else ""
            if mime is not None and mime.startswith("audio/"):
                out.append(Audio(record.index, output, data, None, mime))
                return
            size = len(data) * 3 // 4 - data[-2:].count("=")
            out.append(
                diag(
                    "gemini.inline-data",
                    record,
                    form="inline",
                    output=output,
                    mime=mime,
                    max=max(size, 0),
                )
            )
            return
        file_data = part.get("fileData")
        if isinstance(file_data, dict):
            mime = file_data.get("mimeType")
            uri = file_data.get("fileUri")
            out.append(
                diag("gemini.inline-data", record, form="file", output=output, mime=mime, uri=uri)
            )

    def _end_diag(self, code: str, *, form: str | None = None, **args: object) -> Diagnostic:
        return build(code, args, self._last_end, self._last_index, None, form)

    def _take_index(self, output: int) -> int:
        index = self._next_index.get(output, 0)
        self._next_index[output] = index + 1
        return index

    # -- function calls ------------------------------------------------------------------

    def _function_call(
        self, fc: dict[str, JSON], output: int, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        rec = record.index
        name = fc.get("name")
        name = name if isinstance(name, str) and name else None
        call_id = fc.get("id")
        call_id = call_id if isinstance(call_id, str) and call_id else None
        partial = fc.get("partialArgs")
        cont = fc.get("willContinue") is True
        current = self._open.get(output)

        if partial is None and not cont:
            if name is None and call_id is None and "args" not in fc:
                # The empty terminator of a streamed call.
                if current is not None:
                    self._finish_call(output, rec, True, out)
                else:
                    out.append(diag("gemini.stray-function-call-end", record))
                return
            # A whole call.
            if current is not None:
                self._abandon(output, record, "a new function call started", out)
            args = fc.get("args")
            arguments = "{}" if args is None else compact_json(args)
            out.append(ToolCall(rec, output, self._take_index(output), call_id, name, arguments))
            return

        # A streamed call: a start, or argument fragments.
        if current is not None and name is not None and (partial is None or name != current.name):
            self._abandon(output, record, "a new function call started", out)
            current = None
        if current is None:
            if name is None:
                out.append(diag("gemini.orphan-partial-args", record))
            current = _StreamedCall(name, call_id, self._take_index(output))
            self._open[output] = current
            args = fc.get("args")
            if isinstance(args, dict):
                current.args.update(args)
        elif current.id is None and call_id is not None:
            current.id = call_id
        if partial is not None:
            if isinstance(partial, list):
                for fragment in partial:
                    self._fragment(current, fragment, record, out)
            else:
                out.append(
                    diag("gemini.invalid-partial-args", record, form="not-a-list", partial=partial)
                )
            if not cont:
                out.append(diag("gemini.function-call-end-inferred", record, name=current.name))
                self._finish_call(output, rec, True, out)

    def _fragment(
        self, call: _StreamedCall, fragment: JSON, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if not isinstance(fragment, dict):
            self._bad_fragment(fragment, "it is not an object", record, out)
            return
        path = fragment.get("jsonPath")
        if not isinstance(path, str):
            self._bad_fragment(fragment, "it has no jsonPath", record, out)
            return
        if path in self._paths:
            tokens = self._paths[path]
        else:
            tokens = self._paths[path] = _parse_path(path)
        if tokens is None:
            self._bad_fragment(fragment, "its jsonPath is not a path", record, out)
            return
        for key in _VALUE_KEYS:
            if key in fragment:
                value = None if key == "nullValue" else fragment[key]
                break
        else:
            if fragment.get("willContinue") is True:
                return  # nothing yet for this path
            self._bad_fragment(fragment, "it carries no value", record, out)
            return
        if not call.set(tokens, value):
            self._bad_fragment(
                fragment, "its path contradicts the arguments built so far", record, out
            )

    @staticmethod
    def _bad_fragment(
        fragment: JSON, why: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        out.append(
            diag("gemini.invalid-partial-args", record, form="fragment", why=why, fragment=fragment)
        )

    def _finish_call(self, output: int, rec: int, complete: bool, out: list[AdapterOutput]) -> None:
        call = self._open.pop(output)
        out.append(
            ToolCall(
                rec,
                output,
                call.index,
                call.id,
                call.name,
                compact_json(call.args),
                complete=complete,
            )
        )

    def _abandon(
        self, output: int, record: DataRecord | None, why: str, out: list[AdapterOutput]
    ) -> None:
        call = self._open[output]
        code = "gemini.unterminated-function-call"
        if record is None:
            out.append(self._end_diag(code, name=call.name, output=output, why=why))
            self._finish_call(output, self._last_index, False, out)
        else:
            out.append(diag(code, record, name=call.name, output=output, why=why))
            self._finish_call(output, record.index, False, out)

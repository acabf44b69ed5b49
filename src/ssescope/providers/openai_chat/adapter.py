"""The Chat Completions adapter: records in, dispatched by shape (see the package docstring)."""

from __future__ import annotations

from typing import Any, cast

from orjson import JSONDecodeError
from orjson import loads as _loads

from ...diagnostics import diagnostic, quote
from ...events import JSON, ResponseStart, Terminal, TextDelta, Unknown, Usage
from ...framing.records import DataRecord
from ...limits import decoded_may_be_too_deep
from .._base import (
    AdapterOutput,
    close_once,
    decode_json,
    diag,
    not_streamed,
    refuse_feed_after_close,
)
from .choices import _ChatChoices
from .maps import _usage_values
from .state import (
    _CHOICE_RARE,
    _CHUNK_KEYS,
    _DELTA_RARE,
    _DONE,
    _KNOWN_OBJECTS,
    _TOP_RARE,
    _invalid,
    _is_whole,
)


class OpenAIChatAdapter(_ChatChoices):
    """Adapter for OpenAI Chat Completions chunk streams and compatible servers.

    Args:
        framing: the framing the records came from. ``"sse"`` carries ``data: [DONE]``;
            any other framing (a JSONL dump, a JSON array) does not, so there the
            response is complete when every choice that appeared got a finish reason.
    """

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one record (a chunk, ``[DONE]`` or an error frame) to events and diagnostics."""
        if self._closed:
            refuse_feed_after_close()
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
                if type(obj) is dict and not decoded_may_be_too_deep(data):
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
        close_once(self)
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
                f"every choice finished ({self._finish_summary()}); {self._framing} framing has no [DONE]"
                + self._refused_phrase(),
            )
        ]

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

    def _chunk(self, obj: dict[str, Any], record: DataRecord) -> list[AdapterOutput]:
        choices = obj.get("choices")
        obj_type = obj.get("object")
        if (
            type(choices) is list
            and len(choices) == 1
            and obj_type == "chat.completion.chunk"
            and self._started
            and obj.get("id") == self._id
            and _TOP_RARE.isdisjoint(obj)
            and obj.get("usage") is None
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
            key = obj.get("type") or obj_type or "chunk-without-choices"
            out.append(
                Unknown(record.index, key if isinstance(key, str) else "chunk-without-choices", obj)
            )
            return out
        cid = obj.get("id")
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
        if (
            obj_type != "chat.completion.chunk"
            or not _TOP_RARE.isdisjoint(obj)
            or obj.get("usage") is not None
        ):
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
                    f"a whole chat.completion, not streamed (finish_reason {self._finish_summary()})"
                    + self._refused_phrase(),
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
                        f"every choice finished ({self._finish_summary()}) before the next response"
                        + self._refused_phrase(),
                    )
                )
        self._reset()
        self._id = cid
        self._started = True
        model = obj.get("model")
        out.append(
            ResponseStart(record.index, cid, model if isinstance(model, str) and model else None)
        )

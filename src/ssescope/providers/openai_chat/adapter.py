"""The Chat Completions adapter: records in, dispatched by shape (see the package docstring)."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from orjson import JSONDecodeError
from orjson import loads as _loads

from ... import codes as shared
from ...diagnostics import diagnostic, quote
from ...events import JSON, ResponseStart, Terminal, TextDelta, Unknown, Usage
from ...framing.records import DataRecord
from ...limits import SHALLOW_JSON_CHARS, decoded_may_be_too_deep
from .._base import (
    AdapterBase,
    AdapterOutput,
    decode_json,
    diag,
    not_streamed,
    refuse_feed_after_close,
)
from . import codes
from .choices import map_choice
from .maps import _usage_values
from .parts import citations_of, filtered
from .shape import ChunkShape, chunk_shape, raw
from .state import (
    _CHUNK_KEYS,
    _DONE,
    _KNOWN_OBJECTS,
    _invalid,
    _is_whole,
    _Response,
    outputs_phrase,
    plain_choice,
    plain_chunk,
    plain_delta,
)

_SHAPE_DUDS = 3
"""How many shapes that fitted nothing end the making of shapes for a stream."""


class OpenAIChatAdapter(AdapterBase):
    """Adapter for OpenAI Chat Completions chunk streams and compatible servers.

    Args:
        framing: the framing the records came from. ``"sse"`` carries ``data: [DONE]``;
            any other framing (a JSONL dump, a JSON array) does not, so there the
            response is complete when every choice that appeared got a finish reason.
    """

    name: ClassVar[str] = "openai-chat"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._sse = framing == "sse"
        self._last: DataRecord | None = None
        self._resp = _Response()
        self._shape: ChunkShape | None = None
        self._shape_at = 0  # (the record it was made from)
        self._shape_misses = 0
        self._shape_duds = 0

    def feed(self, record: DataRecord) -> list[AdapterOutput]:
        """Map one record (a chunk, ``[DONE]`` or an error frame) to events and diagnostics."""
        if self._closed:
            refuse_feed_after_close()
        self._last = record
        data = record.data
        shape = self._shape
        if shape is not None and record.event != "error":
            # The commonest chunk again, with other text (see shape.py): no decoding.
            text = shape.text(data)
            if text is not None:
                resp = self._resp
                output = shape.output
                if resp.started and resp.id == shape.id and output in resp.choices:
                    return [TextDelta(record.index, output, text)] if text else []
        if data[:1] != "{" or record.event == "error":
            return self._other(record)
        # The hot path: a chunk object. Anything orjson refuses takes the slow path, which
        # retries with the standard library and reports invalid JSON, and so does a record
        # with many brackets (its depth is checked there; a short one cannot be too deep).
        try:
            obj = _loads(data)
        except JSONDecodeError:
            return self._other(record)
        if type(obj) is not dict or (
            len(data) > SHALLOW_JSON_CHARS and decoded_may_be_too_deep(data)
        ):
            return self._other(record)
        choices = obj.get("choices")
        obj_type = obj.get("object")
        resp = self._resp
        if (
            type(choices) is list
            and len(choices) == 1
            and obj_type == "chat.completion.chunk"
            and resp.started
            and obj.get("id") == resp.id
            and plain_chunk(obj)
            and obj.get("usage") is None
        ):
            # The shape of almost every chunk: one known choice with a plain content delta
            # and no finish reason. Same result as the general path (_chunk), with a third
            # of its work (it is most of the adapter's time on long replies).
            ch = choices[0]
            if type(ch) is dict and ch.get("finish_reason") is None and plain_choice(ch):
                o = ch.get("index")
                delta = ch.get("delta")
                if (
                    type(o) is int
                    and o in resp.choices
                    and type(delta) is dict
                    and plain_delta(delta)
                ):
                    content = delta.get("content")
                    if type(content) is str:
                        if content and self._shape_duds < _SHAPE_DUDS and raw(content):
                            self._learn(data, obj, content, o, record.index)
                        return [TextDelta(record.index, o, content)] if content else []
                    if content is None:
                        return []
        return self._chunk(obj, record)

    def _learn(self, data: str, obj: dict[str, Any], content: str, o: int, index: int) -> None:
        """Keep the shape of a chunk the fast path read (raw ``content``) when none is kept,
        or when the one kept has stopped fitting the chunks; after three shapes that fitted
        nothing, stop trying for this stream. (How often a shape is made changes the work,
        never the events.)"""
        if self._shape is not None:
            self._shape_misses += 1
            if self._shape_misses < 4:
                return
            if index - self._shape_at > 8 * self._shape_misses:
                self._shape_misses = 0  # (most records since it was made fitted it)
                return
            self._shape_duds += 1
            self._shape = None
        if self._shape_duds >= _SHAPE_DUDS:
            return
        shape = chunk_shape(data, obj, content, o)
        if shape is None:
            self._shape_duds += 1
            return
        self._shape, self._shape_at, self._shape_misses = shape, index, 0

    def _other(self, record: DataRecord) -> list[AdapterOutput]:
        """Every record that is not a plain JSON chunk object."""
        data = record.data
        if record.event == "error":
            return self._error_event(record)
        if data.startswith(_DONE) or (data[:1].isspace() and data.strip().startswith(_DONE)):
            return self._done(record)
        if not data or data.isspace():
            return [diag(codes.EMPTY_DATA, record, data=data)]
        obj, bad = decode_json(record)
        if bad is not None:
            return [bad]
        if not isinstance(obj, dict):
            kind = type(obj).__name__
            out: list[AdapterOutput] = []
            _invalid(out, record, "record", obj, kind=kind)
            out.append(Unknown(record.index, f"json-{kind}", cast("JSON", obj)))
            return out
        return self._chunk(obj, record)

    def _unfinished(self) -> list[AdapterOutput]:
        """End of the stream: judge how it ended when no end marker came."""
        last = self._last
        resp = self._resp
        if resp.terminated:
            return []
        choices = resp.choices
        missing = resp.missing()
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
                    shared.STREAM_MISSING_DONE,
                    offset,
                    rec,
                    form=form,
                    outputs=outputs_phrase(missing),
                )
            ]
        if not choices or last is None:
            return []
        if missing:
            return [
                diagnostic(
                    codes.MISSING_FINISH,
                    offset,
                    rec,
                    outputs_phrase=outputs_phrase(missing),
                )
            ]
        status = resp.status()
        resp.terminated = True
        return [
            Terminal(
                last.index,
                status,
                f"every choice finished ({resp.finish_summary()}); {self.framing} framing has no [DONE]"
                + resp.refused_phrase(),
            )
        ]

    def _done(self, record: DataRecord) -> list[AdapterOutput]:
        out: list[AdapterOutput] = []
        data = record.data.strip()
        if data != _DONE:
            out.append(diag(codes.MALFORMED_DONE, record, data=data))
        resp = self._resp
        if resp.terminated:
            if resp.done_seen:
                out.append(diag(codes.DUPLICATE_DONE, record))
            resp.done_seen = True
            return out
        resp.done_seen = True
        resp.end_marker(record, "[DONE]", out)
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
        resp = self._resp
        resp.provider_error(err, record, out)
        if not resp.terminated:
            out.append(Terminal(record.index, "failed", "event: error"))
            resp.terminated = True
        return out

    def _chunk(self, obj: dict[str, Any], record: DataRecord) -> list[AdapterOutput]:
        """A chunk object, any shape (the general path: ``feed`` takes the commonest one)."""
        choices = obj.get("choices")
        obj_type = obj.get("object")
        resp = self._resp
        out: list[AdapterOutput] = []
        if choices is None and not self._is_chunk(obj, obj_type):
            key = obj.get("type") or obj_type or "chunk-without-choices"
            out.append(
                Unknown(record.index, key if isinstance(key, str) else "chunk-without-choices", obj)
            )
            return out
        cid = obj.get("id")
        if cid != resp.id or not resp.started:
            self._identity(cid, choices, obj, record, out)
            resp = self._resp  # (a new response may have started)
        if obj_type != "chat.completion.chunk":
            self._object_type(resp, obj_type, record, out)

        finished = False
        if type(choices) is list:
            for pos, ch in enumerate(choices):
                if type(ch) is dict:
                    if map_choice(resp, ch, pos, record, out):
                        finished = True
                else:
                    _invalid(out, record, "choice", ch, pos=pos)
        elif choices is not None:
            _invalid(out, record, "choices", choices)
        if (
            obj_type != "chat.completion.chunk"
            or not plain_chunk(obj)
            or obj.get("usage") is not None
        ):
            self._chunk_rest(resp, obj, obj_type, choices, finished, record, out)
        return out

    def _chunk_rest(
        self,
        resp: _Response,
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
                _invalid(out, record, "usage", usage)
        xg = get("x_groq")
        if isinstance(xg, dict):
            xu = xg.get("usage")
            if isinstance(xu, dict):
                out.append(Usage(ri, _usage_values(xu), xu, "x_groq.usage"))

        cits = get("citations")
        if cits is None:
            cits = get("search_results")
        if isinstance(cits, list) and cits:
            citations_of(resp, cits, ri, out)

        pfr = get("prompt_filter_results")
        if isinstance(pfr, list):
            for item in pfr:
                if isinstance(item, dict):
                    res = item.get("content_filter_results")
                    if isinstance(res, dict) and res:
                        filtered(resp, res, "the prompt", record, out)

        err = get("error")
        if err or obj_type == "error":
            resp.provider_error(err if err else obj, record, out)
            if not resp.terminated:
                out.append(Terminal(ri, "failed", "error chunk"))
                resp.terminated = True
        elif obj_type == "chat.completion.done" and not resp.terminated:
            resp.end_marker(record, "The chat.completion.done chunk", out)
        elif obj_type == "chat.completion" and _is_whole(choices) and not resp.terminated:
            _whole_completion(resp, record, out)

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
        resp = self._resp
        if isinstance(cid, str) and cid:
            if resp.id is None:
                resp.id = cid
                if not resp.started:
                    resp.started = True
                    out.append(ResponseStart(record.index, cid, _model(obj)))
            elif cid != resp.id:
                self._new_id(cid, obj, record, out)
        elif not resp.started and choices:
            resp.started = True
            out.append(ResponseStart(record.index, None, _model(obj)))

    @staticmethod
    def _object_type(
        resp: _Response, obj_type: Any, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        if (
            obj_type is not None
            and (not isinstance(obj_type, str) or obj_type not in _KNOWN_OBJECTS)
            and obj_type != "error"
            and resp.once(codes.UNEXPECTED_OBJECT, quote(obj_type))
        ):
            out.append(diag(codes.UNEXPECTED_OBJECT, record, obj_type=obj_type))

    def _new_id(
        self, cid: str, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A chunk with an id different from the response's."""
        resp = self._resp
        all_finished = resp.all_finished()
        # A new response needs content: a usage-only chunk with another id stays here.
        if not resp.terminated and not (all_finished and obj.get("choices")):
            if resp.once(codes.ID_CHANGED):
                out.append(
                    diag(
                        codes.ID_CHANGED,
                        record,
                        form="finished" if all_finished else "open",
                        cid=cid,
                        id=resp.id,
                    )
                )
            return
        if not resp.terminated:
            # Every choice finished but no end marker came before the next response.
            if self._sse:
                out.append(
                    diag(
                        shared.STREAM_MISSING_DONE,
                        record,
                        form="next-response",
                        id=resp.id,
                        cid=cid,
                    )
                )
            else:
                out.append(
                    Terminal(
                        record.index,
                        resp.status(),
                        f"every choice finished ({resp.finish_summary()}) before the next response"
                        + resp.refused_phrase(),
                    )
                )
        resp = self._resp = _Response()
        resp.id = cid
        resp.started = True
        out.append(ResponseStart(record.index, cid, _model(obj)))


def _model(obj: dict[str, Any]) -> str | None:
    """A chunk's ``model``, when it is a non-empty string."""
    model = obj.get("model")
    return model if isinstance(model, str) and model else None


def _whole_completion(resp: _Response, record: DataRecord, out: list[AdapterOutput]) -> None:
    """A whole ``chat.completion`` (not streamed): its choices' messages were taken as
    snapshots; it ends the response when every choice has a finish reason."""
    out.append(not_streamed("chat.completion object", record))
    if resp.all_finished():
        out.append(
            Terminal(
                record.index,
                resp.status(),
                f"a whole chat.completion, not streamed (finish_reason {resp.finish_summary()})"
                + resp.refused_phrase(),
            )
        )
        resp.terminated = True

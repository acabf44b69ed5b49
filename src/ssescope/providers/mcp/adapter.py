"""The MCP Streamable HTTP adapter: JSON-RPC messages in, the response's verdict out."""

from __future__ import annotations

from typing import ClassVar, cast

from ...codes.jsonrpc import JSONRPC_INVALID_ENVELOPE, JSONRPC_UNEXPECTED_JSON
from ...events import JSON, ResponseStart, Terminal, TextDelta
from ...framing.records import DataRecord, SSEEvent
from ...rpcrequest import rpc_id_text
from .._base import (
    INVALID,
    AdapterBase,
    AdapterOutput,
    compact_json,
    decode_record,
    diag,
)
from .._jsonrpc import Envelope, failed, read_envelope
from . import codes
from .event_ids import EventIds
from .notices import notification

__all__ = ["McpAdapter"]

_TOOL_FAILED = "the tool failed: isError: true in a successful JSON-RPC result"


def _result_text(result: JSON) -> str:
    """The text parts of a ``tools/call`` result, joined; else the result as compact JSON."""
    if isinstance(result, dict):
        content = result.get("content")
        if isinstance(content, list):
            texts: list[str] = []
            for part in content:
                text = part.get("text") if isinstance(part, dict) else None
                if isinstance(text, str):
                    texts.append(text)
            if texts:
                return "".join(texts)
    return compact_json(result)


def _messages(value: JSON) -> list[dict[str, JSON]] | None:
    """The JSON-RPC messages of a decoded record: one object, or a batch (a non-empty
    array of objects); ``None`` for any other value."""
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [v for v in value if isinstance(v, dict)]
    return None


class McpAdapter(AdapterBase):
    """Adapter for MCP Streamable HTTP responses (JSON-RPC over SSE).

    The response that ends the stream answers the request's id: the one
    :meth:`expect_request` was given (from a capture's request body), else the first
    response's (a batch response's ids, for a JSON array).
    """

    name: ClassVar[str] = "mcp"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._notifications = 0
        self._known = False  # whether the request's ids came with the source
        self._expected: tuple[str, ...] = ()
        self._pending: list[str] = []
        self._answered: set[str] = set()
        self._batch_failure: Terminal | None = None
        self._event_ids = EventIds()

    def expect_request(self, ids: tuple[str, ...]) -> None:
        """The ids of the request the stream answers (compact JSON text,
        :func:`ssescope.rpcrequest.request_ids`), when its source keeps the request."""
        if ids and not self._expected:
            self._known = True
            self._expected = ids
            self._pending = list(ids)

    def _read(self, record: DataRecord, out: list[AdapterOutput]) -> None:
        """Map one JSON-RPC message (or batch of them) to events and diagnostics."""
        if isinstance(record, SSEEvent):
            self._event_ids.check(record, out)
        self._note(record)
        value = decode_record(record, out)
        if value is INVALID:
            return
        obj = cast("JSON", value)  # (INVALID is out)
        messages = _messages(obj)
        if messages is None:
            out.append(diag(JSONRPC_UNEXPECTED_JSON, record, obj=obj))
            return
        if not self._started:
            out.insert(0, ResponseStart(record.index, None, None))
            self._started = True
        envelopes = [read_envelope(m) for m in messages]
        if not self._expected and len(envelopes) > 1:
            # a batch response with no request known: its responses are the answer
            self._expect_answered_by(envelopes)
        for env in envelopes:
            if env.problem is not None:
                out.append(diag(JSONRPC_INVALID_ENVELOPE, record, problem=env.problem))
            self._message(env, record, out)

    def _expect_answered_by(self, envelopes: list[Envelope]) -> None:
        ids = [rpc_id_text(e.id) for e in envelopes if e.kind in ("response", "error")]
        self._expected = tuple(dict.fromkeys(ids))
        self._pending = list(self._expected)

    def _message(self, env: Envelope, record: DataRecord, out: list[AdapterOutput]) -> None:
        if env.kind in ("notification", "request"):
            self._notifications += 1  # a record before the response, kept as its frame
            out.append(notification(record.index, env))
            return
        if env.kind == "invalid":
            return
        if self._ended:
            out.append(diag(codes.AFTER_RESPONSE, record))
            return
        key = rpc_id_text(env.id)
        if not self._expected:  # no request known: the first response is the answer
            self._expected = (key,)
            self._pending = [key]
        if key not in self._pending:
            if env.kind == "error" and env.id is None and len(self._pending) == 1:
                key = self._pending[0]  # (an error that could not read the request's id)
            elif key in self._answered:
                out.append(diag(codes.AFTER_RESPONSE, record))
                return
            else:
                want = ", ".join(self._pending)
                out.append(diag(codes.UNMATCHED_RESPONSE, record, got=key, want=want))
                return
        self._pending.remove(key)
        self._answered.add(key)
        self._answer(env, key, record, out)

    def _reason(self, what: str, key: str) -> str:
        """The status reason of the answer to ``key``: which id it answered, and how
        that id was known."""
        if len(self._expected) > 1:
            return f"{what} to id {key}, the last of a batch of {len(self._expected)}"
        if self._known:
            return f"{what} to the request's id {key}"
        return f"{what} to id {key}, the first response (the request is not known)"

    def _answer(
        self, env: Envelope, key: str, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        rec = record.index
        got: list[AdapterOutput] = []
        if env.kind == "error":
            failed(record, env.error, got, codes.ERROR, self._reason("JSON-RPC error", key))
        else:
            result = env.result
            text = _result_text(result)
            got.append(TextDelta(rec, 0, text if not self._answered - {key} else "\n" + text))
            if isinstance(result, dict) and result.get("isError") is True:
                got.append(diag(codes.TOOL_ERROR, record))
                got.append(Terminal(rec, "failed", self._reason(_TOOL_FAILED, key)))
            else:
                got.append(Terminal(rec, "completed", self._reason("JSON-RPC result", key)))
        terminal = got.pop()
        assert isinstance(terminal, Terminal)
        if terminal.status == "failed" and self._batch_failure is None:
            self._batch_failure = terminal
        out.extend(got)
        if not self._pending:
            self._ended = True
            failure = self._batch_failure
            if failure is not None and failure is not terminal:
                terminal = Terminal(rec, "failed", f"{failure.reason} (in the batch)")
            out.append(terminal)

    def _unfinished(self) -> list[AdapterOutput]:
        """End of the body: a stream without the response to its request is truncated."""
        return self._unended(codes.MISSING_RESPONSE)

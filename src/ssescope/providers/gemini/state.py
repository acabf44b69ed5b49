"""What the Gemini adapter remembers across chunks: the response, its candidates, streamed calls; errors and citations."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ...codes.spec import Code
from ...diagnostics import Diagnostic, build
from ...events import JSON, Citation, Status, Terminal, ToolCall
from ...framing.records import DataRecord
from .._base import AdapterBase, AdapterOutput, compact_json, diag, error_fields, provider_error
from . import codes

_STATUS_RANK: dict[str, int] = {"completed": 0, "incomplete": 1, "failed": 2}


# Part keys that carry no content of their own.
_PART_META_KEYS = frozenset(
    {"thought", "thoughtSignature", "partMetadata", "videoMetadata", "mediaResolution"}
)


_PATH_TOKEN = re.compile(
    r"""\.([^.\[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]"""
)


_VALUE_KEYS = ("stringValue", "numberValue", "boolValue", "nullValue", "structValue", "listValue")


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
            else:
                if not isinstance(node, list):
                    return False
                if len(node) <= tok:
                    node.extend([None] * (tok + 1 - len(node)))
                existing = node[tok]
            slot: Any = node  # an object keyed by ``tok`` or an array long enough for it
            if i == last:
                if isinstance(value, str) and isinstance(existing, str):
                    slot[tok] = existing + value
                else:
                    slot[tok] = value
                return True
            if existing is None:
                fresh: JSON = [] if isinstance(tokens[i + 1], int) else {}
                existing = slot[tok] = fresh
            if not isinstance(existing, (dict, list)):
                return False
            node = existing
        return True  # pragma: no cover - the loop always returns at the last token


class _GeminiState(AdapterBase):
    """The adapter's state across chunks: the response, its candidates and open calls."""

    name: ClassVar[str] = "gemini"

    def __init__(self, framing: str) -> None:
        super().__init__(framing)
        self._response_id: str | None = None
        self._terminated = False
        self._finished: dict[int, Status | None] = {}  # candidate -> status once finished
        self._raw_finish: dict[int, str] = {}
        self._open: dict[int, _StreamedCall] = {}  # candidate -> streamed call being built
        self._next_index: dict[int, int] = {}  # candidate -> next synthetic call index
        self._seen_citations: dict[int, set[str]] = {}
        self._paths: dict[str, list[str | int] | None] = {}

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
            form=codes.ERROR,
            label=" (" + label + ")" if label else "",
            text=text,
        )
        # Calls left open by the error are unfinished.
        for output in list(self._open):
            self._abandon(output, record, "an error arrived", out)
        out.append(Terminal(rec, "failed", f"error {label}".strip()))
        self._terminated = True

    def _new_response(self) -> None:
        self._terminated = False
        self._finished = {}
        self._raw_finish = {}
        self._open = {}
        self._next_index = {}
        self._seen_citations = {}

    def _citation(self, output: int, item: JSON, rec: int, out: list[AdapterOutput]) -> None:
        # Gemini may restate citation / grounding metadata on later chunks: keep each once.
        key = compact_json(item)
        seen = self._seen_citations.setdefault(output, set())
        if key not in seen:
            seen.add(key)
            out.append(Citation(rec, output, item))

    def _end_diag(self, code: Code, *, form: str | None = None, **args: object) -> Diagnostic:
        return build(code, args, self._last_end, self._last_index, None, form)

    def _take_index(self, output: int) -> int:
        index = self._next_index.get(output, 0)
        self._next_index[output] = index + 1
        return index

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
        code = codes.UNTERMINATED_FUNCTION_CALL
        if record is None:
            out.append(self._end_diag(code, name=call.name, output=output, why=why))
            self._finish_call(output, self._last_index, False, out)
        else:
            out.append(diag(code, record, name=call.name, output=output, why=why))
            self._finish_call(output, record.index, False, out)

"""What the Gemini adapter remembers about a response: its candidates, its streamed calls; errors and citations."""

from __future__ import annotations

import re
from typing import Any

from ...diagnostics import build
from ...events import JSON, Citation, Status, Terminal
from ...framing.records import DataRecord
from .._base import AdapterOutput, compact_json, error_fields, provider_error
from .._tools import ToolCallTracker, TrackedCall
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


class _PartialArgs:
    """The arguments of a Gemini 3 function call that arrive as ``partialArgs`` fragments,
    built as the object they describe."""

    __slots__ = ("args",)

    def __init__(self) -> None:
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


class _StreamedCalls:
    """The function calls of a response: the one streamed call open per candidate (in the
    shared tracker, its partial arguments beside it) and the next synthetic index."""

    __slots__ = ("_args", "_next_index", "_paths", "tracker")

    def __init__(self) -> None:
        self.tracker: ToolCallTracker[int] = ToolCallTracker()  # candidate -> its open call
        self._args: dict[int, _PartialArgs] = {}
        self._next_index: dict[int, int] = {}  # candidate -> next synthetic call index
        self._paths: dict[str, list[str | int] | None] = {}

    def open(self, output: int) -> TrackedCall | None:
        """The streamed call of candidate ``output`` being built, if any."""
        return self.tracker.get(output)

    def open_outputs(self) -> list[int]:
        """The candidates with a streamed call being built."""
        return self.tracker.keys()

    def take_index(self, output: int) -> int:
        """The next call index of candidate ``output`` (Gemini's calls have none)."""
        index = self._next_index.get(output, 0)
        self._next_index[output] = index + 1
        return index

    def start(self, output: int, name: str | None, call_id: str | None) -> _PartialArgs:
        """Open a streamed call of candidate ``output``; return its arguments to build."""
        self.tracker.track(output, output, self.take_index(output), call_id, name)
        args = self._args[output] = _PartialArgs()
        return args

    def args(self, output: int) -> _PartialArgs:
        """The arguments being built of candidate ``output``'s open call."""
        return self._args[output]

    def path(self, path: str) -> list[str | int] | None:
        """The tokens of a ``jsonPath`` (:func:`_parse_path`), each path parsed once."""
        if path in self._paths:
            return self._paths[path]
        tokens = self._paths[path] = _parse_path(path)
        return tokens

    def finish(self, output: int, rec: int, complete: bool, out: list[AdapterOutput]) -> None:
        """Emit candidate ``output``'s open call whole (``complete`` false: cut short)."""
        args = self._args.pop(output)
        self.tracker.finish(output, rec, out, compact_json(args.args), complete)

    def abandon(
        self, output: int, why: str, offset: int | None, rec: int, out: list[AdapterOutput]
    ) -> None:
        """Report candidate ``output``'s open call unterminated (at ``offset`` of record
        ``rec``) and emit it as it stands, incomplete."""
        call = self.tracker.get(output)
        name = call.name if call is not None else None
        out.append(
            build(
                codes.UNTERMINATED_FUNCTION_CALL,
                {"name": name, "output": output, "why": why},
                offset,
                rec,
            )
        )
        self.finish(output, rec, False, out)


class _Response:
    """The current response: its id, its candidates' finishes and citations, its calls."""

    __slots__ = ("calls", "finished", "id", "raw_finish", "seen_citations", "terminated")

    def __init__(self, response_id: str | None = None) -> None:
        self.id = response_id
        self.terminated = False
        self.finished: dict[int, Status | None] = {}  # candidate -> status once finished
        self.raw_finish: dict[int, str] = {}
        self.calls = _StreamedCalls()
        self.seen_citations: dict[int, set[str]] = {}

    def error(self, value: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]) -> None:
        """An error object: the provider error; open calls are cut, the response fails."""
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
        for output in self.calls.open_outputs():
            self.calls.abandon(output, "an error arrived", record.start, rec, out)
        out.append(Terminal(rec, "failed", f"error {label}".strip()))
        self.terminated = True

    def citation(self, output: int, item: JSON, rec: int, out: list[AdapterOutput]) -> None:
        """A citation of candidate ``output``, once (Gemini restates them on later chunks)."""
        key = compact_json(item)
        seen = self.seen_citations.setdefault(output, set())
        if key not in seen:
            seen.add(key)
            out.append(Citation(rec, output, item))

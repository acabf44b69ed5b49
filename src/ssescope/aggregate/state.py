"""What the aggregator keeps per response, output and tool call while events arrive.

The pieces of text are kept as :class:`_Pieces` (folded into blocks as they grow); the
values the aggregator checks at the end (token counts, JSON equality, base64 sizes) have
their helpers here too. Nothing here does I/O.
"""

from __future__ import annotations

from typing import Any, final

import orjson

from ..events import JSON, FinishReason, Status
from .partial_json import parse_partial
from .report import AudioReport, UsageReport

__all__ = ["ToolCallState"]


class ToolCallState:
    """A tool call being assembled (exposed for live views: :meth:`partial_input`)."""

    __slots__ = (
        "call_type",
        "cut",
        "ended",
        "first_record",
        "format",
        "id",
        "index",
        "kind",
        "last_record",
        "name",
        "output",
        "pieces",
        "position",
        "snapshot",
    )

    def __init__(self, index: int | None, id: str | None, record: int) -> None:
        self.index = index
        self.id = id
        self.name: str | None = None
        self.call_type: str | None = None
        self.kind = "function"
        self.format = "json"
        self.pieces: list[str] = []
        self.ended = False
        self.snapshot: str | None = None
        self.first_record = record
        self.last_record = record  # the last record that added to or ended this call
        self.output = 0  # the output it belongs to
        self.position = 0  # its position among the calls of its output
        self.cut = 0  # characters of the arguments left out by a bounded pipeline

    def trim(self, limit: int) -> int:
        """Keep the first ``limit`` characters of the arguments; return how many were cut."""
        pieces = self.pieces
        if sum(map(len, pieces)) <= limit:
            return 0
        arguments = "".join(pieces)
        cut = len(arguments) - limit
        self.pieces = [arguments[:limit]]
        self.cut += cut
        return cut

    @property
    def arguments(self) -> str:
        """The argument string so far."""
        return "".join(self.pieces)

    def partial_input(self) -> JSON:
        """Best-effort parse of the arguments so far (closes open strings and brackets)."""
        return parse_partial(self.arguments)


class _Output:
    __slots__ = (
        "audio",
        "by_id",
        "by_index",
        "calls",
        "citations",
        "compactions",
        "encrypted",
        "finish",
        "index",
        "open_call",
        "raw_finish",
        "reasoning",
        "redacted",
        "refusal",
        "server_results",
        "signature",
        "text",
    )

    def __init__(self, index: int) -> None:
        self.index = index
        self.text: dict[object, _Pieces] = {}
        self.reasoning: dict[object, _Pieces] = {}
        self.refusal: dict[object, _Pieces] = {}
        self.calls: list[ToolCallState] = []
        self.by_id: dict[str, ToolCallState] = {}
        self.by_index: dict[int, ToolCallState] = {}
        self.open_call: ToolCallState | None = None
        self.citations: list[JSON] = []
        self.finish: FinishReason | None = None
        self.raw_finish: str | None = None
        self.signature: str | None = None
        self.redacted = 0
        self.encrypted = 0
        self.server_results: list[JSON] = []
        self.audio: AudioReport | None = None
        # compaction blocks by part: [summary pieces, latest encrypted content]
        self.compactions: dict[object, tuple[list[str], list[str]]] = {}


class _Response:
    __slots__ = (
        "after_terminal_reported",
        "error",
        "first_record",
        "id",
        "last_record",
        "model",
        "outputs",
        "status",
        "status_reason",
        "terminal_seen",
        "usage",
        "usage_raw",
        "usage_source",
    )

    def __init__(self) -> None:
        self.outputs: dict[int, _Output] = {}
        self.status: Status = "truncated"
        self.status_reason = "the bytes ended without any terminal marker"
        self.terminal_seen = False
        self.after_terminal_reported = False
        self.error: dict[str, Any] | None = None
        self.id: str | None = None
        self.model: str | None = None
        self.usage: dict[str, int] = {}
        self.usage_raw: JSON = None
        self.usage_source: str | None = None
        self.first_record: int | None = None
        self.last_record: int | None = None


_FOLD = 1024  # small pieces kept before they are joined into one block


@final
class _Pieces:
    """The pieces of one part, in order: folded blocks first, then recent small pieces.

    A long reply arrives as hundreds of thousands of pieces of a few characters, each a
    str object of about 50 bytes: kept as they are, a 1 MB text costs 15 MB. Every
    ``_FOLD`` pieces are joined into one block (each piece is copied once, so the cost
    stays linear), and the memory stays close to the text's own size. (A plain class
    holding a list, not a list subclass, so that mypyc compiles it as a native class.)
    """

    __slots__ = ("blocks", "cut", "items", "last", "scanned", "steps")

    def __init__(self, first: str) -> None:
        self.items: list[str] = [first]
        self.blocks = 0
        self.cut = 0
        """Characters left out by a bounded pipeline (:meth:`trim`)."""
        # Whether every non-empty piece starts with the one before and is longer (a
        # gateway sending the text so far as each delta): ``steps`` such pieces after the
        # first, ``-1`` once one is not; ``last`` is the latest non-empty piece. Checked
        # on the pieces before they are folded, and once at the end (:meth:`cumulative`):
        # nothing on the per-delta path.
        self.steps = 0
        self.last: str | None = None
        self.scanned = 0  # items before this position were checked (or are blocks)

    def trim(self, limit: int) -> int:
        """Keep the first ``limit`` characters; return how many more were cut."""
        if sum(map(len, self.items)) <= limit:
            return 0
        text = "".join(self.items)
        cut = len(text) - limit
        self.items = [text[:limit]]
        self.blocks = 1
        self.cut += cut
        self.steps = -1  # (the pieces are gone: nothing to judge)
        self.scanned = 1
        return cut

    def _scan(self) -> None:
        """Check the pieces not yet checked against the cumulative pattern."""
        items = self.items
        if self.steps >= 0:
            last = self.last
            steps = self.steps
            for piece in items[max(self.scanned, self.blocks) :]:
                if not piece:
                    continue
                if last is not None and (len(piece) <= len(last) or not piece.startswith(last)):
                    steps = -1
                    break
                if last is not None:
                    steps += 1
                last = piece
            self.last = last
            self.steps = steps
        self.scanned = len(items)

    def cumulative(self) -> str | None:
        """The last piece, when three or more non-empty pieces each repeated the text so
        far and added to it (the reading without repeats); else ``None``."""
        self._scan()
        return self.last if self.steps >= 2 else None

    def add(self, piece: str) -> None:
        """Append ``piece``, folding the recent pieces into a block when there are many."""
        items = self.items
        items.append(piece)
        if len(items) - self.blocks > _FOLD:
            self.fold()

    def fold(self) -> None:
        """Join the pieces after the last block into one block."""
        if self.steps >= 0:
            self._scan()
        blocks = self.blocks
        items = self.items
        block = "".join(items[blocks:])
        del items[blocks:]
        items.append(block)
        self.blocks = blocks + 1
        self.scanned = blocks + 1

    def text(self) -> str:
        """The whole text of the part."""
        return "".join(self.items)


def _add(parts: dict[object, _Pieces], part: object, text: str) -> None:
    """Append ``text`` to ``part`` (a new part starts at the end of the order)."""
    pieces = parts.get(part)
    if pieces is None:
        parts[part] = _Pieces(text)
    else:
        pieces.add(text)


def _join(parts: dict[object, _Pieces]) -> str:
    if not parts:
        return ""
    return "".join([p.text() for p in parts.values()])


def _deduplicated(parts: dict[object, _Pieces]) -> tuple[str, int] | None:
    """The text read without repeats, when a part's deltas were cumulative: each such
    part's last piece, the others as they are; and how many pieces repeated. ``None``
    when no part was cumulative."""
    found = False
    texts: list[str] = []
    steps = 0
    for pieces in parts.values():
        last = pieces.cumulative()
        if last is None:
            texts.append(pieces.text())
        else:
            found = True
            texts.append(last)
            steps += pieces.steps
    return ("".join(texts), steps) if found else None


def _compactions(out: _Output) -> list[dict[str, str | None]]:
    """The compaction blocks of ``out`` as the Report gives them."""
    return [
        {
            "summary": "".join(summary) if summary else None,
            "encrypted_content": encrypted[0] if encrypted else None,
        }
        for summary, encrypted in out.compactions.values()
    ]


def _usage_report(resp: _Response) -> UsageReport | None:
    """The usage of ``resp`` as the Report gives it (``None`` when none was reported)."""
    if not resp.usage and resp.usage_raw is None:
        return None
    usage = UsageReport(source=resp.usage_source, raw=resp.usage_raw)
    for key, value in resp.usage.items():
        if hasattr(usage, key):
            setattr(usage, key, value)
    return usage


def _bad_token_counts(raw: dict[str, Any], prefix: str = "") -> list[tuple[str, object]]:
    """The token-count fields of a raw usage object that are not whole numbers >= 0."""
    bad: list[tuple[str, object]] = []
    for key, value in raw.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            if not prefix:
                bad += _bad_token_counts(value, f"{name}.")
        elif (
            "token" in key.lower()
            and value is not None
            and not isinstance(value, list)
            and (isinstance(value, bool) or not isinstance(value, int) or value < 0)
        ):
            bad.append((name, value))
    return bad


def _same_json(a: str, b: str) -> bool:
    try:
        return bool(orjson.loads(a) == orjson.loads(b))
    except orjson.JSONDecodeError:
        return False


def _resolve(fragments: str, snapshot: str | None) -> tuple[str, bool]:
    """The arguments of a call: its fragments, or the snapshot that replaces them.

    Returns:
        The arguments, and whether snapshot and fragments disagreed (the longer is kept).
    """
    if snapshot is None:
        return fragments, False
    if not fragments:
        return snapshot, False
    if fragments == snapshot or _same_json(fragments, snapshot):
        return fragments, False
    return (snapshot if len(snapshot) >= len(fragments) else fragments), True


def _b64_len(data: str) -> int:
    n = len(data.rstrip("="))
    return (n * 3) // 4

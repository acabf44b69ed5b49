"""UI-message text and reasoning parts, keyed by id and by how often the id was started."""

from __future__ import annotations

from typing import Any

from ...events import ReasoningDelta, TextDelta
from ...framing.records import DataRecord
from .._base import AdapterOutput
from .state import invalid, not_started


def part_start(
    gen: dict[str, int], obj: dict[str, Any], _record: DataRecord, _out: list[AdapterOutput]
) -> None:
    """A ``*-start`` event: the next generation of the part its ``id`` names (``gen``
    counts how many times each id of one kind was started)."""
    pid = obj.get("id")
    if isinstance(pid, str):
        gen[pid] = gen.get(pid, -1) + 1


def text_delta(
    gen: dict[str, int], obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A ``text-delta``: text of the part ``("text", id, generation)``."""
    found = _delta(gen, "text", obj, record, out)
    if found is not None:
        out.append(TextDelta(record.index, 0, *found))


def reasoning_delta(
    gen: dict[str, int], obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A ``reasoning-delta``: reasoning text of the part ``("reasoning", id, generation)``."""
    found = _delta(gen, "reasoning", obj, record, out)
    if found is not None:
        out.append(ReasoningDelta(record.index, 0, *found, "text"))


def _delta(
    gen: dict[str, int],
    kind: str,
    obj: dict[str, Any],
    record: DataRecord,
    out: list[AdapterOutput],
) -> tuple[str, tuple[str, str, int]] | None:
    """A ``*-delta`` event's text and part key ``(kind, id, generation)``.

    ``None`` after reporting a delta that is not a string; a part never started is
    reported and counted as started here.
    """
    delta = obj.get("delta")
    if type(delta) is not str:
        invalid("delta", delta, record, out)
        return None
    pid = obj.get("id")
    if not isinstance(pid, str):
        pid = ""
    n = gen.get(pid)
    if n is None:
        not_started(f"{kind} part", pid, record, out)
        n = gen[pid] = 0
    return delta, (kind, pid, n)

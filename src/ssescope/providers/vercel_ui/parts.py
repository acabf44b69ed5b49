"""UI-message text and reasoning parts."""

from __future__ import annotations

from typing import Any

from ...events import ReasoningDelta, TextDelta
from ...framing.records import DataRecord
from .._base import AdapterOutput
from .state import _UIState


class _UIParts(_UIState):
    """Text and reasoning parts (see the package docstring)."""

    def _text_start(
        self, obj: dict[str, Any], _record: DataRecord, _out: list[AdapterOutput]
    ) -> None:
        _start(self._text_gen, obj)

    def _reasoning_start(
        self, obj: dict[str, Any], _record: DataRecord, _out: list[AdapterOutput]
    ) -> None:
        _start(self._reasoning_gen, obj)

    def _text_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        found = self._delta(self._text_gen, "text", obj, record, out)
        if found is not None:
            out.append(TextDelta(record.index, 0, *found))

    def _reasoning_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        found = self._delta(self._reasoning_gen, "reasoning", obj, record, out)
        if found is not None:
            out.append(ReasoningDelta(record.index, 0, *found, "text"))

    def _delta(
        self,
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
            self._invalid("delta", delta, record, out)
            return None
        pid = obj.get("id")
        if not isinstance(pid, str):
            pid = ""
        n = gen.get(pid)
        if n is None:
            self._not_started(f"{kind} part", pid, record, out)
            n = gen[pid] = 0
        return delta, (kind, pid, n)


def _start(gen: dict[str, int], obj: dict[str, Any]) -> None:
    """A ``*-start`` event: the next generation of the part its ``id`` names."""
    pid = obj.get("id")
    if isinstance(pid, str):
        gen[pid] = gen.get(pid, -1) + 1

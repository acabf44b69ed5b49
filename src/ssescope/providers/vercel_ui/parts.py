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
        pid = obj.get("id")
        if isinstance(pid, str):
            gen = self._text_gen
            gen[pid] = gen.get(pid, -1) + 1

    def _reasoning_start(
        self, obj: dict[str, Any], _record: DataRecord, _out: list[AdapterOutput]
    ) -> None:
        pid = obj.get("id")
        if isinstance(pid, str):
            gen = self._reasoning_gen
            gen[pid] = gen.get(pid, -1) + 1

    def _text_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if type(delta) is not str:
            self._invalid("delta", delta, record, out)
            return
        pid = obj.get("id")
        if not isinstance(pid, str):
            pid = ""
        n = self._text_gen.get(pid)
        if n is None:
            self._not_started("text part", pid, record, out)
            n = self._text_gen[pid] = 0
        out.append(TextDelta(record.index, 0, delta, ("text", pid, n)))

    def _reasoning_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = obj.get("delta")
        if type(delta) is not str:
            self._invalid("delta", delta, record, out)
            return
        pid = obj.get("id")
        if not isinstance(pid, str):
            pid = ""
        n = self._reasoning_gen.get(pid)
        if n is None:
            self._not_started("reasoning part", pid, record, out)
            n = self._reasoning_gen[pid] = 0
        out.append(ReasoningDelta(record.index, 0, delta, ("reasoning", pid, n), "text"))

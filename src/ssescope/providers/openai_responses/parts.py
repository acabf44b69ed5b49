"""Responses content and reasoning: text, refusal, summary and reasoning deltas, their done events and snapshots, annotations, audio."""

from __future__ import annotations

from typing import Any

from ...events import Audio, Citation, ReasoningDelta, RefusalDelta, TextDelta
from ...framing.records import DataRecord
from .._base import AdapterOutput, str_or_none
from .state import _PART_FIELDS, _key, _ResponsesState


class _ResponsesParts(_ResponsesState):
    """Content and reasoning of the output items (see the package docstring)."""

    def _delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> str | None:
        """The event's ``delta`` string, or ``None`` after reporting one that is not."""
        delta = obj.get("delta")
        if type(delta) is not str:
            self._invalid("delta", delta, record, out)
            return None
        return delta

    def _content_part(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> tuple[str | int | None, str | int | None]:
        """The key of the content part an event names (``content_index`` of its item)."""
        return (self._owner(obj, record, out), _key(obj.get("content_index")))

    def _summary_part(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> tuple[str | int | None, str, str | int | None]:
        """The key of the reasoning summary part an event names (``summary_index``)."""
        return (self._owner(obj, record, out), "summary", _key(obj.get("summary_index")))

    def _text_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = self._delta(obj, record, out)
        if delta is None:
            return
        self._built = True
        position = obj.get("output_index")
        index = obj.get("content_index")
        item_id = obj.get("item_id")
        if (
            type(position) is int
            and type(index) is int
            and type(item_id) is str
            and self._labels.get(position) == item_id
        ):  # the usual shape: an item already met under the same id
            out.append(TextDelta(record.index, 0, delta, (self._index_owner[position], index)))
            return
        part = (self._owner(obj, record, out), _key(index))
        out.append(TextDelta(record.index, 0, delta, part))

    def _refusal_delta(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        delta = self._delta(obj, record, out)
        if delta is not None:
            self._built = True
            if delta:
                self._refused = True
            part = self._content_part(obj, record, out)
            out.append(RefusalDelta(record.index, 0, delta, part))

    def _reasoning_delta(
        self, kind: str, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A reasoning delta: of a summary part (``kind`` ``"summary"``) or of the
        reasoning text itself (``"text"``)."""
        delta = self._delta(obj, record, out)
        if delta is not None:
            self._built = True
            part: object
            if kind == "summary":
                part = self._summary_part(obj, record, out)
            else:
                part = self._content_part(obj, record, out)
            out.append(ReasoningDelta(record.index, 0, delta, part, kind))

    def _part_done(
        self,
        field: str,
        key: str,
        obj: dict[str, Any],
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """A content part's ``*.done`` event: its whole ``obj[key]``, a snapshot of ``field``."""
        part = self._content_part(obj, record, out)
        self._snapshot(field, obj.get(key), part, record, out)

    def _summary_done(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        self._snapshot(
            "reasoning", obj.get("text"), self._summary_part(obj, record, out), record, out
        )

    def _content_part_done(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        content = obj.get("part")
        if isinstance(content, dict):
            self._content(content, self._content_part(obj, record, out), record, out)

    def _content(
        self, content: dict[str, Any], part: object, record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Snapshot one content part of a message or reasoning item, and its annotations
        if no ``annotation.added`` event delivered them."""
        spec = _PART_FIELDS.get(content.get("type"))  # type: ignore[arg-type]
        if spec is None:
            return
        field, value_key = spec
        self._snapshot(field, content.get(value_key), part, record, out)
        annotations = content.get("annotations")
        if isinstance(annotations, list) and annotations and part not in self._cited:
            self._cited.add(part)
            out.extend(Citation(record.index, 0, annotation, part) for annotation in annotations)

    def _summary_part_done(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        content = obj.get("part")
        if isinstance(content, dict):
            part = self._summary_part(obj, record, out)
            self._snapshot("reasoning", content.get("text"), part, record, out)

    def _annotation(
        self, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        part = self._content_part(obj, record, out)
        self._cited.add(part)
        out.append(Citation(record.index, 0, obj.get("annotation"), part))

    def _audio_delta(
        self, transcript: bool, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """A piece of base64 audio data, or (``transcript``) of its transcript."""
        delta = self._delta(obj, record, out)
        if delta is not None:
            data, text = (None, delta) if transcript else (delta, None)
            out.append(Audio(record.index, 0, data, text, id=str_or_none(obj.get("item_id"))))

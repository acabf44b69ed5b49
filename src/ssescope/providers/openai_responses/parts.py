"""Responses content and reasoning: text, refusal, summary and reasoning deltas, their done events and snapshots, annotations, audio."""

from __future__ import annotations

from typing import Any

from ...events import Audio, Citation, ReasoningDelta, RefusalDelta, TextDelta
from ...framing.records import DataRecord
from .._base import AdapterOutput, str_or_none
from .state import _PART_FIELDS, _key, _Response


def _delta(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> str | None:
    """The event's ``delta`` string, or ``None`` after reporting one that is not."""
    delta = obj.get("delta")
    if type(delta) is not str:
        resp.invalid("delta", delta, record, out)
        return None
    return delta


def _content_part(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> tuple[str | int | None, str | int | None]:
    """The key of the content part an event names (``content_index`` of its item)."""
    return (resp.owner(obj, record, out), _key(obj.get("content_index")))


def _summary_part(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> tuple[str | int | None, str, str | int | None]:
    """The key of the reasoning summary part an event names (``summary_index``)."""
    return (resp.owner(obj, record, out), "summary", _key(obj.get("summary_index")))


def text_delta(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A piece of output text of the content part the event names."""
    delta = _delta(resp, obj, record, out)
    if delta is None:
        return
    resp.built = True
    position = obj.get("output_index")
    index = obj.get("content_index")
    item_id = obj.get("item_id")
    if (
        type(position) is int
        and type(index) is int
        and type(item_id) is str
        and resp.labels.get(position) == item_id
    ):  # the usual shape: an item already met under the same id
        out.append(TextDelta(record.index, 0, delta, (resp.index_owner[position], index)))
        return
    part = (resp.owner(obj, record, out), _key(index))
    out.append(TextDelta(record.index, 0, delta, part))


def refusal_delta(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A piece of refusal text of the content part the event names."""
    delta = _delta(resp, obj, record, out)
    if delta is not None:
        resp.built = True
        if delta:
            resp.refused = True
        part = _content_part(resp, obj, record, out)
        out.append(RefusalDelta(record.index, 0, delta, part))


def reasoning_delta(
    kind: str, resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A reasoning delta: of a summary part (``kind`` ``"summary"``) or of the
    reasoning text itself (``"text"``)."""
    delta = _delta(resp, obj, record, out)
    if delta is not None:
        resp.built = True
        part: object
        if kind == "summary":
            part = _summary_part(resp, obj, record, out)
        else:
            part = _content_part(resp, obj, record, out)
        out.append(ReasoningDelta(record.index, 0, delta, part, kind))


def part_done(
    field: str,
    key: str,
    resp: _Response,
    obj: dict[str, Any],
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """A content part's ``*.done`` event: its whole ``obj[key]``, a snapshot of ``field``."""
    part = _content_part(resp, obj, record, out)
    resp.snapshot(field, obj.get(key), part, record, out)


def summary_done(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A reasoning summary text done: its whole text, a snapshot."""
    resp.snapshot("reasoning", obj.get("text"), _summary_part(resp, obj, record, out), record, out)


def content_part_done(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A content part done: its whole value and annotations (:func:`snapshot_content`)."""
    content = obj.get("part")
    if isinstance(content, dict):
        snapshot_content(resp, content, _content_part(resp, obj, record, out), record, out)


def snapshot_content(
    resp: _Response,
    content: dict[str, Any],
    part: object,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """Snapshot one content part of a message or reasoning item, and its annotations
    if no ``annotation.added`` event delivered them."""
    spec = _PART_FIELDS.get(content.get("type"))  # type: ignore[arg-type]
    if spec is None:
        return
    field, value_key = spec
    resp.snapshot(field, content.get(value_key), part, record, out)
    annotations = content.get("annotations")
    if isinstance(annotations, list) and annotations and part not in resp.cited:
        resp.cited.add(part)
        out.extend(Citation(record.index, 0, annotation, part) for annotation in annotations)


def summary_part_done(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """A reasoning summary part done: its whole text, a snapshot."""
    content = obj.get("part")
    if isinstance(content, dict):
        part = _summary_part(resp, obj, record, out)
        resp.snapshot("reasoning", content.get("text"), part, record, out)


def annotation(
    resp: _Response, obj: dict[str, Any], record: DataRecord, out: list[AdapterOutput]
) -> None:
    """An annotation added to a content part: a citation."""
    part = _content_part(resp, obj, record, out)
    resp.cited.add(part)
    out.append(Citation(record.index, 0, obj.get("annotation"), part))


def audio_delta(
    transcript: bool,
    resp: _Response,
    obj: dict[str, Any],
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """A piece of base64 audio data, or (``transcript``) of its transcript."""
    delta = _delta(resp, obj, record, out)
    if delta is not None:
        data, text = (None, delta) if transcript else (delta, None)
        out.append(Audio(record.index, 0, data, text, id=str_or_none(obj.get("item_id"))))

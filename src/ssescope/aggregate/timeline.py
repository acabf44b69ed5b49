"""The timeline: every change the aggregator makes to a response, as data.

Give an :class:`~ssescope.aggregate.Aggregator` a :class:`Timeline` (``agg.timeline =
Timeline()`` before the first event) and it records, while it aggregates, each change it
makes: which record caused it, in which response and output, to which field, and how. An
aggregator without one records nothing (and pays a test of a local variable per event).

The state at record ``N`` is the replay of the changes of records ``<= N``
(:func:`state_at`). Replaying is plain data manipulation, with no knowledge of any
protocol, so any surface (the web page's scrubber) can do it and never disagree with the
engine. A change addresses a value by ``output`` (``None`` for the response itself), then
``field``, ``part`` (a position in a list) and ``key`` (a key of a dict), each ``None``
when not used, and applies ``op`` to it:

* ``set``: the value becomes ``value`` (a new list item when ``part`` is one past the end;
  with ``field`` ``None``, the whole output or response is ``value``);
* ``append``: ``value`` (a string) is appended to the string there;
* ``add``: ``value`` is appended to the list there.

The text, reasoning and refusal of an output are lists of parts in the state (each part
built on its own, in the order it first appeared); the assembled value is their
concatenation, as in the Report (:func:`assembled`). Tool calls are dicts in the
``tool_calls`` list, shaped like the Report's; their ``input`` and ``error`` are set when
the stream ends (the arguments are parsed once, at the end), dated at the call's latest
change (its arguments complete and the call ended).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..events import JSON, Audio
from .report import AudioReport, OutputReport, ResponseReport, ToolCallReport
from .state import ToolCallState, _Output, _resolve, _Response, _usage_report

__all__ = ["PARTED_FIELDS", "Change", "Timeline", "assembled", "state_at"]

PARTED_FIELDS = ("text", "reasoning", "refusal")
"""The output fields kept as lists of parts in the state."""


_CHANGE_FIELDS = ("record", "response", "output", "field", "part", "key", "op", "value")


@dataclass(slots=True)
class Change:
    """One change the aggregator made (see the module docstring for the addressing)."""

    record: int
    response: int
    output: int | None
    field: str | None
    part: int | None
    key: str | None
    op: str
    value: JSON

    def to_list(self) -> list[JSON]:
        """``[record, response, output, field, part, key, op, value]`` (the web API's form)."""
        return [getattr(self, name) for name in _CHANGE_FIELDS]


class Timeline:
    """Collects the changes of an aggregator, in the order it made them.

    The aggregator calls the methods below as it changes a response; each records the
    change as a :class:`Change`.

    Attributes:
        changes: every change so far.
    """

    __slots__ = ("_counts", "_kinds", "_latest", "_responses", "_slots", "changes", "response")

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self.response = 0
        """The position of the response being built among the stream's responses."""
        self._responses = 0
        self._slots: dict[tuple[int, int, str, object], int] = {}
        self._counts: dict[tuple[int, int, str], int] = {}
        self._latest: dict[tuple[int, int, int], int] = {}  # a call's latest change
        self._kinds: dict[tuple[int, int, int], str] = {}  # a call's kind, as recorded

    def add(
        self,
        record: int,
        output: int | None,
        field: str | None,
        part: int | None,
        key: str | None,
        op: str,
        value: JSON,
    ) -> None:
        """Record one change of the current response."""
        self.changes.append(Change(record, self.response, output, field, part, key, op, value))

    def begin(self, record: int, resp: _Response) -> None:
        """A response begins (at its first event): its first state."""
        self.response = self._responses
        self._responses += 1
        first: dict[str, JSON] = {
            "status": resp.status,
            "status_reason": resp.status_reason,
            "id": resp.id,
            "model": resp.model,
            "usage": None,
            "error": None,
        }
        self.add(record, None, None, None, None, "set", first)

    def status(self, record: int, resp: _Response) -> None:
        """The status of the response changed."""
        self.add(record, None, "status", None, None, "set", resp.status)
        self.add(record, None, "status_reason", None, None, "set", resp.status_reason)

    def usage(self, record: int, resp: _Response) -> None:
        """The usage of the response changed."""
        usage = _usage_report(resp)
        self.add(
            record, None, "usage", None, None, "set", None if usage is None else usage.to_dict()
        )

    def output(self, record: int, index: int) -> None:
        """An output begins: its first state (parted fields as empty lists of parts)."""
        first = OutputReport(index).to_dict()
        first.update(text=[], reasoning=[], refusal=[])
        self.add(record, index, None, None, None, "set", first)

    def part(self, record: int, output: int, field: str, name: object, op: str, value: str) -> None:
        """A change to the part called ``name`` of a parted field (text, ...).

        Parts are numbered in the order they first appeared in their field, as the
        aggregator joins them.
        """
        where = (self.response, output, field, name)
        slot = self._slots.get(where)
        if slot is None:
            count = (self.response, output, field)
            slot = self._slots[where] = self._counts.get(count, 0)
            self._counts[count] = slot + 1
        self.add(record, output, field, slot, None, op, value)

    def reasoning_meta(self, record: int, out: _Output) -> None:
        """The reasoning signature or the redacted or encrypted counts of ``out`` changed."""
        self.add(record, out.index, "reasoning_signature", None, None, "set", out.signature)
        self.add(record, out.index, "redacted_reasoning", None, None, "set", out.redacted)
        self.add(record, out.index, "encrypted_reasoning", None, None, "set", out.encrypted)

    def finish(self, record: int, out: _Output) -> None:
        """The finish reason of ``out`` changed."""
        self.add(record, out.index, "finish_reason", None, None, "set", out.finish)
        self.add(record, out.index, "raw_finish_reason", None, None, "set", out.raw_finish)

    def audio(self, record: int, output: int, audio: AudioReport, ev: Audio, created: bool) -> None:
        """The audio of an output changed by ``ev``."""
        if created:
            self.add(record, output, "audio", None, None, "set", audio.to_dict())
            return
        if ev.data:
            self.add(record, output, "audio", None, "chunks", "set", audio.chunks)
            self.add(record, output, "audio", None, "bytes", "set", audio.bytes)
        if ev.transcript:
            self.add(record, output, "audio", None, "transcript", "append", ev.transcript)
        self.add(record, output, "audio", None, "format", "set", audio.format)
        self.add(record, output, "audio", None, "id", "set", audio.id)

    def call(self, record: int, call: ToolCallState) -> None:
        """A tool call begins: its first state."""
        first = ToolCallReport(
            call.id, None, "", None, False, kind=call.kind, index=call.index, record=record
        )
        self._kinds[self.response, call.output, call.position] = call.kind
        self.call_change(record, call, None, "set", first.to_dict())

    def kind(self, record: int, call: ToolCallState) -> None:
        """The kind of a call was (re)set: recorded when it changed."""
        where = (self.response, call.output, call.position)
        if self._kinds.get(where) != call.kind:
            self._kinds[where] = call.kind
            self.call_change(record, call, "kind", "set", call.kind)

    def call_change(
        self, record: int, call: ToolCallState, key: str | None, op: str, value: JSON
    ) -> None:
        """A change to ``key`` of a tool call (to the whole call when ``None``)."""
        self._latest[self.response, call.output, call.position] = record
        self.add(record, call.output, "tool_calls", call.position, key, op, value)

    def arguments(self, record: int, call: ToolCallState, piece: str) -> None:
        """The arguments of a call changed: ``piece`` arrived, or a snapshot did."""
        if call.snapshot is None:
            if piece:
                self.call_change(record, call, "arguments", "append", piece)
        else:
            arguments, _ = _resolve(call.arguments, call.snapshot)
            self.call_change(record, call, "arguments", "set", arguments)

    def parsed(self, number: int, resp: _Response, report: ResponseReport) -> None:
        """At the end: the input (or parse error) of each call.

        It is recorded at the call's latest change (its arguments complete, the call
        ended), where a stream cut just after would have parsed the same.
        """
        for out, built in zip(
            (resp.outputs[k] for k in sorted(resp.outputs)), report.outputs, strict=True
        ):
            if built.deduplicated_text is not None:  # (judged once, at the end)
                last = resp.last_record if resp.last_record is not None else 0
                self.changes.append(
                    Change(
                        last,
                        number,
                        out.index,
                        "deduplicated_text",
                        None,
                        None,
                        "set",
                        built.deduplicated_text,
                    )
                )
            for call, done in zip(out.calls, built.tool_calls, strict=True):
                for key, value in (("input", done.input), ("error", done.error)):
                    if value is not None:
                        self.changes.append(
                            Change(
                                self._latest.get((number, out.index, call.position), 0),
                                number,
                                out.index,
                                "tool_calls",
                                call.position,
                                key,
                                "set",
                                value,
                            )
                        )


def _apply(container: Any, at: int | str, op: str, value: JSON) -> None:
    if isinstance(container, list) and isinstance(at, int) and at == len(container):
        container.append(copy.deepcopy(value))  # a new item (a new part, a new call)
    elif op == "set":
        container[at] = copy.deepcopy(value)
    elif op == "append":
        before = container.get(at) if isinstance(container, dict) else container[at]
        container[at] = (before or "") + str(value)
    else:
        container[at].append(copy.deepcopy(value))


def _replay(changes: Iterable[Change], upto: int) -> tuple[int, dict[str, Any]] | None:
    responses: dict[int, dict[str, Any]] = {}
    for c in changes:
        if c.record > upto:
            continue
        resp = responses.setdefault(c.response, {"outputs": {}})
        if c.output is None:
            if c.field is None:  # the response begins: its first state
                if isinstance(c.value, dict):
                    resp.update(copy.deepcopy(c.value))
                continue
            target: Any = resp
        else:
            outputs: dict[int, Any] = resp["outputs"]
            if c.field is None:  # the output begins: its first state
                outputs[c.output] = copy.deepcopy(c.value)
                continue
            target = outputs.setdefault(c.output, {})
        if c.part is not None:
            target = target[c.field]
            if c.key is None:
                _apply(target, c.part, c.op, c.value)
            else:
                _apply(target[c.part], c.key, c.op, c.value)
        elif c.key is not None:
            _apply(target[c.field], c.key, c.op, c.value)
        else:
            _apply(target, c.field, c.op, c.value)
    if not responses:
        return None
    number = max(responses)
    return number, responses[number]


def state_at(changes: Iterable[Change], upto: int) -> dict[str, Any]:
    """The latest response as the changes of records ``<= upto`` left it.

    Returns:
        The response's fields (``status``, ``status_reason``, ``id``, ``model``,
        ``usage``, ``error``), ``response`` (its position among the stream's responses)
        and ``outputs`` (sorted by index, with parted fields as lists of parts); an
        empty state (no outputs) before the first change.
    """
    found = _replay(changes, upto)
    if found is None:
        return {"response": 0, "outputs": []}
    number, resp = found
    outputs = resp.pop("outputs")
    return {**resp, "response": number, "outputs": [outputs[k] for k in sorted(outputs)]}


def assembled(output: dict[str, Any]) -> dict[str, Any]:
    """An output of :func:`state_at` with its parted fields joined (the Report's form)."""
    out = dict(output)
    for name in PARTED_FIELDS:
        if name in out:
            out[name] = "".join(out[name])
    return out

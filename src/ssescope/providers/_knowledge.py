"""What a provider package tells the rest of ssescope about its protocol, as data.

Each provider package has a ``knowledge`` module holding one :class:`Knowledge` value:
its adapter, the rules that recognise its records, its terminal SSE event names, the
error frame and error body the replay server injects for it, and its quirk module.
:mod:`ssescope.providers.registry` lists the packages; detection, the replay server and
the docs ask the registry, never a package by name. Nothing here does I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ABSENT",
    "PRESENT",
    "DetectRule",
    "ErrorFrame",
    "Knowledge",
    "Probe",
    "event_rule",
    "member_rule",
    "openai_error_body",
    "type_rule",
]


@dataclass(frozen=True, slots=True)
class Probe:
    """One data record as detection rules see it.

    Attributes:
        event: the record's SSE event name (or AWS event-stream message type), if any.
        obj: the record's data decoded as a JSON object; ``None`` for a wire-only rule.
        kind: ``obj["type"]`` when it is a string, else ``None``.
    """

    event: str | None
    obj: dict[str, Any] | None
    kind: str | None


@dataclass(frozen=True, slots=True)
class DetectRule:
    """One detection rule of a provider.

    Attributes:
        order: where the rule runs among every provider's rules (lower first; the first
            rule that recognises a record decides). Rules of different providers that
            could both match one record are told apart by this order.
        test: returns the reason reported as ``provider_rule``, or ``None``.
        needs_json: the rule reads the record's JSON object (most do); a rule without it
            runs before the data is decoded and sees ``obj=None``.
    """

    order: int
    test: Callable[[Probe], str | None]
    needs_json: bool = True


def type_rule(
    order: int,
    what: str,
    types: frozenset[str] = frozenset(),
    prefixes: tuple[str, ...] = (),
    key: str = "type",
) -> DetectRule:
    """A rule that recognises a record by its JSON ``type`` (or another member naming the
    event).

    Args:
        order: the rule's place among every provider's rules.
        what: what such a record is, for the reason (``"JSON type 'x' is <what>"``).
        types: the types that belong to the provider.
        prefixes: type prefixes that belong to it too.
        key: the member that holds the type, when it is not ``type``.
    """

    def test(probe: Probe) -> str | None:
        kind: object = probe.kind if key == "type" or probe.obj is None else probe.obj.get(key)
        if isinstance(kind, str) and (kind in types or kind.startswith(prefixes)):
            return f"JSON {key} {kind!r} is {what}"
        return None

    return DetectRule(order, test)


def event_rule(
    order: int,
    label: str,
    names: frozenset[str] = frozenset(),
    prefixes: tuple[str, ...] = (),
    *,
    needs_json: bool = True,
) -> DetectRule:
    """A rule that recognises a record by its SSE event name (or AWS event-stream message
    type).

    Args:
        order: the rule's place among every provider's rules.
        label: what the name is, for the reason (``"<label> 'x'"``).
        names: the names that belong to the provider.
        prefixes: name prefixes that belong to it too.
        needs_json: see :class:`DetectRule`; ``False`` lets the rule judge a record whose
            data is no JSON object.
    """

    def test(probe: Probe) -> str | None:
        event = probe.event
        if event is not None and (event in names or event.startswith(prefixes)):
            return f"{label} {event!r}"
        return None

    return DetectRule(order, test, needs_json)


class _Sentinel:
    """A member pattern that is not a value: :data:`PRESENT` or :data:`ABSENT`."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


PRESENT = _Sentinel("PRESENT")
"""In a :func:`member_rule` pattern: the member is there, whatever its value."""

ABSENT = _Sentinel("ABSENT")
"""In a :func:`member_rule` pattern: the member is not there."""


def member_rule(order: int, reason: str, members: Mapping[str, object]) -> DetectRule:
    """A rule that recognises a JSON object by its members; ``reason`` is what it reports.

    Args:
        order: the rule's place among every provider's rules.
        reason: what such a record is, reported as ``provider_rule``.
        members: what each named member must be: :data:`PRESENT`, :data:`ABSENT`, a type
            (its value is an instance of it) or a value (it has that value; ``None``: the
            member is null or not there). ``{"type": "error", "error": dict}`` is an object
            whose ``type`` is ``"error"`` and whose ``error`` is an object.
    """
    pattern = tuple(members.items())

    def test(probe: Probe) -> str | None:
        obj = probe.obj
        if obj is None:
            return None
        for name, want in pattern:
            if want is PRESENT or want is ABSENT:
                if (name in obj) != (want is PRESENT):
                    return None
            elif isinstance(want, type):
                if not isinstance(obj.get(name), want):
                    return None
            elif obj.get(name) != want:
                return None
        return reason

    return DetectRule(order, test)


@dataclass(frozen=True, slots=True)
class ErrorFrame:
    """A provider's own mid-stream error, as ``serve --fault error@record:N`` injects it.

    Attributes:
        event: the SSE event name to send it with, or ``None``.
        payload: the JSON object of the frame.
        binary: for a provider with a binary framing, that framing's name and a function
            that encodes the frame in it (the AWS event-stream of Bedrock).
    """

    event: str | None
    payload: dict[str, object]
    binary: tuple[str, Callable[[], bytes]] | None = None

    def encode(self, framing: str) -> bytes:
        """The frame in ``framing``: an SSE event, one JSON line, or the binary form."""
        if self.binary is not None and framing == self.binary[0]:
            return self.binary[1]()
        data = json.dumps(self.payload, separators=(",", ":"))
        if framing != "sse":
            return data.encode() + b"\n"
        head = f"event: {self.event}\n" if self.event else ""
        return f"{head}data: {data}\n\n".encode()


def openai_error_body(status: int) -> object:
    """The OpenAI-style JSON error body for an HTTP ``status`` (the common default)."""
    return {
        "error": {
            "message": f"HTTP {status}",
            "type": "server_error",
            "param": None,
            "code": None,
        }
    }


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Everything ssescope knows about one provider outside its adapter.

    Attributes:
        name: the provider name (``"openai-chat"``…), as ``--provider`` takes it.
        adapter: the adapter class, as ``"module:Class"`` within the package.
        rules: the rules that recognise the provider's records (see :class:`DetectRule`).
        terminal_events: SSE event names that end a response of this provider.
        error_frame: the mid-stream error ``serve --fault error`` injects, if any.
        error_body: the JSON body of an HTTP error answer, by status; ``None`` for the
            OpenAI-style default.
        quirks: the package's quirk module (with a ``QUIRKS`` mapping), if any.
        reports_usage: whether the protocol carries token usage at all; a protocol
            without it (a JSON-RPC or agent-event stream) never gets ``usage.missing``.
        usage_request: the request field that asks for usage, for a protocol that sends
            it only when asked (``stream_options.include_usage``); ``usage.missing``
            names it. ``None`` when usage comes unasked.
    """

    name: str
    adapter: str
    rules: tuple[DetectRule, ...] = ()
    terminal_events: frozenset[str] = frozenset()
    error_frame: ErrorFrame | None = None
    error_body: Callable[[int], object] | None = None
    quirks: str | None = None
    reports_usage: bool = True
    usage_request: str | None = None

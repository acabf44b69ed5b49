"""Records and events with a hand-written ``__init__`` construct as the generated one did.

The record and event classes built once per record or delta on some protocol's common path
write ``__init__`` by hand (``dataclass(init=False)``) so that the compiled core compiles
construction natively; the others keep the ``__init__`` that ``dataclass`` generates. Each
hand-written one is compared here with the dataclass that ``dataclasses`` would generate
from the same fields: the same signature, the same defaults, and, over random arguments
given positionally or by keyword, the same fields, repr and equality. Every other record
and event is checked to run the generated one, so that a class moves from one list to the
other only on purpose.
"""

from __future__ import annotations

import dataclasses
import inspect
import random
from typing import Any

import pytest

from ssescope import events
from ssescope.framing.records import JSONRecord, SSEComment, SSEEvent, Tail

HAND_WRITTEN: list[type[Any]] = [
    SSEEvent,
    SSEComment,
    JSONRecord,
    events.TextDelta,
    events.ReasoningDelta,
    events.RefusalDelta,
    events.ToolCallDelta,
    events.Usage,
    events.Citation,
    events.Audio,
    events.Unknown,
    events.StateChange,
    events.ArtifactChunk,
    events.Notification,
]
"""The classes built per record or delta: the framer's records, text pieces and tool-call
fragments everywhere, usage restated in every chunk (Gemini, vLLM, Perplexity), citations
(Perplexity, grounded Gemini Interactions), audio chunks, AG-UI state patches, A2A artifact
chunks, MCP progress notifications, every record of an unknown protocol."""
EVENTS: list[type[Any]] = [
    getattr(events, name)
    for name in events.__all__
    if isinstance(getattr(events, name), type) and dataclasses.is_dataclass(getattr(events, name))
]
CLASSES: list[type[Any]] = [SSEEvent, SSEComment, JSONRecord, Tail, *EVENTS]
GENERATED: list[type[Any]] = [cls for cls in CLASSES if cls not in HAND_WRITTEN]
"""The classes a stream builds once or a few times, which keep the generated ``__init__``."""

INTS: list[object] = [0, 7, -1, 2**40]
STRS: list[object] = ["", "message", "a\nb"]
OPTIONAL_STRS: list[object] = [*STRS, None]
OPTIONAL_INTS: list[object] = [*INTS, None]
JSONS: list[object] = [None, 3, 2.5, True, "x", [1, "a", None], {"k": [1, {"n": None}]}]
VALUES: dict[str, list[object]] = {
    "retry": OPTIONAL_INTS,
    "time": [1.5, 0.0, 1e9, None],
    "part": [*INTS, *STRS, None, ("a", 1)],
    "ToolCallDelta.index": OPTIONAL_INTS,
    "applied": [True, False],
    "StateChange.kind": ["snapshot", "delta"],
    "StateChange.value": JSONS,
    "values": [{}, {"input_tokens": 3, "output_tokens": None}],
    "citation": JSONS,
    "raw": JSONS,
    "JSONRecord.event": OPTIONAL_STRS,
    "Audio.data": OPTIONAL_STRS,
    "Audio.format": OPTIONAL_STRS,
    **dict.fromkeys(("name", "arguments", "call_type", "transcript", "description"), OPTIONAL_STRS),
    **dict.fromkeys((f"{cls}.id" for cls in ("ToolCallDelta", "Audio")), OPTIONAL_STRS),
    "artifact_id": STRS,
    "parts": [[], [{"kind": "text", "text": "a"}, {"kind": "data", "data": [1]}]],
    "append": [True, False],
    "last_chunk": [True, False],
    "method": STRS,
    "Notification.summary": STRS,
    "request_id": JSONS,
}
"""Values of the fields that are not a plain ``int`` or ``str``, by name or by
``Class.name`` (the compiled core refuses a wrongly typed argument, and keeps no usable
annotations to read the types from)."""
STR_FIELDS = {"event", "data", "id", "text", "kind", "format", "source", "event_type"}


def _values(cls: type[Any], name: str) -> list[object]:
    """The values a test may pass for field ``name`` of ``cls``."""
    default = STRS if name in STR_FIELDS else INTS
    return VALUES.get(f"{cls.__name__}.{name}", VALUES.get(name, default))


def _reference(cls: type[Any]) -> type[Any]:
    """The dataclass ``dataclasses`` generates from ``cls``'s fields, ``__init__`` included."""
    spec = [
        (f.name, object, dataclasses.field(default=f.default))
        if f.default is not dataclasses.MISSING
        else (f.name, object)
        for f in dataclasses.fields(cls)
    ]
    return dataclasses.make_dataclass(cls.__name__, spec)


@pytest.mark.parametrize("cls", HAND_WRITTEN, ids=lambda c: c.__name__)
def test_signature_matches_the_fields(cls: type[Any]) -> None:
    fields = dataclasses.fields(cls)
    parameters = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in parameters] == [f.name for f in fields]
    for parameter, field in zip(parameters, fields, strict=True):
        expected = (
            inspect.Parameter.empty if field.default is dataclasses.MISSING else field.default
        )
        assert parameter.default == expected, field.name


@pytest.mark.parametrize("cls", HAND_WRITTEN, ids=lambda c: c.__name__)
def test_construction_matches_the_generated_init(cls: type[Any]) -> None:
    reference = _reference(cls)
    fields = dataclasses.fields(cls)
    required = sum(f.default is dataclasses.MISSING for f in fields)
    rng = random.Random(cls.__name__)
    for _ in range(300):
        count = rng.randint(required, len(fields))
        args = [rng.choice(_values(cls, f.name)) for f in fields[:count]]
        positional = rng.randint(0, count)
        kwargs = {
            f.name: v for f, v in zip(fields[positional:count], args[positional:], strict=True)
        }
        built = cls(*args[:positional], **kwargs)
        expected = reference(*args[:positional], **kwargs)
        assert dataclasses.astuple(built) == dataclasses.astuple(expected)
        assert repr(built) == repr(expected)
        assert built == cls(*args)
        assert built != expected  # equality stays within one class, as before


@pytest.mark.parametrize("cls", HAND_WRITTEN, ids=lambda c: c.__name__)
def test_bad_calls_still_raise(cls: type[Any]) -> None:
    with pytest.raises(TypeError):
        cls()
    names = [f.name for f in dataclasses.fields(cls)]
    with pytest.raises(TypeError):
        cls(*range(len(names) + 1))


@pytest.mark.parametrize("cls", HAND_WRITTEN, ids=lambda c: c.__name__)
def test_init_is_written_by_hand(cls: type[Any]) -> None:
    """None of these runs the ``__init__`` that ``dataclass`` generates (compiled from
    ``<string>``, it stays interpreted even in the compiled core)."""
    assert not cls.__dataclass_params__.init
    code = getattr(cls.__init__, "__code__", None)
    assert code is None or code.co_filename != "<string>"


@pytest.mark.parametrize("cls", GENERATED, ids=lambda c: c.__name__)
def test_the_others_keep_the_generated_init(cls: type[Any]) -> None:
    """A class built once or a few times a stream has nothing to gain from writing it."""
    assert cls.__dataclass_params__.init
    assert cls.__init__.__code__.co_filename == "<string>"


def test_each_hand_written_class_is_a_record_or_an_event_listed_once() -> None:
    assert len(set(HAND_WRITTEN)) == len(HAND_WRITTEN)
    assert set(HAND_WRITTEN) <= set(CLASSES)

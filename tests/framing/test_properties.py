"""Property tests for every framer: chunking never matters, and nothing but misuse raises."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ssescope.errors import UsageError
from ssescope.framing import (
    EventStreamParser,
    Framer,
    JSONArrayParser,
    JSONRecord,
    NDJSONParser,
    SSEEvent,
    SSEParser,
)

from ..splits import feed_all
from ..strategies import (
    GeneratedEvent,
    chunked,
    eventstream_bodies,
    json_array_bodies,
    ndjson_bodies,
    sse_bodies,
    sse_soup,
)

FACTORIES: dict[str, Callable[[], object]] = {
    "sse": SSEParser,
    "sse-capped": lambda: SSEParser(max_event_bytes=16),
    "ndjson": NDJSONParser,
    "json-array": JSONArrayParser,
    "aws-eventstream": EventStreamParser,
    "framer": Framer,
}

common = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# For the generated well-formed bodies, drawing the body is nearly all of the cost: each
# one is fed in a drawn chunking and one byte at a time, so fewer bodies check as much.
sharp = settings(common, max_examples=60)


@pytest.mark.parametrize("name", list(FACTORIES))
@common
@given(data=st.data(), body=st.one_of(st.binary(max_size=80), sse_soup))
def test_random_bytes_in_random_chunks_never_raise_and_never_depend_on_chunking(
    name: str, data: st.DataObject, body: bytes
) -> None:
    factory = FACTORIES[name]
    whole = feed_all(factory(), [body])  # type: ignore[arg-type]
    chunks = data.draw(chunked(body))
    assert feed_all(factory(), chunks) == whole  # type: ignore[arg-type]
    one_by_one = [body[i : i + 1] for i in range(len(body))]
    assert feed_all(factory(), one_by_one) == whole  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(FACTORIES))
@common
@given(body=st.binary(max_size=40))
def test_feed_after_close_and_a_second_close_raise_usage_error(name: str, body: bytes) -> None:
    parser = FACTORIES[name]()
    parser.feed(body)  # type: ignore[attr-defined]
    parser.close()  # type: ignore[attr-defined]
    with pytest.raises(UsageError):
        parser.feed(b"x")  # type: ignore[attr-defined]
    with pytest.raises(UsageError):
        parser.close()  # type: ignore[attr-defined]


def _bytes(body: bytes) -> list[bytes]:
    """``body`` one byte at a time."""
    return [body[i : i + 1] for i in range(len(body))]


def _expected_sse(events: list[GeneratedEvent]) -> list[tuple[str, str, str]]:
    out = []
    last_id = ""
    for ev in events:
        if ev.id is not None:
            last_id = ev.id
        out.append((ev.event, ev.data, last_id))
    return out


@common
@given(data=st.data(), generated=sse_bodies())
def test_encoded_sse_events_come_back_exactly_in_any_chunking(
    data: st.DataObject, generated: tuple[bytes, list[GeneratedEvent]]
) -> None:
    body, events = generated
    out = feed_all(SSEParser(), data.draw(chunked(body)))
    got = [(r.event, r.data, r.id) for r in out if isinstance(r, SSEEvent)]
    assert got == _expected_sse(events)
    assert feed_all(SSEParser(), [body]) == out
    assert [r.code for r in out if not isinstance(r, SSEEvent) and hasattr(r, "code")] in (
        [],
        ["sse.bom-stripped"],
    )


@common
@given(data=st.data(), generated=sse_bodies())
def test_the_framer_detects_generated_sse_and_gives_the_same_records(
    data: st.DataObject, generated: tuple[bytes, list[GeneratedEvent]]
) -> None:
    body, _ = generated
    assert feed_all(Framer(), data.draw(chunked(body))) == feed_all(SSEParser(), [body])


@sharp
@given(data=st.data(), generated=ndjson_bodies())
def test_ndjson_values_come_back_in_any_chunking(
    data: st.DataObject, generated: tuple[bytes, list[object]]
) -> None:
    body, values = generated
    out = feed_all(NDJSONParser(), data.draw(chunked(body)))
    assert [json.loads(r.data) for r in out if isinstance(r, JSONRecord)] == values
    assert out == feed_all(NDJSONParser(), [body])
    assert out == feed_all(NDJSONParser(), _bytes(body))
    assert all(isinstance(r, JSONRecord) for r in out)


@sharp
@given(data=st.data(), generated=json_array_bodies())
def test_json_array_elements_come_back_in_any_chunking(
    data: st.DataObject, generated: tuple[bytes, list[object]]
) -> None:
    body, values = generated
    out = feed_all(JSONArrayParser(), data.draw(chunked(body)))
    records = [r for r in out if isinstance(r, JSONRecord)]
    assert [json.loads(r.data) for r in records] == values
    assert all(isinstance(r, JSONRecord) for r in out)
    assert [body[r.start : r.end].decode() for r in records] == [r.data for r in records]
    assert out == feed_all(JSONArrayParser(), [body])
    assert out == feed_all(JSONArrayParser(), _bytes(body))


@sharp
@given(data=st.data(), generated=eventstream_bodies())
def test_eventstream_messages_come_back_in_any_chunking(
    data: st.DataObject, generated: tuple[bytes, list[tuple[str, bytes]]]
) -> None:
    body, messages = generated
    out = feed_all(EventStreamParser(), data.draw(chunked(body)))
    assert [(r.event, r.data) for r in out] == [  # type: ignore[attr-defined]
        (f"event:{k}", p.decode()) for k, p in messages
    ]
    assert out == feed_all(Framer(), [body])
    assert out == feed_all(EventStreamParser(), _bytes(body))

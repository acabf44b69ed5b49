"""The SSE framer's shortcuts against its general path: identical output, always.

``SSEParser`` cuts CR-free chunks with one split and turns the commonest blocks
(``data:<value>`` and a blank line, maybe after one ``event:`` line) into events without
the block buffers. ``_GeneralSSEParser`` is the same parser with every shortcut off. For
any body and any chunking both must give the same records and diagnostics, from the same
``feed`` call (so with the same offsets and times), the same last event ID and retry
after every chunk, and the same tail at ``close``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ssescope.framing import SSEEvent, SSEParser
from ssescope.framing.sse import _GeneralSSEParser

from ..python_source import python_source
from ..splits import chunk_at, feed_all
from ._helpers import codes

# The counting parsers subclass the framer, which only its Python form allows.
_sse = python_source("ssescope.framing.sse")

Factory = Callable[[], SSEParser]
Trace = list[tuple[list[object], str, int | None]]

LONG = b"L" * 66_000  # past the size where a value is decoded from a memoryview

_names = st.sampled_from(
    [
        *(b"data:", b"data: ", b"data:  ", b"event:", b"event: ", b"id: ", b"id:"),
        *(b"retry: ", b"retry:", b":", b": ", b"data", b"event", b"x: ", b"dat:", b"{", b""),
    ]
)
_values = st.one_of(
    st.sampled_from(
        [
            *(b"", b"x", b"hello", b'{"a":1}', b"[DONE]", b"12", b"\x00", b"a:b", b" lead"),
            *(b"\xff", b"\xe6\x97\xa5", b"\xe6", b"\xef\xbb\xbf", b"caf\xc3\xa9", LONG),
        ]
    ),
    st.binary(max_size=8).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b"")),
)
_lf_ends = st.just(b"\n")
_any_ends = st.sampled_from([b"\n", b"\n", b"\r\n", b"\r"])


@st.composite
def _items(draw: st.DrawFn, ends: st.SearchStrategy[bytes]) -> bytes:
    """One line with its terminator, or a whole block in the shapes LLM streams use."""
    shape = draw(st.integers(0, 3))
    end = draw(ends)
    if shape == 0:
        return draw(_names) + draw(_values) + end
    if shape == 1:
        return b"data: " + draw(_values) + end + draw(ends)
    if shape == 2:
        kind = draw(st.sampled_from([b"delta", b"", b"\xff", b"ping"]))
        return b"event: " + kind + end + b"data: " + draw(_values) + draw(ends) + draw(ends)
    return draw(ends)


@st.composite
def _bodies(draw: st.DrawFn) -> bytes:
    ends = _lf_ends if draw(st.booleans()) else _any_ends
    body = b"".join(draw(st.lists(_items(ends), max_size=14)))
    if draw(st.integers(0, 4)) == 0:
        body = b"\xef\xbb\xbf" + body
    return body


def _run(factory: Factory, chunks: list[bytes]) -> Trace:
    """What each ``feed`` (then ``close``) returns, with the stream state after it."""
    parser = factory()
    trace: Trace = []
    for k, chunk in enumerate(chunks):
        trace.append((list(parser.feed(chunk, float(k))), parser.last_event_id, parser.retry))
    trace.append((list(parser.close(-1.0)), parser.last_event_id, parser.retry))
    return trace


def _chunkings(data: st.DataObject, body: bytes) -> list[list[bytes]]:
    cuts = data.draw(st.lists(st.integers(1, max(1, len(body) - 1)), max_size=12))
    # (and one block a chunk, as a live stream is read: cut after every blank line)
    blocks = [i + 2 for i in range(len(body) - 1) if body[i : i + 2] == b"\n\n"]
    chunkings = [[body], chunk_at(body, cuts), chunk_at(body, blocks)]
    if len(body) < 2_000:
        chunkings.append([body[i : i + 1] for i in range(len(body))])
    return chunkings


PAIRS: dict[str, tuple[Factory, Factory]] = {
    "uncapped": (SSEParser, _GeneralSSEParser),
    "capped": (
        lambda: SSEParser(max_event_bytes=24),
        lambda: _GeneralSSEParser(max_event_bytes=24),
    ),
}


@pytest.mark.parametrize("name", list(PAIRS))
@settings(max_examples=160, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), body=_bodies())
def test_the_shortcuts_give_what_the_general_path_gives(
    name: str, data: st.DataObject, body: bytes
) -> None:
    fast, general = PAIRS[name]
    for chunks in _chunkings(data, body):
        assert _run(fast, chunks) == _run(general, chunks), chunks


def test_a_whole_event_chunk_after_a_block_too_large_is_dropped_with_it() -> None:
    # The block over the cap is discarded up to its blank line: the one-event shortcut must
    # not turn the next chunk's "data: x" into an event (found by the test above).
    body = b"data:   lead\ndata:  " + b"\x00" * 30 + b"\n"
    chunks = [body, b"data: x\n\n", b"data: y\n\n"]
    fast, general = PAIRS["capped"]
    assert _run(fast, chunks) == _run(general, chunks)


class _Counting(_sse.SSEParser):  # type: ignore[name-defined]
    """Counts the lines that go through the general line interpreter."""

    __slots__ = ("general",)

    def __init__(self, max_event_bytes: int | None = None) -> None:
        super().__init__(max_event_bytes=max_event_bytes)
        self.general = 0

    def _line(self, *args: object) -> None:
        self.general += 1
        super()._line(*args)


class _GeneralCounting(_sse._GeneralSSEParser, _Counting):  # type: ignore[name-defined]
    """The same count with every shortcut off."""

    __slots__ = ()


OPENAI = b'data: {"choices":[{"delta":{"content":"hi"}}]}\n\n' * 20 + b"data: [DONE]\n\n"
ANTHROPIC = b'event: content_block_delta\ndata: {"type":"content_block_delta"}\n\n' * 20


@pytest.mark.parametrize("body", [OPENAI, ANTHROPIC], ids=["openai", "anthropic"])
@pytest.mark.parametrize("size", [1, 7, 64, 1024, 1 << 20])
def test_the_common_shapes_take_the_shortcut_in_every_chunking(body: bytes, size: int) -> None:
    parser = _Counting()
    _shortcut_taken(parser, body, size)


@pytest.mark.parametrize("body", [OPENAI, ANTHROPIC], ids=["openai", "anthropic"])
@pytest.mark.parametrize("whole", [True, False], ids=["one-chunk", "an-event-a-chunk"])
def test_a_cap_far_above_the_events_keeps_the_shortcut(body: bytes, whole: bool) -> None:
    """What the proxy and the in-app transport run (a 16 MiB cap): the same shortcut for
    events that come whole in a chunk, as servers send them (a line left unfinished at a
    chunk's end still goes the general way under a cap, which counts its bytes)."""
    parser = _Counting(max_event_bytes=16 << 20)
    chunks = [body] if whole else [e + b"\n\n" for e in body.split(b"\n\n") if e]
    out = feed_all(parser, chunks)
    assert sum(isinstance(r, SSEEvent) for r in out) == len(out) == body.count(b"\n\n")
    assert parser.general == 0
    assert out == feed_all(_GeneralSSEParser(max_event_bytes=16 << 20), chunks)


def test_an_event_past_the_cap_goes_the_general_way_and_is_reported() -> None:
    body = b"data: " + b"x" * 70 + b"\n\n" + OPENAI
    parser = _Counting(max_event_bytes=64)
    out = feed_all(parser, [body])
    assert out == feed_all(_GeneralSSEParser(max_event_bytes=64), [body])
    assert codes(out) == ["sse.event-too-large"]
    assert parser.general == 2  # the data line too large, then the blank line ending it
    assert sum(isinstance(r, SSEEvent) for r in out) == 21


def _shortcut_taken(parser: _Counting, body: bytes, size: int) -> None:
    out: list[object] = []
    for k in range(0, len(body), size):
        out += parser.feed(body[k : k + size])
    out += parser.close()
    events = [r for r in out if isinstance(r, SSEEvent)]
    assert len(events) == len(out) == body.count(b"\n\n")
    # Only an event whose data line's LF and blank line arrive in different chunks
    # goes through the general path: its data line and its blank line.
    straddling = sum((e.end - 2) // size != (e.end - 1) // size for e in events)
    assert parser.general == 2 * straddling
    assert out == feed_all(_GeneralSSEParser(), [body])


def test_the_general_parser_takes_no_shortcut() -> None:
    parser = _GeneralCounting()
    out = feed_all(parser, [OPENAI[:100], OPENAI[100:]])
    assert sum(isinstance(r, SSEEvent) for r in out) == 21
    assert parser.general == 42  # every data line and every blank line


def _llm_stream(rng: random.Random, events: int) -> bytes:
    """An LLM-shaped body: OpenAI-like ``data:`` events, Anthropic-like ``event:`` +
    ``data:`` pairs, pings, comments, ids, multi-byte text, now and then a CR line end, an
    invalid byte, a lone ``event:`` or ``data:`` line or a blank line too many."""
    words = ["Hello", " wörld", " 日本語", " 🙂", ",", " a", ' "q"', "\\n"]
    out: list[bytes] = []
    for k in range(events):
        text = "".join(rng.choice(words) for _ in range(rng.randint(0, 6)))
        payload = f'{{"k":{k},"text":"{text}"}}'.encode()
        end = b"\r\n" if rng.random() < 0.03 else b"\n"
        shape = rng.random()
        if shape < 0.4:
            out.append(b"data: " + payload + end + end)
        elif shape < 0.8:
            name = rng.choice([b"content_block_delta", b"message_delta", b""])
            out.append(b"event: " + name + end + b"data:" + payload + end + end)
        elif shape < 0.85:
            out.append(b'event: ping\ndata: {"type": "ping"}\n\n')
        elif shape < 0.9:
            out.append(rng.choice([b": keep-alive\n", b":\n", b"id: 7\n", b"retry: 50\n"]))
        elif shape < 0.95:
            out.append(rng.choice([b"event: lone\n", b"data: x\n", b"\n", b"data: \xff\n\n"]))
        else:
            out.append(b"event: a\nid: " + str(k).encode() + b"\ndata: " + payload + b"\n\n")
    return b"".join(out)


def _random_chunks(rng: random.Random, body: bytes) -> list[bytes]:
    """``body`` cut mostly into small pieces (1 to 80 bytes), now and then a large one."""
    chunks: list[bytes] = []
    i = 0
    while i < len(body):
        size = rng.randint(1, 80) if rng.random() < 0.9 else rng.randint(81, 4096)
        chunks.append(body[i : i + size])
        i += size
    return chunks


def _run_with_tail(factory: Factory, chunks: list[bytes]) -> tuple[Trace, object]:
    """:func:`_run`, and the tail the parser keeps after ``close``."""
    parser = factory()
    return _run(lambda: parser, chunks), parser.tail


@pytest.mark.parametrize("seed", range(40))
def test_llm_shaped_streams_in_random_chunkings(seed: int) -> None:
    """Many small chunks (lines that straddle them, chunks that hold no line end, events
    that end at a chunk's edge): every record, diagnostic, offset, time, last event ID,
    retry and the tail are the general path's."""
    rng = random.Random(seed)
    body = _llm_stream(rng, rng.randint(20, 200))
    if seed % 5 == 0:
        body = body[: rng.randint(1, len(body))]  # cut anywhere: the tail must agree too
    for chunks in (_random_chunks(rng, body), _random_chunks(rng, body), [body]):
        assert _run_with_tail(SSEParser, chunks) == _run_with_tail(_GeneralSSEParser, chunks)
    assert sum(isinstance(r, SSEEvent) for r in feed_all(SSEParser(), [body])) > 0

"""A chunk read by its shape (``providers/openai_chat/shape.py``) gives exactly what the
same chunk decoded gives: a differential fuzz over hand-written chunk texts (spacing, key
order, ``obfuscation``, escapes, duplicate keys, other ids and choices), and tests that
the shortcut is taken where it should be and stops being tried where it cannot help."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssescope.framing import JSONRecord
from ssescope.providers import make_adapter
from ssescope.providers.openai_chat import adapter as chat_adapter
from ssescope.providers.openai_chat.shape import chunk_shape

# Characters a JSON string can hold raw, and some it cannot (or that Python does not print).
_TEXT = st.one_of(
    st.text(alphabet="ab ~[{é😀", max_size=5),
    st.text(alphabet='ab ~[{é"\\\n\x01\u2028\ufeff😀', max_size=5),
)


def _string(value: str, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


@st.composite
def _layout(draw: st.DrawFn) -> dict[str, Any]:
    """What a stream's chunks share: spacing, members and where ``obfuscation`` stands."""
    return {
        "spaced": draw(st.booleans()),
        "logprobs": draw(st.booleans()),
        "usage": draw(st.booleans()),
        "model": draw(st.sampled_from(['"m"', '"m"', '{"content":"x"}'])),
        "obfuscation": draw(st.sampled_from([None, 0, 3, 5, 6])),
    }


@st.composite
def _chunk_text(draw: st.DrawFn, layout: dict[str, Any], first: bool) -> str:
    """One chunk as text, written member by member (so keys can repeat or move): most
    follow the stream's layout with other values, some differ from it somewhere."""
    colon, comma = (": ", ", ") if layout["spaced"] else (":", ",")
    ascii_only = draw(st.integers(0, 3)) == 0
    odd = draw(st.integers(0, 5)) == 0  # (this chunk differs from the layout somewhere)

    def obj(members: list[tuple[str, str]]) -> str:
        return "{" + comma.join(f'"{k}"{colon}{v}' for k, v in members) + "}"

    delta: list[tuple[str, str]] = []
    if first:
        delta.append(("role", '"assistant"'))
    delta.append(("content", _string(draw(_TEXT), ascii_only)))
    if odd and draw(st.booleans()):  # a second content key: the last one counts
        delta.append(("content", _string(draw(_TEXT), ascii_only)))
    if odd and draw(st.booleans()):
        delta.append(("refusal", "null"))
    choice = [
        ("index", draw(st.sampled_from(["0", "1"])) if odd else "0"),
        ("delta", obj(delta)),
        ("finish_reason", draw(st.sampled_from(["null", '"stop"'])) if odd else "null"),
    ]
    if layout["logprobs"]:
        choice.append(("logprobs", "null"))
    members = [
        ("id", draw(st.sampled_from(['"c1"', '"c2"'])) if odd else '"c1"'),
        ("object", '"chat.completion.chunk"'),
        ("created", draw(st.sampled_from(["1", "2"])) if odd else "1"),
        ("model", layout["model"]),
        ("choices", "[" + obj(choice) + "]"),
    ]
    if layout["usage"]:
        members.append(("usage", "null"))
    where = layout["obfuscation"]
    if where is not None:
        raw_only = draw(st.integers(0, 3)) > 0
        padding = draw(st.text(alphabet="Ab9" if raw_only else 'Ab9"\\', min_size=1, max_size=6))
        members.insert(min(where, len(members)), ("obfuscation", _string(padding, True)))
    if odd and draw(st.booleans()):
        members.append(("x_extra", draw(st.sampled_from(['"content"', "[[1]]", '{"a":"b"}']))))
    return obj(members)


@st.composite
def _stream(draw: st.DrawFn) -> list[str]:
    layout = draw(_layout())
    n = draw(st.integers(1, 24))
    texts = [draw(_chunk_text(layout, k == 0)) for k in range(n)]
    if draw(st.integers(0, 5)) == 0:
        texts.insert(draw(st.integers(0, len(texts))), "[DONE]")
    return texts


def _adapter(shapes: bool = True) -> Any:
    adapter: Any = make_adapter("openai-chat", "ndjson")
    if not shapes:
        adapter._shape_duds = 1 << 30  # (past the shapes that fitted nothing: none is made)
    return adapter


def _run(texts: list[str], adapter: Any = None) -> list[Any]:
    adapter = adapter or _adapter()
    out: list[Any] = []
    pos = 0
    for index, data in enumerate(texts):
        out += adapter.feed(JSONRecord(index, data, pos, pos + len(data)))
        pos += len(data) + 1
    out += adapter.close()
    return out


@settings(max_examples=300, deadline=None)
@given(_stream())
def test_a_chunk_read_by_its_shape_gives_what_decoding_it_gives(texts: list[str]) -> None:
    assert _run(texts) == _run(texts, _adapter(shapes=False))


def _counting_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = chat_adapter._loads

    def loads(data: str) -> Any:
        seen.append(data)
        return real(data)

    monkeypatch.setattr(chat_adapter, "_loads", loads)
    return seen


def _compact(content: str, padding: str) -> str:
    return f'{{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{{"index":0,"delta":{{"content":{content}}},"logprobs":null,"finish_reason":null}}],"usage":null,"obfuscation":{padding}}}'


def _spaced(content: str) -> str:
    return f'{{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{{"index": 0, "delta": {{"content": {content}}}, "finish_reason": null}}]}}'


def _texts(words: list[str], spaced: bool) -> list[str]:
    first = '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}'
    body = [
        _spaced(json.dumps(w)) if spaced else _compact(json.dumps(w), json.dumps("p" * (k % 7 + 1)))
        for k, w in enumerate(words)
    ]
    return [first, *body]


@pytest.mark.parametrize("spaced", [False, True], ids=["compact+obfuscation", "spaced"])
def test_after_one_decoded_chunk_the_rest_are_read_by_their_shape(
    monkeypatch: pytest.MonkeyPatch, spaced: bool
) -> None:
    seen = _counting_loads(monkeypatch)
    words = [f"w{k} " for k in range(50)]
    out = _run(_texts(words, spaced))
    assert "".join(e.text for e in out if type(e).__name__ == "TextDelta") == "".join(words)
    assert len(seen) == 2  # the role chunk and the chunk the shape is made from


def test_text_that_is_not_raw_is_decoded_and_the_shape_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _counting_loads(monkeypatch)
    words = ["a ", "b ", 'say "hi"\n', "c\\d", "\u00e9t\u00e9 ", "e ", "f "]
    out = _run(_texts(words, spaced=False))
    assert [e.text for e in out if type(e).__name__ == "TextDelta"] == words
    # decoded: the role chunk, "a " (the shape's), and the three written with escapes
    # (json.dumps writes "été" as "\u00e9t\u00e9")
    assert len(seen) == 5


def test_a_stream_whose_chunks_all_differ_stops_making_shapes() -> None:
    first = '{"id":"c1","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}'
    texts = [first] + [
        f'{{"id":"c1","object":"chat.completion.chunk","created":{k},"model":"m","choices":[{{"index":0,"delta":{{"content":"w"}},"finish_reason":null}}]}}'
        for k in range(1, 400)
    ]
    adapter = _adapter()
    out = _run(texts, adapter)
    assert sum(type(e).__name__ == "TextDelta" for e in out) == 399
    # three shapes were made, each fitted nothing, and no fourth was tried
    assert adapter._shape_duds == 3
    assert adapter._shape is None


def test_a_probe_that_moves_another_value_refuses_the_shape() -> None:
    # The content's text is also the value of another "content" member: ambiguous.
    data = '{"id":"c1","model":{"content":"hi"},"choices":[{"index":0,"delta":{"content":"hi"}}]}'
    assert chunk_shape(data, json.loads(data), "hi", 0) is None
    # The last of two content members is the delta's: the shape holds it.
    data = '{"id":"c1","choices":[{"index":0,"delta":{"content":"a","content":"hi"}}]}'
    shape = chunk_shape(data, json.loads(data), "hi", 0)
    assert shape is not None
    assert shape.text(data.replace('"hi"', '"yo"')) == "yo"
    assert shape.text(data.replace('"a"', '"b"')) is None

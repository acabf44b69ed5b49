"""``"usage": null`` on a chunk means no usage: the chunk takes the adapter's fast path and
gives exactly what the same chunk without the key gives (a differential fuzz)."""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from ssescope.diagnostics import Diagnostic
from ssescope.framing import JSONRecord
from ssescope.providers import make_adapter

_TEXT = st.text(alphabet="ab \n\u00e9", max_size=4)


@st.composite
def _chunks(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A Chat Completions stream: first chunk, content deltas, maybe a finish and a usage."""
    cid = draw(st.sampled_from(["c1", "c2"]))
    out: list[dict[str, Any]] = []
    for k in range(draw(st.integers(1, 8))):
        delta: dict[str, Any] = {}
        if k == 0:
            delta["role"] = "assistant"
        content = draw(st.one_of(st.none(), _TEXT, st.integers(0, 2)))
        if draw(st.booleans()):
            delta["content"] = content
        choice: dict[str, Any] = {
            "index": draw(st.sampled_from([0, 0, 0, 1])),
            "delta": delta,
            "finish_reason": draw(st.sampled_from([None, None, None, "stop", "length"])),
        }
        chunk: dict[str, Any] = {
            "id": draw(st.sampled_from([cid, cid, cid, "other"])),
            "object": draw(st.sampled_from(["chat.completion.chunk"] * 4 + ["chat.completion"])),
            "model": "m",
            "choices": [choice] if draw(st.integers(0, 6)) else [],
        }
        if draw(st.integers(0, 8)) == 0:
            chunk["usage"] = draw(
                st.sampled_from([{"prompt_tokens": 1, "completion_tokens": 2}, 7, "x"])
            )
        out.append(chunk)
    return out


def _run(chunks: list[dict[str, Any]]) -> list[Any]:
    adapter = make_adapter("openai-chat", "ndjson")
    out: list[Any] = []
    for index, chunk in enumerate(chunks):
        data = orjson.dumps(chunk).decode()
        out += adapter.feed(JSONRecord(index, data, 0, len(data)))
    out += adapter.close()
    # Diagnostics quote the record's text, which differs by the key: compare their codes.
    return [(o.code, o.record) if isinstance(o, Diagnostic) else o for o in out]


@settings(max_examples=300, deadline=None)
@given(chunks=_chunks(), nulls=st.data())
def test_usage_null_gives_what_no_usage_gives(
    chunks: list[dict[str, Any]], nulls: st.DataObject
) -> None:
    with_null = [
        {**c, "usage": None} if "usage" not in c and nulls.draw(st.booleans()) else c
        for c in chunks
    ]
    assert _run(with_null) == _run(chunks)

"""The cheap depth tests run before a decoded value is walked: they may only skip values
that cannot be too deep.

``may_be_too_deep`` counts brackets (after a length check: a text shorter than the limit
cannot hold enough); ``decoded_may_be_too_deep``, for a text that just decoded as JSON,
does not even count when the text is at most twice the limit long (each level takes an
opening and a closing bracket). Over random JSON near the limit, in compact and spaced
forms, neither says no where the value is too deep, and both agree with the plain count
they replaced (``count("[") + count("{") > limit``) wherever the value is too deep; and
the adapters report the same ``json.too-deep`` diagnostics as before.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ssescope
from ssescope.limits import MAX_DEPTH, decoded_may_be_too_deep, may_be_too_deep, too_deep


def _nested(depth: int, leaf: Any, kinds: list[bool]) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if kinds[level % len(kinds)] else {"k": value}
    return value


def _counted(text: str, limit: int) -> bool:
    """The test the cheap ones replaced."""
    return text.count("[") + text.count("{") > limit


@settings(max_examples=300, deadline=None)
@given(
    depth=st.integers(0, 12),
    limit=st.integers(1, 10),
    leaf=st.sampled_from([1, "x", "[{", [], {}, None, "日本"]),
    kinds=st.lists(st.booleans(), min_size=1, max_size=4),
    spaced=st.booleans(),
)
def test_the_cheap_tests_never_miss_a_value_too_deep(
    depth: int, limit: int, leaf: Any, kinds: list[bool], spaced: bool
) -> None:
    value = _nested(depth, leaf, kinds)
    text = json.dumps(value) if spaced else orjson.dumps(value).decode()
    assert orjson.loads(text) == value
    deep = too_deep(value, limit)
    if deep:
        assert may_be_too_deep(text, limit)
        assert decoded_may_be_too_deep(text, limit)
    assert may_be_too_deep(text, limit) == _counted(text, limit)
    if decoded_may_be_too_deep(text, limit):
        assert _counted(text, limit)


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2])
@pytest.mark.parametrize("leaf", [[], 1])
def test_the_smallest_value_past_the_limit_is_still_walked(depth: int, leaf: Any) -> None:
    """Depth ``MAX_DEPTH + 1`` written compactly is the shortest text the cheap test must
    let through: ``2 * MAX_DEPTH + 2`` characters for nested empty arrays."""
    value = _nested(depth, leaf, [True])
    text = orjson.dumps(value).decode()
    assert decoded_may_be_too_deep(text) == (depth + (leaf == []) > MAX_DEPTH) == too_deep(value)


@pytest.mark.parametrize("depth", [MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 300])
@pytest.mark.parametrize("provider", ["openai-chat", "anthropic"])
def test_records_near_the_limit_are_judged_as_before(depth: int, provider: str) -> None:
    """A record nested about as deep as the limit, after a plain one (so that the OpenAI
    chunk takes the adapter's shortest path): ``json.too-deep`` exactly when its decoded
    value is too deep, and the plain records around it are read."""
    inner = "[" * depth + "1" + "]" * depth
    if provider == "openai-chat":
        head = '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"%s"},"finish_reason":null}]'
        records = [head % "a" + "}", head % "b" + ',"x":' + inner + "}", head % "c" + "}"]
        tail = "data: [DONE]\n\n"
    else:
        event = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"%s"}'
        records = [event % "a" + "}", event % "b" + ',"x":' + inner + "}", event % "c" + "}"]
        tail = ""
    body = "".join(f"data: {r}\n\n" for r in records) + tail
    report = ssescope.inspect(body.encode(), provider=provider)
    deep = too_deep(json.loads(records[1]))
    assert deep == (depth + 1 > MAX_DEPTH)
    assert [d.record for d in report.diagnostics if d.code == "json.too-deep"] == (
        [1] if deep else []
    )
    assert report.text == ("ac" if deep else "abc")

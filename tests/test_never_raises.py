"""Whatever the bytes, ``inspect`` gives a Report: bad input is a diagnosis, never a crash."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import ssescope
from ssescope import PROVIDERS

_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "choices",
                    "delta",
                    "content",
                    "index",
                    "id",
                    "error",
                    "message",
                    "usage",
                    "candidates",
                    "parts",
                    "text",
                    "done",
                    "tool_calls",
                    "function",
                    "arguments",
                    "finish_reason",
                    "content_block",
                    "partial_json",
                    "response",
                    "item",
                    "output_index",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=12,
)


def _sse(values: list[object]) -> bytes:
    return b"".join(b"data: " + json.dumps(v).encode() + b"\n\n" for v in values)


@settings(max_examples=60, deadline=None)
@given(body=st.binary(max_size=400), provider=st.sampled_from(["auto", *PROVIDERS]))
def test_random_bytes_give_a_report(body: bytes, provider: str) -> None:
    report = ssescope.inspect(body, provider=provider)
    assert report.to_dict()["schema"] == 1


@settings(max_examples=80, deadline=None)
@given(values=st.lists(_json_values, max_size=8), provider=st.sampled_from(["auto", *PROVIDERS]))
def test_random_json_records_give_a_report_for_every_provider(
    values: list[object], provider: str
) -> None:
    body = _sse(values)
    whole = ssescope.inspect(body, provider=provider).to_dict()
    cut = ssescope.inspect(
        iter([body[: len(body) // 2], body[len(body) // 2 :]]), provider=provider
    )
    del whole["source"]
    halves = cut.to_dict()
    del halves["source"]
    assert whole == halves

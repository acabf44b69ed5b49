"""Record previews leave out the envelope that every record repeats."""

from __future__ import annotations

import json

from ssescope.preview import summaries


def chunk(text: str) -> str:
    body = {"id": "c1", "object": "chat.completion.chunk", "model": "m"}
    body["choices"] = [{"delta": {"content": text}}]  # type: ignore[assignment]
    return json.dumps(body, separators=(",", ":"))


def test_keys_with_the_same_value_in_every_record_are_left_out() -> None:
    got = summaries([chunk("a"), chunk("b"), chunk("c")], [None, None, None])
    assert got == [
        '{"choices":[{"delta":{"content":"a"}}]}',
        '{"choices":[{"delta":{"content":"b"}}]}',
        '{"choices":[{"delta":{"content":"c"}}]}',
    ]


def test_a_type_that_repeats_the_event_name_is_left_out() -> None:
    texts = ['{"type":"ping"}', '{"type":"delta","i":1}', '{"type":"delta","i":2}']
    got = summaries(texts, ["ping", "delta", "delta"])
    assert got == ["{…}", '{"i":1}', '{"i":2}']


def test_too_few_records_keep_everything_and_other_text_passes_through() -> None:
    assert summaries([chunk("a"), "[DONE]", None, "not json {"], [None, None, None, None]) == [
        chunk("a"),
        "[DONE]",
        "",
        "not json {",
    ]


def test_an_odd_record_shows_what_differs_from_the_envelope() -> None:
    texts = [
        chunk("a"),
        chunk("b"),
        chunk("c"),
        chunk("d"),
        '{"id":"c2","object":"chat.completion.chunk","model":"m"}',
    ]
    assert summaries(texts, [None] * 5)[-1] == '{"id":"c2"}'

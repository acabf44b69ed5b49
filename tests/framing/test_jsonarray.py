"""Streamed JSON array framing (Gemini without ``alt=sse``): one record per element."""

from __future__ import annotations

import json

import pytest

from ssescope.framing import JSONArrayParser, JSONRecord

from ..splits import assert_split_invariant, feed_all


def parse(data: bytes) -> list[object]:
    return assert_split_invariant(JSONArrayParser, data)


def records(out: list[object]) -> list[JSONRecord]:
    return [r for r in out if isinstance(r, JSONRecord)]


def codes(out: list[object]) -> list[str]:
    return [r.code for r in out if not isinstance(r, JSONRecord)]  # type: ignore[attr-defined]


GEMINI_LIKE = json.dumps(
    [
        {"candidates": [{"content": {"parts": [{"text": 'Hello [world] {x}, "quoted" \\ '}]}}]},
        {"candidates": [{"content": {"parts": [{"text": "日本 😀 ]]]}}}"}], "role": "model"}}]},
        {"usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 9}},
    ],
    indent=2,
    ensure_ascii=False,
).replace("\n", "\r\n")


def test_a_pretty_printed_gemini_like_array_split_anywhere_gives_each_element() -> None:
    body = GEMINI_LIKE.encode()
    out = parse(body)
    assert codes(out) == []
    got = [json.loads(r.data) for r in records(out)]
    assert got == json.loads(GEMINI_LIKE)
    for r in records(out):
        assert body[r.start : r.end].decode() == r.data


def test_each_element_is_a_record_as_soon_as_its_last_byte_arrives() -> None:
    parser = JSONArrayParser()
    assert parser.feed(b'[{"a": "}"') == []
    out = parser.feed(b'}, {"b"', 2.0)
    assert out == [JSONRecord(0, '{"a": "}"}', 1, 11, 2.0)]
    assert parser.feed(b": [1, 2]}]", 3.0) == [JSONRecord(1, '{"b": [1, 2]}', 13, 26, 3.0)]
    assert parser.close() == []


@pytest.mark.parametrize(
    "text",
    [
        r'"a ] b"',
        r'"a \" ] b"',
        r'"back\\"',
        r'"back\\\\" ',
        r'"\\\" ]"',
        r'"{[}]"',
        r'"\u005d"',
    ],
)
def test_strings_with_brackets_escaped_quotes_and_backslashes_do_not_end_elements(
    text: str,
) -> None:
    body = ('[{"s": ' + text + "}, [" + text + "]]").encode()
    out = parse(body)
    assert codes(out) == []
    assert [json.loads(r.data) for r in records(out)] == json.loads(body)


def test_bare_literals_and_strings_are_elements_too() -> None:
    out = parse(b'[1, -2.5e3 ,true,null, "s" , false ]')
    assert [r.data for r in records(out)] == ["1", "-2.5e3", "true", "null", '"s"', "false"]
    assert [(r.start, r.end) for r in records(out)][:2] == [(1, 2), (4, 10)]


def test_garbage_before_the_array_is_reported_once_per_run_and_skipped() -> None:
    out = parse(b')]}\'\nxyz [{"a":1}]')
    # a run of bytes up to a space (or the opening "["), structural ones included
    assert codes(out) == ["json-array.unexpected-text"] * 2
    assert [r.data for r in records(out)] == ['{"a":1}']
    assert [d.offset for d in out if not isinstance(d, JSONRecord)] == [0, 5]  # type: ignore[attr-defined]
    assert out[0].args["text"] == ")]}'"  # type: ignore[attr-defined]
    assert "'xyz'" in out[1].message  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("body", "texts"),
    [
        (b"[1]]]]}}", ["]]]}}"]),
        (b"[1,,,,2]", [",,,"]),
        (b"[1}}}},2]", ["}}}}"]),
        (b"[1},},2]", ["}", "}", ","]),
    ],
)
def test_a_run_of_unexpected_brackets_or_commas_is_one_diagnostic(
    body: bytes, texts: list[str]
) -> None:
    out = parse(body)
    assert [d.args["text"] for d in out if not isinstance(d, JSONRecord)] == texts  # type: ignore[attr-defined]


def test_thousands_of_stray_brackets_give_one_diagnostic_per_run_not_per_byte() -> None:
    body = b"\n".join([b"[" * 1100 + b"1" + b"]" * 1100] * 40)
    out = feed_all(JSONArrayParser(), [body])
    assert codes(out) == ["json-array.unexpected-text"] * 39
    assert len(records(out)) == 1


def test_garbage_after_the_array_is_reported_with_its_offset() -> None:
    out = parse(b'[{"a":1}]\n  trailing junk')
    assert codes(out) == ["json-array.unexpected-text"] * 2
    assert out[1].offset == 12  # type: ignore[attr-defined]
    assert "after the closing ']'" in out[1].message  # type: ignore[attr-defined]


def test_a_stray_comma_and_a_missing_comma_are_reported() -> None:
    out = parse(b'[,{"a":1} {"b":2}]')
    assert codes(out) == ["json-array.unexpected-text", "json-array.missing-comma"]
    assert len(records(out)) == 2


def test_an_unterminated_element_is_reported_with_its_text() -> None:
    out = parse(b'[{"a":1},\n {"b": "cut')
    assert [r.data for r in records(out)] == ['{"a":1}']
    assert codes(out) == ["json-array.unterminated-element", "json-array.unclosed"]
    assert out[1].raw == '{"b": "cut'  # type: ignore[attr-defined]
    assert out[1].offset == 11  # type: ignore[attr-defined]


def test_an_array_that_is_never_closed_is_reported() -> None:
    out = parse(b'[{"a":1}')
    assert codes(out) == ["json-array.unclosed"]


def test_a_body_that_never_opens_an_array_is_an_error() -> None:
    out = parse(b"oops")
    assert codes(out) == ["json-array.unexpected-text", "json-array.missing-open"]


def test_a_leading_bom_is_stripped_even_when_split() -> None:
    out = parse(b"\xef\xbb\xbf[1]")
    assert codes(out) == ["json-array.bom-stripped"]
    assert records(out) == [JSONRecord(0, "1", 4, 5, None)]


def test_invalid_utf8_in_an_element_is_replaced_and_reported() -> None:
    out = parse(b'[{"a":"\xff"}]')
    assert codes(out) == ["utf8.invalid-bytes"]
    assert out[0].offset == 7  # type: ignore[attr-defined]


def test_a_big_element_in_many_chunks_is_one_record() -> None:
    body = b'[{"img":"' + b"A" * 200_000 + b'"}]'
    out = feed_all(JSONArrayParser(), [body[i : i + 512] for i in range(0, len(body), 512)])
    assert len(out) == 1
    assert (out[0].start, out[0].end) == (1, len(body) - 1)  # type: ignore[attr-defined]

"""NDJSON framing: one record per non-blank line, whatever the chunking."""

from __future__ import annotations

from ssescope.framing import JSONRecord, NDJSONParser

from ..splits import assert_split_invariant, feed_all


def parse(data: bytes) -> list[object]:
    return assert_split_invariant(NDJSONParser, data)


def codes(out: list[object]) -> list[str]:
    return [r.code for r in out if not isinstance(r, JSONRecord)]  # type: ignore[attr-defined]


def test_each_line_is_a_record_with_its_span() -> None:
    out = parse(b'{"a":1}\n{"b":2}\n')
    assert out == [
        JSONRecord(0, '{"a":1}', 0, 8, None),
        JSONRecord(1, '{"b":2}', 8, 16, None),
    ]


def test_crlf_blank_lines_and_surrounding_spaces_are_skipped() -> None:
    out = parse(b'\r\n  {"a":1}  \r\n\n\n\t{"b":2}\r\n')
    assert [(r.data, r.start) for r in out] == [('{"a":1}', 4), ('{"b":2}', 18)]  # type: ignore[attr-defined]


def test_a_last_line_without_lf_is_still_a_record() -> None:
    out = parse(b'{"a":1}\n{"b":2}')
    assert [r.data for r in out] == ['{"a":1}', '{"b":2}']  # type: ignore[attr-defined]
    assert out[1].end == 15  # type: ignore[attr-defined]


def test_a_line_that_is_not_json_is_kept_and_reported() -> None:
    out = parse(b'{"a":1}\nnot json\n{"b":2}\n')
    assert codes(out) == ["ndjson.not-json-line"]
    bad = out[1]
    assert (bad.offset, bad.record) == (8, 1)  # type: ignore[attr-defined]
    assert [r.data for r in out if isinstance(r, JSONRecord)] == ['{"a":1}', "not json", '{"b":2}']


def test_a_leading_bom_is_stripped_and_reported() -> None:
    out = parse(b'\xef\xbb\xbf{"a":1}\n')
    assert codes(out) == ["ndjson.bom-stripped"]
    assert out[1] == JSONRecord(0, '{"a":1}', 3, 11, None)


def test_invalid_utf8_is_replaced_and_reported_with_its_offset() -> None:
    out = parse(b'{"a":1}\n {"b":"\xff"}\n')
    assert codes(out) == ["utf8.invalid-bytes"]
    assert (out[1].offset, out[1].record) == (15, 1)  # type: ignore[attr-defined]
    assert out[2].data == '{"b":"\ufffd"}'  # type: ignore[attr-defined]


def test_multibyte_characters_split_across_chunks_survive() -> None:
    out = parse('{"t":"日本😀"}\n'.encode())
    assert out[0].data == '{"t":"日本😀"}'  # type: ignore[attr-defined]


def test_unicode_line_separators_do_not_split_lines() -> None:
    out = parse('{"t":"a\u2028b\u0085c"}\n'.encode())
    assert len(out) == 1


def test_records_carry_the_time_of_the_chunk_that_completed_them() -> None:
    out = feed_all(NDJSONParser(), [b'{"a"', b":1}\n{", b'"b":2}\n'], [1.0, 2.0, 3.0])
    assert [r.time for r in out] == [2.0, 3.0]  # type: ignore[attr-defined]


def test_a_long_line_in_many_chunks_is_one_record() -> None:
    body = b'{"x":"' + b"y" * 100_000 + b'"}\n'
    out = feed_all(NDJSONParser(), [body[i : i + 100] for i in range(0, len(body), 100)])
    assert len(out) == 1
    assert out[0].end == len(body)  # type: ignore[attr-defined]

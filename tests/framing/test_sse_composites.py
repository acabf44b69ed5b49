"""Composite vectors shaped like the web-platform-tests eventsource format tests.

Each body and expectation is re-derived from the WHATWG algorithm (the tests themselves
are not copied); the test names say which format test each vector mirrors. Every vector
is parsed whole, byte by byte and split in two at every byte.
"""

from __future__ import annotations

from ssescope.framing import SSEParser

from ..splits import all_splits, feed_all
from ._helpers import codes, comments, diags, events, pairs, parse

BOM = b"\xef\xbb\xbf"


def test_format_bom_strips_the_first_bom_and_a_later_one_ruins_a_field_name() -> None:
    out = parse(BOM + b"data:1\n\n" + BOM + b"data:2\n\ndata:3\n\n")
    assert pairs(out) == [("message", "1"), ("message", "3")]


def test_format_bom_2_strips_only_one_of_two_leading_boms() -> None:
    out = parse(BOM + BOM + b"data:1\n\ndata:2\n\ndata:3\n\n")
    assert pairs(out) == [("message", "2"), ("message", "3")]


def test_format_comments_with_nul_long_comments_and_mixed_line_ends() -> None:
    long = b"x" * 2049
    body = (
        b"data:1\r:\x00\n:\r\ndata:2\n:"
        + long
        + b"\rdata:3\n:data:fail\r:"
        + long
        + b"\ndata:4\n\n"
    )
    out = feed_all(SSEParser(), [body])
    assert pairs(out) == [("message", "1\n2\n3\n4")]
    assert [c.text for c in comments(out)] == [
        "\x00",
        "",
        long.decode(),
        "data:fail",
        long.decode(),
    ]
    # the chunking must not matter even with 2 KiB lines (a sample of cut points)
    for cut in range(0, len(body), 97):
        assert feed_all(SSEParser(), [body[:cut], body[cut:]]) == out


def test_format_data_before_final_empty_line_is_not_dispatched_nor_its_id_committed() -> None:
    body = b"retry:1000\nid:1\ndata:test1\n\nid:2\ndata:test2"
    parser = SSEParser()
    out = feed_all(parser, [body])
    assert pairs(out) == [("message", "test1")]
    assert parser.last_event_id == "1"
    assert diags(out, "sse.unterminated-event")[0].raw == "id:2\ndata:test2"
    assert parse(body) == out


def test_format_field_data_fires_empty_and_lf_data() -> None:
    out = parse(b"data:\n\ndata\ndata\n\ndata:test\n\n")
    assert pairs(out) == [("message", ""), ("message", "\n"), ("message", "test")]


def test_format_field_event_names_one_event_and_not_the_next() -> None:
    out = parse(b"event:test\ndata:x\n\ndata:x\n\n")
    assert pairs(out) == [("test", "x"), ("message", "x")]


def test_format_field_event_empty_falls_back_to_message() -> None:
    assert pairs(parse(b"event: \ndata:data\n\n")) == [("message", "data")]


def test_format_field_id_persists_changes_and_resets() -> None:
    out = parse(b"id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\nid\ndata: d\n\n")
    assert [(e.data, e.id) for e in events(out)] == [("a", "1"), ("b", "1"), ("c", "2"), ("d", "")]


def test_format_field_id_null_variants_are_all_ignored() -> None:
    out = parse(
        b"id: 1\ndata: a\n\nid: \x00\ndata: b\n\nid: x\x00\ndata: c\n\nid: \x00x\ndata: d\n\n"
    )
    assert [e.id for e in events(out)] == ["1", "1", "1", "1"]
    assert codes(out).count("sse.nul-in-id") == 3


def test_format_field_parsing_nul_case_names_spaces_and_line_ends() -> None:
    body = (
        b"data:\x00\ndata:  2\rData:1\ndata\x00:2\ndata:1\r\x00data:4\nda-ta:3\r"
        b"data_5\ndata:3\rdata:\r\n data:32\ndata:4\n\n"
    )
    assert pairs(parse(body)) == [("message", "\x00\n 2\n1\n3\n\n4")]


def test_format_field_retry_sets_the_stream_reconnection_time() -> None:
    parser = SSEParser()
    out = feed_all(parser, [b"retry:03000\ndata:x\n\n"])
    assert parser.retry == 3000
    assert [e.retry for e in events(out)] == [3000]


def test_format_field_retry_bogus_keeps_the_previous_value() -> None:
    parser = SSEParser()
    out = feed_all(parser, [b"retry:3000\rretry:1000x\ndata:x\n\n"])
    assert parser.retry == 3000
    assert codes(out) == ["sse.invalid-retry"]
    assert parse(b"retry:3000\rretry:1000x\ndata:x\n\n") == out


def test_format_field_retry_empty_is_invalid() -> None:
    parser = SSEParser()
    out = feed_all(parser, [b"retry\ndata:test\n\n"])
    assert parser.retry is None
    assert pairs(out) == [("message", "test")]


def test_format_field_unknown_fields_and_text_without_a_colon() -> None:
    body = b"data:test\n data\ndata\nfoobar:xxx\njustsometext\n:thisisacommentyay\ndata:test\n\n"
    out = parse(body)
    assert pairs(out) == [("message", "test\n\ntest")]
    assert codes(out) == ["sse.unknown-field"] * 3


def test_format_leading_space_strips_one_space_and_keeps_a_tab() -> None:
    assert pairs(parse(b"data:\ttest\rdata: \ndata:test\n\n")) == [("message", "\ttest\n\ntest")]


def test_format_newlines_fest_ending_in_crlf_cr() -> None:
    assert pairs(parse(b"data:test\r\ndata\ndata:test\r\n\r")) == [("message", "test\n\ntest")]


def test_format_null_character_in_data_is_delivered() -> None:
    assert pairs(parse(b"data:\x00\n\n")) == [("message", "\x00")]


def test_format_utf_8_ignores_any_declared_charset() -> None:
    body = "data: Ok…\n\ndata: ça va 日本\n\n".encode()
    assert pairs(parse(body)) == [("message", "Ok…"), ("message", "ça va 日本")]


def test_event_data_multi_line_empty_and_trailing_events() -> None:
    body = b"data: msg\ndata: msg\n\n:\n\nfalsedata:test\n\ndata\n\ndata:end\n\n"
    out = parse(body)
    assert pairs(out) == [("message", "msg\nmsg"), ("message", ""), ("message", "end")]


def test_an_llm_shaped_stream_with_crlf_pings_and_a_done_marker() -> None:
    body = (
        b": OPENROUTER PROCESSING\r\n\r\n"
        b'data: {"choices":[{"delta":{"content":"Hi \xe2\x80\xa8 there"}}]}\r\n\r\n'
        b"retry: 3000\r\n\r\n"
        b"event: error\r\n"
        b'data: {"error":{"message":"overloaded"}}\r\n\r\n'
        b"data: [DONE]\r\n\r\n"
    )
    out = parse(body)
    assert pairs(out) == [
        ("message", '{"choices":[{"delta":{"content":"Hi \u2028 there"}}]}'),
        ("error", '{"error":{"message":"overloaded"}}'),
        ("message", "[DONE]"),
    ]
    assert codes(out) == ["sse.dataless-block"]
    assert [e.retry for e in events(out)] == [None, 3000, 3000]
    assert [(e.start, e.end) for e in events(out)] == [(27, 86), (102, 159), (160, 175)]
    assert body[160:175] == b"data: [DONE]\r\n\r"


def test_a_gemini_error_body_without_data_prefix_is_passed_on_as_a_record() -> None:
    body = b'{\n  "error": {\n    "code": 429\n  }\n}\n\n'
    out = parse(body)
    assert events(out) == []
    assert codes(out) == ["sse.unprefixed-json"]
    record = out[1]
    assert record.data == '{\n  "error": {\n    "code": 429\n  }\n}'  # type: ignore[attr-defined]
    assert (record.start, record.end) == (0, len(body))  # type: ignore[attr-defined]


def test_every_two_way_split_of_a_mixed_vector_agrees() -> None:
    body = BOM + b"id: 1\r\n: c\rdata: a\n\rdata: \xe6\x97\xa5\xff\r\n\r\nevent: e\ndata"
    expected = feed_all(SSEParser(), [body])
    for chunks in all_splits(body):
        assert feed_all(SSEParser(), chunks) == expected
    # three-way splits too, on this small vector
    for a in range(1, len(body)):
        for b in range(a + 1, len(body)):
            assert feed_all(SSEParser(), [body[:a], body[a:b], body[b:]]) == expected

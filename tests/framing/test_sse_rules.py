"""One test per rule of the WHATWG event-stream algorithm (HTML §9.2.5–9.2.6).

Every body here is parsed whole, one byte at a time and split in two at every byte
(``parse`` checks that all of them agree), so each rule is also checked across chunk
boundaries.
"""

from __future__ import annotations

import pytest

from ssescope.framing import SSEComment, SSEEvent, SSEParser

from ._helpers import codes, comments, diags, events, pairs, parse, parse_chunks

BOM = b"\xef\xbb\xbf"

# -- decoding and the BOM -----------------------------------------------------------------


def test_a_leading_bom_is_stripped_and_reported() -> None:
    out = parse(BOM + b"data: x\n\n")
    assert pairs(out) == [("message", "x")]
    (bom,) = diags(out, "sse.bom-stripped")
    assert (bom.severity, bom.offset) == ("info", 0)
    assert out[0] is bom
    (event,) = events(out)
    assert (event.start, event.end) == (3, 12)


def test_only_one_leading_bom_is_stripped() -> None:
    out = parse(BOM + BOM + b"data:1\n\ndata:2\n\ndata:3\n\n")
    assert pairs(out) == [("message", "2"), ("message", "3")]
    (unknown,) = diags(out, "sse.unknown-field")
    assert "'\\ufeffdata'" in unknown.message
    assert unknown.offset == 3


def test_a_bom_after_byte_zero_is_an_ordinary_character() -> None:
    out = parse(b"data: 1\n\n" + BOM + b"data: 2\n\ndata: 3\n\n")
    assert pairs(out) == [("message", "1"), ("message", "3")]
    assert "sse.bom-stripped" not in codes(out)


def test_a_bom_at_byte_zero_followed_by_a_blank_line_is_still_stripped() -> None:
    out = parse(BOM + b"\ndata: x\n\n")
    assert pairs(out) == [("message", "x")]
    assert events(out)[0].start == 4


@pytest.mark.parametrize("body", [b"\xef", b"\xef\xbb"])
def test_a_body_that_is_only_the_start_of_a_bom_is_an_unterminated_line(body: bytes) -> None:
    out = parse(body)
    (tail,) = diags(out, "sse.unterminated-event")
    assert tail.raw == "\ufffd"
    assert tail.offset == 0


def test_the_charset_is_irrelevant_the_body_is_always_utf8() -> None:
    # "ok…" in UTF-8; a windows-1252 reading would give "okâ€¦".
    out = parse(b"data: ok\xe2\x80\xa6\n\n")
    assert pairs(out) == [("message", "ok…")]


# -- line endings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "data"),
    [
        (b"data: a\ndata: b\n\n", "a\nb"),
        (b"data: a\rdata: b\r\r", "a\nb"),
        (b"data: a\r\ndata: b\r\n\r\n", "a\nb"),
        (b"data: a\rdata: b\ndata: c\r\n\r", "a\nb\nc"),
    ],
    ids=["lf", "cr", "crlf", "mixed"],
)
def test_lf_cr_and_crlf_each_end_a_line(body: bytes, data: str) -> None:
    assert pairs(parse(body)) == [("message", data)]


def test_a_cr_at_the_end_of_a_chunk_dispatches_without_waiting_for_the_next() -> None:
    parser = SSEParser()
    assert parser.feed(b"data: x\r") == []
    out = parser.feed(b"\r", 2.0)
    assert pairs(out) == [("message", "x")]
    assert out[0].time == 2.0  # type: ignore[union-attr]
    # The LF that may follow is swallowed as the end of that CRLF, not a new line.
    assert parser.feed(b"\ndata: y\n\n") == [SSEEvent(1, "message", "y", "", None, 10, 19, None)]


def test_a_crlf_split_across_chunks_is_one_line_end() -> None:
    out = parse_chunks([b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"])
    assert pairs(out) == [("message", "a\nb")]


def test_lf_then_cr_is_two_line_ends() -> None:
    out = parse(b"data: a\n\rdata: b\n\n")
    assert pairs(out) == [("message", "a"), ("message", "b")]


def test_a_cr_that_is_the_last_byte_of_the_body_ends_a_line() -> None:
    out = parse(b"data: a\r\n\r")
    assert pairs(out) == [("message", "a")]
    assert "sse.unterminated-event" not in codes(out)


def test_the_span_of_a_crlf_terminated_event_ends_just_past_the_cr() -> None:
    # Whether the final LF has arrived must not change the record, so it is in no span.
    (event,) = events(parse(b"data: a\r\n\r\n"))
    assert (event.start, event.end) == (0, 10)


# -- kinds of line ------------------------------------------------------------------------


def test_a_field_is_split_at_the_first_colon() -> None:
    out = parse(b"event:x:y\ndata: a: b:c\n\n")
    assert pairs(out) == [("x:y", "a: b:c")]


@pytest.mark.parametrize(
    ("line", "value"),
    [
        (b"data:x", "x"),
        (b"data: x", "x"),
        (b"data:  x", " x"),
        (b"data:\tx", "\tx"),
        (b"data: x  ", "x  "),
        (b"data: \tx", "\tx"),
    ],
)
def test_exactly_one_leading_space_is_removed_from_a_value(line: bytes, value: str) -> None:
    assert pairs(parse(line + b"\n\n")) == [("message", value)]


def test_a_line_without_a_colon_is_a_field_name_with_an_empty_value() -> None:
    assert pairs(parse(b"data\n\n")) == [("message", "")]


@pytest.mark.parametrize("name", [b"Data", b"DATA", b"data ", b" data", b"data\x00", b"dat"])
def test_field_names_are_compared_literally(name: bytes) -> None:
    out = parse(name + b": x\n\n")
    assert pairs(out) == []
    (unknown,) = diags(out, "sse.unknown-field")
    assert unknown.offset == 0
    assert unknown.severity == "info"


def test_a_line_starting_with_a_colon_is_a_comment_record_not_an_event() -> None:
    out = parse(b": keep-alive\n\n:\n:  two spaces\n\n")
    assert events(out) == []
    assert comments(out) == [
        SSEComment(0, "keep-alive", 0, 13, None),
        SSEComment(1, "", 14, 16, None),
        SSEComment(2, " two spaces", 16, 30, None),
    ]
    assert diags(out) == []


def test_comments_do_not_split_or_open_an_event_block() -> None:
    out = parse(b"data: a\n: c\ndata: b\n\n")
    assert pairs(out) == [("message", "a\nb")]
    (event,) = events(out)
    assert (event.index, event.start, event.end) == (1, 0, 21)
    assert comments(out)[0].index == 0


def test_a_comment_may_contain_nul_and_be_long() -> None:
    out = parse(b":\x00" + b"x" * 40 + b"\ndata: 1\n\n")
    assert comments(out)[0].text == "\x00" + "x" * 40
    assert pairs(out) == [("message", "1")]


# -- the data buffer ----------------------------------------------------------------------


def test_data_lines_are_joined_with_lf_and_one_trailing_lf_is_removed() -> None:
    assert pairs(parse(b"data: a\ndata:\ndata: b\ndata:\n\n")) == [("message", "a\n\nb\n")]


def test_a_bare_data_line_fires_an_empty_event() -> None:
    assert pairs(parse(b"data\n\n")) == [("message", "")]


def test_an_empty_data_field_fires_an_empty_event() -> None:
    assert pairs(parse(b"data:\n\n")) == [("message", "")]


def test_two_bare_data_lines_fire_a_single_lf() -> None:
    assert pairs(parse(b"data\ndata\n\n")) == [("message", "\n")]


def test_nul_in_data_is_kept() -> None:
    assert pairs(parse(b"data: a\x00b\n\n")) == [("message", "a\x00b")]


def test_lines_are_not_split_on_unicode_line_separators() -> None:
    value = "a\u2028b\u2029c\u0085d\x0be\x0cf\x1cg"
    assert pairs(parse(b"data: " + value.encode() + b"\n\n")) == [("message", value)]


@pytest.mark.parametrize(
    "text",
    [
        "héllo wörld",
        "日本語のテキスト",
        "مرحبا بالعالم",
        "Привет, мир",
        "😀 🎉 🚀",
        "👩‍👩‍👧‍👦 family, 🏳️‍🌈 flag",
        "한국어 ไทย हिन्दी",
    ],
)
def test_multibyte_characters_split_across_chunks_survive(text: str) -> None:
    out = parse(b"event: " + text.encode() + b"\ndata: " + text.encode() + b"\n\n")
    assert pairs(out) == [(text, text)]
    assert diags(out) == []


# -- invalid UTF-8 ------------------------------------------------------------------------


def test_invalid_utf8_becomes_u_fffd_and_a_diagnostic_with_its_offset() -> None:
    out = parse(b"data: ok\n\ndata: a\xffb\n\n")
    assert pairs(out) == [("message", "ok"), ("message", "a\ufffdb")]
    (bad,) = diags(out, "utf8.invalid-bytes")
    assert (bad.offset, bad.record, bad.severity) == (17, 1, "warning")
    assert "byte 17" in bad.message


def test_a_truncated_multibyte_sequence_at_the_end_of_a_line_is_replaced() -> None:
    out = parse(b"data: \xe6\x97\n\n")
    assert pairs(out) == [("message", "\ufffd")]
    assert diags(out, "utf8.invalid-bytes")[0].offset == 6


def test_invalid_utf8_in_an_event_name_is_reported_on_that_event() -> None:
    out = parse(b"data: 1\n\nevent: \xc3(\ndata: x\n\n")
    assert pairs(out) == [("message", "1"), ("\ufffd(", "x")]
    (bad,) = diags(out, "utf8.invalid-bytes")
    assert (bad.offset, bad.record) == (16, 1)


def test_invalid_utf8_in_a_comment_is_reported_on_that_comment() -> None:
    out = parse(b"data: 1\n\n: \x80\n")
    (bad,) = diags(out, "utf8.invalid-bytes")
    assert (bad.offset, bad.record) == (11, 1)
    assert comments(out)[0].text == "\ufffd"


# -- the event type -----------------------------------------------------------------------


def test_the_event_type_is_reset_after_every_block() -> None:
    out = parse(b"event: x\ndata: 1\n\ndata: 2\n\n")
    assert pairs(out) == [("x", "1"), ("message", "2")]


def test_an_event_type_without_data_does_not_leak_into_the_next_event() -> None:
    out = parse(b"event: x\n\ndata: 2\n\n")
    assert pairs(out) == [("message", "2")]
    assert "sse.dataless-block" in codes(out)


@pytest.mark.parametrize("line", [b"event: ", b"event:", b"event"])
def test_an_empty_event_type_means_message(line: bytes) -> None:
    assert pairs(parse(line + b"\ndata: d\n\n")) == [("message", "d")]


def test_the_last_event_field_of_a_block_wins() -> None:
    assert pairs(parse(b"event: a\nevent: b\ndata: d\n\n")) == [("b", "d")]


# -- the last event ID --------------------------------------------------------------------


def test_the_last_event_id_persists_across_events() -> None:
    parser = SSEParser()
    out = parser.feed(b"id: 1\ndata: a\n\ndata: b\n\n")
    assert [e.id for e in events(out)] == ["1", "1"]
    assert parser.last_event_id == "1"


def test_an_id_containing_nul_is_ignored_entirely() -> None:
    out = parse(b"id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n")
    assert [e.id for e in events(out)] == ["1", "1"]
    (nul,) = diags(out, "sse.nul-in-id")
    assert (nul.offset, nul.record, nul.severity) == (15, 1, "warning")


def test_an_empty_id_resets_the_last_event_id() -> None:
    out = parse(b"id: 1\ndata: a\n\nid\ndata: b\n\nid: 2\ndata: c\n\nid:\ndata: d\n\n")
    assert [e.id for e in events(out)] == ["1", "", "2", ""]


def test_an_id_in_a_block_without_data_is_still_committed() -> None:
    parser = SSEParser()
    out = parser.feed(b"id: 7\n\n")
    assert events(out) == []
    assert parser.last_event_id == "7"
    assert [e.id for e in events(parser.feed(b"data: x\n\n"))] == ["7"]


def test_an_id_in_an_unterminated_block_is_not_committed() -> None:
    parser = SSEParser()
    parser.feed(b"id: 1\ndata: a\n\nid: 2\ndata: b\n")
    parser.close()
    assert parser.last_event_id == "1"


# -- retry --------------------------------------------------------------------------------


def test_retry_with_one_leading_space_is_valid_and_is_stream_state() -> None:
    parser = SSEParser()
    out = parser.feed(b"retry: 1000\ndata: a\n\ndata: b\n\n")
    assert [e.retry for e in events(out)] == [1000, 1000]
    assert parser.retry == 1000
    assert diags(out) == []


def test_retry_takes_effect_when_its_line_is_read() -> None:
    parser = SSEParser()
    parser.feed(b"retry: 5\n")
    assert parser.retry == 5
    parser.close()
    assert parser.retry == 5


def test_retry_zero_is_valid() -> None:
    assert [e.retry for e in events(parse(b"retry:0\ndata: a\n\n"))] == [0]


@pytest.mark.parametrize(
    "value",
    ["+5", "1_000", " 5", "-1", "١٢٣", "", "5 ", "1.5", "0x10", "1e3", "５"],
)
def test_retry_is_ignored_unless_every_character_is_an_ascii_digit(value: str) -> None:
    out = parse(b"retry: 300\n\nretry: " + value.encode() + b"\ndata: a\n\n")
    assert [e.retry for e in events(out)] == [300]
    (bad,) = diags(out, "sse.invalid-retry")
    assert (bad.offset, bad.record) == (12, 0)


def test_a_bare_retry_line_is_invalid() -> None:
    out = parse(b"retry\ndata: a\n\n")
    assert [e.retry for e in events(out)] == [None]
    assert codes(out) == ["sse.invalid-retry"]


# -- dispatch -----------------------------------------------------------------------------


def test_a_block_without_a_data_field_dispatches_nothing_but_is_reported() -> None:
    out = parse(b"event: x\nid: 1\nretry: 10\n\n")
    assert events(out) == []
    (block,) = diags(out, "sse.dataless-block")
    assert (block.offset, block.record, block.severity) == (0, None, "info")
    assert block.raw == "event: x\nid: 1\nretry: 10"


def test_blank_lines_outside_a_block_do_nothing() -> None:
    assert parse(b"\n\n\r\n\rdata: a\n\n\n\n") == [
        SSEEvent(0, "message", "a", "", None, 5, 14, None)
    ]


def test_event_spans_cover_the_block_and_its_blank_line() -> None:
    body = b"data: one\n\nevent: two\ndata: 2\n\n: c\nid: 3\ndata: three\r\n\r\n"
    got = [(e.index, e.start, e.end) for e in events(parse(body))]
    assert got == [(0, 0, 11), (1, 11, 31), (3, 35, 55)]
    assert body[11:31] == b"event: two\ndata: 2\n\n"
    assert body[35:55] == b"id: 3\ndata: three\r\n\r"


def test_records_carry_the_time_of_the_chunk_that_completed_them() -> None:
    parser = SSEParser()
    assert parser.feed(b"data: a", 1.0) == []
    assert parser.feed(b"bc\n", 2.0) == []
    out = parser.feed(b"\n: ping\ndata: x", 3.0)
    assert [r.time for r in out] == [3.0, 3.0]  # type: ignore[union-attr]
    assert [r.time for r in parser.feed(b"\n\n", 4.0)] == [4.0]  # type: ignore[union-attr]


# -- end of stream ------------------------------------------------------------------------


def test_an_unterminated_final_block_is_not_dispatched_but_reported_with_its_text() -> None:
    out = parse(b"data: a\n\nevent: e\ndata: b")
    assert pairs(out) == [("message", "a")]
    (tail,) = diags(out, "sse.unterminated-event")
    assert (tail.offset, tail.record, tail.severity) == (9, None, "warning")
    assert tail.raw == "event: e\ndata: b"


def test_a_final_block_whose_lines_ended_but_without_a_blank_line_is_reported() -> None:
    out = parse(b"data: a\n")
    assert events(out) == []
    assert diags(out, "sse.unterminated-event")[0].raw == "data: a"


def test_an_unterminated_comment_is_reported_as_an_unterminated_line() -> None:
    out = parse(b"data: a\n\n: partial")
    (tail,) = diags(out, "sse.unterminated-event")
    assert (tail.raw, tail.offset) == (": partial", 9)
    assert "unterminated line" in tail.message


def test_diagnostics_of_an_unterminated_block_are_still_reported() -> None:
    out = parse(b"foo: bar\ndata: x")
    assert codes(out) == ["sse.unknown-field", "sse.unterminated-event"]


def test_a_body_that_ends_cleanly_reports_nothing_at_close() -> None:
    parser = SSEParser()
    parser.feed(b"data: a\n\n")
    assert parser.close() == []


def test_an_empty_body_gives_nothing() -> None:
    assert parse(b"") == []

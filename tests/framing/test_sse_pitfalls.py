"""One test per pitfall that other SSE parsers fall into (SSE_RULES.md §2.3 and §2.4).

Each test names the behaviour, not the peer; the comment says where it was seen.
"""

from __future__ import annotations

import pytest

from ssescope.framing import SSEParser

from ._helpers import codes, diags, events, pairs, parse, parse_chunks

BOM = b"\xef\xbb\xbf"


def test_a_leading_bom_does_not_lose_the_first_event() -> None:
    # seven of ten peers read "\ufeffdata" as an unknown field
    assert pairs(parse(BOM + b"data: first\n\ndata: second\n\n"))[0] == ("message", "first")


def test_a_trailing_cr_at_a_chunk_end_dispatches_at_once() -> None:
    # httpx-sse, httpx2 and eventsource-parser 3.x hold a trailing CR for the next chunk
    parser = SSEParser()
    assert pairs(parser.feed(b"data: now\r\r")) == [("message", "now")]


def test_a_lone_cr_blank_line_at_the_end_of_the_stream_dispatches() -> None:
    # eventsource-parser 3.x never dispatches it at end of stream
    parser = SSEParser()
    out = parser.feed(b"data: last\r\n\r") + parser.close()
    assert pairs(out) == [("message", "last")]


def test_a_cr_lf_split_across_chunks_is_one_terminator() -> None:
    # requests-sse sees an extra blank line and splits the event in two
    out = parse_chunks([b"data: a\r", b"\ndata: b\r\n\r\n"])
    assert pairs(out) == [("message", "a\nb")]


def test_mixed_line_endings_do_not_merge_events() -> None:
    # sseclient-py misses the boundary "\n\r\n" and merges the two events
    out = parse(b"data: 1\n\r\ndata: 2\r\n\ndata: 3\r\r\n")
    assert pairs(out) == [("message", "1"), ("message", "2"), ("message", "3")]


def test_lone_cr_lines_are_lines() -> None:
    # aiohttp-sse-client splits on LF only
    assert pairs(parse(b"data: a\rdata: b\r\r")) == [("message", "a\nb")]


def test_exactly_one_leading_space_is_stripped() -> None:
    # requests-sse and aiohttp-sse-client use lstrip(" ")
    assert pairs(parse(b"data:   indented\n\n")) == [("message", "  indented")]


def test_exactly_one_trailing_lf_is_removed_from_data() -> None:
    # requests-sse and aiohttp-sse-client use rstrip("\n")
    assert pairs(parse(b"data: a\ndata:\ndata:\n\n")) == [("message", "a\n\n")]


def test_a_block_without_data_dispatches_nothing() -> None:
    # httpx-sse, httpx2, openai and anthropic fire an event when event/id/retry is set
    out = parse(b"event: ping\n\nid: 4\n\n")
    assert events(out) == []
    assert codes(out) == ["sse.dataless-block", "sse.dataless-block"]


def test_a_comment_after_an_id_emits_no_phantom_event() -> None:
    # httpx-sse #35: every blank line after any id fires an empty event
    out = parse(b"id: 1\ndata: a\n\n: keep-alive\n\n: keep-alive\n\n")
    assert pairs(out) == [("message", "a")]
    assert diags(out) == []


def test_a_meta_only_retry_block_dispatches_nothing() -> None:
    # openai-python #2722: "retry: 3000\n\n" from a gateway reached json.loads("")
    parser = SSEParser()
    out = parser.feed(b"retry: 3000\n\n")
    assert events(out) == []
    assert parser.retry == 3000
    assert codes(out) == ["sse.dataless-block"]


def test_an_event_without_data_flushed_by_a_proxy_dispatches_nothing() -> None:
    # hermes-agent: a proxy flushed "event:" without "data:"
    assert pairs(parse(b"event: message\n\ndata: ok\n\n")) == [("message", "ok")]
    assert pairs(parse(b"event: update\n\ndata: ok\n\n")) == [("message", "ok")]


def test_an_empty_event_field_means_message() -> None:
    # requests-sse leaves the type ""
    assert pairs(parse(b"event:\ndata: x\n\n")) == [("message", "x")]


def test_an_id_containing_nul_anywhere_is_ignored() -> None:
    # sseclient-py has no check; requests-sse only rejects exactly "\0" and "\0\0"
    out = parse(b"id: ok\ndata: a\n\nid: a\x00b\ndata: b\n\n")
    assert [e.id for e in events(out)] == ["ok", "ok"]


def test_a_nul_id_does_not_wipe_an_earlier_id() -> None:
    # eventsource-parser #34
    out = parse(b"id: 1\nid: \x00\ndata: a\n\n")
    assert [e.id for e in events(out)] == ["1"]


def test_an_empty_id_resets_the_last_event_id() -> None:
    # undici: "if (event.id && ...)" never resets
    parser = SSEParser()
    out = parser.feed(b"id: 1\ndata: a\n\nid:\ndata: b\n\n")
    assert [e.id for e in events(out)] == ["1", ""]
    assert parser.last_event_id == ""


def test_the_last_event_id_persists_across_events() -> None:
    # sseclient-py builds a new Event per block
    out = parse(b"id: 9\ndata: a\n\ndata: b\n\n")
    assert [e.id for e in events(out)] == ["9", "9"]


@pytest.mark.parametrize("value", [b"  1000", b"-1", b"1_000", b"+5", "١٢٣".encode()])
def test_retry_accepts_only_ascii_digits(value: bytes) -> None:
    # int() in every Python peer accepts these (the first is " 1000" once one space goes)
    parser = SSEParser()
    parser.feed(b"retry:" + value + b"\ndata: x\n\n")
    assert parser.retry is None


def test_retry_is_stream_state_not_per_event() -> None:
    # most peers attach retry to the one event whose block carried it
    out = parse(b"retry: 10\ndata: a\n\ndata: b\n\n")
    assert [e.retry for e in events(out)] == [10, 10]


def test_an_incomplete_final_block_is_not_dispatched() -> None:
    # sseclient-py yields it ("if data: yield data")
    out = parse(b"data: a\n\ndata: cut off")
    assert pairs(out) == [("message", "a")]
    assert diags(out, "sse.unterminated-event")[0].raw == "data: cut off"


def test_invalid_utf8_does_not_raise() -> None:
    # openai, anthropic and sseclient-py raise UnicodeDecodeError (anthropic #469: gzip bytes)
    out = parse(b"data: \x1f\x8b\x08\x00\xff\n\n")
    assert pairs(out) == [("message", "\x1f\ufffd\x08\x00\ufffd")]
    assert codes(out) == ["utf8.invalid-bytes"]


def test_the_charset_parameter_does_not_turn_utf8_into_mojibake() -> None:
    # httpx-sse and httpx2 decode with the charset= of the Content-Type
    assert pairs(parse("data: ok…\n\n".encode())) == [("message", "ok…")]


def test_lines_are_not_split_on_u2028_inside_json() -> None:
    # httpx-sse #34, anthropic's old iter_lines (str.splitlines)
    out = parse('data: {"text": "Hello\u2028World\u0085!"}\n\n'.encode())
    assert pairs(out) == [("message", '{"text": "Hello\u2028World\u0085!"}')]


def test_data_without_a_space_after_the_colon_is_read() -> None:
    # openai-python #498: Spring proxies send "data:"
    assert pairs(parse(b'data:{"a":1}\n\n')) == [("message", '{"a":1}')]


def test_a_multibyte_character_split_across_chunks_survives() -> None:
    # sseclient-py #8 decoded each chunk on its own
    text = "😀日本"
    body = b"data: " + text.encode() + b"\n\n"
    for cut in range(7, 13):
        assert pairs(parse_chunks([body[:cut], body[cut:]])) == [("message", text)]


def test_an_event_is_returned_by_the_feed_that_completes_it() -> None:
    # btubbs/sseclient #8 and mpetazzoni/sseclient #6: events arrived one event late
    parser = SSEParser()
    for k in range(5):
        assert pairs(parser.feed(b"data: %d\n\n" % k)) == [("message", str(k))]


def test_a_huge_line_is_accepted_without_a_default_cap() -> None:
    # httpx2 caps events at 1 MiB, aiohttp at 512 KiB per line
    size = 3 * 1024 * 1024
    body = b"data: " + b"x" * size + b"\n\n"
    out = parse_chunks([body[i : i + 4096] for i in range(0, len(body), 4096)])
    (event,) = events(out)
    assert len(event.data) == size
    assert (event.start, event.end) == (0, len(body))

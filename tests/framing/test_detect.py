"""Framing auto-detection and the Framer entry point."""

from __future__ import annotations

import pytest

from ssescope.errors import UsageError
from ssescope.framing import (
    FRAMINGS,
    Framer,
    JSONArrayParser,
    JSONRecord,
    NDJSONParser,
    SSEEvent,
    SSEParser,
    detect_framing,
    make_parser,
)
from ssescope.framing.eventstream import EventStreamParser, encode_message

from ..splits import assert_split_invariant, feed_all

AWS = encode_message({":event-type": "messageStart"}, b'{"role":"assistant"}')


@pytest.mark.parametrize(
    ("body", "framing"),
    [
        (b"data: x\n\n", "sse"),
        (b"event: e\ndata: x\n\n", "sse"),
        (b"id: 1\n\n", "sse"),
        (b"retry: 10\n\n", "sse"),
        (b": ping\n\n", "sse"),
        (b"data\n\n", "sse"),
        (b"\r\n\n  data: x\n\n", "sse"),
        (b"\xef\xbb\xbfdata: x\n\n", "sse"),
        (b'[{"a":1}]', "json-array"),
        (b'\n  [{"a":1}]', "json-array"),
        (b'{"a":1}\n', "ndjson"),
        (b'\xef\xbb\xbf {"a":1}\n', "ndjson"),
        (AWS, "aws-eventstream"),
        (b"hello world\n", "sse"),
        (b"", "sse"),
        (b"   \n", "sse"),
    ],
)
def test_each_detection_rule_picks_its_framing(body: bytes, framing: str) -> None:
    framer = Framer()
    feed_all(framer, [body])
    assert framer.framing == framing
    assert framer.rule


def test_detection_waits_for_enough_bytes_and_says_why() -> None:
    assert detect_framing(b"") == (None, "waiting for the first non-blank byte")
    assert detect_framing(b"  da") == (None, "waiting for the first field name")
    assert detect_framing(b"hello") == (None, "waiting for the end of the first line")
    assert detect_framing(b"\x00\x00") == (None, "waiting for the first 12 bytes")
    assert detect_framing(b"hello", final=True)[0] == "sse"
    assert detect_framing(b"x" * 300)[0] == "sse"


def test_a_zero_byte_that_is_not_an_eventstream_prelude_falls_back_to_sse() -> None:
    assert detect_framing(b"\x00" * 12 + b"\n")[0] == "sse"


@pytest.mark.parametrize(
    "body",
    [
        b"data: a\n\n: c\ndata: b\r\n\r\n",
        b'[\n  {"a": "]"},\n  {"b": 2}\n]\n',
        b'{"a":1}\n{"b":2}\n',
        AWS + AWS,
        b"  \r\n\xef\xbb\xbf",
        b"hello\nworld\n\n",
    ],
)
def test_the_framer_gives_the_chosen_parsers_records_in_any_chunking(body: bytes) -> None:
    out = assert_split_invariant(Framer, body)
    framer = Framer()
    feed_all(framer, [body])
    direct = feed_all(make_parser(framer.framing), [body])  # type: ignore[arg-type]
    assert out == direct


def test_held_chunks_are_replayed_with_their_own_times() -> None:
    framer = Framer()
    assert framer.feed(b"da", 1.0) == []
    assert framer.feed(b"ta: x\n", 2.0) == []
    assert framer.framing == "sse"
    out = framer.feed(b"\n", 3.0)
    assert [(type(r), r.time) for r in out] == [(SSEEvent, 3.0)]  # type: ignore[union-attr]
    framer = Framer()
    assert framer.feed(b"  ", 1.0) == []
    out = framer.feed(b'{"a":1}\n{"b"', 2.0) + framer.feed(b":2}\n", 3.0)
    assert [(r.data, r.time) for r in out] == [('{"a":1}', 2.0), ('{"b":2}', 3.0)]  # type: ignore[union-attr]


def test_records_completed_by_held_chunks_keep_those_chunks_times() -> None:
    framer = Framer()
    out = framer.feed(b"   ", 1.0) + framer.feed(b"\n", 2.0) + framer.feed(b"[1,", 3.0)
    out += framer.feed(b"2]", 4.0)
    assert [(r.data, r.time) for r in out] == [("1", 3.0), ("2", 4.0)]  # type: ignore[union-attr]


def test_detection_does_not_depend_on_how_a_long_blank_prefix_is_chunked() -> None:
    body = b" " * 300 + b'{"a":1}\n'
    whole = Framer()
    feed_all(whole, [body])
    drip = Framer()
    feed_all(drip, [body[i : i + 1] for i in range(len(body))])
    assert whole.framing == drip.framing == "ndjson"


def test_a_body_whose_first_4_kib_are_blank_is_taken_as_sse() -> None:
    framer = Framer()
    out = framer.feed(b"\n" * 5000)
    assert framer.framing == "sse"
    assert out == []


def test_an_undecided_body_is_decided_at_close() -> None:
    framer = Framer()
    assert framer.feed(b"hel") == []
    out = framer.close()
    assert framer.framing == "sse"
    assert [d.code for d in out] == ["sse.unterminated-event"]  # type: ignore[union-attr]


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_forced_framing_is_used_whatever_the_bytes(framing: str) -> None:
    framer = Framer(framing)
    assert framer.framing == framing
    assert framer.rule == "given by the caller"
    out = feed_all(framer, [b'{"a":1}\n'])
    expected = feed_all(make_parser(framing), [b'{"a":1}\n'])
    assert out == expected


def test_make_parser_builds_each_framer() -> None:
    assert isinstance(make_parser("sse", max_event_bytes=10), SSEParser)
    assert isinstance(make_parser("ndjson"), NDJSONParser)
    assert isinstance(make_parser("json-array"), JSONArrayParser)
    assert isinstance(make_parser("aws-eventstream"), EventStreamParser)


def test_the_cap_reaches_the_detected_sse_parser() -> None:
    out = feed_all(Framer(max_event_bytes=10), [b"data: " + b"x" * 20 + b"\n\n"])
    assert [d.code for d in out] == ["sse.event-too-large"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad", ["xml", "SSE", ""])
def test_an_unknown_framing_is_a_usage_error(bad: str) -> None:
    with pytest.raises(UsageError):
        Framer(bad)
    with pytest.raises(UsageError):
        make_parser(bad)  # type: ignore[arg-type]


def test_an_invalid_cap_is_a_usage_error_at_once() -> None:
    with pytest.raises(UsageError):
        Framer(max_event_bytes=0)


def test_feeding_after_close_and_closing_twice_are_usage_errors() -> None:
    framer = Framer()
    framer.feed(b"da")
    framer.close()
    with pytest.raises(UsageError):
        framer.feed(b"ta")
    with pytest.raises(UsageError):
        framer.close()


def test_a_json_record_from_ndjson_detection_keeps_offsets() -> None:
    out = feed_all(Framer(), [b'\n\n{"a":1}\n'])
    assert out == [JSONRecord(0, '{"a":1}', 2, 10, None)]


# -- a body that starts like JSON but whose first line is broken --------------------------

BROKEN_FIRST = [
    # the first NDJSON line is cut: the next line is a record
    (b'{"a": 1, "b": [2\n{"c": 3}\n{"d": 4}\n', "ndjson"),
    # the first line lost its opening brace
    (b'"a": 1}\n{"c": 3}\n', "ndjson"),
    # text before the first record's brace
    (b'@@{"a": 1}\n{"c": 3}\n', "ndjson"),
    # the next record is cut by the end of the body: it still starts a record
    (b'{"a": 1, "b": [2\n{"c": ', "ndjson"),
    # a pretty-printed document that a later line closes
    (b'{\n  "a": {"b": 1},\n  "c": [1, 2]\n}\n', "json"),
    # one cut short: nothing after the first line is a record
    (b'{\n  "a": {"b": 1},\n  "c": [1,', "json"),
    # a first line that is no framing and ends like an object, then an SSE field
    (b'"a": 1}\ndata: {"c": 3}\n\n', "sse"),
    # plain text with a JSON object in it stays text (SSE, then reported as plain text)
    (b'Error: {"message": "x"}\n', "sse"),
]


@pytest.mark.parametrize(("body", "framing"), BROKEN_FIRST)
def test_a_body_is_one_json_document_only_when_it_reads_as_one(body: bytes, framing: str) -> None:
    assert detect_framing(body, final=True)[0] == framing
    out = assert_split_invariant(Framer, body)  # type: ignore[arg-type]
    assert out == feed_all(make_parser(framing), [body])  # type: ignore[arg-type]


def test_a_broken_first_line_waits_for_the_line_that_tells() -> None:
    assert detect_framing(b'{"a": 1, "b": [2\n{"c": ')[0] is None
    assert detect_framing(b'{"a": 1, "b": [2\n{"c": 3}\n')[0] == "ndjson"
    assert detect_framing(b'{\n  "a": 1\n}')[0] == "json"  # closed: nothing can follow
    assert detect_framing(b'"a": 1}\n')[0] is None
    assert detect_framing(b'"a": 1}\n{"c": 3}\n')[0] == "ndjson"


def test_a_long_pretty_document_is_one_document() -> None:
    body = (
        b'{\n  "items": [\n' + b'    {"n": 1, "text": "abc"},\n' * 400 + b'    {"n": 2}\n  ]\n}\n'
    )
    assert detect_framing(body[:4096], final=True)[0] == "json"
    framer = Framer()
    out = framer.feed(body) + framer.close()
    assert framer.framing == "json"
    assert [type(r) for r in out] == [JSONRecord]

"""AWS event-stream framing (Bedrock): binary messages, CRCs, split anywhere."""

from __future__ import annotations

import binascii

from ssescope.framing import EventStreamParser, JSONRecord
from ssescope.framing.eventstream import encode_message

from ..splits import assert_split_invariant, feed_all

DELTA = encode_message(
    {
        ":message-type": "event",
        ":event-type": "contentBlockDelta",
        ":content-type": "application/json",
    },
    b'{"delta":{"text":"Hi \xe6\x97\xa5"},"contentBlockIndex":0}',
)
STOP = encode_message(
    {":message-type": "event", ":event-type": "messageStop"}, b'{"stopReason":"end_turn"}'
)


def parse(data: bytes) -> list[object]:
    return assert_split_invariant(EventStreamParser, data)


def codes(out: list[object]) -> list[str]:
    return [r.code for r in out if not isinstance(r, JSONRecord)]  # type: ignore[attr-defined]


def test_each_message_is_a_record_with_its_type_payload_and_span() -> None:
    out = parse(DELTA + STOP)
    assert out == [
        JSONRecord(
            0,
            '{"delta":{"text":"Hi 日"},"contentBlockIndex":0}',
            0,
            len(DELTA),
            None,
            "event:contentBlockDelta",
        ),
        JSONRecord(
            1, '{"stopReason":"end_turn"}', len(DELTA), len(DELTA + STOP), None, "event:messageStop"
        ),
    ]


def test_an_exception_message_names_its_exception_type() -> None:
    msg = encode_message(
        {":message-type": "exception", ":exception-type": "throttlingException"},
        b'{"message":"slow down"}',
    )
    (record,) = parse(msg)
    assert record.event == "exception:throttlingException"  # type: ignore[attr-defined]


def test_an_error_message_names_its_error_code() -> None:
    msg = encode_message({":message-type": "error", ":error-code": "InternalFailure"}, b"")
    (record,) = parse(msg)
    assert record.event == "error:InternalFailure"  # type: ignore[attr-defined]
    assert record.data == '{"message": ""}'  # type: ignore[attr-defined]


def test_an_error_message_carries_its_header_message_as_the_payload() -> None:
    msg = encode_message(
        {
            ":message-type": "error",
            ":error-code": "ThrottlingException",
            ":error-message": "Slow down",
        },
        b"",
    )
    (record,) = parse(msg)
    assert record.data == '{"message": "Slow down"}'  # type: ignore[attr-defined]


def test_a_message_crc_mismatch_is_an_error_but_the_message_is_kept() -> None:
    bad = DELTA[:-1] + bytes([DELTA[-1] ^ 1])
    out = parse(bad + STOP)
    assert codes(out) == ["eventstream.crc-mismatch"]
    assert (out[0].offset, out[0].record, out[0].severity) == (0, 0, "error")  # type: ignore[attr-defined]
    assert len(out) == 3


def test_a_prelude_crc_mismatch_is_reported() -> None:
    bad = DELTA[:8] + bytes([DELTA[8] ^ 0xFF]) + DELTA[9:]
    out = parse(STOP + bad)
    assert codes(out) == ["eventstream.crc-mismatch"]
    assert out[1].offset == len(STOP)  # type: ignore[attr-defined]
    assert "prelude" in out[1].message  # type: ignore[attr-defined]


def test_an_impossible_length_stops_framing_with_its_offset() -> None:
    junk = (5).to_bytes(4, "big") + (0).to_bytes(4, "big") + b"\x00" * 8
    out = parse(STOP + junk + DELTA)
    assert codes(out) == ["eventstream.bad-prelude"]
    assert out[1].offset == len(STOP)  # type: ignore[attr-defined]
    assert len(out) == 2


def test_a_truncated_final_message_is_reported() -> None:
    out = parse(STOP + DELTA[:30])
    assert codes(out) == ["eventstream.truncated-message"]
    assert out[1].offset == len(STOP)  # type: ignore[attr-defined]


def test_unreadable_headers_are_reported_and_the_payload_kept() -> None:
    headers = b"\x04name\x63"  # value type 0x63 does not exist
    total = 12 + len(headers) + 2 + 4
    prelude = total.to_bytes(4, "big") + len(headers).to_bytes(4, "big")
    prelude += binascii.crc32(prelude).to_bytes(4, "big")
    body = prelude + headers + b"{}"
    msg = body + binascii.crc32(body).to_bytes(4, "big")
    out = parse(msg)
    assert codes(out) == ["eventstream.bad-headers"]
    assert out[1].data == "{}"  # type: ignore[attr-defined]


def test_invalid_utf8_in_a_payload_is_replaced_and_reported() -> None:
    msg = encode_message({":event-type": "x"}, b'{"a":"\xff"}')
    out = parse(msg)
    assert codes(out) == ["utf8.invalid-bytes"]


def test_records_carry_the_time_of_the_chunk_that_completed_them() -> None:
    out = feed_all(
        EventStreamParser(), [DELTA[:10], DELTA[10:] + STOP[:5], STOP[5:]], [1.0, 2.0, 3.0]
    )
    assert [r.time for r in out] == [2.0, 3.0]  # type: ignore[attr-defined]


def test_a_flipped_bit_in_a_length_stops_framing_instead_of_swallowing_the_body() -> None:
    bad = bytearray(DELTA)
    bad[3] ^= 0x10  # total length 16 bytes longer: it would end inside the next message
    out = parse(bytes(bad) + STOP + STOP)
    assert codes(out) == ["eventstream.crc-mismatch"]
    assert out[0].severity == "error" and out[0].record is None  # type: ignore[attr-defined]
    assert not [r for r in out if isinstance(r, JSONRecord)]

"""``ssescope.testing`` on WebSocket clients: the messages a test holds, or a capture,
judged per response, and ``assert_assembled`` against what the client built."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ssescope
from ssescope.testing import assert_assembled, websocket_reports
from ssescope.testing.websocket import WebSocketMessage

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "realtime"


def _turn(rid: str, text: str, *, done: bool = True) -> list[WebSocketMessage]:
    """A Responses-over-WebSocket turn: the client's response.create and the events."""
    events: list[WebSocketMessage] = [
        ("send", {"type": "response.create", "model": "gpt-5", "input": "hi"}),
        ("receive", {"type": "response.created", "sequence_number": 0, "response": {"id": rid}}),
        (
            "receive",
            json.dumps(
                {
                    "type": "response.output_text.delta",
                    "sequence_number": 1,
                    "item_id": "m1",
                    "output_index": 0,
                    "content_index": 0,
                    "delta": text,
                }
            ),
        ),
    ]
    if done:
        final = {"id": rid, "status": "completed", "output": []}
        events.append(
            ("receive", {"type": "response.completed", "sequence_number": 2, "response": final})
        )
    return events


def test_each_response_of_the_exchange_is_judged() -> None:
    first, second = websocket_reports([*_turn("r1", "One"), *_turn("r2", "Two")], close=1000)
    assert (first.provider, first.status, first.text) == ("openai-responses", "completed", "One")
    assert (second.status, second.text) == ("completed", "Two")
    assert [r.to_dict()["entry"]["index"] for r in (first, second)] == [0, 1]
    sent = second.to_dict()["source"]["websocket"]["sent"]
    assert [json.loads(m)["type"] for m in sent] == ["response.create"]


@pytest.mark.parametrize(
    ("close", "said"),
    [
        ((1011, "keepalive ping timeout"), "closed with code 1011 (keepalive ping timeout)"),
        ("dropped", "dropped with no close frame"),
        (1000, "closed with code 1000"),
    ],
)
def test_a_close_before_the_terminal_event_is_truncated(close: Any, said: str) -> None:
    (report,) = websocket_reports(_turn("r1", "Hal", done=False), close=close)
    assert report.status == "truncated"
    assert said in report.response.status_reason


def test_without_a_close_the_events_alone_decide() -> None:
    (report,) = websocket_reports(_turn("r1", "Hal", done=False))
    assert report.status == "truncated"
    assert "WebSocket" not in report.response.status_reason


def test_assert_assembled_takes_the_messages_and_the_entry_the_client_built() -> None:
    messages = [*_turn("r1", "One"), *_turn("r2", "Two")]
    report = assert_assembled(messages, {"text": "Two"}, entry=1)
    assert report.status == "completed"
    with pytest.raises(AssertionError, match=r"the WebSocket exchange \(8 messages\)"):
        assert_assembled(messages, {"text": "Tw"}, entry=1)
    with pytest.raises(ssescope.UsageError, match="holds 2 responses"):
        assert_assembled(messages, {"text": "Two"})
    with pytest.raises(ssescope.UsageError, match="there is no entry 5"):
        assert_assembled(messages, {"text": "Two"}, entry=5)


def test_assert_assembled_takes_a_websocket_capture() -> None:
    voice = FIXTURES / "voice-barge-in.ssecap"
    report = assert_assembled(voice, {"text": ""}, entry=1)
    assert report.status == "cancelled"
    har = FIXTURES / "devtools-websocket.har"
    assert assert_assembled(har, {"text": "Hello again."}, entry="0.1").status == "completed"
    assert assert_assembled(har.read_bytes(), "Hello.", entry=0).status == "completed"
    with pytest.raises(AssertionError):
        assert_assembled(str(har), "Hello.", entry="0.1")


def test_what_is_not_a_message_is_a_usage_error() -> None:
    with pytest.raises(ssescope.UsageError, match="direction 'send' or 'receive'"):
        websocket_reports([("sideways", "{}")])  # type: ignore[list-item]
    with pytest.raises(ssescope.UsageError, match="payload is text, bytes or a JSON object"):
        websocket_reports([("receive", 42)])  # type: ignore[list-item]
    with pytest.raises(ssescope.UsageError, match="close is a code"):
        websocket_reports([], close="gone")  # type: ignore[arg-type]


def test_a_binary_message_is_diagnosed_and_the_rest_judged() -> None:
    (report,) = websocket_reports(
        [*_turn("r1", "Hi")[:2], ("receive", b"\x00\x01"), *_turn("r1", "Hi")[2:]]
    )
    assert report.status == "completed"
    assert "websocket.binary-message" in [d.code for d in report.diagnostics]

"""The ``ssescope_ws_server`` fixture with a real ``websockets`` client: a WebSocket
capture (the ``.ssecap`` form, a JSONL log of messages) replayed one recorded response
per ``response.create``, the WebSocket faults of ``ssescope serve``, and afterwards the
Report of each response the server sent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from ssescope.errors import UsageError
from ssescope.testing import SSEScopeServer, WebSocketServer, assert_assembled
from tests.ws_captures import CREATE, response_events

pytestmark = pytest.mark.network

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "websocket"
FOUR_TURNS = FIXTURES / "responses-ws-4-turns.ssecap"
TERMINALS = ("response.completed", "response.failed", "response.incomplete", "error")


def _turn(ws: Any) -> list[dict[str, Any]]:
    """Send a response.create and read its events up to the terminal one."""
    ws.send(CREATE)
    got: list[dict[str, Any]] = []
    while True:
        got.append(json.loads(ws.recv(timeout=10)))
        if got[-1]["type"] in TERMINALS:
            return got


def _until_closed(url: str) -> tuple[list[dict[str, Any]], ConnectionClosed]:
    got: list[dict[str, Any]] = []
    with connect(url) as ws:
        ws.send(CREATE)
        try:
            while True:
                got.append(json.loads(ws.recv(timeout=10)))
        except ConnectionClosed as exc:
            return got, exc
    raise AssertionError("unreachable")  # pragma: no cover


def _text(events: list[dict[str, Any]]) -> str:
    return "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta")


def test_each_response_create_gets_the_next_recorded_response_and_each_is_judged(
    ssescope_ws_server: WebSocketServer,
) -> None:
    url = ssescope_ws_server.url(FOUR_TURNS)
    assert url.startswith("ws://127.0.0.1:")
    with connect(url + "/v1/responses") as ws:
        turns = [_turn(ws) for _ in range(2)]
    first, second = ssescope_ws_server.reports()
    assert [first.status, second.status] == ["completed", "completed"]
    assert [r.to_dict()["entry"]["index"] for r in (first, second)] == [0, 1]
    assert [first.text, second.text] == [_text(turns[0]), _text(turns[1])]
    assert first.records.total == len(turns[0]) == 56
    assert second.records.total == len(turns[1]) == 19
    # what the client sent is kept with the response it asked for
    sent = second.to_dict()["source"]["websocket"]["sent"]
    assert [json.loads(m)["type"] for m in sent] == ["response.create"]
    (conn,) = ssescope_ws_server.connections
    assert (conn.path, conn.closed_by, conn.close is not None and conn.close.code) == (
        "/" + url.rsplit("/", 1)[1] + "/v1/responses",
        "client",
        1000,
    )


def test_a_jsonl_log_of_server_messages_is_replayed(
    ssescope_ws_server: WebSocketServer, tmp_path: Path
) -> None:
    log = tmp_path / "messages.jsonl"
    lines = [{"type": "receive", "time": 0.0, "opcode": 1, "data": '{"type":"session.created"}'}]
    lines.append({"type": "send", "time": 1.0, "opcode": 1, "data": CREATE})
    lines += [
        {"type": "receive", "time": 1.1 + i / 100, "opcode": 1, "data": e}
        for i, e in enumerate(response_events("r1", ["Hel", "lo"]))
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    url = ssescope_ws_server.url(log, delay="original")
    with connect(url) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "session.created"  # on connect
        events = _turn(ws)
    assert _text(events) == "Hello"
    (report,) = url.reports()
    assert (report.status, report.text, report.records.total) == ("completed", "Hello", 5)
    assert_assembled(url, {"text": "Hello"})
    with pytest.raises(AssertionError, match="Hello"):
        assert_assembled(url, {"text": "Help"})


@pytest.mark.parametrize(
    ("fault", "received", "code", "reason"),
    [
        (
            "close@record:10:1011",
            10,
            1011,
            "the WebSocket closed with code 1011 (ssescope serve: close@record:10:1011) before "
            "the terminal event",
        ),
        (
            "close@record:4:4000",
            4,
            4000,
            "the WebSocket closed with code 4000 (ssescope serve: close@record:4:4000) before "
            "the terminal event",
        ),
        (
            "drop@record:10",
            10,
            None,
            "the WebSocket dropped with no close frame before the terminal event",
        ),
    ],
)
def test_a_close_or_a_drop_mid_response_is_what_the_report_says(
    ssescope_ws_server: WebSocketServer,
    fault: str,
    received: int,
    code: int | None,
    reason: str,
) -> None:
    url = ssescope_ws_server.url(FOUR_TURNS, fault=fault)
    got, closed = _until_closed(url)
    assert len(got) == received
    assert (closed.rcvd.code if closed.rcvd is not None else None) == code
    (report,) = ssescope_ws_server.reports()
    assert (report.status, report.response.status_reason) == ("truncated", reason)
    assert report.records.total == received
    (conn,) = ssescope_ws_server.connections
    assert conn.closed_by == "server"
    assert conn.faults == (fault,)


def test_an_error_event_fails_the_response_and_the_connection_stays_open(
    ssescope_ws_server: WebSocketServer,
) -> None:
    url = ssescope_ws_server.url(FOUR_TURNS, fault="error@record:3")
    with connect(url) as ws:
        first = _turn(ws)
        second = _turn(ws)
    assert [len(first), len(second)] == [4, 4]
    assert first[-1]["type"] == "error"
    reports = url.reports()
    assert [r.status for r in reports] == ["failed", "failed"]
    assert reports[0].response.status_reason == (
        "the provider reported an error: The server had an error while processing your request."
    )


def test_a_stall_is_the_longest_silence_of_the_report(
    ssescope_ws_server: WebSocketServer,
) -> None:
    url = ssescope_ws_server.url(FOUR_TURNS, fault="stall@record:5:0.4")
    with connect(url) as ws:
        events = _turn(ws)
    assert len(events) == 56
    (report,) = url.reports()
    assert report.status == "completed"
    idle = report.timing.max_content_idle_s
    assert idle is not None and 0.35 <= idle < 2.0


def test_reports_wait_for_the_connection_to_end_and_say_when_it_does_not(
    ssescope_ws_server: WebSocketServer,
) -> None:
    url = ssescope_ws_server.url(FOUR_TURNS)
    with connect(url) as ws:
        _turn(ws)
        with pytest.raises(AssertionError, match=r"connection 0 to ws://.* is still open"):
            url.reports(timeout=0.2)
    (report,) = url.reports()  # the client closed: the one response, judged
    assert report.status == "completed"


def test_the_fixture_judges_every_url_of_its_test_and_refuses_what_does_not_fit(
    ssescope_ws_server: WebSocketServer,
) -> None:
    whole = ssescope_ws_server.url(FOUR_TURNS)
    cut = ssescope_ws_server.url(FOUR_TURNS, fault="drop@record:2")
    with connect(whole) as ws:
        _turn(ws)
    _until_closed(cut)
    assert [r.status for r in ssescope_ws_server.reports()] == ["completed", "truncated"]
    assert ssescope_ws_server.base.startswith("ws://127.0.0.1:")
    with pytest.raises(UsageError, match=r"56 record\(s\)"):
        ssescope_ws_server.url(FOUR_TURNS, fault="close@record:90:1011")
    with pytest.raises(UsageError, match="does not apply to a WebSocket"):
        ssescope_ws_server.url(FOUR_TURNS, fault="crlf")
    assert ssescope_ws_server.url(FOUR_TURNS, fault="http-error:429").status == 429


def test_the_session_server_and_the_fixture_are_one_server(
    ssescope_server: SSEScopeServer, ssescope_ws_server: WebSocketServer
) -> None:
    url = ssescope_ws_server.url(FOUR_TURNS)
    assert url.startswith(ssescope_server.base.replace("http://", "ws://"))
    assert url.connections == []
    assert url.reports() == []


def test_a_jsonl_of_server_events_is_one_response_per_response_created(
    ssescope_ws_server: WebSocketServer, tmp_path: Path
) -> None:
    events = tmp_path / "events.jsonl"
    lines = response_events("r1", ["Hel", "lo"]) + response_events("r2", ["again"])
    events.write_text("".join(line + "\n" for line in lines))
    url = ssescope_ws_server.url(events)
    with connect(url) as ws:
        turns = [_turn(ws) for _ in range(3)]  # the third: from the first again
    assert [_text(t) for t in turns] == ["Hello", "again", "Hello"]
    reports = ssescope_ws_server.reports()
    assert [(r.status, r.text) for r in reports] == [
        ("completed", "Hello"),
        ("completed", "again"),
        ("completed", "Hello"),
    ]
    assert [r.to_dict()["entry"]["index"] for r in reports] == [0, 1, 2]


def test_a_log_of_server_messages_alone_answers_each_response_create(
    ssescope_ws_server: WebSocketServer, tmp_path: Path
) -> None:
    log = tmp_path / "received.jsonl"
    lines = [
        {"type": "receive", "time": 1.0 + i / 10, "opcode": 1, "data": e}
        for i, e in enumerate(response_events("r1", ["only"]))
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    url = ssescope_ws_server.url(log)
    with connect(url) as ws:
        with pytest.raises(TimeoutError):
            ws.recv(timeout=0.3)  # nothing until the client asks
        events = _turn(ws)
    assert _text(events) == "only"
    (report,) = url.reports()
    assert report.status == "completed"

"""``ssescope serve`` over a WebSocket: each ``response.create`` answered with the next
recorded response, in the recorded order and pacing, and the WebSocket faults (a close
with a chosen code, a drop, a stall, an ``error`` event), refused with the record count
when they do not fit. The captures are written here with the project's own writer."""

from __future__ import annotations

import io
import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.ws_captures import CREATE, response_events, write_capture
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

import ssescope
from ssescope.containers.ws_forms import WSExchange, read_ws_exchange
from ssescope.errors import UsageError
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from ssescope.serve.faults import apply_faults, parse_fault
from ssescope.serve.ws_script import (
    check_socket_faults,
    plan_turn,
    script_from_exchange,
    script_from_stream,
)
from ssescope.testing import SSEScopeServer


@pytest.fixture
def capture(tmp_path: Path) -> Path:
    return write_capture(tmp_path / "two.ssecap")


@pytest.fixture
def server(capture: Path) -> Iterator[tuple[str, io.StringIO]]:
    log = io.StringIO()
    app = make_app(load_captures(capture), ReplayOptions(delay="original"), log=log)
    with ServerThread(app) as running:
        yield running.url.replace("http://", "ws://"), log


def _turn(ws: ClientConnection) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    while True:
        got.append(json.loads(ws.recv(timeout=10)))
        if got[-1]["type"] in ("response.completed", "error"):
            return got


def _types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def test_each_response_create_gets_the_next_recorded_response(
    server: tuple[str, io.StringIO],
) -> None:
    url, log = server
    with connect(url + "/v1/responses", subprotocols=["realtime"]) as ws:  # type: ignore[list-item]
        assert ws.subprotocol == "realtime"  # the recorded one, offered by the client
        assert json.loads(ws.recv(timeout=5))["type"] == "session.created"  # before any create
        ws.send(CREATE)
        started = time.monotonic()
        first = _turn(ws)
        took = time.monotonic() - started
        ws.send(CREATE)
        second = _turn(ws)
        ws.send(CREATE)
        third = _turn(ws)  # past the last: from the first again
    assert [e.get("delta") for e in first if "delta" in e] == ["A", "B", "C"]
    assert [e.get("delta") for e in second if "delta" in e] == ["D"]
    assert third == first
    assert took >= 0.2  # the recorded pacing: 0.1 s to the first message, 0.05 s apart
    assert "responses=2" in log.getvalue()


def _closed(ws: ClientConnection) -> tuple[list[dict[str, Any]], ConnectionClosed]:
    got: list[dict[str, Any]] = []
    try:
        while True:
            got.append(json.loads(ws.recv(timeout=10)))
    except ConnectionClosed as exc:
        return got, exc


def _one_turn(url: str) -> tuple[list[dict[str, Any]], ConnectionClosed]:
    """Past the preamble, one response.create, and what came until the connection ended."""
    with connect(url) as ws:
        ws.recv(timeout=5)
        ws.send(CREATE)
        return _closed(ws)


def test_close_at_a_record_sends_that_close_code_mid_response(
    server: tuple[str, io.StringIO],
) -> None:
    url, _ = server
    got, closed = _one_turn(url + "/v1/responses?fault=close@record:2:1011")
    assert _types(got) == ["response.created", "response.output_text.delta"]
    assert closed.rcvd is not None and closed.rcvd.code == 1011
    assert closed.rcvd.reason == "ssescope serve: close@record:2:1011"


def test_drop_at_a_record_cuts_the_connection_without_a_close_frame(
    server: tuple[str, io.StringIO],
) -> None:
    url, _ = server
    got, closed = _one_turn(url + "/v1/responses?fault=drop@record:3")
    assert len(got) == 3
    assert closed.rcvd is None


def test_an_error_event_replaces_the_rest_and_the_connection_stays_open(
    server: tuple[str, io.StringIO],
) -> None:
    url, _ = server
    with connect(url + "/v1/responses?fault=error@record:1") as ws:
        ws.recv(timeout=5)
        ws.send(CREATE)
        first = _turn(ws)
        ws.send(CREATE)
        second = _turn(ws)
    assert _types(first) == ["response.created", "error"]
    assert first[-1]["error"]["code"] == "server_error"
    assert _types(second) == ["response.created", "error"]  # the faults apply to every one


def test_a_stall_pauses_before_the_record(capture: Path) -> None:
    app = make_app(load_captures(capture), ReplayOptions(), log=io.StringIO())
    with ServerThread(app) as running:
        url = running.url.replace("http://", "ws://") + "/?fault=stall@record:2:0.4"
        with connect(url) as ws:
            ws.recv(timeout=5)
            ws.send(CREATE)
            times = []
            for _ in range(5):
                ws.recv(timeout=5)
                times.append(time.monotonic())
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert gaps[1] >= 0.35  # between records 1 and 2
    assert max(gaps[0], *gaps[2:]) < 0.3  # (no delay otherwise)


@pytest.mark.parametrize(
    ("fault", "why"),
    [
        ("close@record:9:1011", "its longest response has 5 record(s) (numbered 0 to 4)"),
        ("crlf", "does not apply to a WebSocket stream"),
        ("cut@record:2", "drop@record:N cuts a WebSocket"),
    ],
)
def test_faults_that_do_not_fit_are_refused_before_the_upgrade(
    server: tuple[str, io.StringIO], fault: str, why: str
) -> None:
    url, log = server
    with pytest.raises(InvalidStatus) as raised:
        connect(url + f"/?fault={fault}")
    assert raised.value.response.status_code == 400
    assert why in raised.value.response.body.decode()
    assert why in log.getvalue()


def test_http_error_refuses_the_upgrade_with_that_status(server: tuple[str, io.StringIO]) -> None:
    url, _ = server
    with pytest.raises(InvalidStatus) as raised:
        connect(url + "/?fault=http-error:429")
    assert raised.value.response.status_code == 429
    assert b"error" in raised.value.response.body


def test_a_recording_the_server_closed_ends_the_same_way(tmp_path: Path) -> None:
    path = write_capture(tmp_path / "cut.ssecap", close=None)
    # the recording ends with the server's 1011 after the last response
    with path.open("ab") as fp:
        fp.write(b'{"close":{"code":1011,"reason":"overloaded"},"t":2.5,"by":"server"}\n')
    app = make_app(load_captures(path), ReplayOptions(), log=io.StringIO())
    with ServerThread(app) as running, connect(running.url.replace("http", "ws")) as ws:
        ws.recv(timeout=5)
        ws.send(CREATE)
        _turn(ws)  # the first response: the connection stays open after it
        ws.send(CREATE)
        got, closed = _closed(ws)
    assert _types(got)[-1] == "response.completed"
    assert closed.rcvd is not None and (closed.rcvd.code, closed.rcvd.reason) == (
        1011,
        "overloaded",
    )


def test_a_stream_of_several_responses_is_served_one_a_turn() -> None:
    body = "".join(
        e + "\n" for e in response_events("r1", ["x"]) + response_events("r2", ["y", "z"])
    ).encode()
    script = script_from_stream(body, None)
    assert [len(t) for t in script.turns] == [3, 4]
    assert script.provider == "openai-responses"


def test_socket_faults_are_parsed_and_refused_over_http() -> None:
    assert str(parse_fault("close@record:3:4000")) == "close@record:3:4000"
    assert str(parse_fault("drop@record:2")) == "drop@record:2"
    with pytest.raises(UsageError, match="close code"):
        parse_fault("close@record:3:1006")
    with pytest.raises(UsageError, match="WebSocket stream only"):
        apply_faults(b'data: {"x":1}\n\n', [parse_fault("drop@record:0")])


def test_no_done_and_garble_change_the_messages() -> None:
    turn = tuple((e, None) for e in response_events("r1", ["a", "b"]))
    plan = plan_turn(turn, [parse_fault("no-done"), parse_fault("garble@record:1")])
    assert len(plan.steps) == 3  # (no terminal event)
    assert plan.end == "open"
    broken = plan.steps[1][0]
    assert isinstance(broken, str)
    with pytest.raises(json.JSONDecodeError):
        json.loads(broken)
    with pytest.raises(UsageError, match="it has 4 record"):
        check_socket_faults([parse_fault("drop@record:4")], (turn,))
    check_socket_faults([parse_fault("error@record:4")], (turn,))  # (appended after the last)


def test_the_pytest_fixture_serves_a_websocket_url(capture: Path) -> None:
    with SSEScopeServer() as served:
        url = served.ws_url(capture, fault="close@record:3:4001")
        assert url.startswith("ws://127.0.0.1:")
        got, closed = _one_turn(url + "/v1/responses")
        assert len(got) == 3
        assert closed.rcvd is not None and closed.rcvd.code == 4001
        with pytest.raises(UsageError, match="record"):
            served.ws_url(capture, fault="close@record:30:1011")
        refused = served.ws_url(capture, fault="http-error:503")
        assert refused.status == 503


def test_a_devtools_har_websocket_entry_is_replayed_response_by_response() -> None:
    har = Path(__file__).resolve().parents[1] / "fixtures" / "realtime" / "devtools-websocket.har"
    recorded = [r for r in ssescope.inspect_all(har.read_bytes()) if r.entry and r.entry.index == 0]
    with SSEScopeServer() as served:
        url = served.ws_url(har)
        with connect(url + "/v1/realtime") as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "session.created"  # on connect
            for _ in recorded:
                ws.send(CREATE)
                while json.loads(ws.recv(timeout=10))["type"] != "response.done":
                    pass
        replayed = url.reports()
    assert len(recorded) == 2
    assert [(r.status, r.provider, r.records.total) for r in replayed] == [
        (r.status, r.provider, r.records.total) for r in recorded
    ]
    assert [r.outputs[0].text for r in replayed] == [r.outputs[0].text for r in recorded]


def test_responses_the_recorded_server_started_by_itself_follow_the_clients_messages() -> None:
    """A Realtime voice session: the server's turn detection created both responses (no
    response.create); each is sent once the client has sent the audio recorded before it."""
    voice = Path(__file__).resolve().parents[1] / "fixtures" / "realtime" / "voice-barge-in.ssecap"
    append = json.dumps({"type": "input_audio_buffer.append", "audio": "AAAA"})

    def quiet(ws: ClientConnection) -> bool:
        try:
            ws.recv(timeout=0.3)
        except TimeoutError:
            return True
        return False

    def until_done(ws: ClientConnection) -> list[str]:
        got = [json.loads(ws.recv(timeout=10))["type"]]
        while got[-1] != "response.done":
            got.append(json.loads(ws.recv(timeout=10))["type"])
        return got

    with SSEScopeServer() as served:
        url = served.ws_url(voice)
        with connect(url + "/v1/realtime") as ws:
            preamble = [json.loads(ws.recv(timeout=5))["type"] for _ in range(4)]
            assert quiet(ws)  # nothing more until the user speaks
            ws.send(append)
            assert quiet(ws)  # the recording holds two appends before the first response
            ws.send(append)
            first = until_done(ws)
            assert json.loads(ws.recv(timeout=5))["type"] == "rate_limits.updated"
            assert quiet(ws)
            ws.send(append)
            second = until_done(ws)
        replayed = url.reports()
    assert preamble == [
        "session.created",
        "input_audio_buffer.speech_started",
        "input_audio_buffer.speech_stopped",
        "input_audio_buffer.committed",
    ]
    assert first[0] == second[0] == "response.created"
    recorded = ssescope.inspect_all(voice.read_bytes())
    assert (
        [r.status for r in replayed]
        == [r.status for r in recorded]
        == [
            "completed",
            "cancelled",
        ]
    )
    transcripts = [[o.audio.transcript if o.audio else None for o in r.outputs] for r in replayed]
    assert transcripts == [
        [o.audio.transcript if o.audio else None for o in r.outputs] for r in recorded
    ]


def test_only_a_two_way_recording_has_responses_the_server_starts() -> None:
    voice = Path(__file__).resolve().parents[1] / "fixtures" / "realtime" / "voice-barge-in.ssecap"
    exchange = read_ws_exchange(voice.read_bytes())
    assert exchange is not None
    script = script_from_exchange(exchange)
    assert (len(script.preamble), script.server_started) == (4, (2, 1))
    # the server's messages alone: every response answers a response.create
    alone = WSExchange(tuple(m for m in exchange.messages if m.direction == "receive"), None)
    assert script_from_exchange(alone).server_started == (None,)
    assert script_from_exchange(alone).waits_for(5) is None

"""``ssescope request ws://…``: the messages sent in order (each ``response.create`` after
the response before it ended), each response judged with the engine's timing figures,
``--stall``, and ``--save`` writing the ``.ssecap`` WebSocket form. Against ``ssescope
serve`` replaying a capture written here."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.cli.cli_helpers import run
from tests.ws_captures import CREATE, write_capture

import ssescope
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    app = make_app(
        load_captures(write_capture(tmp_path / "two.ssecap")), ReplayOptions(), log=io.StringIO()
    )
    with ServerThread(app) as running:
        yield running.url.replace("http://", "ws://") + "/v1/responses"


def test_two_responses_each_judged_and_saved(url: str, tmp_path: Path) -> None:
    saved = tmp_path / "out.ssecap"
    result = run("request", url, "-d", CREATE, "--send", CREATE, "--save", str(saved), "--json")
    assert result.code == 0, result.err
    reports = json.loads(result.out)
    assert [r["status"] for r in reports] == ["completed", "completed"]
    assert reports[0]["timing"]["first_byte_s"] is not None
    assert reports[1]["source"]["websocket"]["close_code"] == 1000
    again = ssescope.inspect_all(saved.read_bytes())
    assert [r.text for r in again] == ["ABC", "D"]
    lines = [json.loads(line) for line in saved.read_text().splitlines()]
    assert lines[0]["transport"] == "websocket"
    assert [line["dir"] for line in lines[1:] if "dir" in line][:1] == ["send"]
    assert lines[-1]["close"] == {"code": 1000, "reason": ""} and lines[-1]["by"] == "client"


def test_a_close_mid_response_is_truncated_with_its_code(url: str) -> None:
    result = run("request", url + "?fault=close@record:2:1011", "-d", CREATE)
    assert result.code == 3
    assert "1011" in result.err
    assert "truncated" in result.err


def test_a_drop_is_truncated_and_named(url: str) -> None:
    result = run("request", url + "?fault=drop@record:2", "-d", CREATE, "--json")
    assert result.code == 3
    report = json.loads(result.out)
    assert report["source"]["websocket"]["dropped"] is True
    codes = {d["code"] for d in report["diagnostics"]}
    assert {"websocket.no-close-frame", "websocket.closed-before-terminal"} <= codes


def test_an_error_event_fails(url: str) -> None:
    result = run("request", url + "?fault=error@record:2", "-d", CREATE, "--json")
    assert result.code == 4
    assert json.loads(result.out)["status"] == "failed"


def test_stall_gives_up_and_says_so(url: str) -> None:
    result = run("request", url + "?fault=stall@record:2:3", "-d", CREATE, "--stall", "0.5")
    assert result.code == 7
    assert "gave up after 0.5 s" in result.err


def test_an_http_url_with_websocket_and_a_refused_upgrade(url: str) -> None:
    http = url.replace("ws://", "http://") + "?fault=http-error:401"
    result = run("request", http, "--websocket", "-d", CREATE)
    assert result.code == 4
    assert "HTTP 401" in result.err
    assert run("request", url, "-X", "POST", "-d", CREATE).code == 2
    assert run("request", url.replace("ws://", "http://"), "--send", CREATE).code == 2


def test_appended_audio_is_sent_and_saved_but_kept_in_the_report_by_its_length(
    url: str, tmp_path: Path
) -> None:
    audio = "A" * 6400
    append = json.dumps({"type": "input_audio_buffer.append", "audio": audio})
    saved = tmp_path / "out.ssecap"
    result = run("request", url, "-d", append, "--send", CREATE, "--save", str(saved), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)  # (one response: one Report)
    sent = report["source"]["websocket"]["sent"]
    assert json.loads(sent[0])["audio"] == "(6400 base64 characters, not kept)"
    again = ssescope.inspect_all(saved.read_bytes())
    assert again[0].to_dict()["source"]["websocket"]["sent"] == sent  # as read back
    lines = [json.loads(line) for line in saved.read_text().splitlines()[1:]]
    assert json.loads(lines[0]["data"])["audio"] == audio  # the capture keeps what was sent


def test_the_saved_upgrade_request_hides_the_key_and_the_beta_header(
    url: str, tmp_path: Path
) -> None:
    saved = tmp_path / "out.ssecap"
    key = "sk-test-request-ws-0123456789"
    result = run(
        "request",
        url,
        "-d",
        CREATE,
        "-H",
        f"Authorization: Bearer {key}",
        "-H",
        "OpenAI-Beta: realtime=v1",
        "--save",
        str(saved),
    )
    assert result.code == 0, result.err
    text = saved.read_text()
    assert key not in text and "realtime=v1" not in text
    header = json.loads(text.splitlines()[0])
    recorded = {k.lower(): v for k, v in header["request"]["headers"]}
    assert recorded["authorization"].startswith("[redacted")
    assert recorded["openai-beta"].startswith("[redacted")

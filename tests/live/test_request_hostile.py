"""``request`` against hostile answers: echoed keys, redirects, endless or corrupt bodies."""

from __future__ import annotations

import gzip
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from tests.live.rawserver import RawServer, canned

from ssescope.cli.request_cmd import ERROR_BODY_CAP, request_command
from ssescope.containers import read_path
from ssescope.sources.httpx import iter_events

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.network

KEY = "sk-live-0123456789abcdefSECRET"
ESC_TEXT = "hi \x1b]52;c;cHduZWQ=\x07 \x1b]0;pwned\x07 \x1b[2J end"
_SSE = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
    b'"delta":{"content":"Hello"},"finish_reason":null}]}\n\n'
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
    b'"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


def _endless_500(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n")
    piece = b"x" * 65536
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        conn.sendall(chunk)


def _silent(conn: socket.socket) -> None:
    time.sleep(3)


def _corrupt_gzip() -> bytes:
    good = gzip.compress(_SSE)
    return good[:60] + bytes(b ^ 0x5A for b in good[60:])


def _bad_check_gzip() -> bytes:
    # every byte of the stream is there; only the trailer's checksum is wrong
    good = gzip.compress(_SSE)
    return good[:-8] + bytes(b ^ 0xFF for b in good[-8:-4]) + good[-4:]


@pytest.fixture(scope="module")
def hostile() -> Any:
    echo = json.dumps({"error": {"type": "invalid_api_key", "message": f"bad key {KEY}"}})
    answers = {
        "/echo": canned("401 Unauthorized", ["Content-Type: application/json"], echo.encode()),
        "/moved": canned(
            "302 Found", [f"Location: https://elsewhere.example/v1?key={KEY}"], b"moved"
        ),
        "/nowhere": canned("307 Temporary Redirect", [], b""),
        "/endless": _endless_500,
        "/silent": _silent,
        "/gzip": canned(
            "200 OK",
            ["Content-Type: text/event-stream", "Content-Encoding: gzip"],
            _corrupt_gzip(),
        ),
        "/gzip-bad-check": canned(
            "200 OK",
            ["Content-Type: text/event-stream", "Content-Encoding: gzip"],
            _bad_check_gzip(),
        ),
        "/escape": canned(
            "500 Internal Server Error",
            ["Content-Type: application/json"],
            json.dumps({"error": {"type": "x\x1b[2J", "message": ESC_TEXT}}).encode(),
        ),
    }
    with RawServer(answers) as server:
        yield server


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m ssescope ARGS`` with this tree's code (the real entry point)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "ssescope", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60, check=False)


def _request(url: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(request_command, [url, *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_a_key_echoed_in_a_401_body_is_redacted_on_screen_in_json_and_in_the_capture(
    hostile: RawServer, tmp_path: Path
) -> None:
    cap = tmp_path / "echo.ssecap"
    header = f"Authorization: Bearer {KEY}"
    code, out, err = _request(hostile.url + "/echo", "-H", header, "--save", str(cap))
    assert code == 4
    assert KEY not in out + err
    assert "[redacted]" in err
    code, out, err = _request(hostile.url + "/echo", "-H", header, "--json")
    report = json.loads(out)
    assert KEY not in out + err
    assert "http.secret-echoed" in [d["code"] for d in report["diagnostics"]]
    assert report["error"]["message"] == "bad key [redacted]"
    saved = cap.read_bytes()
    assert KEY.encode() not in saved
    assert b"bad key [redacted]" in b"".join(c.data for c in read_path(cap).chunks)


def test_a_redirect_is_reported_as_a_redirect_not_followed_and_exits_4(
    hostile: RawServer,
) -> None:
    before = len(hostile.requests)
    code, out, err = _request(hostile.url + "/moved", "--json")
    report = json.loads(out)
    assert code == 4
    assert report["status"] == "failed"
    assert "redirect (not followed)" in report["status_reason"]
    assert report["http_status"] == 302
    diag = next(d for d in report["diagnostics"] if d["code"] == "http.redirect")
    assert "https://elsewhere.example/v1?key=[redacted]" in diag["message"]
    assert KEY not in out + err
    assert len(hostile.requests) == before + 1  # the new address was not requested
    code, out, err = _request(hostile.url + "/moved")
    assert code == 4
    flat = " ".join(err.split())
    assert "failed (the server answered HTTP 302, a redirect (not followed))" in flat


def test_a_redirect_without_a_location_says_so(hostile: RawServer) -> None:
    code, out, _err = _request(hostile.url + "/nowhere", "--json")
    report = json.loads(out)
    assert code == 4
    diag = next(d for d in report["diagnostics"] if d["code"] == "http.redirect")
    assert "HTTP 307, with no Location" in diag["message"]


def test_an_endless_error_body_is_read_up_to_the_cap_and_the_cap_is_recorded(
    hostile: RawServer, tmp_path: Path
) -> None:
    cap = tmp_path / "endless.ssecap"
    code, out, _err = _request(hostile.url + "/endless", "--json", "--save", str(cap))
    report = json.loads(out)
    assert code == 4
    assert report["status"] == "failed"
    assert report["source"]["bytes"] == ERROR_BODY_CAP
    diag = next(d for d in report["diagnostics"] if d["code"] == "http.body-capped")
    assert f"{ERROR_BODY_CAP:,}" in diag["message"]
    body = read_path(cap)
    assert sum(len(c.data) for c in body.chunks) == ERROR_BODY_CAP


def test_a_corrupt_gzip_reply_keeps_the_capture_and_the_report_with_a_diagnostic(
    hostile: RawServer, tmp_path: Path
) -> None:
    cap = tmp_path / "gzip.ssecap"
    code, out, err = _request(hostile.url + "/gzip", "--json", "--save", str(cap))
    assert "request failed" not in err
    report = json.loads(out)
    assert code == 3
    codes = [d["code"] for d in report["diagnostics"]]
    assert "stream.decode-error" in codes
    diag = next(d for d in report["diagnostics"] if d["code"] == "stream.decode-error")
    assert "gzip" in diag["message"]
    assert cap.exists()
    lines = [json.loads(x) for x in cap.read_text().splitlines()]
    assert lines[0]["ssescope"] == "capture"
    assert lines[-1]["end"] == "error"


def test_stall_with_no_response_headers_exits_7(hostile: RawServer) -> None:
    code, _out, err = _request(hostile.url + "/silent", "--stall", "0.5")
    assert code == 7
    assert "stalled" in err
    assert "Traceback" not in err


def test_an_authorization_value_with_crlf_is_a_usage_error_that_never_shows_the_key() -> None:
    for bad in (f"Authorization: Bearer {KEY}\r", f"x-api-key: {KEY}\r\nX-Evil: 1"):
        result = run("request", "http://127.0.0.1:9/v1", "-H", bad)
        assert result.returncode == 2, result.stderr
        assert KEY not in result.stdout + result.stderr
        assert "Traceback" not in result.stderr
        assert "not shown" in result.stderr


def test_a_header_without_a_colon_is_not_echoed() -> None:
    result = run("request", "http://127.0.0.1:9/v1", "-H", KEY)
    assert result.returncode == 2
    assert KEY not in result.stdout + result.stderr


def test_a_request_error_never_prints_a_key_from_the_url() -> None:
    url = f"http://127.0.0.1:9:99/v1?key={KEY}"  # an invalid port: httpx refuses the URL
    result = run("request", url)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("ssescope: request failed")
    assert KEY not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_escape_sequences_in_an_error_body_are_made_visible(hostile: RawServer) -> None:
    code, out, err = _request(hostile.url + "/escape", "-H", f"x-api-key: {KEY}")
    assert code == 4
    assert "\x1b" not in out + err.replace("\x1b[2m", "").replace("\x1b[0m", "")
    assert "\\x1b]52;c;cHduZWQ=\\x07" in err
    assert "\\x1b[2J" in err
    code, out, err = _request(hostile.url + "/escape", "--json")
    assert "\x1b" not in out
    assert json.loads(out)["error"]["message"] == ESC_TEXT


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX sockets")
def test_the_live_text_is_shown_with_control_characters_visible() -> None:
    text = json.dumps(ESC_TEXT)[1:-1]
    sse = (
        'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
        f'"delta":{{"content":"{text}"}},"finish_reason":null}}]}}\n\n'
        'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
        '"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    ).encode()
    answers = {"/v1": canned("200 OK", ["Content-Type: text/event-stream"], sse)}
    with RawServer(answers) as server:
        code, out, err = _request(server.url + "/v1")
    assert code == 0
    assert "\x1b]" not in out + err
    assert "\\x1b]52;c;cHduZWQ=\\x07" in out


class _BrokenBody(httpx.SyncByteStream):
    def __init__(self, message: str) -> None:
        self.message = message

    def __iter__(self) -> Iterator[bytes]:
        yield _SSE[:40]
        raise httpx.ReadError(self.message)


def test_a_transport_error_quoting_the_key_is_scrubbed_in_the_library_report() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        # a transport whose error message repeats the request's credentials
        leak = f"{request.headers['authorization']} was refused by {request.url}"
        return httpx.Response(200, stream=_BrokenBody(leak))

    client = httpx.Client(transport=httpx.MockTransport(handler))
    headers = {"Authorization": f"Bearer {KEY}"}
    with client.stream("POST", f"http://127.0.0.1/v1?key={KEY}x", headers=headers) as response:
        report = iter_events(response).run()
    text = json.dumps(report.to_dict())
    assert KEY not in text
    diag = next(d for d in report.diagnostics if d.code == "stream.connection-error")
    assert "[redacted]" in diag.message


def test_what_decoded_before_a_gzip_fault_is_kept_in_the_report_and_the_capture(
    hostile: RawServer, tmp_path: Path
) -> None:
    cap = tmp_path / "late.ssecap"
    code, out, _err = _request(hostile.url + "/gzip-bad-check", "--json", "--save", str(cap))
    report = json.loads(out)
    assert "stream.decode-error" in [d["code"] for d in report["diagnostics"]]
    assert report["outputs"][0]["text"] == "Hello" and report["status"] == "completed"
    assert code == 0
    body = read_path(cap)
    assert body.end == "error"
    assert b"".join(c.data for c in body.chunks) == _SSE  # the whole stream had arrived
    garbled = tmp_path / "garbled.ssecap"
    _request(hostile.url + "/gzip", "--json", "--save", str(garbled))
    kept = b"".join(c.data for c in read_path(garbled).chunks)
    assert kept.startswith(b'data: {"id"')  # what decoded before the fault

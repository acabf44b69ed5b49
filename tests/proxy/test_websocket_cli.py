"""The three commands as a user runs them over a WebSocket: ``ssescope serve`` replaying a
WebSocket capture, ``ssescope proxy`` in front of it, ``ssescope request ws://…`` through
the proxy; and ``serve`` refusing at startup a fault that fits no response (a fault that
fits the capture served over HTTP, such as ``crlf``, is accepted: it applies there)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..cli.cli_helpers import ROOT, run

FIXTURE = ROOT / "tests" / "fixtures" / "websocket" / "responses-ws-4-turns.ssecap"
CREATE = json.dumps({"type": "response.create", "model": "gpt-5-mini", "input": "hi"})


def _spawn(*args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["PYTHONPATH"] = str(ROOT / "src")
    return subprocess.Popen(
        [sys.executable, "-m", "ssescope", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.fixture
def procs() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_request_through_the_proxy_to_serve_over_a_websocket(
    procs: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    serve = _spawn("serve", str(FIXTURE), "--port", "0", "--fault", "close@record:10:1011")
    procs.append(serve)
    assert serve.stdout is not None
    served = serve.stdout.readline().strip()
    assert served.startswith("http://127.0.0.1:")
    proxy = _spawn("proxy", "--port", "0", "--upstream", served, "--record", str(tmp_path))
    procs.append(proxy)
    assert proxy.stderr is not None and proxy.stdout is not None
    match = re.match(r"ssescope proxy: (http://127\.0\.0\.1:\d+) -> ", proxy.stderr.readline())
    assert match
    url = match[1].replace("http://", "ws://") + "/v1/responses"
    result = run("request", url, "-d", CREATE, "--json")
    assert result.code == 3, result.err
    report = json.loads(result.out)
    assert report["status"] == "truncated"
    assert report["source"]["websocket"]["close_code"] == 1011
    line = proxy.stdout.readline()
    assert line.split()[1] == "WS"
    assert "truncated" in line and "closed 1011 (ssescope serve: close@record:10:1011)" in line
    proxy.send_signal(signal.SIGINT)
    assert proxy.wait(10) == 0
    (index,) = [json.loads(x) for x in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert (index["transport"], index["verdict"], index["close_code"]) == (
        "websocket",
        "truncated",
        1011,
    )


def test_serve_refuses_a_fault_that_fits_no_response_at_startup() -> None:
    result = run("serve", str(FIXTURE), "--fault", "drop@record:90")
    assert result.code == 2
    assert "its longest response has 56 record(s) (numbered 0 to 55)" in result.err

"""``web`` and ``serve`` against hostile clients: half-sent request heads, too many
connections, more connections than the process may open (loopback only)."""

from __future__ import annotations

import os
import re
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from cli_helpers import EXAMPLES

import ssescope

pytestmark = pytest.mark.network

COMMANDS = {
    "serve": ["serve", str(EXAMPLES / "vercel-ui.sse")],
    "web": ["web"],
}


def _start(
    command: list[str], *args: str, limit: Callable[[], None] | None = None
) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(Path(ssescope.__file__).parents[1])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", *command, "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=limit,  # noqa: PLW1509 (no threads in the child yet)
    )
    stream = proc.stderr if command[0] == "web" else proc.stdout
    assert stream is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = stream.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found:
            return proc, found.group(0)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"{command[0]} did not start: {proc.communicate(5)}")


@pytest.fixture(params=sorted(COMMANDS))
def command(request: pytest.FixtureRequest) -> list[str]:
    return COMMANDS[request.param]


def _raw(port: int, data: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(data)
    return sock


def _answer(sock: socket.socket) -> bytes:
    got = b""
    with sock:
        while piece := sock.recv(65536):
            got += piece
    return got


def _get(url: str) -> httpx.Response:
    return httpx.get(url + "/", timeout=5)


@pytest.fixture
def stopped() -> Iterator[list[subprocess.Popen[str]]]:
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        proc.terminate()
        try:
            proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def test_half_sent_heads_time_out_and_connections_beyond_the_limit_get_503(
    command: list[str], stopped: list[subprocess.Popen[str]]
) -> None:
    proc, url = _start(command, "--header-timeout", "0.5", "--max-connections", "4")
    stopped.append(proc)
    port = int(url.rsplit(":", 1)[1])
    held = [_raw(port, b"GET / HTTP/1.1\r\n") for _ in range(4)]
    time.sleep(0.2)  # (accepted by the server)
    busy = _get(url)
    assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
    for sock in held:  # the header timeout frees them
        assert _answer(sock).startswith(b"HTTP/1.1 408 ")
    assert _get(url).status_code == 200


def _limit_files(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))


def test_half_sent_requests_beyond_the_open_file_limit_do_not_lock_everyone_out(
    command: list[str], stopped: list[subprocess.Popen[str]]
) -> None:
    # the server may open 64 files; 80 connections each send half a request line
    proc, url = _start(command, "--header-timeout", "0.5", limit=lambda: _limit_files(64))
    stopped.append(proc)
    port = int(url.rsplit(":", 1)[1])
    attackers = [_raw(port, b"GET / HTT") for _ in range(80)]
    try:
        deadline = time.monotonic() + 8
        answer: httpx.Response | None = None
        while time.monotonic() < deadline:
            try:
                answer = httpx.get(url + "/", timeout=2)
            except httpx.HTTPError:
                answer = None
            if answer is not None and answer.status_code == 200:
                break
            time.sleep(0.1)
        assert answer is not None and answer.status_code == 200, answer
    finally:
        for sock in attackers:
            sock.close()

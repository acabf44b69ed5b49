"""Hostile clients of the proxy: a huge request body, a body that stops coming, request heads
sent by halves, more connections than the process may open."""

from __future__ import annotations

import json
import re
import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest

from ssescope.proxy import ProxyThread, ServerLimits
from ssescope.serve.app import ServerThread

from .test_cli import _start
from .upstream import JSON_REPLY, Scripted

pytestmark = pytest.mark.network

_MIB = 1024 * 1024


def _body(state: Scripted, size: int) -> Iterator[bytes]:
    """``size`` bytes: the first MiB, then (once the upstream has it) the rest."""
    yield b"{" + b" " * (_MIB - 1)
    if not state.sink_started.wait(5):
        raise AssertionError("the upstream got nothing before the client sent its whole body")
    piece = b" " * _MIB
    for _ in range(size // _MIB - 2):
        yield piece
    yield b" " * (_MIB - 1) + b"}"


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_large_body_streams_through_and_only_its_size_is_recorded(
    scripted: tuple[ServerThread, Scripted], tmp_path: Path, framing: str
) -> None:
    upstream, state = scripted
    state.sink_started.clear()
    size = 24 * _MIB
    headers = {"content-type": "application/json"}
    if framing == "content-length":
        headers["content-length"] = str(size)
    with ProxyThread(upstream.url, record=tmp_path) as proxy:
        r = httpx.post(proxy.url + "/sink", content=_body(state, size), headers=headers)
        proxy.flush()
        [ex] = proxy.registry.finished()
    seen = r.json()
    assert r.status_code == 200 and seen["size"] == size
    if framing == "content-length":  # the client's own framing went on
        assert seen["content-length"] == str(size) and seen["transfer-encoding"] is None
    else:
        assert seen["content-length"] is None and seen["transfer-encoding"] == "chunked"
    header = orjson.loads(Path(ex.capture or "").read_bytes().splitlines()[0])
    recorded = header["request"]["body"]
    assert recorded["ssescope_omitted_bytes"] == size
    assert "over the 4,194,304 bytes the proxy records" in recorded["ssescope_omitted"]
    [line] = [json.loads(x) for x in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert line["request_bytes"] == size and line["status"] == 200


def _raw(port: int, data: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(data)
    return sock


def _answer(sock: socket.socket) -> bytes:
    """Everything the proxy sends until it closes the connection."""
    got = b""
    with sock:
        while True:
            piece = sock.recv(65536)
            if not piece:
                return got
            got += piece


def _one_answer(sock: socket.socket) -> bytes:
    """One whole answer (its head and its Content-Length of body) on a kept-alive socket."""
    got = b""
    while b"\r\n\r\n" not in got:
        got += sock.recv(65536)
    head, _sep, body = got.partition(b"\r\n\r\n")
    length = int(re.search(rb"content-length: (\d+)", head, re.IGNORECASE)[1])  # type: ignore[index]
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def test_a_body_that_stops_coming_gets_408_after_the_idle_timeout(
    scripted: tuple[ServerThread, Scripted], tmp_path: Path
) -> None:
    upstream, _state = scripted
    with ProxyThread(upstream.url, record=tmp_path, idle_timeout=0.3) as proxy:
        port = int(proxy.url.rsplit(":", 1)[1])
        head = b"POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n"
        answer = _answer(_raw(port, head + b'{"model":'))
        proxy.flush()
        [ex] = proxy.registry.finished()
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b"sent nothing for 0.3 s in the middle of its request body" in answer
    assert ex.end == "cancelled" and ex.status == 408 and ex.request_bytes == 9
    assert ex.error == "the client sent nothing for 0.3 s in the middle of its request body"


def test_a_half_sent_request_head_is_closed_after_the_header_timeout(
    scripted: tuple[ServerThread, Scripted],
) -> None:
    upstream, _state = scripted
    limits = ServerLimits(header_timeout=0.3)
    with ProxyThread(upstream.url, limits=limits) as proxy:
        port = int(proxy.url.rsplit(":", 1)[1])
        halves = [_raw(port, b"POST /json HTTP/1.1\r\nHost: 127.0") for _ in range(5)]
        silent = _raw(port, b"")
        # a kept-alive connection that sends half of its second request
        kept = _raw(port, b"POST /json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
        first = _one_answer(kept)
        kept.sendall(b"POST /json HTT")
        started = time.monotonic()
        answers = [_answer(s) for s in [*halves, silent]]
        second = _answer(kept)
        waited = time.monotonic() - started
    assert waited < 4  # (closed by the proxy, not by the sockets' own timeout)
    for answer in answers[:-1]:
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert b"the request head did not arrive within 0.3 s" in answer
    assert answers[-1] == b""  # nothing was started: closed without a word
    assert first.startswith(b"HTTP/1.1 200 ") and first.endswith(JSON_REPLY)
    assert second.startswith(b"HTTP/1.1 408 ")


def test_connections_beyond_the_limit_get_503_at_once(
    scripted: tuple[ServerThread, Scripted],
) -> None:
    upstream, _state = scripted
    limits = ServerLimits(header_timeout=0.5, max_connections=4)
    with ProxyThread(upstream.url, limits=limits) as proxy:
        port = int(proxy.url.rsplit(":", 1)[1])
        held = [_raw(port, b"GET / HTTP/1.1\r\n") for _ in range(4)]
        time.sleep(0.05)  # (accepted by the proxy)
        busy = httpx.post(proxy.url + "/json", content=b"{}")
        assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
        assert "too many connections (the limit is 4)" in busy.json()["error"]["message"]
        for sock in held:  # the header timeout frees them
            assert _answer(sock).startswith(b"HTTP/1.1 408 ")
        served = httpx.post(proxy.url + "/json", content=b"{}")
    assert served.status_code == 200 and served.content == JSON_REPLY


def _limit_files(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))


def test_half_sent_requests_beyond_the_open_file_limit_do_not_lock_everyone_out(
    scripted: tuple[ServerThread, Scripted],
) -> None:
    # the proxy may open 64 files; 80 connections each send half a request line
    upstream, _state = scripted
    proc, url = _start(
        "--upstream",
        upstream.url,
        "--header-timeout",
        "0.5",
        "--json",
        limit=lambda: _limit_files(64),
    )
    attackers: list[socket.socket] = []
    try:
        port = int(url.rsplit(":", 1)[1])
        attackers.extend(_raw(port, b"POST /v1/chat/completions HTT") for _ in range(80))
        deadline = time.monotonic() + 8
        answer: httpx.Response | None = None
        while time.monotonic() < deadline:
            try:
                answer = httpx.post(url + "/json", content=b"{}", timeout=2)
            except httpx.HTTPError:
                answer = None
            if answer is not None and answer.status_code == 200:
                break
            time.sleep(0.1)
        assert answer is not None and answer.status_code == 200, answer
        assert answer.content == JSON_REPLY
    finally:
        for sock in attackers:
            sock.close()
        proc.terminate()
        proc.communicate(timeout=10)

"""Forwarding rules: bytes and headers untouched, gzip, JSON replies, hang-ups, idle times,
routes, an unreachable upstream, content redaction and twenty streams at once."""

from __future__ import annotations

import asyncio
import gzip
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ServerThread

from .upstream import ERROR_BODY, JSON_REPLY, OPENAI, Scripted, unreachable_upstream

pytestmark = pytest.mark.network


@pytest.fixture
def proxy(
    scripted: tuple[ServerThread, Scripted], replay: ServerThread, tmp_path: Path
) -> Iterator[ProxyThread]:
    upstream, _state = scripted
    with ProxyThread(
        upstream.url,
        record=tmp_path,
        routes=[("/openai_chat", replay.url)],
        finish_grace=0.3,
    ) as running:
        yield running


def _index(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / "index.jsonl").read_text().splitlines()]


def test_a_gzip_error_body_reaches_the_client_as_sent_and_is_judged_failed(
    proxy: ProxyThread,
) -> None:
    with httpx.Client() as client, client.stream("POST", proxy.url + "/gzip-error") as r:
        raw = b"".join(r.iter_raw())
        headers = r.headers
    assert r.status_code == 529
    assert raw == gzip.compress(ERROR_BODY)
    assert headers["content-encoding"] == "gzip"
    assert headers["content-length"] == str(len(raw))
    assert "transfer-encoding" not in headers
    proxy.flush()
    [ex] = proxy.registry.finished()
    assert ex.verdict == "failed" and ex.status == 529 and not ex.stream
    report = ssescope.inspect(ex.capture or "")
    assert report.status == "failed"
    assert report.response.error is not None
    assert report.response.error["message"] == "Overloaded, try later"


def test_a_gzip_stream_is_forwarded_compressed_and_recorded_decoded(proxy: ProxyThread) -> None:
    with httpx.Client() as client, client.stream("POST", proxy.url + "/gzip-stream") as r:
        pieces = list(r.iter_raw())
    assert gzip.decompress(b"".join(pieces)) == b"".join(OPENAI)
    assert len(pieces) > 1
    proxy.flush()
    [ex] = proxy.registry.finished()
    assert ex.stream and ex.verdict == "completed"
    body = ssescope.read_path(ex.capture or "")
    assert b"".join(c.data for c in body.chunks) == b"".join(OPENAI)
    assert ssescope.inspect(ex.capture or "").text == "Bonjour le monde"


def test_a_json_reply_is_forwarded_and_recorded_as_one(proxy: ProxyThread, tmp_path: Path) -> None:
    r = httpx.post(proxy.url + "/json", json={"model": "m", "messages": []})
    assert r.content == JSON_REPLY
    proxy.flush()
    [line] = _index(tmp_path)
    assert line["stream"] is False
    assert line["content_type"] == "application/json"
    assert line["request_ids"] == {"x-request-id": "req_123"}
    assert line["model"] == "m"
    header = orjson.loads(Path(str(line["capture"])).read_bytes().splitlines()[0])
    assert ["content-type", "application/json"] in header["response"]["headers"]


def test_hop_by_hop_headers_are_stripped_and_credentials_pass_through(
    proxy: ProxyThread, scripted: tuple[ServerThread, Scripted], tmp_path: Path
) -> None:
    _upstream, state = scripted
    state.seen_headers.clear()
    secret = "sk-live-0123456789abcdef"
    r = httpx.post(
        proxy.url + "/echo?key=querysecret",
        content=b"{}",
        headers={
            "Authorization": f"Bearer {secret}",
            "x-api-key": secret,
            "anthropic-version": "2023-06-01",
            "Connection": "keep-alive, X-Drop-Me",
            "X-Drop-Me": "1",
            "Keep-Alive": "timeout=5",
            "TE": "trailers",
            "Proxy-Authorization": "Basic abc",
            "Content-Type": "application/json; charset=UTF-8",
        },
    )
    assert r.status_code == 200
    seen = {k.lower(): v for k, v in state.seen_headers[-1]}
    assert seen["authorization"] == f"Bearer {secret}"
    assert seen["x-api-key"] == secret
    assert seen["anthropic-version"] == "2023-06-01"
    assert seen["content-type"] == "application/json; charset=UTF-8"
    for gone in ("x-drop-me", "keep-alive", "te", "proxy-authorization"):
        assert gone not in seen
    assert "user-agent" in seen  # the client's own, not one added by the proxy
    assert seen["user-agent"].startswith("python-httpx")
    proxy.flush()
    [line] = _index(tmp_path)
    assert line["request_ids"] == {"request-id": "req_echo"}
    for f in tmp_path.iterdir():
        text = f.read_text()
        assert secret not in text and "querysecret" not in text
    capture = Path(str(line["capture"])).read_text()
    assert '["x-api-key","[redacted sha256:' in capture
    assert '["authorization","[redacted sha256:' in capture


def test_a_client_that_hangs_up_cancels_the_capture_and_closes_the_upstream(
    proxy: ProxyThread, scripted: tuple[ServerThread, Scripted]
) -> None:
    _upstream, state = scripted
    state.endless_closed.clear()
    with httpx.Client() as client, client.stream("POST", proxy.url + "/endless") as r:
        for got, _piece in enumerate(r.iter_raw(), 1):
            if got == 3:
                break
    assert state.endless_closed.wait(5), "the upstream request was not closed"
    proxy.flush()
    [ex] = proxy.registry.finished()
    assert ex.end == "cancelled" and ex.verdict == "cancelled"
    body = ssescope.read_path(ex.capture or "")
    assert body.end == "cancelled"
    assert ssescope.inspect(ex.capture or "").status == "cancelled"


def test_an_upstream_that_stays_open_after_the_end_is_closed_and_reported(
    proxy: ProxyThread,
) -> None:
    started = time.monotonic()
    r = httpx.post(proxy.url + "/hold-open", timeout=10)
    assert r.content == b"".join(OPENAI)
    assert time.monotonic() - started < 5
    proxy.flush()
    [ex] = proxy.registry.finished()
    assert ex.verdict == "completed"
    assert "stream.open-after-finish" in ex.diagnostics


def test_heartbeats_count_as_bytes_but_not_as_content(proxy: ProxyThread, tmp_path: Path) -> None:
    httpx.post(proxy.url + "/heartbeat")
    proxy.flush()
    [line] = _index(tmp_path)
    assert isinstance(line["byte_idle_max_s"], float)
    assert isinstance(line["content_idle_max_s"], float)
    # four pings 0.1 s apart, then content 0.05 s later: the longest byte gap is one of
    # those five, the content gap spans all of them. The sleeps are lower bounds at the
    # server only: under load the first content can reach the proxy late, which shortens
    # the gap measured there, so the bounds leave room for that.
    assert line["byte_idle_max_s"] >= 0.05
    assert line["content_idle_max_s"] >= 0.35
    assert line["content_idle_max_s"] >= line["byte_idle_max_s"] + 0.15
    end = orjson.loads(Path(str(line["capture"])).read_bytes().splitlines()[-1])
    assert end["end"] == "eof"
    assert end["content_idle_max_s"] == pytest.approx(line["content_idle_max_s"], abs=1e-5)


def test_a_route_sends_its_prefix_to_another_upstream(
    proxy: ProxyThread, replay: ServerThread, tmp_path: Path
) -> None:
    r = httpx.post(proxy.url + "/openai_chat/v1/chat/completions", json={"stream": True})
    assert r.content == httpx.post(replay.url + "/openai_chat/v1/chat/completions").content
    proxy.flush()
    [line] = _index(tmp_path)
    assert str(line["upstream"]).startswith(replay.url + "/openai_chat/")
    assert line["verdict"] == "completed" and line["provider"] == "openai-chat"


def test_an_unreachable_upstream_answers_502_with_one_line(tmp_path: Path) -> None:
    with ProxyThread(unreachable_upstream(), record=tmp_path) as proxy:
        r = httpx.post(proxy.url + "/v1/chat/completions", json={})
        proxy.flush()
    assert r.status_code == 502
    error = r.json()["error"]
    assert error["type"] == "proxy_error" and "cannot reach" in error["message"]
    [line] = _index(tmp_path)
    assert line["verdict"] == "failed" and "cannot reach" in str(line["error"])


def test_redact_content_hashes_the_text_and_keeps_the_verdict(
    replay: ServerThread, tmp_path: Path
) -> None:
    with ProxyThread(replay.url, record=tmp_path, redact_content=True) as proxy:
        r = httpx.post(
            proxy.url + "/anthropic/v1/messages",
            json={"model": "claude", "messages": [{"role": "user", "content": "my secret plan"}]},
        )
        proxy.flush()
    [ex] = proxy.registry.finished()
    original = ssescope.inspect(r.content)
    assert original.text
    capture = Path(ex.capture or "").read_text()
    assert original.text not in capture and "my secret plan" not in capture
    assert '"role":"user"' in capture
    redacted = ssescope.inspect(ex.capture or "")
    assert redacted.status == original.status == "completed"
    assert redacted.records.total == original.records.total
    assert redacted.text.startswith("sha256:")
    assert ex.verdict == "completed"  # judged on the real bytes


async def test_twenty_concurrent_streams_do_not_cross(replay: ServerThread, tmp_path: Path) -> None:
    paths = ["/openai_chat/v1/chat/completions", "/anthropic/v1/messages"]
    expected = {p: httpx.post(replay.url + p).content for p in paths}
    with ProxyThread(replay.url, record=tmp_path) as proxy:
        async with httpx.AsyncClient(timeout=30) as client:

            async def one(i: int) -> tuple[int, bytes]:
                path = paths[i % 2]
                async with client.stream("POST", proxy.url + path, json={"model": f"m-{i}"}) as r:
                    return i, b"".join([piece async for piece in r.aiter_raw()])

            results = await asyncio.gather(*(one(i) for i in range(20)))
        proxy.flush()
    for i, data in results:
        assert data == expected[paths[i % 2]]
    finished = proxy.registry.finished()
    assert len(finished) == 20
    for ex in finished:
        i = int(str(ex.model).split("-")[1])
        assert ex.path == paths[i % 2]
        assert ex.verdict == "completed"
        body = ssescope.read_path(ex.capture or "")
        assert b"".join(c.data for c in body.chunks) == expected[ex.path]
        assert body.request is not None
    assert len({ex.capture for ex in finished}) == 20
    assert len(_index(tmp_path)) == 20


def _breaking_upstream() -> tuple[socket.socket, threading.Thread]:
    """A raw HTTP/1.1 upstream that sends two chunks of a stream, then drops the connection."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                b"transfer-encoding: chunked\r\n\r\n"
            )
            for piece in OPENAI[:2]:
                conn.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
                time.sleep(0.05)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener, thread


def test_an_upstream_that_breaks_mid_stream_breaks_the_client_too(tmp_path: Path) -> None:
    listener, thread = _breaking_upstream()
    try:
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        with ProxyThread(url, record=tmp_path) as proxy:
            received: list[bytes] = []
            with (
                pytest.raises(httpx.RemoteProtocolError),
                httpx.Client() as client,
                client.stream("POST", proxy.url + "/v1/chat/completions") as r,
            ):
                received.extend(r.iter_raw())
            proxy.flush()
        thread.join(5)
    finally:
        listener.close()
    assert b"".join(received) == b"".join(OPENAI[:2])
    [ex] = proxy.registry.finished()
    assert ex.end == "error" and ex.verdict == "truncated"
    assert "stream.connection-error" in ex.diagnostics
    body = ssescope.read_path(ex.capture or "")
    assert body.end == "error"
    assert b"".join(c.data for c in body.chunks) == b"".join(OPENAI[:2])


def test_a_gzip_bomb_is_recorded_and_judged_a_bounded_step_at_a_time(proxy: ProxyThread) -> None:
    from .upstream import BOMB_BODY

    with httpx.Client() as client, client.stream("POST", proxy.url + "/gzip-bomb") as r:
        raw = b"".join(r.iter_raw())
    assert gzip.decompress(raw) == BOMB_BODY and len(raw) * 100 < len(BOMB_BODY)
    proxy.flush()
    [ex] = proxy.registry.finished()
    assert ex.chunks == 1 and ex.body_bytes == len(BOMB_BODY)
    assert ex.verdict == "completed" and ex.records == 8002
    body = ssescope.read_path(ex.capture or "")
    assert b"".join(c.data for c in body.chunks) == BOMB_BODY
    assert max(len(c.data) for c in body.chunks) <= 64 * 1024  # one decoded step per line

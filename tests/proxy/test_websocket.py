"""WebSocket upgrades through the proxy: each message passed on in both directions,
compared message by message on both sides; the close code, reason or drop passed on;
the connection recorded in the ``.ssecap`` WebSocket form and judged like a capture."""

from __future__ import annotations

import io
import json
import socket
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.proxy.display import LiveDisplay, exchange_line
from ssescope.serve.app import ServerThread, bind
from ssescope.web.live import list_exchanges

from .ws_upstream import WSUpstream, ws_upstream_app

KEY = "sk-proxy-ws-secret-4242"


@pytest.fixture(scope="module")
def upstream() -> Iterator[tuple[ServerThread, WSUpstream]]:
    state = WSUpstream()
    with ServerThread(ws_upstream_app(state)) as running:
        yield running, state


def _ws(proxy: ProxyThread, path: str) -> str:
    return proxy.url.replace("http://", "ws://") + path


def _create(text: str) -> str:
    return json.dumps({"type": "response.create", "model": "gpt-5", "input": text})


def _until_terminal(ws: ClientConnection) -> list[str | bytes]:
    got: list[str | bytes] = []
    while True:
        message = ws.recv(timeout=10)
        got.append(message)
        if isinstance(message, str) and '"response.completed"' in message:
            return got


def _read_rest(ws: ClientConnection) -> tuple[list[str | bytes], ConnectionClosed]:
    got: list[str | bytes] = []
    try:
        while True:
            got.append(ws.recv(timeout=10))
    except ConnectionClosed as exc:
        return got, exc


def _capture_lines(path: str | None) -> list[dict[str, Any]]:
    assert path is not None
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def _recorded(path: str | None, direction: str) -> list[str]:
    return [
        line["data"] if "data" in line else line["b64"]
        for line in _capture_lines(path)[1:]
        if line.get("dir") == direction
    ]


def _conn_for(state: WSUpstream, first: str) -> Any:
    return next(c for c in state.conns if c.received and c.received[0] == first)


def _one(proxy: ProxyThread) -> Any:
    proxy.flush()
    (ex,) = proxy.registry.finished()
    return ex


def test_two_responses_pass_through_message_by_message(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, state = upstream
    first, second = _create("one two three"), _create("four")
    with ProxyThread(server.url, record=tmp_path) as proxy:
        with connect(
            _ws(proxy, "/v1/responses"),
            subprotocols=["openai-beta.responses-v1"],  # type: ignore[list-item]
            additional_headers={"Authorization": f"Bearer {KEY}", "OpenAI-Beta": "responses=v1"},
        ) as ws:
            assert ws.subprotocol == "openai-beta.responses-v1"
            assert ws.response is not None
            assert ws.response.headers["x-request-id"] == "req_ws_1"
            ws.send(first)
            got = _until_terminal(ws)
            ws.send(second)
            got += _until_terminal(ws)
            ws.close(1000)
        ex = _one(proxy)
    conn = _conn_for(state, first)
    conn.done.wait(5)
    assert conn.received == [first, second]
    assert conn.sent == got
    assert conn.subprotocols == ["openai-beta.responses-v1"]
    assert conn.disconnect == (1000, "")
    assert _recorded(ex.capture, "send") == [first, second]
    assert _recorded(ex.capture, "receive") == got
    assert (ex.verdict, ex.responses, ex.messages_sent) == ("completed", 2, 2)
    assert (ex.close_code, ex.closed_by, ex.dropped, ex.end) == (1000, "client", False, "eof")
    # the live verdicts are those of the capture read back
    reports = ssescope.inspect_all(Path(ex.capture).read_bytes())
    assert [r.status for r in reports] == ["completed", "completed"]
    assert [r.text for r in reports] == ["one two three", "four"]
    header = _capture_lines(ex.capture)[0]
    assert (header["version"], header["transport"]) == (2, "websocket")
    headers = {k.lower(): v for k, v in header["request"]["headers"]}
    assert KEY not in json.dumps(header)
    assert headers["authorization"].startswith("[redacted")
    assert headers["openai-beta"].startswith("[redacted sha256:")  # (a WebSocket capture hides it)
    index = [json.loads(line) for line in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert index[0]["transport"] == "websocket"
    assert index[0]["verdict"] == "completed"
    # the Live view of the web page lists it from the index, as an HTTP exchange
    (listed,) = list_exchanges(tmp_path)
    assert (listed["name"], listed["verdict"], listed["live"]) == (ex.name, "completed", False)


def test_the_upstream_closing_mid_response_is_passed_on_with_its_code(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, state = upstream
    first = _create("cut me")
    with ProxyThread(server.url, record=tmp_path) as proxy:
        with connect(_ws(proxy, "/v1/cut")) as ws:
            ws.send(first)
            got, closed = _read_rest(ws)
        ex = _one(proxy)
    conn = _conn_for(state, first)
    assert got == conn.sent and len(got) == 2
    assert closed.rcvd is not None
    assert (closed.rcvd.code, closed.rcvd.reason) == (1011, "overloaded")
    assert _recorded(ex.capture, "receive") == got
    assert ex.verdict == "truncated"
    assert "code 1011 (overloaded)" in (ex.status_reason or "")
    assert "websocket.closed-before-terminal" in ex.diagnostics
    assert (ex.close_code, ex.close_reason, ex.closed_by) == (1011, "overloaded", "server")
    assert "closed 1011 (overloaded) by server" in exchange_line(ex).plain
    assert exchange_line(ex).plain.split()[1] == "WS"
    last = _capture_lines(ex.capture)[-1]
    assert next(iter(last)) == "close"
    assert last["close"] == {"code": 1011, "reason": "overloaded"}
    assert last["by"] == "server"


def test_an_upstream_drop_drops_the_client_too(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, state = upstream
    first = _create("drop me")
    with ProxyThread(server.url, record=tmp_path) as proxy:
        with connect(_ws(proxy, "/v1/drop")) as ws:
            ws.send(first)
            got, closed = _read_rest(ws)
        ex = _one(proxy)
    assert got == _conn_for(state, first).sent
    assert closed.rcvd is None  # no close frame reached the client either
    assert ex.verdict == "truncated"
    assert ex.dropped and ex.end == "error"
    assert "websocket.no-close-frame" in ex.diagnostics
    assert _capture_lines(ex.capture)[-1]["close"] == "dropped"


def test_a_client_that_hangs_up_mid_response_is_passed_on_and_loses_nothing(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, state = upstream
    first = _create(" ".join(f"w{i}" for i in range(400)))
    with ProxyThread(server.url, record=tmp_path) as proxy:
        with connect(_ws(proxy, "/v1/slow")) as ws:
            ws.send(first)
            got = [ws.recv(timeout=10) for _ in range(3)]
            ws.close(4000, "user cancelled")
        ex = _one(proxy)
    conn = _conn_for(state, first)
    conn.done.wait(5)
    assert conn.disconnect == (4000, "user cancelled")
    recorded = _recorded(ex.capture, "receive")
    assert recorded[:3] == got
    assert recorded == conn.sent[: len(recorded)]  # what arrived, in order, none lost
    assert 3 <= len(recorded) < 402
    assert ex.verdict == "cancelled"
    assert (ex.close_code, ex.close_reason, ex.closed_by) == (4000, "user cancelled", "client")


def test_ten_concurrent_connections_lose_no_message(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, state = upstream
    results: dict[int, tuple[list[str], list[str | bytes]]] = {}
    errors: list[BaseException] = []

    def client(n: int, url: str) -> None:
        try:
            sent = [_create(f"client {n} turn {k} " + "x " * n) for k in range(3)]
            got: list[str | bytes] = []
            with connect(url) as ws:
                for message in sent:
                    ws.send(message)
                    got += _until_terminal(ws)
            results[n] = (sent, got)
        except BaseException as exc:  # (reported by the test)
            errors.append(exc)

    with ProxyThread(server.url, record=tmp_path) as proxy:
        url = _ws(proxy, "/v1/slow")
        threads = [threading.Thread(target=client, args=(n, url)) for n in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        proxy.flush()
        finished = proxy.registry.finished()
    assert not errors
    assert len(results) == 10 and len(finished) == 10
    by_first = {_recorded(ex.capture, "send")[0]: ex for ex in finished}
    for sent, got in results.values():
        conn = _conn_for(state, sent[0])
        conn.done.wait(5)
        assert conn.received == sent
        assert conn.sent == got
        ex = by_first[sent[0]]
        assert _recorded(ex.capture, "send") == sent
        assert _recorded(ex.capture, "receive") == got
        assert (ex.verdict, ex.responses) == ("completed", 3)


def test_an_upgrade_the_upstream_refuses_is_passed_back_and_judged(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, _ = upstream
    with ProxyThread(server.url, record=tmp_path) as proxy:
        with pytest.raises(InvalidStatus) as raised:
            connect(_ws(proxy, "/v1/refuse"))
        ex = _one(proxy)
    assert raised.value.response.status_code == 401
    assert b"bad key" in raised.value.response.body
    assert (ex.status, ex.verdict) == (401, "failed")
    report = ssescope.inspect(Path(ex.capture).read_bytes())
    assert (report.http_status, report.status) == (401, "failed")
    assert report.error is not None and report.error["message"] == "bad key"


def test_a_key_the_upstream_echoes_is_scrubbed_from_the_capture(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, _ = upstream
    with ProxyThread(server.url, record=tmp_path) as proxy:
        url = _ws(proxy, f"/v1/echo-key?api_key={KEY}")
        with connect(url, additional_headers={"Authorization": f"Bearer {KEY}"}) as ws:
            ws.send(_create("hi"))
            got = _until_terminal(ws)
        ex = _one(proxy)
    assert KEY in str(got[0])  # passed on untouched: the client's own key
    text = Path(ex.capture).read_text()
    assert KEY not in text
    assert KEY not in (tmp_path / "index.jsonl").read_text()
    assert "http.secret-echoed" in ex.diagnostics
    assert ex.verdict == "completed"


def test_key_headers_and_query_keys_are_redacted_from_the_capture_and_the_index(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, state = upstream
    first = _create("redact me")
    headers = {
        "Authorization": f"Bearer {KEY}",
        "api-key": KEY,  # (Azure OpenAI's header)
        "OpenAI-Beta": "realtime=v1",
    }
    with ProxyThread(server.url, record=tmp_path) as proxy:
        url = _ws(proxy, f"/v1/responses?api-key={KEY}&key={KEY}&model=gpt-5")
        with connect(url, additional_headers=headers) as ws:
            ws.send(first)
            _until_terminal(ws)
        ex = _one(proxy)
    conn = _conn_for(state, first)
    assert {k: v for k, v in conn.headers if k in ("authorization", "api-key")} == {
        "authorization": f"Bearer {KEY}",
        "api-key": KEY,
    }  # the upstream got them as sent
    header = _capture_lines(ex.capture)[0]
    recorded = {k.lower(): v for k, v in header["request"]["headers"]}
    assert recorded["authorization"].startswith("[redacted")
    assert recorded["api-key"].startswith("[redacted")
    assert recorded["openai-beta"].startswith("[redacted sha256:")
    assert conn.headers and ("openai-beta", "realtime=v1") in conn.headers  # passed on as sent
    assert "model=gpt-5" in header["request"]["url"]
    for text in (Path(str(ex.capture)).read_text(), (tmp_path / "index.jsonl").read_text()):
        assert KEY not in text
    assert ex.verdict == "completed"


def test_a_binary_message_is_passed_on_and_reported(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, _ = upstream
    with ProxyThread(server.url, record=tmp_path) as proxy:
        with connect(_ws(proxy, "/v1/binary")) as ws:
            ws.send(_create("hi"))
            got = _until_terminal(ws)
        ex = _one(proxy)
    assert got[0] == b"\x00\x01\x02"
    assert "websocket.binary-message" in ex.diagnostics
    assert ex.verdict == "completed"


def _raw_upgrade(url: str, host: str, origin: str | None = None) -> bytes:
    port = int(url.rsplit(":", 1)[1])
    lines = [
        "GET /v1/responses HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return sock.recv(4096)


def test_the_host_and_origin_guard_refuses_upgrades_as_it_refuses_requests(
    upstream: tuple[ServerThread, WSUpstream],
) -> None:
    server, _ = upstream
    with ProxyThread(server.url) as proxy:
        assert _raw_upgrade(proxy.url, "evil.example").startswith(b"HTTP/1.1 421")
        port = proxy.url.rsplit(":", 1)[1]
        foreign = _raw_upgrade(proxy.url, f"127.0.0.1:{port}", "http://evil.example")
        assert foreign.startswith(b"HTTP/1.1 403")
        assert b"--allow-origin" in foreign
        assert _raw_upgrade(proxy.url, f"127.0.0.1:{port}").startswith(b"HTTP/1.1 101")
        assert [(r[0], r[2]) for r in proxy.refused] == [("WS", 421), ("WS", 403)]


def test_an_open_connection_is_listed_in_flight_as_ws(
    upstream: tuple[ServerThread, WSUpstream],
) -> None:
    server, _ = upstream
    with ProxyThread(server.url) as proxy, connect(_ws(proxy, "/v1/responses")) as ws:
        ws.send(_create("still open"))
        _until_terminal(ws)
        console = Console(record=True, width=160, file=io.StringIO())
        console.print(LiveDisplay(proxy.registry, console).render())
        shown = console.export_text()
        assert "WS /v1/responses" in shown
        assert "STREAMING" in shown


class _TLSWebSocketUpstream:
    """The scripted WebSocket upstream served by uvicorn over TLS (a throwaway CA)."""

    def __init__(self, folder: Path) -> None:
        import trustme
        import uvicorn

        ca = trustme.CA()
        pem = folder / "upstream.pem"
        ca.issue_cert("127.0.0.1").private_key_and_cert_chain_pem.write_to_path(str(pem))
        self.trust = ssl.create_default_context()
        ca.configure_trust(self.trust)
        self.state = WSUpstream()
        self._sock = bind("127.0.0.1", 0)
        self.url = f"https://127.0.0.1:{self._sock.getsockname()[1]}"
        config = uvicorn.Config(
            ws_upstream_app(self.state),
            ssl_certfile=str(pem),
            ssl_keyfile=str(pem),
            log_level="warning",
            lifespan="off",
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    def __enter__(self) -> _TLSWebSocketUpstream:
        self._thread.start()
        while not self._server.started:
            threading.Event().wait(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(10)
        self._sock.close()


def test_a_wss_upstream_is_reached_with_the_proxys_trust_settings(tmp_path: Path) -> None:
    with _TLSWebSocketUpstream(tmp_path) as tls:
        with ProxyThread(tls.url, record=tmp_path, verify=tls.trust) as proxy:
            with connect(_ws(proxy, "/v1/responses")) as ws:
                ws.send(_create("over tls"))
                got = _until_terminal(ws)
            ex = _one(proxy)
        assert ex.upstream.startswith("wss://127.0.0.1:")
        assert (ex.verdict, len(got)) == ("completed", 4)  # created, 2 deltas, completed
        with ProxyThread(tls.url) as untrusting:  # the default CA bundle: refused
            with pytest.raises(InvalidStatus) as raised:
                connect(_ws(untrusting, "/v1/responses"))
            assert raised.value.response.status_code == 502
            assert b"cannot reach https://127.0.0.1" in raised.value.response.body


def test_a_key_offered_as_a_subprotocol_is_kept_out_of_the_capture(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    # a browser cannot set Authorization on a WebSocket: the Realtime API takes the key
    # as a subprotocol
    server, _ = upstream
    offered = ["realtime", f"openai-insecure-api-key.{KEY}"]
    with ProxyThread(server.url, record=tmp_path) as proxy:
        with connect(_ws(proxy, "/v1/realtime"), subprotocols=offered) as ws:  # type: ignore[arg-type]
            assert ws.subprotocol == "realtime"
            ws.send(_create("hi"))
            _until_terminal(ws)
        ex = _one(proxy)
    text = Path(ex.capture).read_text()
    assert KEY not in text
    assert "openai-insecure-api-key.[redacted]" in text
    assert KEY not in (tmp_path / "index.jsonl").read_text()


def test_redact_content_hashes_the_text_of_each_message(
    upstream: tuple[ServerThread, WSUpstream], tmp_path: Path
) -> None:
    server, _ = upstream
    with ProxyThread(server.url, record=tmp_path, redact_content=True) as proxy:
        with connect(_ws(proxy, "/v1/responses")) as ws:
            ws.send(_create("secret words here"))
            got = _until_terminal(ws)
        ex = _one(proxy)
    assert "secret" in str(got)  # (the client gets the text)
    text = Path(ex.capture).read_text()
    assert "secret" not in text and "sha256:" in text
    assert ex.verdict == "completed"  # judged on the messages as they came
    assert [r.status for r in ssescope.inspect_all(Path(ex.capture).read_bytes())] == ["completed"]

"""The web API refuses other pages, answers every refusal with its CSP, and stays responsive."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.testclient import TestClient

import ssescope.web.server as server_module
from ssescope.web import CSP, create_app

BASE = "http://127.0.0.1:8765"
STREAM = (
    b'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\n'
    b"data: [DONE]\n\n"
)


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(), base_url=BASE, raise_server_exceptions=False)


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://evil.example"},
        {"origin": "null"},
        {"origin": "http://127.0.0.1:3000"},  # another port of the same machine
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
        {"origin": "http://127.0.0.1:8765", "sec-fetch-site": "cross-site"},
    ],
)
def test_a_request_from_another_page_is_refused_with_403(
    client: TestClient, headers: dict[str, str]
) -> None:
    for method, path in (
        ("POST", "/api/inspect"),
        ("POST", "/api/ssecap"),
        ("GET", "/api/examples"),
    ):
        res = client.request(method, path, content=STREAM, headers=headers)
        assert res.status_code == 403, (method, path, headers)
        assert "Refused" in res.json()["error"]
        assert res.headers["content-security-policy"] == CSP


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"origin": BASE, "sec-fetch-site": "same-origin"},
        {"sec-fetch-site": "none"},
    ],
)
def test_the_page_itself_and_non_browser_clients_are_served(
    client: TestClient, headers: dict[str, str]
) -> None:
    res = client.post("/api/inspect", content=STREAM, headers=headers)
    assert res.status_code == 200
    assert res.json()["report"]["status"] == "completed"


def test_following_a_link_from_another_site_opens_the_page(client: TestClient) -> None:
    nav = {
        "sec-fetch-site": "cross-site",
        "sec-fetch-mode": "navigate",
        "sec-fetch-dest": "document",
    }
    assert client.get("/", headers=nav).status_code == 200
    assert client.get("/api/examples", headers=nav).status_code == 403
    assert client.post("/", headers=nav).status_code == 403


def test_421_and_500_answers_carry_the_csp(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    res = client.get("/", headers={"host": "rebound.example:8765"})
    assert res.status_code == 421
    assert res.headers["content-security-policy"] == CSP

    def broken(*_args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(server_module, "find_examples", broken)
    res = client.get("/api/examples")
    assert res.status_code == 500
    assert res.headers["content-security-policy"] == CSP
    assert res.headers["x-frame-options"] == "DENY"
    assert "RuntimeError" in res.json()["error"]


@pytest.fixture
def live_server() -> Iterator[Callable[..., str]]:
    servers: list[tuple[Any, threading.Thread]] = []

    def start(**options: Any) -> str:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        config = uvicorn.Config(
            create_app(**options), host="127.0.0.1", port=port, log_level="warning"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        servers.append((server, thread))
        return f"http://127.0.0.1:{port}"

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(timeout=10)


def _big_stream(records: int) -> bytes:
    piece = json.dumps(
        {"choices": [{"index": 0, "delta": {"content": "word " * 20}, "finish_reason": None}]}
    )
    body = f"data: {piece}\n\n".encode() * records
    end = b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    return body + end


def test_the_page_stays_responsive_while_a_big_stream_is_analysed(
    live_server: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    started = threading.Event()
    real = server_module.analyse

    def watched(*args: Any, **kwargs: Any) -> Any:
        started.set()
        return real(*args, **kwargs)

    monkeypatch.setattr(server_module, "analyse", watched)
    url = live_server()
    body = _big_stream(40_000)  # about 5 MB, 40,000 records: seconds of analysis
    done: dict[str, float] = {}

    def post() -> None:
        res = httpx.post(url + "/api/inspect", content=body, timeout=300)
        assert res.status_code == 200
        done["inspect"] = time.monotonic()

    worker = threading.Thread(target=post)
    worker.start()
    assert started.wait(60)
    for _ in range(3):
        res = httpx.get(url + "/", timeout=60)
        assert res.status_code == 200
    done["page"] = time.monotonic()
    worker.join(300)
    assert "inspect" in done
    # the page was served while the analysis was still running
    assert done["page"] < done["inspect"]


def test_streams_past_the_queue_limit_get_503_with_retry_after(
    live_server: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    entered = threading.Event()
    real = server_module.analyse

    def held(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(server_module, "analyse", held)
    url = live_server(max_queue=1)
    answers: list[httpx.Response] = []

    def post() -> None:
        answers.append(httpx.post(url + "/api/inspect", content=STREAM, timeout=60))

    threads = [threading.Thread(target=post)]
    threads[0].start()
    assert entered.wait(30)  # one stream is being analysed; three more arrive
    threads += [threading.Thread(target=post) for _ in range(3)]
    for thread in threads[1:]:
        thread.start()
    deadline = time.monotonic() + 20
    while sum(a.status_code == 503 for a in answers) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    refused = [a for a in answers if a.status_code == 503]
    assert len(refused) == 2  # one waits, two are refused at once
    for res in refused:
        assert res.headers["retry-after"] == "2"
        assert res.headers["content-security-policy"] == CSP
        assert "busy" in res.json()["error"]
    assert httpx.get(url + "/", timeout=30).status_code == 200
    release.set()
    for thread in threads:
        thread.join(30)
    assert sorted(a.status_code for a in answers) == [200, 200, 503, 503]

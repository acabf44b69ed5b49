"""The Live view against what makes it slow: a huge capture in flight, thousands of past
exchanges, a capture that cannot be read at once. It reads a bounded part, incrementally,
off the event loop that forwards the proxy's streams."""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

import ssescope.web.live as live_module
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from ssescope.web import create_app

from ..proxy.conftest import Null

LIVE = Path(__file__).resolve().parents[1] / "fixtures" / "live"

_CHUNK = (
    b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
    b'"delta":{"content":"hello there "},"finish_reason":null}]}\n\n'
)
_END = (
    b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
    b'"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


def _header() -> bytes:
    head = {
        "ssescope": "capture",
        "version": 1,
        "request": {"method": "POST", "url": "http://u/v1/chat/completions", "headers": []},
        "response": {"status": 200, "headers": [["content-type", "text/event-stream"]]},
    }
    return json.dumps(head).encode() + b"\n"


def _chunk_line(data: bytes, t: float) -> bytes:
    return json.dumps({"t": t, "data": data.decode()}).encode() + b"\n"


@pytest.fixture
def page(tmp_path: Path) -> TestClient:
    return TestClient(create_app(live_dir=tmp_path), base_url="http://127.0.0.1")


def test_a_capture_larger_than_the_view_is_analysed_by_its_first_part_only(
    page: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_module, "DETAIL_BYTES", 64 * 1024)
    name = "20260101T000000.000001Z-0001-post-v1-chat-completions"
    path = tmp_path / f"{name}.ssecap"
    lines = [_header()] + [_chunk_line(_CHUNK, i / 1000) for i in range(8000)]
    path.write_bytes(b"".join(lines) + b'{"t": 9.0, "data": "data: {\\"half')  # a half line
    size = path.stat().st_size
    assert size > 20 * 64 * 1024
    first = page.get(f"/api/live/{name}/inspect").json()
    meta = first["live"]
    assert meta["capture_bytes"] == size and not meta["ended"] and not meta["final"]
    assert 0 < meta["analysed_bytes"] <= 64 * 1024
    assert len(first["frames"]) == first["report"]["records"]["total"] < 8000
    assert first["report"]["status"] == "truncated"  # (of the first part: no end yet)
    again = page.get(f"/api/live/{name}/inspect?have={meta['version']}").json()
    # nothing new to send but its age and idle time, which move on while it streams
    moved = again["live"].pop("streaming")
    assert moved["idle_s"] >= meta.pop("streaming")["idle_s"] >= 0
    assert again == {"unchanged": True, "live": {**meta}}
    # it ends: the end line, then the proxy's index line with its verdict for the whole
    with path.open("ab") as fp:
        fp.write(b'\\n"}\n' + _chunk_line(_END, 9.1) + b'{"end": "eof", "t": 9.2}\n')
    index = {"name": name, "verdict": "completed", "records": 8002, "provider": "openai-chat"}
    (tmp_path / "index.jsonl").write_text(json.dumps(index) + "\n")
    last = page.get(f"/api/live/{name}/inspect?have={meta['version']}").json()
    assert last["live"]["ended"] and last["live"]["final"]
    assert last["live"]["whole"]["verdict"] == "completed"
    assert last["unchanged"]  # its first part was already analysed whole
    served = page.get(f"/api/live/{name}")
    assert served.content == path.read_bytes()  # whole lines, all of them now


def test_a_capture_in_flight_is_analysed_again_only_when_it_grew(
    page: TestClient, tmp_path: Path
) -> None:
    name = "20260101T000000.000002Z-0002-post-v1-chat-completions"
    path = tmp_path / f"{name}.ssecap"
    path.write_bytes(_header() + _chunk_line(_CHUNK, 0.1))
    v1 = page.get(f"/api/live/{name}/inspect").json()["live"]["version"]
    for _ in range(3):  # (the version counts the analyses made)
        same = page.get(f"/api/live/{name}/inspect?have={v1}").json()
        assert same["unchanged"] and same["live"]["version"] == v1
    elsewhere = page.get(f"/api/live/{name}/inspect").json()  # another page: all of it
    assert not elsewhere["unchanged"] and elsewhere["live"]["version"] == v1
    assert elsewhere["report"]["records"]["total"] == 1
    with path.open("ab") as fp:
        fp.write(_chunk_line(_END, 0.2) + b'{"end": "eof", "t": 0.3}\n')
    done = page.get(f"/api/live/{name}/inspect?have={v1}").json()
    assert not done["unchanged"] and done["live"]["final"] and done["live"]["version"] == v1 + 1
    assert done["report"]["status"] == "completed"


def test_a_long_answer_is_whole_json(page: TestClient, tmp_path: Path) -> None:
    # (its records are encoded a slice at a time, off the event loop)
    name = "20260101T000000.000004Z-0004-post-v1-chat-completions"
    lines = [_header()] + [_chunk_line(_CHUNK, i / 1000) for i in range(4500)]
    lines += [_chunk_line(_END, 4.6), b'{"end": "eof", "t": 4.7}\n']
    (tmp_path / f"{name}.ssecap").write_bytes(b"".join(lines))
    answer = page.get(f"/api/live/{name}/inspect").json()
    assert answer["report"]["status"] == "completed"
    assert [f["index"] for f in answer["frames"]] == list(range(4502))
    assert answer["live"]["final"] and answer["timeline"][0][0] == 0


def test_the_analysis_process_reports_a_bad_name_and_survives_being_killed(
    page: TestClient, tmp_path: Path
) -> None:
    name = "20260101T000000.000005Z-0005-post-v1-chat-completions"
    (tmp_path / f"{name}.ssecap").write_bytes(_header() + _chunk_line(_CHUNK, 0.1))
    bad = page.get(f"/api/live/{name}/inspect?provider=nope")
    assert bad.status_code == 400 and "nope" in bad.json()["error"]
    assert page.get(f"/api/live/{name}/inspect").status_code == 200
    child = live_module._ANALYST._proc
    assert child is not None and child.poll() is None
    child.kill()
    child.wait(5)
    again = page.get(f"/api/live/{name}/inspect?provider=openai-chat")  # (a new analysis)
    assert again.status_code == 200 and again.json()["report"]["provider"] == "openai-chat"
    assert live_module._ANALYST._proc is not child
    # the dead child's pipes were closed, not left to the collector (a ResourceWarning)
    assert child.stdin is not None and child.stdin.closed
    assert child.stdout is not None and child.stdout.closed


def test_the_list_reads_only_what_was_added_to_the_index(
    page: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = []
    for i in range(3000):
        name = f"20260101T000000.{i:06d}Z-{i:04d}-post-v1"
        (tmp_path / f"{name}.ssecap").write_bytes(_header())
        lines.append(json.dumps({"name": name, "verdict": "completed"}))
    (tmp_path / "index.jsonl").write_text("\n".join(lines) + "\n")
    first = page.get("/api/live").json()["exchanges"]
    assert len(first) == 500 and first[0]["name"].endswith("2999-post-v1")
    assert not any(e["live"] for e in first)
    parsed: list[bytes] = []
    scanned: list[str] = []
    real_loads, real_scandir = live_module.orjson.loads, os.scandir

    class CountingJson:
        JSONDecodeError = live_module.orjson.JSONDecodeError
        dumps = staticmethod(live_module.orjson.dumps)

        @staticmethod
        def loads(data: bytes) -> Any:
            parsed.append(data)
            return real_loads(data)

    monkeypatch.setattr(live_module, "orjson", CountingJson)

    def scandir(path: Any) -> Any:
        scanned.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr(live_module.os, "scandir", scandir)
    assert page.get("/api/live").json()["exchanges"] == first
    assert parsed == [] and scanned == []  # nothing new: nothing read, nothing scanned
    in_flight = "20260101T000001.000000Z-3000-post-v1"
    (tmp_path / f"{in_flight}.ssecap").write_bytes(_header() + _chunk_line(_CHUNK, 0.1))
    with (tmp_path / "index.jsonl").open("a") as fp:
        fp.write(json.dumps({"name": "20260101T000000.002999Z-2999-post-v1", "verdict": "x"}))
        fp.write("\n")
    now = page.get("/api/live").json()["exchanges"]
    assert now[0]["name"] == in_flight and now[0]["live"] is True
    assert now[1]["verdict"] == "x"
    assert len(scanned) == 1  # the folder changed: scanned once
    assert len([p for p in parsed if p.startswith(b'{"name"')]) == 1  # the one new line


@pytest.fixture
def slow_upstream() -> Iterator[ServerThread]:
    app = make_app(load_captures(LIVE), ReplayOptions(chunk="original", delay="20"), log=Null())
    with ServerThread(app) as running:
        yield running


@pytest.mark.network
def test_a_capture_that_cannot_be_read_at_once_never_stalls_the_proxy(
    slow_upstream: ServerThread, tmp_path: Path
) -> None:
    # a capture the Live view blocks on (a FIFO nobody writes to yet): the list, the
    # capture and its analysis wait in worker threads; the proxy's streams go on
    fifo = tmp_path / "20260101T000000.000000Z-0001-post-stuck.ssecap"
    os.mkfifo(fifo)
    with ProxyThread(slow_upstream.url, record=tmp_path, web=True) as proxy:
        assert proxy.web_url is not None
        waiting = [
            threading.Thread(target=httpx.get, args=(proxy.web_url + path,), kwargs={"timeout": 30})
            for path in ("/api/live", f"/api/live/{fifo.stem}", f"/api/live/{fifo.stem}/inspect")
        ]
        for thread in waiting:
            thread.start()
        try:
            r = httpx.post(proxy.url + "/anthropic/v1/messages", json={}, timeout=5)
            assert r.status_code == 200 and b"message_stop" in r.content
            page = httpx.get(proxy.web_url + "/", timeout=5)
            assert page.status_code == 200  # the page itself is served too
        finally:
            _release(fifo, waiting)


def _release(fifo: Path, waiting: list[threading.Thread]) -> None:
    """Let whoever waits to read the FIFO go (each gets a header line, then its end)."""
    deadline = time.monotonic() + 30
    while any(t.is_alive() for t in waiting) and time.monotonic() < deadline:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # nobody is opening it right now
            time.sleep(0.01)
            continue
        with os.fdopen(fd, "wb") as fp:
            fp.write(_header())
    for thread in waiting:
        thread.join(1)


@pytest.mark.browser
def test_the_page_says_what_part_of_a_large_exchange_it_shows(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setattr(live_module, "DETAIL_BYTES", 64 * 1024)
    name = "20260101T000000.000003Z-0003-post-v1-chat-completions"
    lines = [_header()] + [_chunk_line(_CHUNK, i / 1000) for i in range(3000)]
    lines += [_chunk_line(_END, 3.1), b'{"end": "eof", "t": 3.2}\n']
    (tmp_path / f"{name}.ssecap").write_bytes(b"".join(lines))
    index = {"name": name, "verdict": "completed", "records": 3002, "provider": "openai-chat"}
    (tmp_path / "index.jsonl").write_text(json.dumps(index) + "\n")
    with ServerThread(create_app(live_dir=tmp_path)) as server:
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        try:
            page = context.new_page()
            page.goto(server.url + "/")
            page.locator("[data-testid=live-item]").first.click()
            page.wait_for_selector("body[data-live-opened-state=finished]")
            page.wait_for_selector("body[data-state=ready]")
            note = page.get_by_test_id("live-detail")
            expect(note).to_be_visible()
            text = note.text_content() or ""
            assert re.search(
                r"This capture is 568.4 KiB: the view below shows its first 6\d.\d KiB \(\d+ records\)",
                text,
            )
            assert "The proxy's verdict for the whole exchange: completed (3,002 records" in text
            assert page.get_by_test_id("verdict-container").text_content() == "ssecap"
        finally:
            context.close()


def test_the_analysis_process_is_stopped_with_its_pipes_closed_at_exit() -> None:
    import subprocess
    import sys

    import ssescope

    script = (
        "from ssescope.web.analyst import Analyst\n"
        f"assert Analyst().run({str(LIVE / 'openai_chat.sse')!r}, 1 << 20, 'auto', 'auto')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(ssescope.__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-W", "always", "-c", script],
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"ResourceWarning" not in done.stderr, done.stderr

"""An upstream that repeats the key it refused: the client gets its answer untouched, and the
key reaches no capture, index line, Live view answer or terminal line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import httpx
import pytest
from rich.console import Console
from starlette.testclient import TestClient

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.proxy.display import LineWriter
from ssescope.serve.app import ServerThread
from ssescope.web import create_app

from .upstream import Scripted

pytestmark = pytest.mark.network

KEY = "sk-proj-echoed0123456789abcdef"


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        ("/echo-key", {"x-api-key": KEY}),
        ("/echo-key?gzip=1", {"authorization": f"Bearer {KEY}"}),
    ],
)
def test_an_echoed_key_is_scrubbed_everywhere_but_in_what_the_client_gets(
    scripted: tuple[ServerThread, Scripted], tmp_path: Path, path: str, headers: dict[str, str]
) -> None:
    upstream, _state = scripted
    with ProxyThread(upstream.url, record=tmp_path) as proxy:
        r = httpx.post(proxy.url + path, content=b"{}", headers=headers)
        proxy.flush()
        [ex] = proxy.registry.finished()
    assert r.status_code == 401 and KEY in r.json()["error"]["message"]  # untouched
    assert ex.verdict == "failed" and "http.secret-echoed" in ex.diagnostics
    for f in tmp_path.iterdir():
        assert KEY not in f.read_text(), f.name
    report = ssescope.inspect(ex.capture or "")
    assert report.status == "failed" and report.error is not None
    assert report.error["message"] == "Incorrect API key: [redacted]"
    page = TestClient(create_app(live_dir=tmp_path), base_url="http://127.0.0.1")
    listed = page.get("/api/live")
    assert listed.status_code == 200 and KEY not in listed.text
    served = page.get("/api/live/" + ex.name)
    assert served.status_code == 200 and "[redacted]" in served.text and KEY not in served.text
    console = Console(file=io.StringIO(), width=300)
    LineWriter(console=console)(ex)
    LineWriter(json=True, out=console.file)(ex)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert KEY not in shown and json.loads(shown.splitlines()[-1])["verdict"] == "failed"

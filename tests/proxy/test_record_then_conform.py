"""A proxy's record folder, judged by ``conform``: each recorded exchange, with its headers."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from ssescope.cli import main
from ssescope.conform import captures
from ssescope.proxy import ProxyThread
from ssescope.proxy import folder as record_folder
from ssescope.serve.app import ServerThread


def test_conform_judges_every_exchange_of_a_record_folder(
    replay: ServerThread, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "captures"
    paths = ["/openai_chat/v1/chat/completions", "/anthropic/v1/messages"]
    with ProxyThread(replay.url, record=folder) as proxy:
        for path in paths:
            assert httpx.post(proxy.url + path, json={"model": "m"}).status_code == 200
        proxy.flush()
    assert (folder / "index.jsonl").is_file()

    code = main(["conform", "--json", str(folder)])
    data = json.loads(capsys.readouterr().out)
    assert data["exchanges"] == 2  # the index is metadata, not an exchange
    checks = {c["id"]: c for c in data["checks"]}
    # the capture kept the response headers, so the header checks ran on both
    assert checks["http.content-type"]["verdict"] == "pass"
    assert checks["http.content-type"]["judged"] == 2
    assert checks["terminal.reached"]["judged"] == 2
    # a clean replay holds every MUST: exit 0
    assert (code, data["ok"], data["failed"]["MUST"]) == (0, True, 0)


def test_conform_skips_the_index_the_proxy_writes() -> None:
    assert captures.INDEX_NAME == record_folder.INDEX_NAME

"""A proxy's record folder, scanned: every exchange is a row with the verdict the proxy gave."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from ssescope.cli import main
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ServerThread

from .upstream import unreachable_upstream


def test_a_record_folder_given_as_a_relative_path_scans_from_anywhere(
    replay: ServerThread,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the proxy runs in one folder and records into a path relative to it ...
    work = tmp_path / "app"
    work.mkdir()
    monkeypatch.chdir(work)
    paths = ["/openai_chat/v1/chat/completions", "/anthropic/v1/messages"]
    with ProxyThread(replay.url, record=Path("captures")) as proxy:
        for path in paths:
            assert httpx.post(proxy.url + path, json={"model": "m"}).status_code == 200
        proxy.flush()
    # an upstream nobody answers on: no capture is written
    with ProxyThread(unreachable_upstream(), record=Path("captures")) as proxy:
        assert httpx.post(proxy.url + "/v1/chat/completions", json={}).status_code == 502
        proxy.flush()
    index = [
        json.loads(line) for line in (work / "captures" / "index.jsonl").read_text().splitlines()
    ]
    assert [line["path"] for line in index] == [*paths, "/v1/chat/completions"]
    assert index[0]["capture"].startswith("captures/")  # the path the proxy was given

    # ... and the scan runs elsewhere, on the folder's absolute path
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "rows.jsonl"
    code = main(["scan", str(work / "captures"), "--out", str(out), "--json", "--jobs", "1"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    judged = [r for r in rows if r["error"] is None]
    assert [r["source"] for r in judged] == [
        str(work / "captures" / Path(line["capture"]).name) for line in index[:2]
    ]
    assert [r["status"] for r in judged] == [line["verdict"] for line in index[:2]]
    assert [r["provider"] for r in judged] == ["openai-chat", "anthropic"]
    [unread] = [r for r in rows if r["error"] is not None]
    assert unread["source"].endswith("index.jsonl:3")
    assert "recorded none" in unread["error"] and "cannot reach" in unread["error"]
    assert summary["streams"] == 2 and summary["input_errors"] == 1

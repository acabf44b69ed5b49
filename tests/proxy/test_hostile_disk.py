"""A record folder that fills up under the proxy: forwarding goes on, the recording stops with
one line, and every exchange is still judged (from memory) and printed."""

from __future__ import annotations

import json
import resource
from pathlib import Path

import httpx
import pytest

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ServerThread

from .test_cli import _start
from .upstream import Scripted

pytestmark = pytest.mark.network

# eight exchanges; the third one's capture outgrows the files the proxy may write
SIZES = [10, 10, 400, 10, 10, 10, 10, 10]
FILE_LIMIT = 24 * 1024


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))


def test_a_file_size_limit_stops_the_recording_and_keeps_every_verdict(
    scripted: tuple[ServerThread, Scripted], tmp_path: Path
) -> None:
    upstream, _state = scripted
    proc, url = _start(
        "--upstream", upstream.url, "--record", str(tmp_path), "--json", limit=_limit_file_size
    )
    try:
        assert proc.stderr is not None and proc.stdout is not None
        proc.stderr.readline()  # "recording into …"
        lines = []
        for n in SIZES:
            r = httpx.post(f"{url}/chunks?n={n}", json={"model": "m", "stream": True})
            assert r.status_code == 200
            direct = ssescope.inspect(r.content)  # the client got the whole stream
            assert direct.status == "completed" and direct.records.total == n + 2
            lines.append(json.loads(proc.stdout.readline()))
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=10)
    assert [line["verdict"] for line in lines] == ["completed"] * len(SIZES)
    assert [line["records"] for line in lines] == [n + 2 for n in SIZES]
    stopped = [x for x in err.splitlines() if "recording stopped" in x]
    assert len(stopped) == 1, err
    assert "File too large" in stopped[0] and "still forwarded, judged and printed" in stopped[0]
    assert [line["unrecorded"] is None for line in lines] == [True, True] + [False] * 6
    assert all(line["capture"] is None for line in lines[2:])
    for line in lines[:2]:  # recorded before the disk filled: whole, and indexed
        assert ssescope.inspect(line["capture"]).status == "completed"
    index = [json.loads(x) for x in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert [x["name"] for x in index] == [line["name"] for line in lines[:2]]


def test_a_full_device_under_the_index_stops_the_recording_in_one_line(
    scripted: tuple[ServerThread, Scripted], tmp_path: Path
) -> None:
    upstream, _state = scripted
    (tmp_path / "index.jsonl").symlink_to("/dev/full")  # every write: ENOSPC
    with ProxyThread(upstream.url, record=tmp_path) as proxy:
        for _ in range(3):
            assert httpx.post(proxy.url + "/chunks?n=5").status_code == 200
        proxy.flush()
        finished = proxy.registry.finished()
    assert [ex.verdict for ex in finished] == ["completed"] * 3
    assert [ex.records for ex in finished] == [7] * 3
    [line] = proxy.recorder.errors
    assert "recording stopped" in line and "No space left on device" in line
    assert finished[0].capture is not None  # whole, only its index line was lost
    assert ssescope.inspect(finished[0].capture).status == "completed"
    assert all(ex.capture is None and ex.unrecorded for ex in finished[1:])

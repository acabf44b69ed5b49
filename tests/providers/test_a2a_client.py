"""a2a-sdk's streaming client against ``ssescope serve`` replaying a real A2A 1.0 recording
whole and cut, directly and through ``ssescope proxy``: the client ends quietly on the cut,
where ssescope (and the proxy's record of the same exchange) says ``truncated``.

The client runs in the interpreter of ``SSESCOPE_AGENT_CLIENTS`` (as for
``test_mcp_client.py``) through ``tests/rpc_clients.py``; the tests skip, saying so, when
that interpreter, its a2a-sdk package or the real recordings are absent.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from tests.agent_clients import CLIENTS, has_client, run_clients

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
RECORDING = STREAMS / "agent" / "a2a" / "local-v10-completed-artifact-chunks.sse"


pytestmark = [
    pytest.mark.network,
    pytest.mark.skipif(
        not has_client("a2a.client"),
        reason=f"no interpreter with the a2a-sdk package at {CLIENTS} (set SSESCOPE_AGENT_CLIENTS)",
    ),
    pytest.mark.skipif(
        not RECORDING.is_file(),
        reason=f"the real A2A recording is not at {RECORDING} (set SSESCOPE_REAL_STREAMS)",
    ),
]


def _bodies(folder: Path) -> dict[str, bytes]:
    whole = RECORDING.read_bytes()
    final = whole.rindex(b"data:")  # the final status-update, the recording's last event
    bodies = {"whole": whole, "cut": whole[:final]}
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in bodies.items():
        (folder / f"{name}.sse").write_bytes(body)
    return bodies


def _client(urls: list[str]) -> list[dict[str, Any]]:
    return run_clients({"protocol": "a2a", "version": "1.0", "timeout": 10, "urls": urls})


def test_the_client_ends_quietly_on_a_cut_that_ssescope_calls_truncated(tmp_path: Path) -> None:
    bodies = _bodies(tmp_path)
    app = make_app(load_captures(tmp_path), ReplayOptions(), log=io.StringIO())
    with ServerThread(app) as server:
        got = _client([f"{server.url}/{name}/a2a" for name in bodies])
    rows = dict(zip(bodies, got, strict=True))
    assert rows["whole"]["outcome"] == "returned"
    assert rows["whole"]["last_state"] == "TASK_STATE_COMPLETED"
    assert ssescope.inspect(bodies["whole"]).status == "completed"
    # the client yields what came and stops: nothing says the task never finished
    assert rows["cut"]["outcome"] == "returned"
    assert rows["cut"]["last_state"] == "TASK_STATE_WORKING"
    cut = ssescope.inspect(bodies["cut"])
    assert cut.status == "truncated"
    assert "a2a.missing-final" in [d.code for d in cut.diagnostics]


def test_through_the_proxy_the_client_sees_the_same_and_the_record_says_truncated(
    tmp_path: Path,
) -> None:
    bodies = _bodies(tmp_path / "served")
    app = make_app(load_captures(tmp_path / "served"), ReplayOptions(), log=io.StringIO())
    with (
        ServerThread(app) as server,
        ProxyThread(server.url, record=tmp_path / "captures") as proxy,
    ):
        got = _client([f"{proxy.url}/{name}/a2a" for name in bodies])
        proxy.flush()
    rows = dict(zip(bodies, got, strict=True))
    assert rows["whole"]["outcome"] == "returned"
    assert rows["whole"]["last_state"] == "TASK_STATE_COMPLETED"
    assert rows["cut"]["outcome"] == "returned"  # the client still notices nothing
    assert rows["cut"]["last_state"] == "TASK_STATE_WORKING"
    index = [
        json.loads(line)
        for line in (tmp_path / "captures" / "index.jsonl").read_text().splitlines()
    ]
    posts = [line for line in index if line.get("method", "POST") == "POST"]
    assert [line["verdict"] for line in posts] == ["completed", "truncated"]
    capture = tmp_path / "captures" / Path(str(posts[-1]["capture"])).name
    report = ssescope.inspect_all(capture.read_bytes())[0]
    assert report.provider == "a2a"
    assert report.task is not None and report.task.state == "working"
    assert "a2a.missing-final" in [d.code for d in report.diagnostics]

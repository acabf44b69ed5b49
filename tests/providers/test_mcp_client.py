"""The mcp SDK's Streamable HTTP client against ``ssescope serve``, directly and through
``ssescope proxy``: what the client saw beside what ssescope says of the same stream.

The client runs in an interpreter of its own (``SSESCOPE_AGENT_CLIENTS``, default
``/tmp/venv-agentclients/bin/python``; .ci/run makes it from
``tests/providers/agent-clients-requirements.txt``), through ``tests/rpc_clients.py``: it
sends one ``tools/call`` with id 1. The tests skip, saying so, when that interpreter or
its mcp package is absent.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.agent_clients import CLIENTS, has_client, run_clients

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

ROOT = Path(__file__).resolve().parents[2]


pytestmark = [
    pytest.mark.network,
    pytest.mark.skipif(
        not has_client("mcp"),
        reason=f"no interpreter with the mcp package at {CLIENTS} (set SSESCOPE_AGENT_CLIENTS)",
    ),
]

PROGRESS = (
    'event: message\r\ndata: {"method":"notifications/progress","params":{"progressToken":1,'
    '"progress":1,"total":2},"jsonrpc":"2.0"}\r\n\r\n'
)


def _result(rpc_id: int) -> str:
    msg = {"jsonrpc": "2.0", "id": rpc_id, "result": {"content": [{"type": "text", "text": "ok"}]}}
    return f"event: message\r\ndata: {json.dumps(msg)}\r\n\r\n"


BODIES = {
    "whole": PROGRESS + _result(1),
    "cut-after-progress": PROGRESS,
    "cut-inside-the-response": PROGRESS + _result(1)[:40],
    "answers-another-id": PROGRESS + _result(9),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("mcp")
    for name, body in BODIES.items():
        (folder / f"{name}.sse").write_bytes(body.encode())
    app = make_app(load_captures(folder), ReplayOptions(), log=io.StringIO())
    with ServerThread(app) as server:
        yield server.url


def _client(urls: list[str]) -> list[dict[str, Any]]:
    return run_clients({"protocol": "mcp", "timeout": 10, "urls": urls})


def test_the_client_through_serve_beside_ssescope(served: str) -> None:
    names = list(BODIES)
    rows = dict(zip(names, _client([f"{served}/{n}/mcp" for n in names]), strict=True))
    verdicts = {n: ssescope.inspect(BODIES[n].encode()).status for n in names}
    assert rows["whole"]["outcome"] == "returned"
    assert verdicts["whole"] == "completed"
    for cut in ("cut-after-progress", "cut-inside-the-response"):
        # mcp's transport answers a stream that ended without a response with an error
        assert rows[cut]["outcome"] == "error", rows[cut]
        assert rows[cut]["detail"] == "SSE stream ended without a response"
        assert verdicts[cut] == "truncated"
    # the transport gives a response to another id the request's id: it takes it
    assert rows["answers-another-id"]["outcome"] == "returned"


def test_the_client_through_the_proxy_and_the_requests_id(served: str, tmp_path: Path) -> None:
    names = list(BODIES)
    with ProxyThread(served, record=tmp_path / "captures") as proxy:
        rows = _client([f"{proxy.url}/{n}/mcp" for n in names])
        proxy.flush()
    assert [r["outcome"] for r in rows] == ["returned", "error", "error", "returned"]
    index = [
        json.loads(line)
        for line in (tmp_path / "captures" / "index.jsonl").read_text().splitlines()
    ]
    posts = [line for line in index if line.get("method", "POST") == "POST"]
    assert [line["verdict"] for line in posts] == [
        "completed",
        "truncated",
        "truncated",
        "truncated",  # the capture keeps the request: its id is 1, the response's 9
    ]
    capture = tmp_path / "captures" / Path(posts[-1]["capture"]).name
    report = ssescope.inspect_all(capture.read_bytes())[0]
    assert report.provider == "mcp"
    assert "mcp.unmatched-response" in [d.code for d in report.diagnostics]

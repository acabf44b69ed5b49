"""The proxy splits a WebSocket connection into responses by the container's rule
(:class:`~ssescope.containers.websocket.ResponseSplitter`): a Realtime server's turn
detection creates responses with no ``response.create``, and each of them is judged live
as ``ssescope inspect --json`` judges the recorded capture. The client's audio is not kept
in what the recorder judged.

The upstream replays a recorded connection: it sends each server message in turn and
waits for each client message; the client sends the recorded client messages and reads
the server's, so both sides can be compared message by message."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.sync.client import connect

from ssescope.aggregate.report import Report
from ssescope.containers.ws_forms import WSExchange, read_ws_exchange
from ssescope.proxy import ProxyThread
from ssescope.proxy.exchange import Exchange
from ssescope.serve.app import ServerThread

from ..cli.cli_helpers import run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VOICE = FIXTURES / "realtime" / "voice-barge-in.ssecap"
TOOLS = FIXTURES / "realtime" / "tool-call-then-text.ssecap"
RESPONSES = FIXTURES / "websocket" / "responses-ws-4-turns.ssecap"
CAPTURES = {"voice": VOICE, "tools": TOOLS, "responses": RESPONSES}


def _replayer(exchanges: dict[str, WSExchange]) -> Starlette:
    async def endpoint(ws: WebSocket) -> None:
        exchange = exchanges[ws.url.path.strip("/").split("/")[0]]
        await ws.accept()
        for msg in exchange.messages:
            if msg.direction == "send":
                await ws.receive()  # (the client sends the recorded one)
            elif msg.opcode == "text":
                await ws.send_text(msg.data.decode())
            else:
                await ws.send_bytes(msg.data)
            await asyncio.sleep(0)
        close = exchange.close
        if close is not None and not close.dropped:
            await ws.receive()  # the client's close (the recordings were closed by it)

    return Starlette(routes=[WebSocketRoute("/{path:path}", endpoint)])


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    exchanges = {}
    for name, path in CAPTURES.items():
        exchange = read_ws_exchange(path.read_bytes())
        assert exchange is not None
        exchanges[name] = exchange
    with ServerThread(_replayer(exchanges)) as running:
        yield running.url


def _through_proxy(
    upstream: str, name: str, tmp_path: Path
) -> tuple[Exchange, list[Report], list[str]]:
    """The recorded client's side of ``name`` through the proxy: the exchange, each
    response's live Report, and what the client received."""
    exchange = read_ws_exchange(CAPTURES[name].read_bytes())
    assert exchange is not None
    live: list[Report] = []
    got: list[str] = []
    with ProxyThread(upstream, record=tmp_path, on_report=lambda _ex, r: live.append(r)) as proxy:
        with connect(proxy.url.replace("http://", "ws://") + f"/{name}/v1/realtime") as ws:
            for msg in exchange.messages:
                if msg.direction == "send":
                    ws.send(msg.data.decode())
                else:
                    data = ws.recv(timeout=10)
                    got.append(data if isinstance(data, str) else data.decode())
            ws.close(1000)
        proxy.flush()
        (ex,) = proxy.registry.finished()
    expected = [m.data.decode() for m in exchange.messages if m.direction == "receive"]
    assert got == expected  # nothing lost or reordered
    return ex, live, got


def _inspected(capture: str | None) -> list[dict[str, Any]]:
    assert capture is not None
    result = run("inspect", capture, "--json")
    assert result.out, result.err
    out = json.loads(result.out)
    return out if isinstance(out, list) else [out]


def _said(report: dict[str, Any]) -> tuple[Any, ...]:
    websocket = report["source"]["websocket"]
    return (
        report["status"],
        report["status_reason"],
        [(o["text"], (o.get("audio") or {}).get("transcript")) for o in report["outputs"]],
        [c["arguments"] for o in report["outputs"] for c in o["tool_calls"]],
        report["records"]["total"],
        websocket["messages"],
        websocket["sent"],
        sorted({d["code"] for d in report["diagnostics"]}),
    )


@pytest.mark.parametrize(
    ("name", "statuses"),
    [
        ("voice", ["completed", "cancelled"]),  # the second: created by turn detection
        ("tools", ["completed", "completed"]),
        ("responses", ["completed"] * 4),
    ],
)
def test_the_live_verdict_of_each_response_is_what_inspect_says_of_the_capture(
    upstream: str, tmp_path: Path, name: str, statuses: list[str]
) -> None:
    ex, live, _ = _through_proxy(upstream, name, tmp_path)
    inspected = _inspected(ex.capture)
    assert [r["status"] for r in inspected] == statuses
    assert [_said(r.to_dict()) for r in live] == [_said(r) for r in inspected]
    assert ex.responses == len(inspected)
    index = [json.loads(line) for line in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert (index[-1]["responses"], index[-1]["verdict"]) == (len(inspected), ex.verdict)
    first_not_completed = next((s for s in statuses if s != "completed"), statuses[-1])
    assert ex.verdict == first_not_completed


def test_the_clients_audio_is_not_kept_in_what_the_recorder_judged(
    upstream: str, tmp_path: Path
) -> None:
    ex, live, _ = _through_proxy(upstream, "voice", tmp_path)
    sent = [m for r in live for m in r.to_dict()["source"]["websocket"]["sent"]]
    appends = [json.loads(m) for m in sent if "input_audio_buffer.append" in m]
    assert len(appends) == 3
    assert all(a["audio"].endswith("base64 characters, not kept)") for a in appends)
    # the capture keeps what was sent, as the client sent it
    lines = [json.loads(line) for line in Path(str(ex.capture)).read_text().splitlines()[1:]]
    recorded = [json.loads(line["data"]) for line in lines if line.get("dir") == "send"]
    assert [len(a["audio"]) for a in recorded if a["type"] == "input_audio_buffer.append"] == [
        len(json.loads(m.data)["audio"])
        for m in (read_ws_exchange(VOICE.read_bytes()) or WSExchange((), None)).messages
        if m.direction == "send"
    ]


def test_a_client_that_hangs_up_mid_response_is_judged_live_as_inspect_judges_it(
    upstream: str, tmp_path: Path
) -> None:
    live: list[Report] = []
    with ProxyThread(upstream, record=tmp_path, on_report=lambda _ex, r: live.append(r)) as proxy:
        with connect(proxy.url.replace("http://", "ws://") + "/voice/v1/realtime") as ws:
            ws.recv(timeout=10)  # session.created
            for _ in range(2):  # (the upstream waits for each recorded client message)
                ws.send(json.dumps({"type": "input_audio_buffer.append", "audio": "AAAA"}))
            for _ in range(8):  # into the first response, created by turn detection
                ws.recv(timeout=10)
            ws.close(4000, "user left")
        proxy.flush()
        (ex,) = proxy.registry.finished()
    assert (ex.closed_by, ex.close_code) == ("client", 4000)
    inspected = _inspected(ex.capture)
    assert [_said(r.to_dict()) for r in live] == [_said(r) for r in inspected]
    assert inspected[-1]["status"] == ex.verdict

"""Stalls hidden by keep-alives: content stops, only comments or pings arrive.

The real ``serve`` quirk ``heartbeat-only-stall@SECONDS`` sends half the stream, then only
``: keep-alive`` comments for SECONDS, then closes. A stall is ``--stall`` seconds without a
content record whatever else arrives: ``request`` gives up within that time plus half a
second and exits 7, and the Report says the stall was of kind ``content``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from tests.cli.cli_helpers import run

import ssescope
from ssescope.cli.request_cmd import request_command
from ssescope.serve.app import ServerThread
from ssescope.sources.httpx import aiter_events, iter_events

pytestmark = pytest.mark.network

QUIET = 4.0  # seconds of keep-alives the server sends after the last content
STALL = 1.0
HEARTBEAT = f"/anthropic/?quirk=heartbeat-only-stall@{QUIET:g}"


def _request(server: ServerThread, path: str, *args: str) -> tuple[int, dict[str, Any]]:
    """``ssescope request URL -d {} --json ARGS`` in this process: exit code and Report."""
    result = CliRunner().invoke(
        request_command, [server.url + path, "-d", "{}", "--json", *args], catch_exceptions=False
    )
    return result.exit_code, json.loads(result.stdout)


def _stalls(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in report["diagnostics"] if d["code"] == "timing.stall"]


def _assert_content_abort(report: dict[str, Any]) -> None:
    assert report["status"] == "truncated"
    assert report["status_reason"] == "the client gave up after 1 s without content (stall abort)"
    [stall] = _stalls(report)
    assert stall["form"] == "content-aborted"
    assert stall["args"]["kind"] == "content"
    assert stall["args"]["records"] >= 1  # keep-alives arrived while nothing else did
    timing = report["timing"]
    # the client gave up STALL seconds after the last content, not when the server closed
    assert STALL <= timing["max_content_idle_s"] <= STALL + 0.5
    assert timing["max_gap_s"] < STALL
    assert timing["total_s"] < QUIET


def test_request_gives_up_on_keep_alives_alone_and_exits_7(server: ServerThread) -> None:
    result = run(
        "request", server.url + HEARTBEAT, "-d", "{}", "--json", "--stall", f"{STALL:g}",
        process=True,
    )  # fmt: skip
    assert result.code == 7, result.err
    report = json.loads(result.out)
    _assert_content_abort(report)
    assert report["outputs"][0]["text"] == "Bonjour à tous"  # the half sent before the quiet


def test_without_a_stall_abort_the_report_still_shows_both_idle_times(
    server: ServerThread, tmp_path: Path
) -> None:
    saved = tmp_path / "heartbeat.ssecap"
    code, live = _request(server, HEARTBEAT, "--save", str(saved))
    assert code == 3  # the server closed without a terminal marker
    assert live["timing"]["max_content_idle_s"] >= QUIET - 0.5
    assert live["timing"]["max_gap_s"] < QUIET / 2
    # long for this stream's pace (content every few ms, then 4 s of keep-alives only)
    assert [s["form"] for s in _stalls(live)] == ["content-tail"]
    fixed = ssescope.TimingOptions(stall_s=10.0, stall_pace=None)
    assert _stalls(ssescope.inspect(saved, timing=fixed).to_dict()) == []  # a fixed 10 s
    # the saved capture, judged again with a fixed lower threshold: one content stall
    report = ssescope.inspect(saved, timing=ssescope.TimingOptions(stall_s=2.0)).to_dict()
    [stall] = _stalls(report)
    assert (stall["form"], stall["args"]["kind"]) == ("content-tail", "content")
    assert stall["args"]["records"] == 5  # the five keep-alive comments
    assert report["timing"]["max_content_idle_s"] == pytest.approx(
        live["timing"]["max_content_idle_s"], abs=0.01
    )


def test_the_sync_httpx_adapter_stops_on_a_content_stall(server: ServerThread) -> None:
    timeout = httpx.Timeout(10.0, read=STALL)
    with httpx.stream("POST", server.url + HEARTBEAT, content=b"{}", timeout=timeout) as r:
        live = iter_events(r, stall=STALL)
        report = live.run()
    assert live.stalled
    _assert_content_abort(report.to_dict())


def test_the_async_httpx_adapter_stops_on_a_content_stall(server: ServerThread) -> None:
    async def main() -> ssescope.Report:
        async with (
            httpx.AsyncClient() as client,
            client.stream("POST", server.url + HEARTBEAT, content=b"{}") as r,
        ):
            return await aiter_events(r, stall=STALL).run()

    _assert_content_abort(asyncio.run(main()).to_dict())


def test_the_aiohttp_adapter_stops_on_a_content_stall(server: ServerThread) -> None:
    import aiohttp

    from ssescope.sources.aiohttp import aiter_events as aiohttp_events

    async def main() -> ssescope.Report:
        async with (
            aiohttp.ClientSession() as session,
            session.post(server.url + HEARTBEAT, data=b"{}") as r,
        ):
            return await aiohttp_events(r, stall=STALL).run()

    _assert_content_abort(asyncio.run(main()).to_dict())


def test_content_arriving_within_the_threshold_is_not_a_stall(server: ServerThread) -> None:
    code, report = _request(server, "/anthropic/", "--stall", "2")
    assert code == 0
    assert _stalls(report) == []
    assert report["timing"]["max_content_idle_s"] < 2


def test_a_byte_stall_is_still_of_kind_bytes(server: ServerThread) -> None:
    code, report = _request(server, "/anthropic/?fault=stall@record:5:20", "--stall", "0.5")
    assert code == 7
    [stall] = _stalls(report)
    assert (stall["form"], stall["args"]["kind"]) == ("aborted", "bytes")

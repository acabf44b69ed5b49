"""A silence mid tool call, long for the stream's pace, is named through the proxy.

Content every few milliseconds, then 3 s without a byte in the middle of the arguments:
under the absolute 10 s threshold, but a stall for this stream (the floor, 2 s).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

import ssescope
from ssescope.cli import cli
from ssescope.proxy import ProxyThread
from ssescope.proxy.display import exchange_line
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

from .conftest import Null

pytestmark = pytest.mark.network

PAUSE = 3.0


def _chunk(delta: dict[str, object], finish: str | None = None) -> str:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    body = {"id": "c1", "object": "chat.completion.chunk", "model": "m", "choices": [choice]}
    return "data: " + json.dumps(body) + "\n\n"


def _stream() -> str:
    call = {"index": 0, "id": "call_1", "type": "function"}
    parts = [_chunk({"role": "assistant", "content": ""})]
    parts += [_chunk({"content": f"w{i} "}) for i in range(12)]
    parts.append(_chunk({"tool_calls": [{**call, "function": {"name": "f", "arguments": ""}}]}))
    parts.append(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"a": '}}]}))
    parts.append(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": "1}"}}]}))
    parts += [_chunk({}, "tool_calls"), "data: [DONE]\n\n"]
    return "".join(parts)


STALLED_RECORD = 15  # the last piece of the arguments


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    path = tmp_path_factory.mktemp("stream") / "tool.sse"
    path.write_text(_stream())
    options = ReplayOptions(chunk="original", delay="5")
    with ServerThread(make_app(load_captures(path), options, log=Null())) as running:
        yield running


def test_a_silence_mid_tool_call_is_a_stall_on_the_line_in_the_index_and_in_inspect(
    upstream: ServerThread, tmp_path: Path
) -> None:
    fault = f"?fault=stall@record:{STALLED_RECORD}:{PAUSE:g}"
    with ProxyThread(upstream.url, record=tmp_path) as proxy:
        r = httpx.post(proxy.url + "/tool/v1/chat/completions" + fault, json={}, timeout=30)
        assert r.status_code == 200
        proxy.flush()
        [ex] = proxy.registry.finished()
    [line] = [json.loads(t) for t in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert line["verdict"] == "completed"
    assert "timing.stall" in line["diagnostics"]
    assert " · idle 3.0 s mid tool call" in exchange_line(ex).plain
    report = ssescope.inspect(Path(str(line["capture"])))
    [stall] = [d for d in report.diagnostics if d.code == "timing.stall"]
    assert (stall.args or {})["kind"] == "bytes" and (stall.args or {})["stall_s"] == 2.0
    assert stall.record == STALLED_RECORD


def test_a_fixed_idle_threshold_holds_in_the_proxy_and_in_inspect(
    upstream: ServerThread, tmp_path: Path
) -> None:
    fault = f"?fault=stall@record:{STALLED_RECORD}:{PAUSE:g}"
    fixed = ssescope.TimingOptions(stall_s=5.0, stall_pace=None)
    with ProxyThread(upstream.url, record=tmp_path, timing=fixed) as proxy:
        httpx.post(proxy.url + "/tool/v1/chat/completions" + fault, json={}, timeout=30)
        proxy.flush()
    [line] = [json.loads(t) for t in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert line["verdict"] == "completed" and "timing.stall" not in line["diagnostics"]
    capture = str(line["capture"])
    for args, stalls in (([], 1), (["--idle-threshold", "5"], 0), (["--idle-threshold", "1"], 1)):
        result = CliRunner().invoke(cli, ["inspect", capture, "--json", *args])
        assert result.exit_code == 0, result.output
        found = [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "timing.stall"]
        assert len(found) == stalls, args

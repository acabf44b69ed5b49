"""The proxy's line names a silence: where it happened, and whether keep-alives hid it; a
client that hangs up says how long it had waited without data."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.proxy.display import exchange_line
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

pytestmark = pytest.mark.network

LIVE = Path(__file__).resolve().parents[1] / "fixtures" / "live"


def _chunk(delta: dict[str, object], finish: str | None = None) -> str:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    body = {"id": "c1", "object": "chat.completion.chunk", "model": "m", "choices": [choice]}
    return "data: " + json.dumps(body) + "\n\n"


def _call(args: str, first: bool = False) -> dict[str, object]:
    call: dict[str, object] = {"index": 0, "function": {"arguments": args}}
    if first:
        call.update(id="call_1", type="function", function={"name": "f", "arguments": args})
    return {"tool_calls": [call]}


TOOL = "".join(
    [
        _chunk({"role": "assistant", "content": None}),
        _chunk(_call('{"ci', first=True)),
        _chunk(_call('ty": "Par')),
        _chunk(_call('is"}')),
        _chunk({}, "tool_calls"),
        "data: [DONE]\n\n",
    ]
)


class _Null(io.StringIO):
    def write(self, text: str) -> int:
        return len(text)


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    folder = tmp_path_factory.mktemp("streams")
    (folder / "tool.sse").write_text(TOOL)
    for name in ("anthropic.sse",):
        (folder / name).write_bytes((LIVE / name).read_bytes())
    app = make_app(load_captures(folder), ReplayOptions(chunk="original", delay="10"), log=_Null())
    with ServerThread(app) as running:
        yield running


def test_a_silence_mid_tool_call_is_named_on_the_line(
    upstream: ServerThread, tmp_path: Path
) -> None:
    with ProxyThread(upstream.url, record=tmp_path) as proxy:
        httpx.post(proxy.url + "/tool/?fault=stall@record:2:2.5", timeout=10)
        proxy.flush()
        [ex] = proxy.registry.finished()
    line = exchange_line(ex).plain
    assert ex.verdict == "completed"
    assert "· idle 2.5 s mid tool call" in line, line
    # the index line (which the web page's Live list shows), the Report of the capture
    # and inspect's verdict line name it in the same words
    [index] = [json.loads(x) for x in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert (index["content_idle_after"], index["content_idle_note"]) == (
        "tool call",
        "idle 2.5 s mid tool call",
    )
    assert ssescope.inspect(tmp_path / index["capture"]).timing.max_content_idle_after == (
        "tool call"
    )


def test_keep_alives_that_hide_a_silence_are_named(upstream: ServerThread, tmp_path: Path) -> None:
    with ProxyThread(upstream.url, record=tmp_path) as proxy:
        httpx.post(proxy.url + "/anthropic/?quirk=heartbeat-only-stall@2.5", timeout=10)
        proxy.flush()
        [ex] = proxy.registry.finished()
    line = exchange_line(ex).plain
    assert "· keep-alives only for " in line, line
    quiet = float(line.split("keep-alives only for ")[1].split(" s")[0])
    assert quiet >= 2.2


def test_a_client_that_times_out_says_how_long_it_waited(
    upstream: ServerThread, tmp_path: Path
) -> None:
    with ProxyThread(upstream.url, record=tmp_path) as proxy:
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(proxy.url + "/tool/?fault=stall@record:2:3", timeout=1.0)
        proxy.flush(timeout=10)
        [ex] = proxy.registry.finished()
    assert ex.verdict == "cancelled"
    assert ex.status_reason is not None
    assert ex.status_reason.startswith("the client hung up after 1.")
    assert ex.status_reason.endswith(" s without data")
    [index] = [json.loads(x) for x in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert index["status_reason"] == ex.status_reason

"""The proxy's index and ``inspect`` of its capture give one idle figure for an exchange.

The client gives up on a stalled stream (its read timeout): the silence until it hung up
is in both figures, the index line's and the Report's of the capture.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

import ssescope
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ServerThread

pytestmark = pytest.mark.network

TIMEOUT = 1.0


def test_the_index_and_inspect_of_the_capture_give_the_same_idle_times(
    replay: ServerThread, tmp_path: Path
) -> None:
    url = "/openai_chat/v1/chat/completions?fault=stall@record:3:5"
    with ProxyThread(replay.url, record=tmp_path) as proxy:
        with (
            pytest.raises(httpx.ReadTimeout),
            httpx.stream("POST", proxy.url + url, json={}, timeout=TIMEOUT) as r,
        ):
            for _ in r.iter_raw():
                pass
        proxy.flush()
        [ex] = proxy.registry.finished()
    [line] = [json.loads(t) for t in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert line["verdict"] == "cancelled"
    assert line["status_reason"] == f"the client hung up after {TIMEOUT:.1f} s without data"
    report = ssescope.inspect(Path(str(line["capture"])))
    assert report.status == "cancelled"
    byte_idle, content_idle = report.timing.max_gap_s, report.timing.max_content_idle_s
    assert byte_idle is not None and content_idle is not None
    assert byte_idle >= TIMEOUT - 0.1 and content_idle >= byte_idle  # the wait for a byte
    assert line["byte_idle_max_s"] == pytest.approx(byte_idle, abs=1e-3)
    assert line["content_idle_max_s"] == pytest.approx(content_idle, abs=1e-3)
    assert ex.byte_idle_max_s == pytest.approx(byte_idle, abs=1e-6)

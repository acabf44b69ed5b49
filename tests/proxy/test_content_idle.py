"""The proxy shows content-idle time: keep-alives keep bytes flowing, not content.

``ssescope serve --quirk heartbeat-only-stall`` upstream, the real ``request`` (or httpx)
as the client, the proxy in between.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from rich.console import Console

from ssescope.cli.request_cmd import request_command
from ssescope.proxy import ProxyThread
from ssescope.proxy.display import LiveDisplay
from ssescope.serve.app import ServerThread

pytestmark = pytest.mark.network

QUIET = 3.0


def _index(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / "index.jsonl").read_text().splitlines()]


def test_the_live_view_and_the_index_show_the_silence_keep_alives_hide(
    replay: ServerThread, tmp_path: Path
) -> None:
    console = Console(record=True, width=160, force_terminal=False)
    url = f"/anthropic/?quirk=heartbeat-only-stall@{QUIET:g}"
    with ProxyThread(replay.url, record=tmp_path) as proxy:
        display = LiveDisplay(proxy.registry, console, header=proxy.url)
        with httpx.stream("POST", proxy.url + url, content=b"{}", timeout=10) as r:
            started = time.monotonic()
            seen = b""
            chunks = r.iter_raw()
            for chunk in chunks:
                seen += chunk
                if seen.count(b": keep-alive") >= 3:
                    break  # 1.8 s of keep-alives only (0.6 s apart)
            console.print(display.render())
            assert time.monotonic() - started < QUIET
            rest = b"".join(chunks)
        proxy.flush()
        [ex] = proxy.registry.finished()
    header, row = console.export_text().splitlines()[1:3]
    assert header.split()[-5:] == ["idle", "no", "content", "so", "far"]
    assert row.split()[0] == "STREAMING"  # in flight: no verdict, however quiet
    seconds = [cell for cell in row.split() if re.fullmatch(r"\d+\.\ds", cell)]
    idle, quiet = (float(cell.rstrip("s")) for cell in seconds[-2:])
    assert idle < 1.0  # a keep-alive came less than a second ago
    assert quiet >= 1.5  # but no content since before the first of them
    assert rest.count(b": keep-alive") == 2
    [line] = _index(tmp_path)
    assert line["verdict"] == "truncated"
    assert isinstance(line["byte_idle_max_s"], float) and line["byte_idle_max_s"] < 1.0
    assert isinstance(line["content_idle_max_s"], float)
    assert line["content_idle_max_s"] >= QUIET - 0.3
    assert ex.content_idle_max_s == line["content_idle_max_s"]


def test_request_through_the_proxy_gives_up_on_the_keep_alives_alone(
    replay: ServerThread, tmp_path: Path
) -> None:
    with ProxyThread(replay.url, record=tmp_path) as proxy:
        result = CliRunner().invoke(
            request_command,
            [
                proxy.url + f"/anthropic/?quirk=heartbeat-only-stall@{QUIET:g}",
                "-d",
                "{}",
                "--json",
                "--stall",
                "1",
            ],
            catch_exceptions=False,
        )
        proxy.flush()
    assert result.exit_code == 7
    report = json.loads(result.stdout)
    [stall] = [d for d in report["diagnostics"] if d["code"] == "timing.stall"]
    assert (stall["form"], stall["args"]["kind"]) == ("content-aborted", "content")
    assert report["timing"]["max_content_idle_s"] <= 1.5
    [line] = _index(tmp_path)
    assert line["end"] == "cancelled"  # the client hung up on the proxy

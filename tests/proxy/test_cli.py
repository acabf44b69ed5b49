"""``ssescope proxy`` as a user runs it: the address, one line per exchange, the index."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from ssescope.cli import main
from ssescope.serve.app import ServerThread

from ..cli.cli_helpers import ROOT, run

pytestmark = pytest.mark.network


def _start(
    *args: str, limit: Callable[[], None] | None = None
) -> tuple[subprocess.Popen[str], str]:
    """``ssescope proxy ARGS`` in its own process (``limit``: run in it before it starts,
    e.g. to lower a resource limit); its URL."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["PYTHONPATH"] = str(ROOT / "src")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", "proxy", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=limit,  # noqa: PLW1509 (no threads in the child yet)
    )
    assert proc.stderr is not None
    first = proc.stderr.readline()
    match = re.match(r"ssescope proxy: (http://127\.0\.0\.1:\d+) -> ", first)
    assert match, first
    return proc, match[1]


@pytest.fixture
def stop() -> Iterator[list[subprocess.Popen[str]]]:
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()  # waits, and closes the pipes


def test_json_lines_and_an_index_in_the_record_folder(
    replay: ServerThread, tmp_path: Path, stop: list[subprocess.Popen[str]]
) -> None:
    proc, url = _start("--upstream", replay.url, "--record", str(tmp_path), "--json")
    stop.append(proc)
    r = httpx.post(
        url + "/openai_chat/v1/chat/completions",
        json={"model": "gpt-4o-mini", "stream": True},
        headers={"authorization": "Bearer sk-cli-secret-000"},
    )
    assert r.status_code == 200
    assert proc.stdout is not None
    line = json.loads(proc.stdout.readline())
    assert line["method"] == "POST" and line["path"] == "/openai_chat/v1/chat/completions"
    assert line["status"] == 200 and line["provider"] == "openai-chat"
    assert line["verdict"] == "completed" and line["model"] == "gpt-4o-mini"
    assert line["records"] == 11 and line["bytes"] == len(r.content)
    assert Path(line["capture"]).parent == tmp_path
    proc.send_signal(signal.SIGINT)
    assert proc.wait(10) == 0
    index = (tmp_path / "index.jsonl").read_text().splitlines()
    assert [json.loads(x)["name"] for x in index] == [line["name"]]
    inspected = run("inspect", "--json", line["capture"])
    assert json.loads(inspected.out)["status"] == "completed"
    for f in tmp_path.iterdir():
        assert "sk-cli-secret" not in f.read_text()


def test_one_human_line_per_exchange(
    replay: ServerThread, tmp_path: Path, stop: list[subprocess.Popen[str]]
) -> None:
    proc, url = _start("--upstream", replay.url, "--route", f"/anthropic={replay.url}")
    stop.append(proc)
    httpx.post(url + "/anthropic/v1/messages?fault=cut@record:5", json={})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert re.match(
        r"\d\d:\d\d:\d\d POST /anthropic/v1/messages\?fault=cut@record:5 200 anthropic truncated "
        r"first-content \d+\.\d{3}s · 5 records · \d+ B$",
        line,
    ), line
    httpx.post(url + "/anthropic/v1/messages", json={})
    assert " anthropic completed " in proc.stdout.readline()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(10) == 0
    assert proc.stderr is not None
    said = proc.stderr.read().splitlines()
    assert said[-1] == "ssescope proxy: stopped after 2 exchanges: 1 completed, 1 truncated"


def test_bad_options_are_one_line_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["proxy", "--upstream", "ftp://example"]) == 2
    err = capsys.readouterr().err
    assert "is not an http(s) URL" in err and "Traceback" not in err
    assert main(["proxy", "--upstream", "http://127.0.0.1:1", "--route", "nope"]) == 2
    err = capsys.readouterr().err
    assert "PREFIX=URL" in err and len(err.strip().splitlines()) == 1


def test_a_non_loopback_host_is_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    # binding 0.0.0.0 on a port that is already taken: the warning comes first, then the error
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(
            ["proxy", "--upstream", "http://127.0.0.1:1", "--host", "0.0.0.0", "--port", str(port)]
        )
    err = capsys.readouterr().err
    assert "warning: serving on 0.0.0.0" in err
    assert code == 1 and "cannot listen" in err


def test_web_serves_the_page_and_its_live_view_from_the_same_process(
    replay: ServerThread, stop: list[subprocess.Popen[str]]
) -> None:
    proc, url = _start("--upstream", replay.url, "--web", "--web-port", "0", "--json")
    stop.append(proc)
    assert proc.stderr is not None
    lines = [proc.stderr.readline(), proc.stderr.readline()]
    folder = Path(re.search(r"recording into (\S+) \(removed on exit\)", lines[0])[1])  # type: ignore[index]
    web = re.search(r"web page: (http://127\.0\.0\.1:\d+)/", lines[1])[1]  # type: ignore[index]
    assert folder.is_dir()
    httpx.post(url + "/anthropic/v1/messages", json={"model": "claude"})
    assert proc.stdout is not None
    line = json.loads(proc.stdout.readline())
    listed = httpx.get(web + "/api/live").json()
    assert listed["dir"] == str(folder)
    assert [e["name"] for e in listed["exchanges"]] == [line["name"]]
    assert listed["exchanges"][0]["verdict"] == "completed"
    capture = httpx.get(web + "/api/live/" + line["name"])
    assert capture.status_code == 200 and capture.text.startswith('{"ssescope":"capture"')
    assert "<title>ssescope</title>" in httpx.get(web + "/").text
    proc.send_signal(signal.SIGINT)
    assert proc.wait(10) == 0
    assert not folder.exists()

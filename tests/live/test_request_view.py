"""``request`` on a terminal: one first-byte figure, lines that never glue, a stall verdict."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ssescope.cli.request_cmd import request_command
from ssescope.serve.app import ServerThread

pytestmark = pytest.mark.network

ROOT = Path(__file__).resolve().parents[2]
ANTHROPIC_TEXT = "Bonjour à tous 🎉."
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _on_a_terminal(url: str, *args: str) -> tuple[int, str]:
    """Run ``ssescope request`` with stdout and stderr on one pseudo-terminal."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "200"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", "request", url, *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    code = proc.wait(timeout=60)
    text = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return code, _ANSI.sub("", text)


def test_milestones_never_glue_onto_the_reply_and_it_is_printed_once(
    server: ServerThread,
) -> None:
    code, screen = _on_a_terminal(server.url + "/anthropic/", "-d", "{}")
    assert code == 0
    assert screen.count(ANTHROPIC_TEXT) == 1
    lines = screen.splitlines()
    milestones = [line for line in lines if " after " in line and "records" in line]
    assert [m.split(" after ")[0] for m in milestones] == [
        "first byte",
        "first event",
        "first content",
    ]
    assert ANTHROPIC_TEXT in lines  # the reply has its own line


def test_the_live_first_byte_is_the_reports_first_byte(server: ServerThread) -> None:
    code, screen = _on_a_terminal(server.url + "/anthropic/", "-d", "{}")
    assert code == 0
    live = re.search(r"^first byte after (\d+\.\d{3}) s", screen, re.M)
    final = re.search(r"timing: first byte (\d+\.\d{3})s", screen)
    assert live is not None and final is not None
    assert live.group(1) == final.group(1)


def _request(server: ServerThread, path: str, *args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(
        request_command, [server.url + path, "-d", "{}", "--json", *args], catch_exceptions=False
    )
    return result.exit_code, json.loads(result.stdout)


def test_a_stall_abort_says_the_client_gave_up(server: ServerThread) -> None:
    code, report = _request(server, "/anthropic/?fault=stall@record:5:20", "--stall", "0.3")
    assert code == 7
    assert report["status"] == "truncated"
    assert report["status_reason"] == "the client gave up after 0.3 s without data (stall abort)"


def test_fail_on_takes_the_same_levels_as_inspect(server: ServerThread) -> None:
    code, report = _request(server, "/anthropic/?fault=garble@record:5", "--fail-on", "error")
    assert any(d["severity"] == "error" for d in report["diagnostics"])
    assert code == 5
    code, _ = _request(server, "/anthropic/", "--fail-on", "warning,incomplete")
    assert code == 0
    bad = CliRunner().invoke(request_command, [server.url, "--fail-on", "never-ever"])
    assert bad.exit_code == 2

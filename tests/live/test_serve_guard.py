"""The replay server's Host check, headers, error answers, log and --host handling."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import ssescope.serve.app as serve_app
from ssescope.serve.app import SERVE_CSP, ReplayOptions, load_captures, make_app

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "live"


@pytest.fixture
def log() -> io.StringIO:
    return io.StringIO()


@pytest.fixture
def client(log: io.StringIO) -> TestClient:
    app = make_app(load_captures(FIXTURES), ReplayOptions(), log=log)
    return TestClient(app, base_url="http://127.0.0.1:8765", raise_server_exceptions=False)


def _name(client: TestClient) -> str:
    return sorted(load_captures(FIXTURES))[0]


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "LOCALHOST"])
def test_loopback_names_are_served_with_the_csp(client: TestClient, host: str) -> None:
    res = client.get(f"/{_name(client)}/v1", headers={"host": host})
    assert res.status_code == 200
    assert res.headers["content-security-policy"] == SERVE_CSP
    assert res.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8765", "127.0.0.1.evil"])
def test_a_rebound_host_name_is_refused_with_421_and_the_csp(client: TestClient, host: str) -> None:
    res = client.get(f"/{_name(client)}/v1", headers={"host": host})
    assert res.status_code == 421
    assert res.headers["content-security-policy"] == SERVE_CSP
    assert "only answers" in res.json()["error"]


def test_an_explicit_host_is_accepted_and_the_check_can_be_disabled() -> None:
    caps = load_captures(FIXTURES)
    name = sorted(caps)[0]
    app = make_app(caps, log=io.StringIO(), allowed_hosts=["10.0.0.5", "127.0.0.1"])
    client = TestClient(app, base_url="http://10.0.0.5:8765")
    assert client.get(f"/{name}/v1").status_code == 200
    open_app = make_app(caps, log=io.StringIO(), allowed_hosts=[])
    anywhere = TestClient(open_app, base_url="http://anything.example")
    assert anywhere.get(f"/{name}/v1").status_code == 200


def test_a_failure_is_a_500_with_the_csp(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(serve_app, "apply_faults", broken)
    res = client.get(f"/{_name(client)}/v1")
    assert res.status_code == 500
    assert res.headers["content-security-policy"] == SERVE_CSP


def test_the_log_shows_control_characters_visibly(client: TestClient, log: io.StringIO) -> None:
    client.get("/%1b]0;pwned%07%1b[2J/v1")
    text = log.getvalue()
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in text


def _cli(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "ssescope", *args]
    return subprocess.run(
        cmd, capture_output=True, text=True, env=env, timeout=timeout, check=False
    )


@pytest.mark.parametrize("command", ["serve", "web"])
def test_an_empty_host_is_a_usage_error_not_every_interface(command: str) -> None:
    args = [command, str(FIXTURES)] if command == "serve" else [command]
    result = _cli(*args, "--host", "", "--port", "0")
    assert result.returncode == 2, result.stderr
    assert "every interface" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_warns_for_an_address_other_than_loopback_names() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "ssescope", "serve", str(FIXTURES)]
    cmd += ["--host", "127.0.0.2", "--port", "0"]
    with subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    ) as proc:
        try:
            assert proc.stderr is not None and proc.stdout is not None
            first = proc.stderr.readline()
            url = proc.stdout.readline()
        finally:
            proc.terminate()
            proc.communicate(timeout=10)
    assert first.startswith("warning: serving on 127.0.0.2")
    assert "captures it serves" in first
    assert url.startswith("http://127.0.0.2:")


def test_allowed_hosts_for_each_host_option() -> None:
    from ssescope.cli.web_cmd import allowed_hosts

    assert allowed_hosts(None, "127.0.0.1") is None
    assert allowed_hosts("::1", "::1") is None
    assert allowed_hosts("0.0.0.0", "0.0.0.0") == ["0.0.0.0", "127.0.0.1", "localhost", "::1"]
    assert allowed_hosts(None, "127.0.0.1", ("box.internal",)) == [
        "127.0.0.1",
        "localhost",
        "::1",
        "box.internal",
    ]


def test_serve_answers_a_name_given_with_allow_host() -> None:
    import httpx

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "ssescope", "serve", str(FIXTURES), "--port", "0"]
    cmd += ["--allow-host", "box.internal"]
    with subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    ) as proc:
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip()
            name = sorted(load_captures(FIXTURES))[0]
            ok = httpx.get(f"{url}{name}/v1", headers={"host": "box.internal:80"}, timeout=30)
            refused = httpx.get(f"{url}{name}/v1", headers={"host": "evil.example"}, timeout=30)
        finally:
            proc.terminate()
            proc.communicate(timeout=10)
    assert ok.status_code == 200
    assert refused.status_code == 421

"""serve, web and proxy: different default ports; a busy port is one line and exit 1."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from tests.cli.cli_helpers import EXAMPLES, run

from ssescope.cli._listen import SERVE_PORT, WEB_PORT
from ssescope.cli.proxy_cmd import proxy_command


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port another socket is listening on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        yield sock.getsockname()[1]


def test_serve_and_web_default_to_different_ports() -> None:
    assert SERVE_PORT != WEB_PORT
    assert f"default: {SERVE_PORT}" in run("serve", "--help").out
    assert f"default: {WEB_PORT}" in run("web", "--help").out
    # the proxy's own page is served on the web page's port
    web_port = next(p for p in proxy_command.params if p.name == "web_port")
    assert web_port.default == WEB_PORT


@pytest.mark.network
@pytest.mark.parametrize(
    "command",
    [
        ["serve", str(EXAMPLES / "vercel-ui.sse")],
        ["web"],
        ["proxy", "--upstream", "http://127.0.0.1:9"],
    ],
    ids=["serve", "web", "proxy"],
)
def test_a_busy_port_is_one_line_and_exit_1(command: list[str], busy_port: int) -> None:
    result = run(*command, "--port", str(busy_port))
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("ssescope: error: cannot listen on 127.0.0.1:")
    assert "--port" in lines[0]

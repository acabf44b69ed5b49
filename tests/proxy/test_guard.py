"""Who may send requests through the proxy: the Host check and the Origin check of ``web``."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ssescope.cli import main
from ssescope.proxy import ProxyThread
from ssescope.serve.app import ServerThread

from .upstream import JSON_REPLY, Scripted

pytestmark = pytest.mark.network


@pytest.fixture
def proxy(scripted: tuple[ServerThread, Scripted], tmp_path: Path) -> Iterator[ProxyThread]:
    upstream, _state = scripted
    with ProxyThread(
        upstream.url,
        record=tmp_path,
        allow_hosts=("proxy.internal",),
        allow_origins=("http://localhost:3000",),
    ) as running:
        yield running


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"host": "evil.example"}, 421),
        ({"host": "evil.example:8766"}, 421),
        ({"host": ""}, 421),
        ({"origin": "https://evil.example"}, 403),
        ({"origin": "null"}, 403),
        ({"origin": "http://127.0.0.1:8770"}, 403),  # another port of this machine
        ({"sec-fetch-site": "cross-site"}, 403),
        ({"sec-fetch-site": "same-site", "sec-fetch-mode": "navigate"}, 403),
    ],
)
def test_a_rebinding_or_cross_site_request_is_refused_and_never_forwarded(
    proxy: ProxyThread,
    scripted: tuple[ServerThread, Scripted],
    tmp_path: Path,
    headers: dict[str, str],
    status: int,
) -> None:
    _upstream, state = scripted
    state.seen_headers.clear()
    r = httpx.post(proxy.url + "/echo", content=b"{}", headers=headers)
    assert r.status_code == status
    error = r.json()["error"]
    assert error["type"] == "proxy_error" and error["message"].startswith("ssescope proxy: refused")
    assert r.headers["content-security-policy"] == "default-src 'none'; sandbox"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert state.seen_headers == []  # the upstream never saw it
    proxy.flush()
    assert proxy.registry.finished() == []
    assert not (tmp_path / "index.jsonl").read_bytes()
    [(method, path, refused, why)] = proxy.refused
    assert (method, path, refused) == ("POST", "/echo", status)
    assert ("--allow-host" in why) == (status == 421)


@pytest.mark.parametrize(
    "headers",
    [
        {},  # an SDK, curl, a script
        {"host": "localhost"},
        {"host": "proxy.internal:8766"},  # --allow-host
        {"origin": "http://localhost:3000", "sec-fetch-site": "same-site"},  # --allow-origin
        {"sec-fetch-site": "none"},
    ],
)
def test_the_app_is_served_and_its_answer_gets_no_header_of_the_proxy(
    proxy: ProxyThread, headers: dict[str, str]
) -> None:
    r = httpx.post(proxy.url + "/json", content=b"{}", headers=headers)
    assert r.status_code == 200 and r.content == JSON_REPLY
    assert "content-security-policy" not in r.headers
    assert "x-frame-options" not in r.headers
    assert proxy.refused == []


def test_the_command_refuses_other_hosts_and_takes_allow_host(
    scripted: tuple[ServerThread, Scripted],
) -> None:
    from .test_cli import _start

    upstream, _state = scripted
    proc, url = _start("--upstream", upstream.url, "--allow-host", "proxy.internal", "--json")
    try:
        ok = httpx.post(url + "/json", content=b"{}", headers={"host": "proxy.internal"})
        assert ok.status_code == 200
        bad = httpx.post(url + "/json", content=b"{}", headers={"host": "evil.example"})
        assert bad.status_code == 421
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=10)
    assert "refused POST /json (421): the Host header names 'evil.example'" in err


def test_an_empty_host_is_a_usage_error_not_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    # (on a busy port, so that a proxy that took the empty address could not start either)
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(
            ["proxy", "--upstream", "http://127.0.0.1:1", "--host", "", "--port", str(port)]
        )
    err = capsys.readouterr().err
    assert code == 2
    assert "an empty address would listen on every interface" in err
    assert "warning" not in err

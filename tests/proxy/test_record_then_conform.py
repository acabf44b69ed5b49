"""A proxy's record folder, judged by ``conform``: each recorded exchange, with its headers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ssescope.cli import main
from ssescope.conform import captures, cases_for, run_checks
from ssescope.proxy import ProxyThread
from ssescope.proxy import folder as record_folder
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from tests.conform.replies import MODEL, write_chat_replies


def test_conform_judges_every_exchange_of_a_record_folder(
    replay: ServerThread, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "captures"
    paths = ["/openai_chat/v1/chat/completions", "/anthropic/v1/messages"]
    with ProxyThread(replay.url, record=folder) as proxy:
        for path in paths:
            assert httpx.post(proxy.url + path, json={"model": "m"}).status_code == 200
        proxy.flush()
    assert (folder / "index.jsonl").is_file()

    code = main(["conform", "--json", str(folder)])
    data = json.loads(capsys.readouterr().out)
    assert data["exchanges"] == 2  # the index is metadata, not an exchange
    checks = {c["id"]: c for c in data["checks"]}
    # the capture kept the response headers, so the header checks ran on both
    assert checks["http.content-type"]["verdict"] == "pass"
    assert checks["http.content-type"]["judged"] == 2
    assert checks["terminal.reached"]["judged"] == 2
    # a clean replay holds every MUST: exit 0
    assert (code, data["ok"], data["failed"]["MUST"]) == (0, True, 0)


def test_conform_skips_the_index_the_proxy_writes() -> None:
    assert captures.INDEX_NAME == record_folder.INDEX_NAME


@pytest.fixture(scope="module")
def conforming(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """``ssescope serve --by-request`` over a conforming server's answers to conform's set."""
    folder = write_chat_replies(tmp_path_factory.mktemp("replies"))
    options = ReplayOptions(delay="original", by_request=True)
    with ServerThread(make_app(load_captures(folder), options)) as running:
        yield running


def _bodies() -> dict[str, dict[str, Any]]:
    return {c.id: c.body for c in cases_for("openai-chat", MODEL)}


def _record(upstream: str, folder: Path, sent: list[tuple[str, dict[str, Any]]]) -> None:
    with ProxyThread(upstream, record=folder) as proxy:
        for path, body in sent:
            assert httpx.post(proxy.url + path, json=body, timeout=10).status_code == 200
        proxy.flush()


def test_the_requests_a_proxy_recorded_are_judged(conforming: ServerThread, tmp_path: Path) -> None:
    bodies = _bodies()
    sent = [("/v1/chat/completions", bodies[c]) for c in ("plain", "usage", "tool-forced", "n2")]
    _record(conforming.url, tmp_path, sent)

    result = run_checks(captures.exchanges_of([tmp_path]))
    assert result.exchanges == 4
    for check, judged in (
        ("request.usage-as-asked", 4),  # on in one request, off in the three others
        ("request.forced-tool-call", 1),
        ("request.n-choices", 1),
        ("request.no-unasked-call", 3),
    ):
        found = result.result(check)
        assert (found.verdict, found.judged) == ("pass", judged), check
    assert result.ok, [(r.check.id, r.evidence) for r in result.failed()]


def test_a_proxy_record_fails_the_checks_of_what_was_asked(
    conforming: ServerThread, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bodies = _bodies()
    # each request answered with the plain reply (serve's /NAME/ prefix): no call, one
    # choice; and the usage chunk sent to a request that did not ask for it
    sent = [
        ("/plain/v1/chat/completions", bodies["tool-forced"]),
        ("/plain/v1/chat/completions", bodies["n2"]),
        ("/usage/v1/chat/completions", bodies["plain"]),
    ]
    _record(conforming.url, tmp_path, sent)

    code = main(["conform", "--json", str(tmp_path)])
    data = json.loads(capsys.readouterr().out)
    checks = {c["id"]: c for c in data["checks"]}
    assert code == 5
    for check in ("request.forced-tool-call", "request.n-choices", "request.usage-as-asked"):
        assert checks[check]["verdict"] == "fail", check
        assert checks[check]["evidence"][0]["exchange"].endswith(".ssecap")

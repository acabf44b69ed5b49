"""conform's self-test: a conforming server passes; every ``serve`` fault and quirk preset
makes at least one named check fail.

The server is ``ssescope serve --by-request`` over :mod:`tests.conform.replies` (one
capture per request of the set, each with the answer a conforming server gives); a fault
or a quirk is added to each request with ``?fault=`` / ``?quirk=`` in the API base URL,
which conform keeps on every request. The tables below name, for every fault kind and
every preset of the registry, the check it must fail; a new fault or preset without an
entry fails :func:`test_every_fault_and_preset_is_named` (the WebSocket-only faults aside:
conform sends HTTP requests).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

import pytest

from ssescope.conform import PROTOCOLS, Case, Expectation, cases_for, run_checks
from ssescope.conform.live import Target, url_exchanges
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from ssescope.serve.faults import FAULT_KINDS, SOCKET_ONLY
from ssescope.serve.quirks import PRESETS
from tests.cli.cli_helpers import ROOT, STREAMS, run

from .replies import MODEL, write_chat_replies

FIXTURES = ROOT / "tests" / "fixtures"
STALL_S = 1.0

# fault spec -> (the cases sent, the check it must fail)
FAULTS: dict[str, tuple[tuple[str, ...], str]] = {
    "cut@record:3": (("plain",), "terminal.reached"),
    "stall@record:3:1.5": (("plain",), "timing.no-stall"),
    "drop-blank-lines": (("plain",), "sse.well-formed"),
    "crlf": (("plain",), "sse.lf-line-endings"),
    "cr": (("plain",), "sse.lf-line-endings"),
    "split-utf8": (("plain",), "chunks.whole-characters"),
    "garble@record:3": (("plain",), "json.valid"),
    "error@record:3": (("plain",), "request.answered"),
    "no-done": (("plain",), "terminal.done-marker"),
    "http-error:503": (("plain",), "request.answered"),
}

# quirk -> (protocol, a fixture served (or a path prefix naming one of the conforming
# replies, or None: the replies by request), cases, check)
QUIRKS: dict[str, tuple[str, str | None, tuple[str, ...], str]] = {
    "azure-empty-choices-first": ("openai-chat", None, ("plain",), "chat.choices-present"),
    # OpenAI's own include_usage chunk: wrong only where usage was not asked for (the
    # usage capture, named by its path prefix, answers the plain request)
    "usage-only-chunk": ("openai-chat", "/usage", ("plain",), "request.usage-as-asked"),
    "no-assistant-role": ("openai-chat", None, ("plain",), "chat.assistant-role"),
    "error-frame-then-done": ("openai-chat", None, ("plain",), "request.answered"),
    "anthropic-overloaded-midstream": (
        "anthropic",
        "anthropic/text-then-tool.sse",
        ("plain",),
        "request.answered",
    ),
    "finish-on-every-chunk": ("openai-chat", None, ("plain",), "chat.finish-once"),
    "heartbeat-only-stall@1.5": ("openai-chat", None, ("plain",), "timing.no-stall"),
    "keep-open-after-done@1.5": ("openai-chat", None, ("plain",), "timing.no-stall"),
    "proxy-buffered": ("openai-chat", None, ("plain",), "http.accel-buffering"),
    "gateway-timeout-524@0": ("openai-chat", None, ("plain",), "http.content-type"),
    "gzip-header-on-plain-body": ("openai-chat", None, ("plain",), "stream.not-empty"),
    "duplicate-tool-args": ("openai-chat", None, ("tool-forced",), "tools.arguments-parse"),
    "responses-missing-output-item-added": (
        "openai-responses",
        "openai_responses/function-calls-streamed.sse",
        ("plain",),
        "responses.sequence",
    ),
    "multi-line-data": ("openai-chat", None, ("plain",), "sse.one-data-line"),
    # agent protocols: a real stream ($SSESCOPE_REAL_STREAMS) replayed
    "run-finished-after-run-error": (
        "auto",
        "real:agent/ag-ui/dotnet-backend-tool-result-text.jsonl",
        (),
        "lifecycle.block-order",
    ),
    "ends-on-content-delta": (
        "auto",
        "real:agent/gemini-interactions/steps-thought-text.jsonl",
        (),
        "lifecycle.stopped",
    ),
    "final-status-missing": (
        "auto",
        "real:agent/a2a/local-v03-completed-artifact-chunks.sse",
        (),
        "terminal.reached",
    ),
    "response-never-comes": (
        "auto",
        "real:agent/mcp-streamable-http/local-tools-call-progress-log-result.sse",
        (),
        "terminal.reached",
    ),
}
_REPLAY = Case("replay", "a replay", "", {}, Expectation())


@pytest.fixture(scope="module")
def replies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_chat_replies(tmp_path_factory.mktemp("replies"))


@pytest.fixture(scope="module")
def server(replies: Path) -> Iterator[str]:
    options = ReplayOptions(delay="original", by_request=True)
    with ServerThread(make_app(load_captures(replies), options)) as running:
        yield running.url


def _failed(url: str, protocol: str, cases: tuple[str, ...]) -> dict[str, str]:
    """The checks that failed (id: severity); serve must not have refused the fault."""
    target = Target(url, protocol, timeout=10, stall_s=STALL_S)
    sent = cases_for(protocol, MODEL, cases) if protocol in PROTOCOLS else [_REPLAY]
    exchanges = list(url_exchanges(target, sent))
    if protocol not in PROTOCOLS:
        exchanges = [replace(e, protocol=None) for e in exchanges]
    refused = [e.name for e in exchanges if e.report.http_status == 400]
    assert not refused, f"serve refused the fault or quirk for {refused}"
    result = run_checks(exchanges)
    return {r.check.id: r.check.severity for r in result.failed()}


def test_every_fault_and_preset_is_named() -> None:
    # the WebSocket faults (a close frame, a dropped connection) have no HTTP stream to
    # break: conform speaks HTTP
    http_faults = set(FAULT_KINDS) - set(SOCKET_ONLY)
    assert {spec.split("@")[0].split(":")[0] for spec in FAULTS} == http_faults
    # likewise the presets of the Realtime protocol, which only exists over a WebSocket
    http_presets = {p.name for p in PRESETS if p.applies_to != ("realtime",)}
    assert {spec.split("@")[0] for spec in QUIRKS} == http_presets


def test_a_conforming_server_passes_every_check(server: str) -> None:
    result = run(
        "conform",
        server + "/v1",
        "--protocol",
        "openai-chat",
        "--model",
        MODEL,
        "--upstream",
        server,
        "--timeout",
        "10",
    )
    assert result.code == 0, result.out
    assert "0 MUST and 0 SHOULD failed" in result.out


@pytest.mark.parametrize("spec", list(FAULTS))
def test_every_fault_fails_its_named_check(server: str, spec: str) -> None:
    cases, wanted = FAULTS[spec]
    failed = _failed(f"{server}/v1?fault={quote(spec)}", "openai-chat", cases)
    assert wanted in failed, failed


@pytest.mark.parametrize("spec", list(QUIRKS))
def test_every_quirk_fails_its_named_check(server: str, spec: str) -> None:
    protocol, fixture, cases, wanted = QUIRKS[spec]
    query = f"?quirk={quote(spec)}"
    if fixture is None or fixture.startswith("/"):
        failed = _failed(f"{server}{fixture or ''}/v1{query}", protocol, cases)
    else:
        path = FIXTURES / fixture
        if fixture.startswith("real:"):
            path = STREAMS / fixture.removeprefix("real:")
            if not STREAMS.is_dir():
                pytest.skip(f"no real streams at {STREAMS} (set SSESCOPE_REAL_STREAMS)")
        with ServerThread(make_app(load_captures(path))) as other:
            failed = _failed(f"{other.url}/v1{query}", protocol, cases)
    assert wanted in failed, failed

"""A clean replay of every real stream passes every MUST check (but seven, on purpose).

Each stream of $SSESCOPE_REAL_STREAMS is served by ``ssescope serve`` as it was captured
and read back by URL mode's client, then judged (the checks on what a request asked for
are left out: a replay answers whatever was asked). Three streams fail a MUST, and the
checks are right about them (docs/conform.md, "Real streams"):

* two Anthropic SDK fixtures end without the blank line after their last event; a
  client that follows the SSE rules never dispatches that event (``message_stop``);
* ``spliced-message-start`` is a constructed regression fixture: a second
  ``message_start`` while the first message's tool call is still open;
* two agent streams really ended without their terminal: an A2A SDK stream that never got
  its ``canceled`` event after ``tasks/cancel``, and an MCP tool call still running when
  the client gave up;
* two AG-UI streams send ``RUN_FINISHED`` after ``RUN_ERROR``, which ends the run.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ssescope.conform import Case, Expectation, run_checks
from ssescope.conform.live import Target, url_exchanges
from ssescope.serve.app import ServerThread, load_captures, make_app
from tests.cli.cli_helpers import STREAMS

KNOWN_MUST_FAILURES: dict[str, set[str]] = {
    "anthropic/max-tokens-mid-tool-input.sse": {"sse.well-formed"},
    "anthropic/text-then-tool-use.sse": {"sse.well-formed"},
    "anthropic/spliced-message-start.jsonl": {"lifecycle.single-response", "tools.complete"},
    # streams that really ended without their terminal: the A2A SDK's stream that never
    # got its canceled event, and an MCP tool call still running when the client gave up
    "agent/a2a/local-v03-cancel-never-closes.sse": {"terminal.reached"},
    "agent/mcp-streamable-http/local-tools-call-cut-after-progress.sse": {"terminal.reached"},
    # RUN_FINISHED after RUN_ERROR: AG-UI's RUN_ERROR ends the run
    "agent/ag-ui/gemini-raw-tool-then-run-error.jsonl": {"lifecycle.block-order"},
    "agent/ag-ui/vercel-openai-run-error-then-finished.jsonl": {"lifecycle.block-order"},
}
_REPLAY = Case("replay", "a clean replay", "", {}, Expectation())


def _streams() -> list[str]:
    if not STREAMS.is_dir():
        return []
    return sorted(
        str(p.relative_to(STREAMS))
        for p in STREAMS.rglob("*")
        if p.is_file() and p.suffix not in (".md", ".json")
    )


STREAM_NAMES = _streams()


def test_the_real_streams_are_there() -> None:
    if not STREAMS.is_dir():
        pytest.skip(f"no real streams at {STREAMS} (set SSESCOPE_REAL_STREAMS)")
    assert set(KNOWN_MUST_FAILURES) <= set(STREAM_NAMES)


@pytest.mark.parametrize("name", STREAM_NAMES)
def test_a_clean_replay_passes_every_must(name: str) -> None:
    path: Path = STREAMS / name
    with ServerThread(make_app(load_captures(path))) as server:
        target = Target(server.url, "auto", timeout=10)
        exchanges = [replace(e, protocol=None) for e in url_exchanges(target, [_REPLAY])]
    result = run_checks(exchanges)
    failed = {r.check.id for r in result.failed("MUST") if not r.check.needs_case}
    assert failed == KNOWN_MUST_FAILURES.get(name, set()), [
        (r.check.id, [e.excerpt for e in r.evidence]) for r in result.failed("MUST")
    ]

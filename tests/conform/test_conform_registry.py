"""The conformance checks' registry: ids, severities, rules and sources."""

from __future__ import annotations

import re

import pytest

from ssescope.conform import CHECKS, Check, Exchange, Outcome
from ssescope.conform.registry import register

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*$")


def test_at_least_thirty_checks_with_unique_ids() -> None:
    ids = [c.id for c in CHECKS]
    assert len(ids) >= 30
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.id)
def test_every_check_is_described(check: Check) -> None:
    assert _ID.match(check.id), check.id
    assert check.severity in ("MUST", "SHOULD")
    assert check.source.startswith("https://")
    assert check.rule.endswith(".") and check.rule[0].isupper()
    assert check.title and not check.title.endswith(".")


def test_both_severities_are_used() -> None:
    assert {c.severity for c in CHECKS} == {"MUST", "SHOULD"}


def test_an_id_is_registered_once() -> None:
    again = Check(CHECKS[0].id, "MUST", "t", "R.", "https://x", lambda _e: Outcome("pass"))
    with pytest.raises(ValueError, match="registered twice"):
        register([again])


def test_the_issue_rules_are_among_the_checks() -> None:
    ids = {c.id for c in CHECKS}
    assert {
        "terminal.agrees-with-status",
        "tools.finish-reason",
        "tools.arguments-present",
        "tools.arguments-parse",
        "content.no-cumulative-deltas",
        "lifecycle.single-response",
        "usage.reported",
        "terminal.error-not-completed",
        "http.no-content-length",
        "http.accel-buffering",
        "http.cache-control",
        "http.content-type",
        "http.charset",
        "ids.stable",
        "timing.no-burst",
        "request.usage-as-asked",
        "hangup.upstream-closed",
    } <= ids


def test_exchange_headers_are_case_insensitive() -> None:
    from ssescope.aggregate.report import Report
    from ssescope.sourceinfo import SourceInfo

    info = SourceInfo(container="http", headers=(("Content-Type", "text/event-stream"),))
    exchange = Exchange("x", Report(), info)
    assert exchange.header("content-type") == "text/event-stream"
    assert exchange.header("content-length") is None
    assert exchange.has_headers

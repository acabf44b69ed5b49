"""``ssescope conform``'s check ``tool.arguments-match-schema`` on captures with requests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli.cli_helpers import run

ROOT = Path(__file__).resolve().parents[1] / "fixtures"
FIXTURES = ROOT / "toolschema"


def schema_check(*paths: Path) -> tuple[int, dict[str, Any]]:
    """The exit code, and the check's entry of ``conform --json PATHS``."""
    result = run("conform", "--json", *map(str, paths))
    data = json.loads(result.out)
    (entry,) = [c for c in data["checks"] if c["id"] == "tool.arguments-match-schema"]
    return result.code, entry


def test_a_call_that_breaks_its_schema_fails_the_check_with_its_evidence() -> None:
    code, entry = schema_check(FIXTURES / "chat-strict-mismatch.ssecap")
    assert entry["severity"] == "SHOULD"
    assert entry["verdict"] == "fail"
    assert code == 0  # a SHOULD: reported, the run still passes its MUSTs
    excerpts = [e["excerpt"] for e in entry["evidence"]]
    assert len(excerpts) == 2
    assert all(e.startswith("tool.schema-mismatch: ") for e in excerpts)
    assert {e["record"] for e in entry["evidence"]} == {3}
    assert entry["source"].startswith("https://platform.openai.com/docs/guides/function-calling")


def test_a_call_of_a_tool_not_offered_fails_it_too() -> None:
    _, entry = schema_check(FIXTURES / "responses-not-offered.ssecap")
    assert entry["verdict"] == "fail"
    assert entry["evidence"][0]["excerpt"].startswith("tool.not-offered: ")


def test_a_matching_call_passes() -> None:
    _, entry = schema_check(FIXTURES / "chat-matching.ssecap")
    assert (entry["verdict"], entry["judged"]) == ("pass", 1)


def test_a_capture_without_a_request_declaring_tools_skips_it() -> None:
    _, entry = schema_check(ROOT / "containers" / "interrupted.ssecap")
    assert entry["verdict"] == "skip"
    assert "no request declaring tools" in entry["reason"]

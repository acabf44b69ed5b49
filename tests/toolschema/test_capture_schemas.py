"""Captures that keep their request: each tool call is checked against its tool's schema,
through the command line (tests/fixtures/toolschema, written by its make_fixtures.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.cli_helpers import run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "toolschema"


def report(name: str, *args: str) -> tuple[int, dict[str, Any]]:
    """The exit code and Report of ``ssescope inspect --json ARGS`` on a fixture."""
    result = run("inspect", "--json", *args, str(FIXTURES / name))
    return result.code, json.loads(result.out)


def found(data: dict[str, Any], code: str) -> list[dict[str, Any]]:
    """The diagnostics of ``code``."""
    return [d for d in data["diagnostics"] if d["code"] == code]


def test_a_call_outside_the_enum_and_with_a_forbidden_property_gives_each_path_and_rule() -> None:
    code, data = report("chat-strict-mismatch.ssecap")
    assert code == 0  # a warning: the stream itself ended well
    by_rule = {d["args"]["rule"]: d for d in found(data, "tool.schema-mismatch")}
    assert sorted(by_rule) == ["additionalProperties", "enum"]
    enum = by_rule["enum"]
    assert enum["severity"] == "warning"
    assert enum["args"]["path"] == "$.unit"
    assert enum["args"]["schema_path"] == "#/properties/unit/enum"
    assert enum["args"]["where"] == "tools[0].function.parameters"
    assert "'kelvin' is not one of ['celsius', 'fahrenheit']" in enum["message"]
    assert "'country' was unexpected" in by_rule["additionalProperties"]["message"]
    # the schema says both rules itself: neither is strict mode's own
    assert all(d["args"]["strict"] == "" for d in by_rule.values())


def test_fail_on_warning_makes_a_mismatch_fail_the_run() -> None:
    code, _ = report("chat-strict-mismatch.ssecap", "--fail-on", "warning")
    assert code == 5


def test_strict_mode_holds_a_loose_schema_to_every_property_required_and_none_added() -> None:
    _, data = report("chat-strict-lenient-server.ssecap")
    mismatches = found(data, "tool.schema-mismatch")
    assert {(d["args"]["rule"], d["args"]["strict"]) for d in mismatches} == {
        ("additionalProperties", ", strict mode"),
        ("required", ", strict mode"),
    }
    required = next(d for d in mismatches if d["args"]["rule"] == "required")
    assert "'unit' is a required property" in required["message"]
    assert "strict mode" in required["message"]


def test_a_matching_call_gives_no_schema_finding() -> None:
    _, data = report("chat-matching.ssecap")
    assert data["outputs"][0]["tool_calls"][0]["input"] == {"city": "Paris", "unit": "celsius"}
    assert [d["code"] for d in data["diagnostics"] if d["code"].startswith("tool.")] == []


def test_a_cut_eager_call_is_checked_on_what_arrived_and_fine_grained_streaming_is_named() -> None:
    _, data = report("anthropic-eager-cut.ssecap")
    (call,) = data["outputs"][0]["tool_calls"]
    assert call["complete"] is False
    assert found(data, "tool.incomplete")
    (cut,) = found(data, "tool.schema-mismatch")
    assert cut["form"] == "cut"
    assert cut["args"]["path"] == "$.mode"
    assert cut["args"]["n_arguments"] == len(call["arguments"])
    assert "Only those partial arguments were checked" in cut["message"]
    # lines_of_text is still open and "required" may yet be met: neither is held against it
    assert all(d["args"]["rule"] != "required" for d in found(data, "tool.schema-mismatch"))
    (note,) = found(data, "tool.fine-grained-streaming")
    assert note["severity"] == "info"
    assert "eager_input_streaming" in note["message"]
    assert "invalid or partial JSON on purpose" in note["message"]


def test_a_call_of_a_tool_the_request_did_not_offer_is_reported() -> None:
    _, data = report("responses-not-offered.ssecap")
    (warning,) = found(data, "tool.not-offered")
    assert warning["args"]["name"] == "get_forecast"
    assert "'get_weather'" in warning["message"]
    assert found(data, "tool.schema-mismatch") == []


def test_gemini_s_openapi_schema_is_read_as_json_schema() -> None:
    _, data = report("gemini-openapi-mismatch.ssecap")
    (mismatch,) = found(data, "tool.schema-mismatch")
    assert mismatch["args"]["path"] == "$.days"
    assert mismatch["args"]["rule"] == "type"
    assert "'integer', 'null'" in mismatch["message"]  # nullable: true


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("chat-strict-mismatch.ssecap", "schema: $.unit: 'kelvin' is not one of"),
        ("anthropic-eager-cut.ssecap", "before the cut"),
        ("responses-not-offered.ssecap", "not offered: the request declares no tool"),
    ],
)
def test_the_human_view_shows_the_findings_in_the_tool_call_card(name: str, shown: str) -> None:
    result = run("inspect", "--pretty", "--no-color", "--only", "tools", str(FIXTURES / name))
    # the card's text, its lines unwrapped
    assert shown in " ".join(result.out.replace("│", " ").split())


def test_redact_hides_the_values_a_mismatch_quotes() -> None:
    _, data = report("chat-strict-mismatch.ssecap", "--redact")
    text = json.dumps(found(data, "tool.schema-mismatch"))
    assert "kelvin" not in text and "country" not in text
    assert "$.unit" in text  # the path and the rule stay

"""The Report's JSON Schema: shipped, printed by `ssescope schema`, followed by every Report."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from ssescope import inspect, inspect_all
from ssescope.cli import main
from ssescope.output.schema import report_schema, report_schema_text
from ssescope.providers.registry import PROVIDERS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "src" / "ssescope" / "examples"
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
FIXTURES = ROOT / "tests" / "fixtures"
INPUTS = sorted(
    p
    for folder in (EXAMPLES, STREAMS, FIXTURES, ROOT / "examples")
    if folder.is_dir()
    for p in folder.rglob("*")
    if p.is_file() and p.suffix not in (".py", ".md", ".json", ".pyc") and p.stat().st_size
)
VALIDATOR = jsonschema.Draft202012Validator(report_schema())
"""One validator for every test: ``jsonschema.validate`` checks the schema itself each call."""


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(report_schema())


def test_the_provider_names_the_schema_allows_are_the_registrys() -> None:
    assert report_schema()["properties"]["provider"] == {"enum": list(PROVIDERS)}
    assert json.loads(report_schema_text())["properties"]["provider"]["enum"] == list(PROVIDERS)


def test_ssescope_schema_prints_the_shipped_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    printed = capsys.readouterr().out
    assert printed == report_schema_text()
    assert json.loads(printed)["title"] == "ssescope Report"


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_every_bundled_example_fixture_and_real_stream_follows_the_schema(path: Path) -> None:
    for report in inspect_all(path):  # validated by the conftest hook as well
        VALIDATOR.validate(report.to_dict())


def test_a_report_that_breaks_the_contract_is_rejected() -> None:
    data = inspect(EXAMPLES / "openai-chat-tool-call.sse").to_dict()
    data["status"] = "stopped"
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(data)

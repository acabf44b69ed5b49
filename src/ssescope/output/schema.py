"""The JSON Schema of the Report (``ssescope inspect --json``), shipped with the package.

The schema describes the stable contract of :meth:`ssescope.Report.to_dict` (schema 1):
every key listed there, its type and its allowed values. More keys may be added to the
Report; the schema allows them. The allowed ``provider`` names are the provider
registry's, filled in when the schema is read, so a new provider needs no edit here.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ..providers.registry import PROVIDERS

__all__ = ["report_schema", "report_schema_text"]

_NAME = "report.schema.json"


def report_schema() -> dict[str, Any]:
    """The Report's JSON Schema (draft 2020-12), parsed, with the registry's providers."""
    text = resources.files("ssescope").joinpath(_NAME).read_text(encoding="utf-8")
    value: dict[str, Any] = json.loads(text)
    value["properties"]["provider"] = {"enum": list(PROVIDERS)}
    return value


def report_schema_text() -> str:
    """The Report's JSON Schema (draft 2020-12) as text (what ``ssescope schema`` prints)."""
    return json.dumps(report_schema(), indent=2, ensure_ascii=False) + "\n"

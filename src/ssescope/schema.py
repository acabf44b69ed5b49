"""The JSON Schema of the Report (``ssescope inspect --json``), shipped with the package.

The schema describes the stable contract of :meth:`ssescope.Report.to_dict` (schema 1):
every key listed there, its type and its allowed values. More keys may be added to the
Report; the schema allows them.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["report_schema", "report_schema_text"]

_NAME = "report.schema.json"


def report_schema_text() -> str:
    """The Report's JSON Schema (draft 2020-12), as the text shipped in the package."""
    return resources.files("ssescope").joinpath(_NAME).read_text(encoding="utf-8")


def report_schema() -> dict[str, Any]:
    """The Report's JSON Schema (draft 2020-12), parsed."""
    value: dict[str, Any] = json.loads(report_schema_text())
    return value

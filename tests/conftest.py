"""Plugins and checks for the whole suite.

The diagnostic registry's coverage check always runs. The ssescope pytest plugin is loaded
from this tree when no installed copy declares it: an install with the ``pytest`` or
``test`` extra registers it through its ``pytest11`` entry point, a copy installed before
the entry point existed does not. Every Report a test builds is checked against the
published JSON Schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import entry_points
from typing import Any

import pytest

from ssescope.aggregate.report import Report
from ssescope.schema import report_schema

pytest_plugins = ["tests.diagnostic_coverage"]
if not any(ep.value == "ssescope.testing.plugin" for ep in entry_points(group="pytest11")):
    pytest_plugins.append("ssescope.testing.plugin")


@pytest.fixture(autouse=True, scope="session")
def reports_follow_the_schema() -> Iterator[None]:
    """Wrap ``Report.to_dict`` so that every JSON form produced in-process is validated."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(report_schema())
    original = Report.to_dict

    def checked(self: Report) -> dict[str, Any]:
        data = original(self)
        errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
        if errors:
            where = "/".join(str(p) for p in errors[0].path)
            raise AssertionError(f"Report does not follow the schema at {where!r}: {errors[0]}")
        return data

    Report.to_dict = checked  # type: ignore[method-assign]
    yield
    Report.to_dict = original  # type: ignore[method-assign]

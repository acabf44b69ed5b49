"""Plugins and checks for the whole suite.

The diagnostic registry's coverage check always runs. The ssescope pytest plugin is loaded
from this tree when no installed copy declares it: an install with the ``pytest`` or
``test`` extra registers it through its ``pytest11`` entry point, a copy installed before
the entry point existed does not. Every Report a test builds is checked against the
published JSON Schema.

Under pytest-xdist (the README's ``-n auto --dist loadgroup``), the tests that start a
heavy process share one worker: every test that drives Chromium, and every test that uses
the local Ray, so that two workers never each start one. The groups go by path (the
xdist controller sees node ids only); collection fails when a test using such a fixture
sits outside its group.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import entry_points
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

from ssescope.aggregate.report import Report
from ssescope.schema import report_schema

pytest_plugins = ["tests.diagnostic_coverage"]
if not any(ep.value == "ssescope.testing.plugin" for ep in entry_points(group="pytest11")):
    pytest_plugins.append("ssescope.testing.plugin")


WORKER_GROUPS: dict[str, tuple[str, ...]] = {
    "chromium": ("tests/web/", "tests/scan/test_scan_html.py"),
    "ray": ("tests/scan/test_scan_ray.py",),
}
"""Tests that start a heavy process, by where they are: each group runs on one worker."""
_HEAVY_FIXTURES = {"browser": "chromium", "ray_local": "ray"}


def worker_group(nodeid: str) -> str | None:
    """The group of a test (by its node id), or None for a test any worker may run."""
    for group, prefixes in WORKER_GROUPS.items():
        if nodeid.startswith(prefixes):
            return group
    return None


class _GroupScheduling(LoadScopeScheduling):
    """``--dist loadgroup`` by :data:`WORKER_GROUPS`: a group is one unit of work, every
    other test is a unit of its own. (The controller sees node ids only, not markers.)"""

    def _split_scope(self, nodeid: str) -> str:
        return worker_group(nodeid) or nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The scheduler of ``--dist loadgroup`` (the README's test command)."""
    if config.getvalue("dist") == "loadgroup":
        return _GroupScheduling(config, log)
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that uses a heavy fixture must sit where its group is."""
    astray = [
        f"{item.nodeid} uses {fixture} but is not in the {group!r} group (WORKER_GROUPS)"
        for item in items
        for fixture, group in _HEAVY_FIXTURES.items()
        if fixture in getattr(item, "fixturenames", ())
        and worker_group(item.nodeid.rsplit("@", 1)[0]) != group
    ]
    if astray:
        raise pytest.UsageError("\n".join(astray))


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

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
sits outside its group. Each group's tests run one after the other (collection puts them
together, xdist sends a group as one unit), and its heavy process is started once, by the
first test that needs it, and stopped after the group's last test (tests/shared.py).

Tests marked ``slow`` (the heavy groups, property tests, subprocess suites: tests/slow.py)
are left out of the everyday loop, ``pytest -m "not slow"``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

from ssescope.aggregate.report import Report
from ssescope.output.schema import report_schema
from tests.browser import SHARED as CHROMIUM
from tests.shared import close_group
from tests.slow import deselects_slow, is_slow, relative_path, slow_module, unknown_slow_tests

pytest_plugins = ["tests.diagnostic_coverage"]
if not any(ep.value == "ssescope.testing.plugin" for ep in entry_points(group="pytest11")):
    pytest_plugins.append("ssescope.testing.plugin")


WORKER_GROUPS: dict[str, tuple[str, ...]] = {
    "chromium": ("tests/web/", "tests/scan/test_scan_html.py"),
    "ray": ("tests/scan/test_scan_ray.py",),
}
"""Tests that start a heavy process, by where they are: each group runs on one worker."""
_HEAVY_FIXTURES = {"browser": "chromium", "ray_local": "ray"}
_GROUP_PATHS = tuple(p for prefixes in WORKER_GROUPS.values() for p in prefixes)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With the slow tests deselected, a module or folder of slow tests only is not
    imported at all (tests/slow.py)."""
    relative = relative_path(collection_path, config.rootpath)
    if relative and deselects_slow(config) and slow_module(relative, _GROUP_PATHS):
        return True
    return None


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


WORKERS_PER_CPU = 2
"""``-n auto``'s workers per usable CPU. Much of the suite waits rather than computes (on
the servers it starts, on stall and time-out timers, on subprocesses and the browser), so
a second worker per CPU fills those waits: on 2 cores the whole suite took 193 s with 2
workers and 164 s with 4 (docs/performance.md, "The test suite")."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many workers ``-n auto`` starts (the README's command and CI's)."""
    affinity = getattr(os, "sched_getaffinity", None)  # (Linux; elsewhere every CPU)
    cpus = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    return WORKERS_PER_CPU * cpus


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The scheduler of ``--dist loadgroup`` (the README's test command)."""
    if config.getvalue("dist") == "loadgroup":
        return _GroupScheduling(config, log)
    return None


def _group(item: pytest.Item | None) -> str | None:
    return None if item is None else worker_group(item.nodeid.rsplit("@", 1)[0])


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the markers added here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that uses a heavy fixture must sit where its group is; a group's tests run
    one after the other, where its first test was collected; slow tests are marked so."""
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        group = _group(item)
        if group is not None:
            first.setdefault(group, index)
        if is_slow(item, _GROUP_PATHS):
            item.add_marker(pytest.mark.slow)
    order = {id(item): first.get(_group(item) or "", index) for index, item in enumerate(items)}
    items.sort(key=lambda item: order[id(item)])
    astray = [
        f"{item.nodeid} uses {fixture} but is not in the {group!r} group (WORKER_GROUPS)"
        for item in items
        for fixture, group in _HEAVY_FIXTURES.items()
        if fixture in getattr(item, "fixturenames", ())
        and worker_group(item.nodeid.rsplit("@", 1)[0]) != group
    ]
    astray += [f"{name} is in SLOW_TESTS but names no test" for name in unknown_slow_tests(items)]
    if astray:
        raise pytest.UsageError("\n".join(astray))


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Stop a group's heavy processes once its last test is torn down."""
    group = _group(item)
    if group is not None and _group(nextitem) != group:
        close_group(group)


def pytest_sessionfinish() -> None:
    """Stop whatever a test run cut short left running."""
    close_group(None)


@pytest.fixture
def browser() -> Any:
    """The Chromium shared by the tests of the ``chromium`` group (tests/browser.py)."""
    return CHROMIUM.get()


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

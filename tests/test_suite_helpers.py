"""The suite's own machinery: which tests are slow, and the resources a group shares."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import WORKER_GROUPS
from tests.shared import GroupResource, close_group
from tests.slow import SLOW_TESTS, deselects_slow, slow_module

PREFIXES = tuple(p for prefixes in WORKER_GROUPS.values() for p in prefixes)


def _config(markexpr: str) -> Any:
    return SimpleNamespace(getoption=lambda name, default=None: markexpr)


@pytest.mark.parametrize(
    ("markexpr", "deselects"),
    [
        ("not slow", True),
        ("not slow and network", True),
        ("network and not slow", True),
        ("", False),
        ("slow", False),
        ("network", False),
        ("slow and browser", False),
        ("not network", False),
        ("not (slow or browser)", True),
        ("browser or not slow", False),
    ],
)
def test_the_slow_modules_are_skipped_only_when_no_slow_test_can_be_selected(
    markexpr: str, deselects: bool
) -> None:
    assert deselects_slow(_config(markexpr)) is deselects


@pytest.mark.parametrize(
    ("path", "slow"),
    [
        ("tests/web", True),
        ("tests/web/test_page.py", True),
        ("tests/scan/test_scan_ray.py", True),
        ("tests/scan/test_scan_html.py", True),
        ("tests/scan", False),
        ("tests/webx/test_x.py", False),
        ("tests/testing/test_docs.py", True),
        ("tests/cli/test_usage.py", False),
    ],
)
def test_a_module_is_slow_when_named_whole_or_in_a_heavy_group(path: str, slow: bool) -> None:
    assert slow_module(path, PREFIXES) is slow


def test_every_slow_name_is_a_module_or_a_test_of_one() -> None:
    for name in SLOW_TESTS:
        module = name.split("::", 1)[0]
        assert module.startswith("tests/") and module.endswith(".py"), name


def test_a_group_resource_is_opened_once_and_again_after_its_group_closed() -> None:
    events: list[str] = []

    @contextmanager
    def opener() -> Iterator[str]:
        events.append("open")
        yield "resource"
        events.append("close")

    resource = GroupResource("suite-helpers-test", opener)
    assert resource.get() == "resource" and resource.get() == "resource"
    assert events == ["open"] and resource.opened == 1
    close_group("suite-helpers-test")
    assert events == ["open", "close"]
    close_group("suite-helpers-test")  # closing a closed group does nothing
    assert resource.get() == "resource" and resource.opened == 2
    resource.close()
    assert events == ["open", "close", "open", "close"]

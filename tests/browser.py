"""Debian's chromium driven by Playwright, for the page tests (the web debugger, scan's
HTML report). No browser is downloaded: the README's test command and ``.ci/run`` install
Debian's package. One Chromium serves every test of the ``chromium`` group
(:data:`SHARED`, the ``browser`` fixture of ``tests/conftest.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.shared import GroupResource

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium() -> Iterator[Any]:
    """A launched headless Chromium; closed (with Playwright's event loop) on exit.

    Playwright's synchronous API keeps an event loop running in this thread while it is
    open, so a fixture holding it must end before the asyncio tests of another folder run.
    """
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is not installed: apt-get install -y chromium (see README)")
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


SHARED: GroupResource[Any] = GroupResource("chromium", chromium)
"""The one Chromium of the page tests: launched by the first, closed after the last."""

"""A loopback replay server over the live fixtures, and a list that collects Reports."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import ssescope
from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "live"


class Null:
    """A log that keeps nothing."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    """``ssescope serve`` over the live fixtures, one chunk per record, 5 ms apart."""
    app = make_app(load_captures(FIXTURES), ReplayOptions(chunk="original", delay="5"), log=Null())
    with ServerThread(app) as running:
        yield running


@pytest.fixture
def reports() -> list[ssescope.Report]:
    """Where the transport's ``on_report`` puts each Report."""
    return []

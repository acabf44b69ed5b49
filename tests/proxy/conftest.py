"""Fixtures for the proxy tests: loopback upstreams (the replay server and a scripted one)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

from .upstream import Scripted, scripted_app

LIVE = Path(__file__).resolve().parent.parent / "fixtures" / "live"


class Null(io.StringIO):
    """A log that keeps nothing."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


@pytest.fixture(scope="module")
def replay() -> Iterator[ServerThread]:
    """``ssescope serve`` over the live fixtures, 20 ms between records."""
    app = make_app(load_captures(LIVE), ReplayOptions(chunk="original", delay="20"), log=Null())
    with ServerThread(app) as running:
        yield running


@pytest.fixture(scope="module")
def scripted() -> Iterator[tuple[ServerThread, Scripted]]:
    """An upstream with one endpoint per situation the replay server cannot make."""
    state = Scripted()
    with ServerThread(scripted_app(state)) as running:
        yield running, state

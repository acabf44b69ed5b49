"""Shared fixtures for the live tests: capture files and a loopback replay server."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "live"


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    """A replay server over every live fixture, on a free loopback port."""
    app = make_app(load_captures(FIXTURES), ReplayOptions(chunk="original"), log=_Null())
    with ServerThread(app) as running:
        yield running


class _Null(io.StringIO):
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

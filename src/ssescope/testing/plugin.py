"""The pytest plugin (entry point ``pytest11``): the ``ssescope_server``,
``ssescope_ws_server`` and ``ssescope_chunking`` fixtures and the ``ssescope_chunkings``
marker."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .chunking import CHUNKINGS
from .server import SSEScopeServer
from .ws_served import WebSocketServer

__all__ = ["pytest_configure", "pytest_generate_tests", "ssescope_server", "ssescope_ws_server"]


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``ssescope_chunkings`` marker."""
    config.addinivalue_line(
        "markers",
        "ssescope_chunkings(*names): the chunkings the ssescope_chunking fixture runs the "
        "test under (default: ssescope.testing.CHUNKINGS)",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run a test that asks for ``ssescope_chunking`` once per chunking."""
    if "ssescope_chunking" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("ssescope_chunkings")
    names = [str(a) for a in marker.args] if marker is not None and marker.args else CHUNKINGS
    metafunc.parametrize("ssescope_chunking", list(names), ids=list(names))


@pytest.fixture(scope="session")
def ssescope_server() -> Iterator[SSEScopeServer]:
    """A replay server on 127.0.0.1, started once per session and stopped at its end."""
    with SSEScopeServer() as server:
        yield server


@pytest.fixture
def ssescope_ws_server(ssescope_server: SSEScopeServer) -> WebSocketServer:
    """The session's replay server seen from one test: WebSocket URLs to serve captures
    at, and afterwards the Report of each response the test's clients were sent."""
    return WebSocketServer(ssescope_server)

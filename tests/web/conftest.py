"""Fixtures for the web page tests: the app, a live server on a free port, a page (in the
shared Chromium: the ``browser`` fixture of ``tests/conftest.py``)."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "web"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def examples_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled examples plus the page's own test streams, in one folder."""
    from ssescope.web.examples import find_examples

    folder = tmp_path_factory.mktemp("examples")
    for example in [*find_examples(), *find_examples(FIXTURES)]:
        shutil.copyfile(example.path, folder / example.path.name)
    return folder


@pytest.fixture(scope="session")
def base_url(examples_dir: Path) -> Iterator[str]:
    """A live server with the bundled and the test examples, in a daemon thread."""
    import uvicorn

    from ssescope.web import create_app

    port = _free_port()
    config = uvicorn.Config(
        create_app(examples_dir=examples_dir), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Any]:
    """A fresh page with the app loaded (examples listed)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    pg.goto(base_url + "/")
    pg.wait_for_selector("body[data-examples=loaded]")
    yield pg
    context.close()

"""Arize Phoenix as a real OTLP receiver: started from its own venv on loopback ports."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..venv_server import free_port, venv_server

PHOENIX_ENV = "SSESCOPE_PHOENIX"
"""The ``phoenix`` executable of the venv ``.ci/run`` makes from phoenix-requirements.txt."""


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


@contextmanager
def phoenix_server(executable: str, workdir: Path, *, timeout: float = 240.0) -> Iterator[str]:
    """``phoenix serve`` on free loopback ports with its data in ``workdir``; its URL.

    Phoenix's own telemetry is off and it loads nothing from outside the machine.
    """
    port, grpc_port = free_port(), free_port()
    env = {
        **os.environ,
        "PHOENIX_WORKING_DIR": str(workdir),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(grpc_port),
        "PHOENIX_TELEMETRY_ENABLED": "false",
        "PHOENIX_ALLOW_EXTERNAL_RESOURCES": "false",
        "DO_NOT_TRACK": "1",
    }
    url = f"http://127.0.0.1:{port}"
    with venv_server(
        "phoenix", [executable, "serve"], env, workdir, url + "/healthz", timeout=timeout
    ):
        yield url


def stored_spans(url: str, project: str = "default", *, want: int, wait: float = 30.0) -> list[Any]:
    """The spans Phoenix stored for ``project`` (its REST API), once there are ``want``."""
    deadline = time.monotonic() + wait
    while True:
        spans = _get(f"{url}/v1/projects/{project}/spans?limit=100")["data"]
        if len(spans) >= want or time.monotonic() > deadline:
            return list(spans)
        time.sleep(0.5)

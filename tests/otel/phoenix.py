"""Arize Phoenix as a real OTLP receiver: started from its own venv on loopback ports."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PHOENIX_ENV = "SSESCOPE_PHOENIX"
"""The ``phoenix`` executable of the venv ``.ci/run`` makes from phoenix-requirements.txt."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


@contextmanager
def phoenix_server(executable: str, workdir: Path, *, timeout: float = 240.0) -> Iterator[str]:
    """``phoenix serve`` on free loopback ports with its data in ``workdir``; its URL.

    Phoenix's own telemetry is off and it loads nothing from outside the machine.
    """
    port, grpc_port = _free_port(), _free_port()
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
    env.pop("PYTHONPATH", None)  # (its own venv, not this tree)
    log = (workdir / "phoenix.log").open("wb")
    process = subprocess.Popen(
        [executable, "serve"], env=env, cwd=workdir, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"phoenix exited with {process.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"phoenix did not start in {timeout:.0f} s") from None
                time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


def stored_spans(url: str, project: str = "default", *, want: int, wait: float = 30.0) -> list[Any]:
    """The spans Phoenix stored for ``project`` (its REST API), once there are ``want``."""
    deadline = time.monotonic() + wait
    while True:
        spans = _get(f"{url}/v1/projects/{project}/spans?limit=100")["data"]
        if len(spans) >= want or time.monotonic() > deadline:
            return list(spans)
        time.sleep(0.5)

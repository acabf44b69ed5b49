"""LiteLLM's proxy as a real gateway in front of ``ssescope serve``, from its own venv.

``.ci/run`` builds the venv from ``tests/conform/litellm-requirements.txt`` (pinned, with
hashes) and exports the path of its ``litellm`` executable as :data:`LITELLM_ENV`; the
proxy never runs in the interpreter of the suite. It starts on a free loopback port with
a config naming one model, ``openai/…`` with ``api_base`` the replay server, and loads
nothing from outside the machine (the bundled model cost map, no telemetry).
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["LITELLM_ENV", "MODEL_NAME", "litellm_proxy"]

LITELLM_ENV = "SSESCOPE_LITELLM"
"""The ``litellm`` executable of the venv ``.ci/run`` makes."""
MODEL_NAME = "conform-gateway"
"""The model name the proxy serves (routed to the replay server)."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _config(upstream: str, model: str) -> str:
    return (
        "model_list:\n"
        f"  - model_name: {MODEL_NAME}\n"
        "    litellm_params:\n"
        f"      model: openai/{model}\n"
        f"      api_base: {upstream}/v1\n"
        "      api_key: sk-upstream-placeholder\n"
        "litellm_settings:\n"
        "  telemetry: false\n"
    )


@contextmanager
def litellm_proxy(
    executable: str, upstream: str, model: str, workdir: Path, *, timeout: float = 180.0
) -> Iterator[str]:
    """The proxy forwarding :data:`MODEL_NAME` to ``upstream`` as ``model``; its URL."""
    config = workdir / "litellm.yaml"
    config.write_text(_config(upstream, model), encoding="utf-8")
    port = _free_port()
    env = {
        **os.environ,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "LITELLM_TELEMETRY": "False",
        "DO_NOT_TRACK": "1",
    }
    env.pop("PYTHONPATH", None)  # (its own venv, not this tree)
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"):
        env.pop(name, None)
    log = (workdir / "litellm.log").open("wb")
    process = subprocess.Popen(
        [executable, "--config", str(config), "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=workdir,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"litellm exited with {process.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(url + "/health/liveliness", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"litellm did not start in {timeout:.0f} s") from None
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

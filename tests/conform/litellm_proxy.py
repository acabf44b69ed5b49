"""LiteLLM's proxy as a real gateway in front of ``ssescope serve``, from its own venv.

``.ci/run`` builds the venv from ``tests/conform/litellm-requirements.txt`` (pinned, with
hashes) and exports the path of its ``litellm`` executable as :data:`LITELLM_ENV`; the
proxy never runs in the interpreter of the suite. It starts on a free loopback port with
a config naming one model, ``openai/…`` with ``api_base`` the replay server, and loads
nothing from outside the machine (the bundled model cost map, no telemetry).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..venv_server import free_port, venv_server

__all__ = ["LITELLM_ENV", "MODEL_NAME", "litellm_proxy"]

LITELLM_ENV = "SSESCOPE_LITELLM"
"""The ``litellm`` executable of the venv ``.ci/run`` makes."""
MODEL_NAME = "conform-gateway"
"""The model name the proxy serves (routed to the replay server)."""


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
    port = free_port()
    env = {
        **os.environ,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "LITELLM_TELEMETRY": "False",
        "DO_NOT_TRACK": "1",
    }
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"):
        env.pop(name, None)
    url = f"http://127.0.0.1:{port}"
    argv = [executable, "--config", str(config), "--host", "127.0.0.1", "--port", str(port)]
    with venv_server("litellm", argv, env, workdir, url + "/health/liveliness", timeout=timeout):
        yield url

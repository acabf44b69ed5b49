"""The official MCP and A2A clients, run by an interpreter of their own.

``SSESCOPE_AGENT_CLIENTS`` names it (``.ci/run`` makes its venv from
``tests/providers/agent-clients-requirements.txt``); ``tests/rpc_clients.py`` is what it
runs. Shared by ``tests/providers/test_mcp_client.py`` and ``test_a2a_client.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = Path(os.environ.get("SSESCOPE_AGENT_CLIENTS", "/tmp/venv-agentclients/bin/python"))
RUNNER = ROOT / "tests" / "rpc_clients.py"


def has_client(module: str) -> bool:
    """Whether the clients' interpreter exists and imports ``module``."""
    if not CLIENTS.exists():
        return False
    found = subprocess.run(
        [str(CLIENTS), "-c", f"import {module}"], capture_output=True, check=False
    )
    return found.returncode == 0


def run_clients(job: dict[str, Any]) -> list[dict[str, Any]]:
    """What the client saw of each URL of ``job`` (see ``tests/rpc_clients.py``)."""
    done = subprocess.run(
        [str(CLIENTS), str(RUNNER)],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]

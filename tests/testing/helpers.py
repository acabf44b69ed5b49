"""Run a user's test suite in a subprocess, with the plugin installed as pip installs it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def declared_entry_point() -> tuple[str, str]:
    """The ``pytest11`` entry point pyproject.toml declares: (name, module)."""
    text = (ROOT / "pyproject.toml").read_text()
    found = re.search(r'^\[project\.entry-points\.pytest11\]\n(\w+) = "([\w.]+)"', text, re.M)
    assert found is not None, "pyproject.toml declares no pytest11 entry point"
    return found.group(1), found.group(2)


def installed_site(tmp_path: Path) -> Path:
    """A site directory holding what pip writes for the declared entry point: a dist-info
    with its ``entry_points.txt``."""
    name, value = declared_entry_point()
    site = tmp_path / "site"
    info = site / "ssescope_entry_point_probe-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: ssescope-entry-point-probe\nVersion: 1.0\n"
    )
    (info / "entry_points.txt").write_text(f"[pytest11]\n{name} = {value}\n")
    return site


def run_pytest(suite: Path, site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m pytest ARGS`` in ``suite``, with this tree's code and ``site`` on the path
    and no ``-p`` flag for the plugin."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(site), str(suite)])}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=suite,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )

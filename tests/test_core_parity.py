"""The running core gives the Reports the pure source gives, on every fixture and real stream.

Against the compiled core (``.ci/run`` installs it and runs the suite) this compares the two
cores; against the pure core, it compares the package with a fresh process of its source.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .core_reports import FIXTURES, REAL, ROOT, reports


@pytest.fixture(scope="module")
def both() -> tuple[dict[str, Any], dict[str, Any]]:
    """The Reports of the running core, and those of the pure source in a fresh process."""
    # The pure core: the source tree first on the path, the compiled build (if any) hidden.
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    env = {**os.environ, "PYTHONPATH": path, "SSESCOPE_REAL_STREAMS": str(REAL)}
    pure = subprocess.run(
        [sys.executable, "-m", "tests.core_reports"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=True,
    )
    other = json.loads(pure.stdout)
    assert other["core"] == "pure"
    return reports(), other["reports"]


def _agree(both: tuple[dict[str, Any], dict[str, Any]], under: Path) -> int:
    here, pure = both
    names = sorted(name for name in here if Path(name).is_relative_to(under))
    assert names == sorted(name for name in pure if Path(name).is_relative_to(under))
    for name in names:
        assert here[name] == pure[name], name
    return len(names)


def test_both_cores_give_identical_reports_on_every_fixture(
    both: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    assert _agree(both, FIXTURES) > 100


def test_both_cores_give_identical_reports_on_every_real_stream(
    both: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    if not REAL.is_dir():
        pytest.skip(f"the real captured streams are not at {REAL} (set SSESCOPE_REAL_STREAMS)")
    assert _agree(both, REAL) >= 38

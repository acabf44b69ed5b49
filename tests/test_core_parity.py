"""The running core gives the Reports the pure source gives, on every fixture and real stream.

Against the compiled core (``.ci/run`` installs it and runs the suite) this compares the two
cores; against the pure core, it compares the package with a fresh process of its source.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from .core_reports import REAL, ROOT, files, reports


def test_both_cores_give_identical_reports_on_every_fixture_and_real_stream() -> None:
    assert REAL.is_dir(), f"the real captured streams are not at {REAL}"
    assert len(files()) > 100
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
    here = reports()
    assert sorted(here) == sorted(other["reports"])
    for name, report in here.items():
        assert report == other["reports"][name], name

"""The Reports of every fixture and real stream, as JSON: what both cores must agree on.

``python -m tests.core_reports`` prints ``{"core": ..., "reports": {file: [report, ...]}}``
for the core it imports; ``tests/test_core_parity.py`` runs it against the pure source and
compares with the running core.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import ssescope

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
REAL = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
SKIP = {".md", ".py", ".pyc"}


def files() -> list[Path]:
    """Every fixture and real stream (documentation and expectations left out)."""
    found = [*FIXTURES.rglob("*"), *REAL.rglob("*")]
    return sorted(
        p for p in found if p.is_file() and p.suffix not in SKIP and p.name != "EXPECTED.json"
    )


def _reports(path: Path) -> list[dict[str, Any]] | str:
    try:
        return [r.to_dict() for r in ssescope.inspect_all(path.read_bytes())]
    except Exception as exc:  # a refusal is a result to compare too
        return f"{type(exc).__name__}: {exc}"


def reports() -> dict[str, Any]:
    """Each file's Reports as dicts, or the error it raised (both cores must agree on it)."""
    return {str(path): _reports(path) for path in files()}


if __name__ == "__main__":
    json.dump({"core": ssescope.CORE, "reports": reports()}, sys.stdout)

"""docs/conform.md lists every check and the request set, generated from the code."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from ssescope.conform import CHECKS
from ssescope.conform.asked import ASKED

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "conform.md"


def test_the_page_is_generated_from_the_checks() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "conform_docs.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout


def test_every_check_has_its_row_with_its_level_and_source() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for check in CHECKS:
        row = next(line for line in text.splitlines() if line.startswith(f"| `{check.id}` |"))
        assert f"| {check.severity} |" in row
        assert f"]({check.source})" in row


def test_a_stale_page_is_caught() -> None:
    spec = importlib.util.spec_from_file_location(
        "conform_docs", ROOT / "scripts" / "conform_docs.py"
    )
    assert spec is not None and spec.loader is not None
    conform_docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conform_docs)
    text = PAGE.read_text(encoding="utf-8")
    stale = text.replace(f"| `{CHECKS[0].id}` |", "| `renamed.check` |")
    assert conform_docs.render(stale) == text
    assert conform_docs.render(stale) != stale


def test_what_a_recorded_request_asks_names_registered_checks() -> None:
    ids = {c.id for c in CHECKS}
    named = {a.check for a in ASKED}
    assert named <= ids
    # every check of what the request asked is in the table of what a capture's request says
    assert {c.id for c in CHECKS if c.needs_request} <= named
    text = PAGE.read_text(encoding="utf-8")
    for asked in ASKED:
        assert f"| `{asked.check}` |" in text

"""Every code the container layer owns has its section on the containers page, and no other."""

from __future__ import annotations

import re
from pathlib import Path

from ssescope.codes import containers_files, containers_http

ROOT = Path(__file__).resolve().parent.parent.parent


def test_every_container_diagnostic_code_is_documented() -> None:
    owned = {code.name for module in (containers_http, containers_files) for code in module.CODES}
    doc = (ROOT / "docs/diagnostics/containers.md").read_text()
    documented = set(re.findall(r"^### `([^`]+)`$", doc, re.MULTILINE))
    assert len(owned) > 10
    assert owned == documented, (sorted(owned - documented), sorted(documented - owned))

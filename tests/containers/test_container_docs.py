from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CODE = re.compile(r'"((?:http|curl-trace|har|ssecap|jsonl|container)\.[a-z0-9-]+)"')


def test_every_container_diagnostic_code_is_documented():
    source = "".join(p.read_text() for p in (ROOT / "src/ssescope/containers").glob("*.py"))
    used = set(CODE.findall(source))
    doc = (ROOT / "docs/diagnostics/containers.md").read_text()
    documented = set(re.findall(r"^### `([^`]+)`$", doc, re.MULTILINE))
    assert used
    assert used <= documented, sorted(used - documented)
    assert documented <= used, sorted(documented - used)

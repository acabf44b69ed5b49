"""Every diagnostic code the source can emit is documented, once, and indexed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "ssescope"
PREFIXES = (
    "anthropic|bedrock|cohere|container|content|curl-trace|eventstream|gemini|har|http|json|"
    "json-array|jsonl|ndjson|ollama|openai-chat|openai-responses|provider|snapshot|sse|ssecap|"
    "stream|timing|tool|usage|utf8|vercel-ui"
)
CODE = re.compile(rf'"((?:{PREFIXES})\.[a-z0-9]+(?:-[a-z0-9]+)*)"')


# file names that look like codes (an example's name and extension)
_EXTENSIONS = {"sse", "ssecap", "jsonl", "json", "ndjson", "har", "txt", "bin"}


def emitted_codes() -> set[str]:
    codes: set[str] = set()
    for path in SRC.rglob("*.py"):
        codes.update(CODE.findall(path.read_text(encoding="utf-8")))
    return {c for c in codes if c.split(".", 1)[1] not in _EXTENSIONS}


def documented() -> list[str]:
    found: list[str] = []
    for page in (ROOT / "docs" / "diagnostics").glob("*.md"):
        found += re.findall(r"^### `([^`]+)`", page.read_text(encoding="utf-8"), re.MULTILINE)
    return found


def test_every_code_in_the_source_is_documented() -> None:
    missing = emitted_codes() - set(documented())
    assert not missing, f"codes without a section in docs/diagnostics/*.md: {sorted(missing)}"


def test_no_code_is_documented_twice() -> None:
    docs = documented()
    twice = {c for c in docs if docs.count(c) > 1}
    assert not twice, f"documented on more than one page: {sorted(twice)}"


def test_the_index_page_is_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "diagnostics_index.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout

"""Every diagnostic code is registered once, and its docs are generated from the registry."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from ssescope.codes import CODES, PAGES, lookup
from ssescope.diagnostics import diagnostic

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "ssescope"
PREFIXES = (
    "anthropic|bedrock|cohere|container|content|curl-trace|eventstream|gemini|har|http|json|"
    "a2a|json-array|jsonl|jsonrpc|mcp|ndjson|ollama|openai-chat|openai-responses|provider|snapshot|sse|ssecap|"
    "stream|timing|tool|usage|utf8|vercel-ui"
)
CODE = re.compile(rf'"((?:{PREFIXES})\.[a-z0-9]+(?:-[a-z0-9]+)*)"')

# file names that look like codes (an example's name and extension)
_EXTENSIONS = {"sse", "ssecap", "jsonl", "json", "ndjson", "har", "txt", "bin"}


def named_codes() -> set[str]:
    """Code-like strings in the source outside the registry (what emitters name)."""
    codes: set[str] = set()
    for path in SRC.rglob("*.py"):
        if path.parent.name != "codes":
            codes.update(CODE.findall(path.read_text(encoding="utf-8")))
    return {c for c in codes if c.split(".", 1)[1] not in _EXTENSIONS}


def test_every_code_named_in_the_source_is_registered() -> None:
    missing = named_codes() - set(CODES)
    assert not missing, f"codes named in the source but not in ssescope.codes: {sorted(missing)}"


def test_every_page_is_generated_from_the_registry() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "diagnostics_index.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout
    on_disk = {p.stem for p in (ROOT / "docs" / "diagnostics").glob("*.md")}
    assert on_disk == {p.name for p in PAGES}


def _render_with_placeholders(name: str, form: str | None, args: set[str]) -> str:
    try:
        words: dict[str, Any] = dict.fromkeys(args, "x")
        return diagnostic(name, record=1, form=form, **words).message
    except ValueError:  # a numeric format spec: the argument is a number
        numbers: dict[str, Any] = dict.fromkeys(args, 1.5)
        return diagnostic(name, record=1, form=form, **numbers).message


def test_every_template_renders_with_its_arguments() -> None:
    for code in CODES.values():
        for form in code.forms or (None,):
            assert _render_with_placeholders(code.name, form, set(code.arguments()))


def test_content_arguments_are_arguments_of_the_template() -> None:
    for code in CODES.values():
        assert set(code.content) <= code.arguments(), code.name


def test_a_diagnostic_takes_its_severity_and_message_from_the_registry() -> None:
    d = diagnostic("sse.invalid-retry", 7, 2, value="1_000")
    assert d.severity == lookup("sse.invalid-retry").severity == "warning"
    assert d.message.startswith("The retry field '1_000' is not")
    assert d.args == {"value": "1_000"}
    assert d.to_dict()["args"] == {"value": "1_000"}

"""Every sample output in README.md and docs/ is what the command prints today."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "render_docs", ROOT / "scripts" / "render_docs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


render_docs = _script()
PAGES = render_docs.pages()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_sample_output_is_stale(page: Path) -> None:
    stale = render_docs.refresh(page, check=True)
    assert stale == [], f"run `python scripts/render_docs.py` to regenerate: {stale}"


def test_the_samples_cover_the_commands_shown_with_output() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    markers = re.findall(r"<!-- sample: (\S+)", text)
    assert {"inspect", "records", "replay"} <= set(markers)
    # every block that shows `$ ssescope …` with its output is generated
    for page in PAGES:
        body = page.read_text(encoding="utf-8")
        for block in re.finditer(r"(?:^(<!-- sample: .+ -->)\n)?```\w*\n\$ ssescope ", body, re.M):
            assert block.group(1), f"{page.name}: a sample output without a marker"


def test_a_changed_sample_is_reported_stale(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- sample: records examples/broken-bad-json-record.sse -->\n```text\nold\n```\n",
        encoding="utf-8",
    )
    assert render_docs.refresh(page, check=True) == ["records examples/broken-bad-json-record.sse"]
    assert "old" in page.read_text(encoding="utf-8")
    render_docs.refresh(page, check=False)
    assert render_docs.refresh(page, check=True) == []

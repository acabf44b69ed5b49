"""The ``--html`` report: one self-contained page with inline SVG charts, in Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ssescope.cli import main


@pytest.fixture(scope="module")
def report(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html") / "report.html"
    assert main(["scan", str(corpus), "--html", str(out), "--json", "--jobs", "1"]) == 0
    return out


def test_the_report_loads_nothing_from_elsewhere(report: Path) -> None:
    page = report.read_text()
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert " src=" not in page and " href=" not in page and "url(" not in page
    assert "default-src 'none'" in page


@pytest.mark.browser
def test_the_charts_draw_in_chromium(browser: Any, report: Path) -> None:
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(report.as_uri())
    assert requests == [report.as_uri()]
    assert page.title() == "ssescope scan"
    # verdict rates by model: stacked bars, one tooltip each
    bars = page.locator("#chart-model rect.bar")
    assert bars.count() >= 10
    assert "truncated" in page.locator("#chart-model rect.truncated title").first.text_content()
    box = page.locator("#chart-model").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100
    # the time-to-first-content histogram, and the top diagnostics
    assert page.locator("#chart-ttft rect.bin").count() == 20
    assert page.locator("#chart-diagnostics rect.bar").count() == 10
    assert "streams" in page.locator("#chart-diagnostics title").first.text_content()
    worst = page.locator("#worst li")
    assert worst.first.text_content().startswith("failed")
    assert "not read" in worst.last.text_content()
    assert "truncated" in page.locator("#verdicts").text_content()
    page.close()

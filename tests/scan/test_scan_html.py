"""The ``--html`` report: one self-contained page, its charts and its streams to open
next, in Chromium at a phone's width (390 px) and a desktop's."""

from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import Any

import pytest
from tests.scan.incident import BAD_DAY, BAD_ROUTE, DAYS, write_incident

from ssescope.cli import main
from ssescope.scan.html_charts import COLORS


@pytest.fixture(scope="module")
def report(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html") / "report.html"
    assert main(["scan", str(corpus), "--html", str(out), "--json", "--jobs", "1"]) == 0
    return out


@pytest.fixture(scope="module")
def incident_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_incident(tmp_path_factory.mktemp("incident"))
    out = root / "report.html"
    code = main(["scan", str(root), "--group-by", "route", "--html", str(out), "--json"])
    assert code == 0
    return out


def test_the_report_loads_nothing_from_elsewhere(report: Path, incident_report: Path) -> None:
    for path in (report, incident_report):
        page = path.read_text()
        assert "<script" not in page and "<link" not in page and "@import" not in page
        assert " src=" not in page and "url(" not in page
        assert "default-src 'none'" in page
        # the only links are to the page's own sections, each of which is there
        links = re.findall(r' href="([^"]*)"', page)
        assert links and all(link.startswith("#") for link in links)
        for link in set(links):
            assert f' id="{link[1:]}"' in page


def test_the_incident_is_in_the_page(incident_report: Path) -> None:
    page = incident_report.read_text()
    assert "<h2>Verdicts by route</h2>" in page and "<h2>Verdicts per day</h2>" in page
    assert f"worst day: <b>{BAD_DAY}</b>" in page
    assert 'class="truncated">truncated 31.0%</b>' in page


def _png_width(shot: Path) -> int:
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width: int = struct.unpack(">I", data[16:20])[0]
    return width


def _rgb(color: str) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
def test_the_incident_reads_at_a_glance_in_chromium(
    browser: Any, incident_report: Path, tmp_path: Path, width: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(incident_report.as_uri())
    try:
        assert requests == [incident_report.as_uri()]
        # nothing is clipped: the page is no wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot = tmp_path / f"report-{width}.png"
        page.screenshot(path=str(shot))
        assert _png_width(shot) == width
        # the route's bar: its truncated part is a third of it, drawn and said in words
        chart = page.locator("#chart-by-0")
        assert chart.locator(".bar-row .name").first.text_content() == BAD_ROUTE
        stack = chart.locator(".stack").first
        seg = stack.locator(".seg.truncated")
        whole, part = stack.bounding_box(), seg.bounding_box()
        assert whole is not None and part is not None
        assert whole["x"] + whole["width"] <= width
        assert part["width"] / whole["width"] == pytest.approx(0.31, abs=0.01)
        color = seg.evaluate("e => getComputedStyle(e).backgroundColor")
        assert color == _rgb(COLORS["truncated"])
        rates = chart.locator(".rates").first
        assert rates.text_content() == "truncated 31.0%" and rates.is_visible()
        box = rates.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
        assert seg.get_attribute("title") == f"{BAD_ROUTE}: truncated 62 of 200 (31.0%)"
        # the time axis: one column a day, the planted day the tallest
        columns = page.locator("#chart-time .col")
        assert columns.count() == len(DAYS)
        heights = {
            columns.nth(i).get_attribute("data-start")[:10]: columns.nth(i)
            .locator(".seg")
            .evaluate_all("es => es.reduce((h, e) => h + e.getBoundingClientRect().height, 0)")
            for i in range(len(DAYS))
        }
        assert max(heights, key=lambda d: heights[d]) == BAD_DAY
        assert heights[BAD_DAY] > 2.5 * min(heights.values())
        worst = page.locator("#time-worst")
        assert worst.is_visible() and BAD_DAY in (worst.text_content() or "")
        assert "truncated 40.8%" in (worst.text_content() or "")
        # where it broke
        places = page.locator("#chart-where .name").all_text_contents()
        assert places == ["mid-text", "mid-tool-arguments"]
        # open next: a link to the stream's own section, with the command that opens it
        first = page.locator("#worst li a").first
        assert "requests.jsonl row " in (first.text_content() or "")
        first.click()
        assert page.url.endswith("#stream-0")
        section = page.locator("#stream-0")
        assert section.is_visible()
        command = section.locator("code.command").text_content() or ""
        assert command.startswith("ssescope inspect ") and "--row " in command
        assert "route" in (section.text_content() or "")
        page.screenshot(path=str(tmp_path / f"stream-{width}.png"))
    finally:
        page.close()


@pytest.mark.browser
def test_the_charts_draw_in_chromium(browser: Any, report: Path) -> None:
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(report.as_uri())
    assert requests == [report.as_uri()]
    assert page.title() == "ssescope scan"
    # verdict rates by model: stacked bars, one tooltip each
    bars = page.locator("#chart-model .seg")
    assert bars.count() >= 10
    assert "truncated" in (
        page.locator("#chart-model .seg.truncated").first.get_attribute("title") or ""
    )
    box = page.locator("#chart-model").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100
    # the time-to-first-content histogram, and the top diagnostics
    assert page.locator("#chart-ttft rect.bin").count() == 20
    assert page.locator("#chart-diagnostics .seg").count() == 10
    assert "streams" in (page.locator("#chart-diagnostics .seg").first.get_attribute("title") or "")
    worst = page.locator("#worst li")
    assert (worst.first.text_content() or "").startswith("failed")
    assert "not read" in (worst.last.text_content() or "")
    assert "truncated" in (page.locator("#verdicts").text_content() or "")
    page.close()

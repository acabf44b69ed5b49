"""The web page in Debian's chromium: verdict, panes, scrubber, bad records, safety, privacy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from ssescope.web.examples import find_examples

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "web"

EXAMPLES = [e.name for e in (find_examples() or find_examples(FIXTURES))]


def _inspect_text(page: Any, text: str) -> None:
    page.get_by_test_id("input-text").fill(text)
    page.get_by_test_id("inspect").click()
    page.wait_for_selector("body[data-state=ready]")


def test_the_cohere_example_shows_verdict_reasoning_tool_call_and_bad_records(page: Any) -> None:
    page.get_by_test_id("example-select").select_option("cohere-tool-call-bad-record")
    page.wait_for_selector("body[data-state=ready]")
    assert page.get_by_test_id("verdict-status").text_content() == "completed"
    assert page.get_by_test_id("verdict-provider").text_content() == "cohere"
    assert page.get_by_test_id("verdict-framing").text_content() == "sse"
    assert page.get_by_test_id("verdict-usage").text_content() == "412 in · 27 out"
    assert (
        page.get_by_test_id("reasoning").text_content()
        == "I will check the forecast for Lyon first."
    )
    assert page.get_by_test_id("tool-name").text_content() == "get_forecast"
    args = json.loads(page.get_by_test_id("tool-args").text_content())
    assert args == {"city": "Lyon", "days": 3, "units": "metric"}
    invalid = page.locator("[data-testid=frame-row][data-state=invalid]")
    assert invalid.get_attribute("data-index") == "9"
    assert invalid.get_by_test_id("row-diagnostic").text_content() == "json.invalid"
    unknown = page.locator("[data-testid=frame-row][data-state=unknown]")
    assert unknown.get_attribute("data-index") == "11"


def test_a_diagnostic_link_opens_the_raw_bytes_of_its_record(page: Any) -> None:
    page.get_by_test_id("example-select").select_option("cohere-tool-call-bad-record")
    page.wait_for_selector("body[data-state=ready]")
    page.get_by_test_id("diagnostic-link").first.click()
    assert "record 9" in page.get_by_test_id("raw-title").text_content()
    assert page.get_by_test_id("raw-bytes").text_content().startswith("event: tool-call-delta↵")


def test_scrubbing_rebuilds_the_tool_call_arguments_up_to_a_record(page: Any) -> None:
    page.get_by_test_id("example-select").select_option("cohere-tool-call-bad-record")
    page.wait_for_selector("body[data-state=ready]")
    page.get_by_test_id("scrubber").fill("6")
    # the arguments as received come first; the repaired view is secondary and labelled
    assert page.get_by_test_id("tool-args").text_content() == '{"city": "Lyon", "days": 3'
    repaired = page.get_by_test_id("tool-repaired")
    assert "repaired" in repaired.locator("summary").text_content()
    args = json.loads(page.get_by_test_id("tool-repaired-value").text_content())
    assert args == {"city": "Lyon", "days": 3}
    page.get_by_test_id("scrubber").fill("5")
    assert page.get_by_test_id("tool-args").text_content() == '{"city": "Ly'
    assert json.loads(page.get_by_test_id("tool-repaired-value").text_content()) == {"city": "Ly"}
    page.get_by_test_id("scrubber").fill("2")
    assert page.get_by_test_id("reasoning").text_content() == "I will check the forecast "
    assert page.get_by_test_id("tool-call").count() == 0


def test_filtering_the_table_by_text_and_by_problems(page: Any) -> None:
    page.get_by_test_id("example-select").select_option("cohere-tool-call-bad-record")
    page.wait_for_selector("body[data-state=ready]")
    page.get_by_test_id("frame-filter").fill("tool-plan")
    assert page.locator("[data-testid=frame-row]:visible").count() == 3
    page.get_by_test_id("frame-filter").fill("")
    page.get_by_test_id("only-bad").check()
    shown = page.locator("[data-testid=frame-row]:visible")
    assert sorted(shown.evaluate_all("rows => rows.map(r => r.dataset.index)")) == ["11", "9"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_loads_with_a_verdict_and_no_error(page: Any, name: str) -> None:
    page.get_by_test_id("example-select").select_option(name)
    page.wait_for_selector("body[data-state=ready]")
    assert page.get_by_test_id("error").text_content() == ""
    assert page.get_by_test_id("verdict-status").text_content() in (
        "completed",
        "incomplete",
        "failed",
        "truncated",
        "cancelled",
    )
    assert (
        page.get_by_test_id("output").count() + page.get_by_test_id("provider-error").count() >= 1
    )


def test_markup_and_links_in_the_stream_never_run(page: Any) -> None:
    dialogs: list[str] = []

    def dismiss(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    text = (FIXTURES / "ollama-hostile-text.ndjson").read_text()
    _inspect_text(page, text)
    shown = page.get_by_test_id("text").text_content()
    assert "<script>window.__pwned=1</script>" in shown
    assert '<img src=x onerror="window.__pwned=2">' in shown
    page.get_by_test_id("text").click()
    page.locator('[data-testid=frame-row][data-index="3"]').click()
    page.wait_for_timeout(200)
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#outputs img, #outputs script, #outputs a, #table img").count() == 0
    assert dialogs == []
    assert "⟨U+202E⟩" in page.get_by_test_id("raw-data").text_content()


def test_the_page_never_requests_another_host(browser: Any, base_url: str) -> None:
    allowed = urlparse(base_url).netloc
    foreign: list[str] = []
    context = browser.new_context()

    def check(route: Any) -> None:
        url = route.request.url
        if (
            urlparse(url).scheme in ("http", "https", "ws", "wss")
            and urlparse(url).netloc != allowed
        ):
            foreign.append(url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", check)
    page = context.new_page()
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-examples=loaded]")
    page.get_by_test_id("example-select").select_option("cohere-tool-call-bad-record")
    page.wait_for_selector("body[data-state=ready]")
    page.get_by_test_id("diagnostic-link").first.click()
    with page.expect_download() as report:
        page.get_by_test_id("export-report").click()
    assert json.loads(Path(report.value.path()).read_text())["provider"] == "cohere"
    with page.expect_download() as redacted:
        page.get_by_test_id("export-redacted").click()
    exported = json.loads(Path(redacted.value.path()).read_text())
    assert exported["provider"] == "cohere"
    assert exported["outputs"][0]["tool_calls"][0]["arguments"].startswith("[redacted ")
    with page.expect_download() as capture:
        page.get_by_test_id("export-ssecap").click()
    header = Path(capture.value.path()).read_text().splitlines()[0]
    assert json.loads(header)["ssescope"] == "capture"
    context.close()
    assert foreign == []


def test_a_50k_record_stream_loads_and_the_table_renders_a_window_of_rows(page: Any) -> None:
    lines = [
        json.dumps(
            {"model": "m", "message": {"role": "assistant", "content": f"t{i} "}, "done": False}
        )
        for i in range(49_999)
    ]
    lines.append(
        json.dumps({"model": "m", "message": {"content": ""}, "done": True, "done_reason": "stop"})
    )
    data = ("\n".join(lines) + "\n").encode()
    page.get_by_test_id("file-input").set_input_files(
        files=[{"name": "big.ndjson", "mimeType": "application/x-ndjson", "buffer": data}]
    )
    page.wait_for_selector("body[data-state=ready]", timeout=120_000)
    assert page.get_by_test_id("frame-count").text_content() == "50,000 records"
    rows = page.locator("[data-testid=frame-row]:visible").count()
    assert 0 < rows < 100
    page.get_by_test_id("frame-table").evaluate("t => { t.scrollTop = t.scrollHeight; }")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=frame-row]')].some(r => r.dataset.index === '49999')"
    )


def test_a_finding_raised_at_the_end_is_badged_on_its_record_and_kept_by_problems_only(
    page: Any,
) -> None:
    # the tool call opened at record 5 is never finished: the aggregator says so at the end
    body = (
        Path(__file__).resolve().parents[1] / "fixtures" / "anthropic" / "max-tokens-mid-tool.sse"
    )
    _inspect_text(page, body.read_text())
    row = page.locator("[data-testid=frame-row][data-index='5']")
    assert row.get_by_test_id("row-diagnostic").text_content() == "tool.incomplete"
    page.get_by_test_id("only-bad").check()
    shown = page.locator("[data-testid=frame-row]:visible")
    assert "5" in shown.evaluate_all("rows => rows.map(r => r.dataset.index)")

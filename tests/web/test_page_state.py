"""The page shows the cut, counts problems, and keeps its state and keys in step."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

CUT = "broken-openai-cut-mid-tool-call"


def _load(page: Any, name: str) -> None:
    page.get_by_test_id("example-select").select_option(name)
    page.wait_for_function(
        "name => document.body.dataset.state === 'ready' && "
        "document.getElementById('example').value === name",
        arg=name,
    )


def test_the_cut_is_a_row_with_its_diagnostic(page: Any) -> None:
    _load(page, CUT)
    cut = page.locator("[data-testid=frame-row][data-state=cut]")
    assert cut.count() == 1
    cells = cut.locator("span").all_text_contents()
    assert cells[0] == "cut"
    assert cells[1] == "971"
    assert cut.get_by_test_id("row-diagnostic").text_content() == "sse.unterminated-event"
    # the first record is valid: nothing on it is red
    first = page.locator("[data-testid=frame-row][data-index='0']")
    assert first.get_attribute("data-state") == "ok"
    assert first.get_by_test_id("row-diagnostic").count() == 0
    last = page.locator("[data-testid=frame-row][data-index='2']")
    assert last.get_by_test_id("row-diagnostic").text_content() == "tool.incomplete +1"
    cut.click()
    assert page.get_by_test_id("raw-title").text_content().startswith("cut: 205 bytes")
    assert page.get_by_test_id("raw-bytes").text_content().startswith('data: {"id"')


def test_the_tool_card_shows_the_arguments_as_received(page: Any) -> None:
    _load(page, CUT)
    assert page.get_by_test_id("tool-args").text_content() == '{"city": "Ly'
    assert page.get_by_test_id("tool-status").text_content() == "incomplete"
    repaired = page.get_by_test_id("tool-repaired")
    assert repaired.get_attribute("open") is None
    assert "not what was sent" in repaired.locator("summary").text_content()


def test_the_verdict_counts_problems_and_turns_amber(page: Any) -> None:
    page.get_by_test_id("input-text").fill(
        'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1",'
        '"function":{"name":"f","arguments":"{bad"}}]}}]}\n\n'
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n'
        "data: [DONE]\n\n"
    )
    page.get_by_test_id("inspect").click()
    page.wait_for_selector("body[data-state=ready]")
    status = page.get_by_test_id("verdict-status")
    assert status.text_content() == "completed"
    assert status.get_attribute("data-problems") == "errors"
    assert page.get_by_test_id("verdict-problems").text_content() == "· 1 error"
    color = status.evaluate("e => getComputedStyle(e).color")
    warn = page.evaluate("getComputedStyle(document.body).getPropertyValue('--warn').trim()")
    probe = page.evaluate(
        "c => { const s = document.createElement('span'); s.style.color = c; "
        "document.body.appendChild(s); const v = getComputedStyle(s).color; s.remove(); "
        "return v; }",
        warn,
    )
    assert color == probe
    assert page.get_by_test_id("verdict-usage").text_content() == "not reported"


def test_the_scrub_label_resets_when_another_stream_loads(page: Any) -> None:
    _load(page, "cohere-tool-call-bad-record")
    page.get_by_test_id("scrubber").fill("3")
    assert page.get_by_test_id("scrub-label").text_content().startswith("up to record 3")
    _load(page, CUT)
    assert page.get_by_test_id("scrub-label").text_content() == "all 3 records"


def test_the_record_count_follows_the_filters(page: Any) -> None:
    _load(page, "cohere-tool-call-bad-record")
    total = page.get_by_test_id("frame-count").text_content()
    assert total.endswith(" records")
    page.get_by_test_id("frame-filter").fill("tool-plan")
    assert page.get_by_test_id("frame-count").text_content() == "3 shown of " + total
    page.get_by_test_id("frame-filter").fill("")
    assert page.get_by_test_id("frame-count").text_content() == total


def test_the_detail_panel_comes_into_view_and_esc_closes_it(page: Any) -> None:
    context = page.context
    small = context.new_page()
    small.set_viewport_size({"width": 1200, "height": 600})
    small.goto(page.url)
    small.wait_for_selector("body[data-examples=loaded]")
    _load(small, "cohere-tool-call-bad-record")
    small.locator("[data-testid=frame-row][data-index='9']").click()
    raw = small.get_by_test_id("raw-view")
    assert raw.is_visible()
    box = raw.bounding_box()
    assert box is not None
    assert box["y"] < 600  # its top is on screen
    small.keyboard.press("Escape")
    assert raw.is_hidden()
    small.close()


def test_ctrl_enter_runs_inspect_from_the_text_box(page: Any) -> None:
    box = page.get_by_test_id("input-text")
    box.fill("data: [DONE]\n\n")
    box.press("Control+Enter")
    page.wait_for_selector("body[data-state=ready]")
    assert page.get_by_test_id("verdict-records").text_content().startswith("1")


def test_open_file_is_reachable_with_tab(page: Any) -> None:
    page.get_by_test_id("example-select").focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.testid")
    assert focused == "open-file"
    # Enter on the button opens the file input's picker (intercepted: no dialog in a test)
    page.evaluate(
        "document.getElementById('file').addEventListener('click', (e) => "
        "{ window.pickerOpened = true; e.preventDefault(); })"
    )
    page.keyboard.press("Enter")
    page.wait_for_function("window.pickerOpened === true")


def test_the_table_header_lines_up_with_its_columns(page: Any) -> None:
    _load(page, "cohere-tool-call-bad-record")
    heads = page.locator(".table-head span")
    cells = page.locator("[data-testid=frame-row][data-index='1'] span")
    for i in range(heads.count()):
        head = heads.nth(i).bounding_box()
        cell = cells.nth(i).bounding_box()
        assert head is not None and cell is not None
        assert abs(head["x"] - cell["x"]) < 1.5, i
        assert abs(head["width"] - cell["width"]) < 1.5, i


def test_long_event_names_keep_their_distinguishing_suffix(page: Any) -> None:
    _load(page, "openai-responses-reasoning")
    row = page.locator("[data-testid=frame-row][data-index='4']")
    event = row.locator("span").nth(3)
    assert event.text_content() == "…oning_summary_text.delta"
    assert event.get_attribute("title") == "response.reasoning_summary_text.delta"
    # records without an event: line show their JSON type (Vercel UI stream)
    _load(page, "vercel-ui")
    events = page.locator("[data-testid=frame-row] span:nth-child(4)").all_text_contents()
    assert "text-delta" in events

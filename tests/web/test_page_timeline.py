"""The scrubber in the real page shows the engine's state at a record.

A stream is opened in the page as a user would (the file picker) and scrubbed to records in
the middle; what the output panes show is compared with the engine's timeline replayed up
to the same record (:func:`ssescope.aggregate.timeline.state_at`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.test_cuts_and_chunkings import FIXTURES, STREAMS

from ssescope.aggregate.timeline import Change, assembled, state_at
from ssescope.web.analysis import analyse

pytestmark = pytest.mark.browser

STREAM_FILES = [FIXTURES / "anthropic" / "text-then-tool.sse"]
if (STREAMS / "EXPECTED.json").is_file():
    STREAM_FILES += [
        STREAMS / "anthropic" / "thinking-signature.jsonl",
        STREAMS / "openai-chat" / "parallel-tool-calls.sse",
        STREAMS / "openai-chat" / "n3-choices.sse",
    ]


def _shown(page: Any) -> list[dict[str, Any]]:
    """What each output pane shows: text, reasoning, and each call's name and arguments."""
    panes = []
    for pane in page.get_by_test_id("output").all():
        text = pane.get_by_test_id("text")
        reasoning = pane.get_by_test_id("reasoning")
        calls = [
            (card.get_by_test_id("tool-name").text_content(), card.get_by_test_id("tool-args"))
            for card in pane.get_by_test_id("tool-call").all()
        ]
        panes.append(
            {
                "text": "" if "muted" in text.get_attribute("class") else text.text_content(),
                "reasoning": reasoning.text_content() if reasoning.count() else "",
                "calls": [(name, args.text_content()) for name, args in calls],
                "replay": pane.locator(".pill.partial").count() == 1,
            }
        )
    return panes


def _expected(output: dict[str, Any]) -> dict[str, Any]:
    calls = []
    for call in output["tool_calls"]:
        whole = call["complete"] and call.get("input") is not None
        args = json.dumps(call["input"]) if whole else call["arguments"] or "(no arguments)"
        calls.append((call["name"] or "(no name)", args))
    return {"text": output["text"], "reasoning": output["reasoning"], "calls": calls}


@pytest.mark.parametrize("path", STREAM_FILES, ids=[p.name for p in STREAM_FILES])
def test_scrubbing_shows_the_engine_state_at_records_in_the_middle(page: Any, path: Path) -> None:
    page.get_by_test_id("file-input").set_input_files(str(path))
    page.wait_for_selector("body[data-state=ready]")
    answer = analyse(path.read_bytes())
    changes = [Change(*row) for row in answer["timeline"]]
    records = [f["index"] for f in answer["frames"] if f["kind"] != "tail"]
    last = records[-1]
    final = [assembled(o) for o in state_at(changes, last)["outputs"]]
    assert final == answer["report"]["outputs"]
    middles = sorted({records[len(records) * k // 4] for k in (1, 2, 3)} - {last})
    assert middles
    for record in middles:
        page.get_by_test_id("scrubber").fill(str(record))
        want = [_expected(assembled(o)) for o in state_at(changes, record)["outputs"]]
        shown = _shown(page)
        assert all(p.pop("replay") for p in shown), f"record {record}"
        for pane, expected in zip(shown, want, strict=True):
            assert pane["text"] == expected["text"], f"record {record}"
            assert pane["reasoning"] == expected["reasoning"], f"record {record}"
            for (name, args), (name2, args2) in zip(pane["calls"], expected["calls"], strict=True):
                assert name == name2
                # a complete call is shown parsed (pretty-printed); compare the values
                same = json.loads(args) == json.loads(args2) if args != args2 else True
                assert same, f"record {record}: {args!r} != {args2!r}"
    page.get_by_test_id("scrubber").fill(str(last))
    assert [p.pop("replay") for p in _shown(page)] == [False] * len(final)

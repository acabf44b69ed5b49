"""The timeline the aggregator records: replayed, it gives the Report, and at any record
the state the engine had there.

For every provider fixture and real capture: the replay of all changes equals the
Report's responses; the replay up to record N equals what a Pipeline fed the bytes up
to the end of record N holds, and what an Aggregator fed the events of records <= N
builds; and a Report never depends on whether a timeline was recorded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.test_cuts_and_chunkings import CASES, IDS

from ssescope import Pipeline
from ssescope.aggregate import Aggregator, ResponseReport
from ssescope.aggregate.timeline import Timeline, assembled, state_at
from ssescope.diagnostics import Diagnostic
from ssescope.events import (
    ProviderError,
    ReasoningDelta,
    ResponseStart,
    Snapshot,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallsEnd,
    UnifiedEvent,
    Usage,
)
from ssescope.framing import SSEComment

SAMPLES = 64  # records checked against a cut stream, per stream


def _response(resp: ResponseReport) -> dict[str, Any]:
    """What the timeline's state holds of a response, in the Report's form."""
    return {
        "status": resp.status,
        "status_reason": resp.status_reason,
        "id": resp.id,
        "model": resp.model,
        "usage": None if resp.usage is None else resp.usage.to_dict(),
        "error": resp.error,
        "outputs": [o.to_dict() for o in resp.outputs],
    }


def _state(timeline: Timeline, upto: int) -> dict[str, Any]:
    state = state_at(timeline.changes, upto)
    outputs = [assembled(o) for o in state.pop("outputs")]
    del state["response"]
    if not state:  # before the first change: a response nothing happened to
        state = _response(Aggregator().close()[-1])
    return {**state, "outputs": outputs}


def _run(body: bytes, provider: str, timeline: Timeline | None) -> tuple[Pipeline, list[Any]]:
    pipeline = Pipeline(provider=provider, keep_records=True)
    pipeline.aggregator.timeline = timeline
    events = pipeline.feed(body)
    events += pipeline.close()
    pipeline.report()
    return pipeline, events


def _sample(indexes: list[int]) -> list[int]:
    if len(indexes) <= SAMPLES:
        return indexes
    step = len(indexes) / SAMPLES
    return sorted({indexes[int(i * step)] for i in range(SAMPLES)} | {indexes[-1]})


@pytest.mark.parametrize(("name", "path", "provider"), CASES, ids=IDS)
def test_the_replayed_timeline_is_the_report_at_the_end_and_the_engine_at_each_record(
    name: str, path: Path, provider: str
) -> None:
    body = path.read_bytes()
    timeline = Timeline()
    pipeline, events = _run(body, provider, timeline)
    report = pipeline.report()
    plain, _ = _run(body, provider, None)
    assert plain.report().to_dict() == report.to_dict()

    records = [r for r in pipeline.records if not isinstance(r, SSEComment)]
    last = max((r.index for r in pipeline.records), default=0)
    final = _state(timeline, last)
    assert final == _response(report.response)
    assert len(report.responses) == max((c.response for c in timeline.changes), default=0) + 1

    unified: list[UnifiedEvent] = [e for e in events if not isinstance(e, Diagnostic)]
    used = pipeline.provider or provider
    for index in _sample([r.index for r in records]):
        state = _state(timeline, index)
        # the engine fed the events of the records up to this one
        agg = Aggregator()
        agg.feed([e for e in unified if e.record <= index])
        assert state == _response(agg.close()[-1]), f"events up to record {index}"
        if index == records[-1].index:
            continue  # (the cut below would end inside the last record's terminator)
        # a pipeline fed the bytes up to the end of this record; what its adapter keeps
        # for the end of the stream has not arrived yet
        cut = Pipeline(provider=used)
        cut.feed(body[: pipeline.records[index].end])
        assert state == _response(cut.aggregator.close()[-1]), f"bytes up to record {index}"


def _timeline(*events: UnifiedEvent) -> tuple[Timeline, ResponseReport]:
    agg = Aggregator()
    timeline = agg.timeline = Timeline()
    agg.feed(events)
    return timeline, agg.close()[-1]


def test_without_a_timeline_nothing_is_recorded_and_the_report_is_the_same() -> None:
    events: list[UnifiedEvent] = [
        ResponseStart(0, "r", "m"),
        TextDelta(1, 0, "Hi"),
        Terminal(2, "completed", "done"),
    ]
    agg = Aggregator()
    agg.feed(events)
    assert agg.timeline is None
    timeline, resp = _timeline(*events)
    assert agg.close()[-1] == resp
    assert [c.to_list() for c in timeline.changes][-3:] == [
        [1, 0, 0, "text", 0, None, "append", "Hi"],
        [2, 0, None, "status", None, None, "set", "completed"],
        [2, 0, None, "status_reason", None, None, "set", "done"],
    ]


def test_parts_keep_the_order_they_first_appeared_in() -> None:
    timeline, resp = _timeline(
        TextDelta(0, 0, "", part="a"),
        TextDelta(1, 0, "x", part="b"),
        TextDelta(2, 0, "y", part="a"),
    )
    assert resp.outputs[0].text == "yx"
    assert state_at(timeline.changes, 1)["outputs"][0]["text"] == ["", "x"]
    assert assembled(state_at(timeline.changes, 2)["outputs"][0])["text"] == "yx"


def test_a_snapshot_that_wins_replaces_the_part_at_its_record() -> None:
    timeline, resp = _timeline(
        ReasoningDelta(0, 0, "thin", part=0),
        Snapshot(1, 0, "reasoning", "thinking it over", part=0),
    )
    assert resp.outputs[0].reasoning == "thinking it over"
    assert state_at(timeline.changes, 0)["outputs"][0]["reasoning"] == ["thin"]
    assert state_at(timeline.changes, 1)["outputs"][0]["reasoning"] == ["thinking it over"]


def test_a_call_is_complete_and_parsed_from_the_record_that_ended_it() -> None:
    timeline, resp = _timeline(
        ToolCallDelta(0, 0, 0, "c1", "f", '{"a":'),
        ToolCallDelta(1, 0, 0, None, None, "1}"),
        ToolCallsEnd(2, 0),
    )
    assert resp.outputs[0].tool_calls[0].input == {"a": 1}
    before = state_at(timeline.changes, 1)["outputs"][0]["tool_calls"][0]
    assert (before["arguments"], before["complete"], before["input"]) == ('{"a":1}', False, None)
    after = state_at(timeline.changes, 2)["outputs"][0]["tool_calls"][0]
    assert (after["complete"], after["input"]) == (True, {"a": 1})


def test_a_disagreeing_argument_snapshot_shows_the_arguments_the_report_keeps() -> None:
    timeline, resp = _timeline(
        ToolCallDelta(0, 0, 0, "c1", "f", '{"a":1'),
        ToolCallEnd(1, 0, 0, "c1", arguments='{"a":12}'),
    )
    assert resp.outputs[0].tool_calls[0].arguments == '{"a":12}'
    calls = state_at(timeline.changes, 1)["outputs"][0]["tool_calls"]
    assert calls[0]["arguments"] == '{"a":12}'
    assert state_at(timeline.changes, 0)["outputs"][0]["tool_calls"][0]["arguments"] == '{"a":1'


def test_a_new_response_is_the_state_from_its_first_record() -> None:
    timeline, _ = _timeline(
        ResponseStart(0, "r1", None),
        TextDelta(1, 0, "one"),
        Terminal(2, "completed", "done"),
        ResponseStart(3, "r2", None),
        ToolCall(4, 0, 0, "c", "f", "{}", complete=True),
        Usage(5, {"input_tokens": 3}, {"input_tokens": 3}, "usage"),
        ProviderError(6, "overloaded", "busy"),
    )
    assert state_at(timeline.changes, 2)["id"] == "r1"
    second = state_at(timeline.changes, 3)
    assert (second["response"], second["id"], second["outputs"]) == (1, "r2", [])
    assert state_at(timeline.changes, 5)["usage"]["input_tokens"] == 3
    end = state_at(timeline.changes, 6)
    assert (end["status"], end["error"]["type"]) == ("failed", "overloaded")
    assert end["outputs"][0]["tool_calls"][0]["input"] == {}

"""The Report's general agent sections: task updates, agent messages, artifact chunks and
notifications folded by the aggregator, their JSON form (left out when empty), the
schema that describes it and what ``--redact`` hides."""

from __future__ import annotations

import json

import jsonschema

from ssescope import Pipeline, Report
from ssescope.aggregate import Aggregator, Timeline
from ssescope.events import (
    JSON,
    AgentMessage,
    ArtifactChunk,
    Notification,
    ResponseStart,
    TaskUpdate,
    Terminal,
)
from ssescope.output.redaction import redact_report
from ssescope.output.schema import report_schema

VALIDATOR = jsonschema.Draft202012Validator(report_schema())


def _text(text: str) -> JSON:
    return {"kind": "text", "text": text}


def _fold(*events: object) -> Aggregator:
    agg = Aggregator()
    agg.feed([ResponseStart(0), *events])  # type: ignore[list-item]
    agg.close()
    return agg


def _report(agg: Aggregator) -> Report:
    return Report(
        task=agg.agent.task,
        artifacts=agg.agent.artifacts(),
        notifications=agg.agent.notifications(),
    )


def test_task_updates_give_the_states_the_messages_and_what_was_asked() -> None:
    agg = _fold(
        TaskUpdate(0, "submitted", "t1", "c1"),
        TaskUpdate(1, "working", None, None, "Looking it up", "agent"),
        AgentMessage(2, "an aside", "agent"),
        TaskUpdate(3, "input-required", "t2", "c2", "Which city?", "agent", interrupted=True),
        TaskUpdate(4, "auth-required", interrupted=True),
    )
    task = agg.agent.task
    assert task is not None
    assert task.to_dict() == {
        "id": "t1",  # the first id stays
        "context_id": "c1",
        "state": "auth-required",
        "states": [
            {"state": "submitted", "record": 0},
            {"state": "working", "record": 1},
            {"state": "input-required", "record": 3},
            {"state": "auth-required", "record": 4},
        ],
        "messages": [
            {"record": 1, "role": "agent", "text": "Looking it up", "state": "working"},
            {"record": 2, "role": "agent", "text": "an aside", "state": None},
            {"record": 3, "role": "agent", "text": "Which city?", "state": "input-required"},
        ],
        "asks": [
            {"record": 3, "state": "input-required", "text": "Which city?"},
            {"record": 4, "state": "auth-required", "text": None},
        ],
    }


def test_artifact_chunks_are_assembled_part_by_part() -> None:
    file_part: JSON = {
        "kind": "file",
        "name": "a.png",
        "mime_type": "image/png",
        "uri": None,
        "bytes": 3,
    }
    agg = _fold(
        ArtifactChunk(1, "a", [_text("Hello ")], name="answer"),
        ArtifactChunk(2, "b", [{"kind": "data", "data": {"n": 1}}], last_chunk=True),
        ArtifactChunk(3, "a", [_text("world"), file_part], append=True),
        ArtifactChunk(4, "a", [_text("."), _text("!")], append=True, last_chunk=True),
    )
    a, b = agg.agent.artifacts()
    assert a.to_dict() == {
        "id": "a",
        "name": "answer",
        "description": None,
        "text": "Hello world.!",
        "parts": [_text("Hello world"), file_part, _text(".!")],
        "complete": True,
        "chunks": 3,
        "record": 1,
        "last_record": 4,
    }
    assert (b.text, b.parts, b.complete, b.chunks) == (
        "",
        [{"kind": "data", "data": {"n": 1}}],
        True,
        1,
    )


def test_a_chunk_that_does_not_append_restarts_the_artifact() -> None:
    agg = _fold(
        ArtifactChunk(1, "a", [_text("draft")], last_chunk=True),
        ArtifactChunk(2, "a", [_text("final")], description="v2"),
    )
    (art,) = agg.agent.artifacts()
    assert (art.text, art.complete, art.chunks, art.description) == ("final", False, 2, "v2")
    assert (art.record, art.last_record) == (1, 2)


def test_agent_events_after_the_terminal_are_kept_and_are_no_content() -> None:
    agg = _fold(
        Terminal(1, "completed", "done"),
        Notification(2, "notifications/message", "info: late"),
        TaskUpdate(3, "completed"),
    )
    assert "stream.events-after-terminal" not in [d.code for d in agg.diagnostics]
    assert [n.record for n in agg.agent.notifications()] == [2]
    assert agg.agent.task is not None and agg.agent.task.state == "completed"


def test_a_bounded_pipeline_trims_artifact_text_too() -> None:
    agg = Aggregator()
    agg.feed([ResponseStart(0), ArtifactChunk(1, "a", [_text("x" * 50)])])
    agg.trim_content(10)
    assert agg.content_cut == 40
    agg.close()
    assert agg.agent.artifacts()[0].text == "x" * 10


def test_the_sections_are_left_out_of_a_report_without_them() -> None:
    data = Report().to_dict()
    assert not {"task", "artifacts", "notifications"} & set(data)
    VALIDATOR.validate(data)


def test_the_sections_follow_the_schema_and_come_after_the_state() -> None:
    agg = _fold(
        TaskUpdate(0, "working", "t", "c", "busy", "agent"),
        ArtifactChunk(1, "a", [_text("hi"), {"kind": "data", "data": [1, None]}]),
        Notification(2, "notifications/progress", "1/2 · half"),
        Notification(3, "sampling/createMessage", "", request_id=7),
    )
    data = _report(agg).to_dict()
    VALIDATOR.validate(data)
    keys = list(data)
    assert keys[keys.index("state") + 1 : keys.index("state") + 4] == [
        "task",
        "artifacts",
        "notifications",
    ]
    assert data["notifications"][1] == {
        "record": 3,
        "method": "sampling/createMessage",
        "summary": "",
        "request_id": 7,
    }
    broken = json.loads(json.dumps(data))
    broken["artifacts"][0]["parts"][0]["kind"] = "video"
    assert not VALIDATOR.is_valid(broken)


def test_redaction_hides_every_section_s_content() -> None:
    secret = "s3cr3t-value"
    file_part: JSON = {
        "kind": "file",
        "name": secret,
        "mime_type": "text/plain",
        "uri": f"https://x/{secret}",
        "bytes": None,
    }
    agg = _fold(
        TaskUpdate(0, "input-required", "t", "c", f"ask {secret}", "agent", interrupted=True),
        AgentMessage(1, f"say {secret}", "agent"),
        ArtifactChunk(2, "a", [_text(secret), {"kind": "data", "data": {"k": secret}}, file_part]),
        Notification(3, "notifications/message", f"info: {secret}"),
    )
    data = redact_report(_report(agg).to_dict())
    assert secret not in json.dumps(data)
    assert data["task"]["asks"][0]["text"].startswith("[redacted ")
    assert data["artifacts"][0]["parts"][2]["mime_type"] == "text/plain"
    VALIDATOR.validate(data)


def test_a_pipeline_with_a_timeline_builds_the_same_sections() -> None:
    def rpc(result: dict[str, object]) -> str:
        return f"data: {json.dumps({'jsonrpc': '2.0', 'id': 1, 'result': result})}\n\n"

    body = "".join(
        [
            rpc({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "submitted"}}),
            rpc(
                {
                    "kind": "artifact-update",
                    "taskId": "t",
                    "artifact": {"artifactId": "a", "parts": [{"kind": "text", "text": "Hi"}]},
                    "append": False,
                    "lastChunk": True,
                }
            ),
            rpc(
                {
                    "kind": "status-update",
                    "taskId": "t",
                    "status": {
                        "state": "input-required",
                        "message": {"role": "agent", "parts": [{"kind": "text", "text": "?"}]},
                    },
                    "final": True,
                }
            ),
        ]
    ).encode()
    reports = []
    for timeline in (None, Timeline()):
        pipeline = Pipeline()
        pipeline.aggregator.timeline = timeline
        pipeline.feed(body)
        pipeline.close()
        reports.append(pipeline.report().to_dict())
    plain, timed = reports
    assert plain == timed
    assert plain["task"]["asks"] == [{"record": 2, "state": "input-required", "text": "?"}]
    assert plain["artifacts"][0]["text"] == "Hi"

"""AG-UI runs through ``ssescope.inspect``: the shared state (snapshots and JSON Patch
deltas) in the Report's ``state``, the spec's ordering rules as ``ag-ui.order``, and the
messages of a run kept apart."""

from __future__ import annotations

import json
from typing import Any

import pytest

import ssescope
from ssescope.output.redaction import redact_report

START = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}
FINISH = {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}


def _body(*events: dict[str, Any]) -> bytes:
    return "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode()


def _order(report: ssescope.Report) -> list[str]:
    return [d.message for d in report.diagnostics if d.code == "ag-ui.order"]


def test_snapshots_and_deltas_build_the_reports_state() -> None:
    report = ssescope.inspect(
        _body(
            START,
            {"type": "STATE_SNAPSHOT", "snapshot": {"todo": ["a"], "done": 0}},
            {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/todo/-", "value": "b"}]},
            {"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/done", "value": 1}]},
            FINISH,
        )
    )
    assert report.status == "completed"
    assert report.to_dict()["state"] == {
        "value": {"todo": ["a", "b"], "done": 1},
        "snapshots": 1,
        "deltas": 2,
        "failed_patches": 0,
    }
    assert "ag-ui.patch-failed" not in [d.code for d in report.diagnostics]


def test_a_patch_that_does_not_apply_is_reported_and_leaves_the_state() -> None:
    report = ssescope.inspect(
        _body(
            START,
            {"type": "STATE_SNAPSHOT", "snapshot": {"n": 1}},
            {
                "type": "STATE_DELTA",
                "delta": [
                    {"op": "replace", "path": "/n", "value": 2},
                    {"op": "remove", "path": "/missing"},
                ],
            },
            {"type": "STATE_DELTA", "delta": [{"op": "test", "path": "/n", "value": 9}]},
            {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/m", "value": True}]},
            FINISH,
        )
    )
    state = report.to_dict()["state"]
    # the whole of a failing patch is dropped, its first operation too
    assert state == {"value": {"n": 1, "m": True}, "snapshots": 1, "deltas": 3, "failed_patches": 2}
    failed = [d for d in report.diagnostics if d.code == "ag-ui.patch-failed"]
    assert [d.record for d in failed] == [2, 3]
    assert "operation 1" in failed[0].message and "test failed" in failed[1].message
    assert report.status == "completed"


def test_a_delta_before_any_snapshot_applies_to_an_empty_state() -> None:
    report = ssescope.inspect(
        _body(START, {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a", "value": 1}]})
    )
    assert report.status == "truncated"
    assert report.to_dict()["state"] == {
        "value": {"a": 1},
        "snapshots": 0,
        "deltas": 1,
        "failed_patches": 0,
    }


def test_the_state_carries_over_to_the_next_run_of_the_thread() -> None:
    report = ssescope.inspect(
        _body(
            START,
            {"type": "STATE_SNAPSHOT", "snapshot": {"step": 1}},
            FINISH,
            {**START, "runId": "r2"},
            {"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/step", "value": 2}]},
            {**FINISH, "runId": "r2"},
        )
    )
    assert len(report.responses) == 2
    assert report.to_dict()["state"]["value"] == {"step": 2}
    assert report.to_dict()["state"]["failed_patches"] == 0


def test_a_stream_without_state_events_has_no_state() -> None:
    report = ssescope.inspect(_body(START, FINISH))
    assert report.to_dict()["state"] is None
    anthropic = ssescope.inspect(
        b'event: message_start\ndata: {"type":"message_start","message":{"id":"m"}}\n\n'
    )
    assert anthropic.to_dict()["state"] is None


def test_redaction_hides_the_state_value_and_keeps_the_counts() -> None:
    secret = {"card": "4111 1111 1111 1111"}
    report = ssescope.inspect(_body(START, {"type": "STATE_SNAPSHOT", "snapshot": secret}, FINISH))
    data = redact_report(report.to_dict())
    assert "4111" not in json.dumps(data)
    assert data["state"]["value"].startswith("[redacted ")
    assert data["state"]["snapshots"] == 1


@pytest.mark.parametrize(
    ("events", "message"),
    [
        (
            [{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"}],
            "TEXT_MESSAGE_CONTENT for the message 'm', which was never started.",
        ),
        (
            [
                {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"},
                {"type": "TOOL_CALL_END", "toolCallId": "c"},
                {"type": "TOOL_CALL_END", "toolCallId": "c"},
            ],
            "The tool call 'c' was ended twice.",
        ),
        (
            [
                {"type": "TEXT_MESSAGE_START", "messageId": "m"},
                {"type": "TEXT_MESSAGE_END", "messageId": "m"},
                {"type": "TEXT_MESSAGE_END", "messageId": "m"},
            ],
            "The message 'm' was ended twice.",
        ),
        (
            [{"type": "TEXT_MESSAGE_START", "messageId": "m"}],
            "The message 'm' was started but never ended before the run ended.",
        ),
        (
            [{"type": "STEP_FINISHED", "stepName": "plan"}],
            "STEP_FINISHED for the step 'plan', which was never started.",
        ),
        (
            [{"type": "STEP_STARTED", "stepName": "plan"}],
            "The step 'plan' was started but never ended before the run ended.",
        ),
        (
            [{"type": "REASONING_MESSAGE_CONTENT", "messageId": "r", "delta": "hm"}],
            "REASONING_MESSAGE_CONTENT for the reasoning message 'r', which was never started.",
        ),
        (
            [
                {"type": "REASONING_MESSAGE_START", "messageId": "r"},
                {"type": "REASONING_MESSAGE_END", "messageId": "r"},
                {"type": "REASONING_MESSAGE_END", "messageId": "r"},
            ],
            "REASONING_MESSAGE_END for the reasoning message 'r', which was never started.",
        ),
        (
            [{"type": "REASONING_MESSAGE_START", "messageId": "r"}],
            "The reasoning message 'r' was started but never ended before the run ended.",
        ),
    ],
)
def test_an_ordering_rule_broken_inside_the_run_is_reported(
    events: list[dict[str, Any]], message: str
) -> None:
    report = ssescope.inspect(_body(START, *events, FINISH))
    assert _order(report) == [message]
    assert report.status == "completed"


def test_run_finished_after_run_error_is_reported_and_the_run_stays_failed() -> None:
    report = ssescope.inspect(
        _body(START, {"type": "RUN_ERROR", "message": "model failed", "code": "E"}, FINISH)
    )
    assert report.status == "failed"
    assert report.to_dict()["error"]["message"] == "model failed"
    assert _order(report) == ["RUN_FINISHED after RUN_ERROR: the run stays failed."]


def test_events_after_the_run_ended_are_reported_and_not_read() -> None:
    report = ssescope.inspect(
        _body(
            START,
            {"type": "TEXT_MESSAGE_START", "messageId": "m"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "done"},
            {"type": "TEXT_MESSAGE_END", "messageId": "m"},
            FINISH,
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": " and more"},
        )
    )
    assert report.status == "completed"
    assert report.text == "done"
    assert _order(report) == [
        "TEXT_MESSAGE_CONTENT after the run ended (RUN_FINISHED); it is not part of the run."
    ]


def test_each_message_of_a_run_is_an_output_of_its_own_with_its_tool_call() -> None:
    report = ssescope.inspect(
        _body(
            START,
            {"type": "STEP_STARTED", "stepName": "search"},
            {"type": "TEXT_MESSAGE_START", "messageId": "a"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a", "delta": "Looking"},
            {"type": "TEXT_MESSAGE_END", "messageId": "a"},
            {
                "type": "TOOL_CALL_START",
                "toolCallId": "c",
                "toolCallName": "f",
                "parentMessageId": "a",
            },
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"q":'},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": "1}"},
            {"type": "TOOL_CALL_END", "toolCallId": "c"},
            {"type": "STEP_FINISHED", "stepName": "search"},
            {"type": "TEXT_MESSAGE_START", "messageId": "b"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "b", "delta": "Found"},
            {"type": "TEXT_MESSAGE_END", "messageId": "b"},
            FINISH,
        )
    )
    outputs = report.to_dict()["outputs"]
    assert [o["text"] for o in outputs] == ["Looking", "Found"]
    assert [(c["name"], c["input"]) for c in outputs[0]["tool_calls"]] == [("f", {"q": 1})]
    assert outputs[1]["tool_calls"] == []
    assert _order(report) == []


@pytest.mark.parametrize(
    ("outcome", "status"),
    [("interrupt", "incomplete"), ("suspended", "incomplete"), ("success", "completed")],
)
def test_the_outcome_of_run_finished_gives_the_verdict(outcome: str, status: str) -> None:
    report = ssescope.inspect(_body(START, {**FINISH, "outcome": {"type": outcome}}))
    assert report.status == status
    assert report.to_dict()["outputs"][-1]["raw_finish_reason"] == outcome


@pytest.mark.parametrize("record", [b"[1, 2]", b'"RUN_FINISHED"', b"7"])
def test_a_record_that_is_json_but_no_event_object_is_reported_and_the_run_read(
    record: bytes,
) -> None:
    message = {"type": "TEXT_MESSAGE_START", "messageId": "m"}
    content = {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "still read"}
    body = (
        _body(START, message)
        + b"data: "
        + record
        + b"\n\n"
        + _body(content, {"type": "TEXT_MESSAGE_END", "messageId": "m"}, FINISH)
    )
    report = ssescope.inspect(body, provider="ag-ui")
    assert report.status == "completed"
    assert report.text == "still read"
    (found,) = [d for d in report.diagnostics if d.code == "ag-ui.unexpected-json"]
    assert found.record == 2

"""AG-UI JSON Patch: the one-operation shortcut gives what the general path gives, and an
index written in another script's digits is no index (reported, not a crash)."""

from __future__ import annotations

import copy
import json

import pytest

import ssescope
from ssescope.events import JSON
from ssescope.providers.ag_ui import patch

STATE: JSON = {"items": [{"id": 0, "done": False}, {"id": 1, "done": False}], "title": "t"}

ONE_OPERATION: list[dict[str, JSON]] = [
    {"op": "replace", "path": "/items/1/done", "value": True},
    {"op": "replace", "path": "/title", "value": None},
    {"op": "add", "path": "/count", "value": 3},
    {"op": "add", "path": "/items/0/note", "value": "n"},
    {"op": "replace", "path": "/items/5/done", "value": True},  # out of range
    {"op": "replace", "path": "/missing", "value": 1},  # no member to replace
    {"op": "replace", "path": "/items/x/done", "value": 1},  # not an index
    {"op": "replace", "path": "/title/deeper", "value": 1},  # through a string
    {"op": "add", "path": "/items/1", "value": 7},  # an insert: the general path
    {"op": "replace", "path": "/items/0", "value": {"id": 9}},  # a container value
    {"op": "replace", "path": "/a~1b", "value": 1},  # an escape
    {"op": "replace", "path": "", "value": 1},  # the whole state
    {"op": "replace", "path": "/title"},  # no value
]


def _general(state: JSON, op: dict[str, JSON]) -> tuple[JSON, str | None]:
    doc = copy.deepcopy(state)
    try:
        return patch._op(doc, op, []), None
    except patch.PatchError as exc:
        return copy.deepcopy(state), f"operation 0: {exc}"


@pytest.mark.parametrize("op", ONE_OPERATION, ids=json.dumps)
def test_one_operation_gives_what_the_general_path_gives(op: dict[str, JSON]) -> None:
    expected, error = _general(STATE, op)
    state = copy.deepcopy(STATE)
    if error is None:
        assert patch.apply_patch(state, [op]) == expected
    else:
        with pytest.raises(patch.PatchError) as raised:
            patch.apply_patch(state, [op])
        assert str(raised.value) == error
        assert state == STATE  # nothing of a patch that does not apply is left


def test_an_index_in_another_scripts_digits_is_reported_not_a_crash() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "STATE_SNAPSHOT", "snapshot": {"a": [1, 2]}},
        {"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/a/\u00b2", "value": 0}]},
        {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a/\u0661", "value": 0}]},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode()
    report = ssescope.inspect(body)
    assert report.status == "completed"
    assert [d.code for d in report.diagnostics].count("ag-ui.patch-failed") == 2
    state = report.to_dict()["state"]
    assert state["value"] == {"a": [1, 2]}
    assert state["failed_patches"] == 2

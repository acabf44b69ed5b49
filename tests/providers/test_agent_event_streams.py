"""The real Gemini Interactions and AG-UI recordings give the verdicts and facts their
README states, read as JSONL and re-framed as SSE; cut anywhere they are never completed;
bad input is a diagnostic and the rest is read."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import ssescope
from ssescope.events import JSON
from ssescope.providers.ag_ui.patch import PatchError, apply_patch

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
AGENT = STREAMS / "agent"

needs_streams = pytest.mark.skipif(
    not AGENT.is_dir(),
    reason=f"the real agent streams are not at {AGENT} (set SSESCOPE_REAL_STREAMS)",
)

# file -> (status, raw finish, text length, text start, (in, out, thought) or None)
EXPECTED: dict[str, tuple[str, str | None, int, str, tuple[int, int, int] | None]] = {
    "gemini-interactions/steps-thought-text.jsonl": (
        "completed",
        "completed",
        91,
        "I'm doing great, thank you for asking!",
        (7, 26, 115),
    ),
    "gemini-interactions/steps-google-search-annotations.jsonl": (
        "completed",
        "completed",
        2406,
        "Here's a notable AI development",
        (22, 590, 1173),
    ),
    "gemini-interactions/steps-function-call-requires-action.jsonl": (
        "completed",
        "requires_action",
        0,
        "",
        (53, 15, 65),
    ),
    "gemini-interactions/steps-stateless-empty-id.jsonl": (
        "completed",
        "completed",
        89,
        "The three largest cities in Spain are:",
        (10, 29, 174),
    ),
    "gemini-interactions/legacy-content-thought-text.jsonl": (
        "completed",
        "completed",
        177,
        "Hello! I'm doing well, thank you for asking.",
        (7, 50, 29),
    ),
    "gemini-interactions/legacy-function-call-requires-action.jsonl": (
        "completed",
        "requires_action",
        0,
        "",
        (54, 15, 67),
    ),
    "gemini-interactions/legacy-image-output-edited.jsonl": (
        "completed",
        "completed",
        0,
        "",
        (12, 1283, 191),
    ),
    "ag-ui/dotnet-reasoning-then-text.jsonl": (
        "completed",
        "success",
        362,
        "Let c = number of chickens and r = number of rabbits.",
        None,
    ),
    "ag-ui/dotnet-interrupt-input-required.jsonl": ("incomplete", "interrupt", 0, "", None),
    "ag-ui/dotnet-backend-tool-result-text.jsonl": (
        "completed",
        "success",
        273,
        "I found one Italian restaurant in Seattle:",
        None,
    ),
    "ag-ui/agno-openai-tool-call-result.jsonl": ("completed", None, 13, "42 * 17 = 714", None),
    "ag-ui/vercel-openai-snake-case-keys.jsonl": ("completed", None, 156, "Hello", None),
    "ag-ui/vercel-openai-run-error-then-finished.jsonl": ("failed", None, 0, "", None),
    "ag-ui/gemini-raw-tool-then-run-error.jsonl": ("failed", None, 0, "", None),
}

CALLS = {
    "gemini-interactions/steps-function-call-requires-action.jsonl": (
        "getWeather",
        "61nzpsv4",
        {"location": "San Francisco"},
    ),
    "gemini-interactions/legacy-function-call-requires-action.jsonl": (
        "getWeather",
        "odkxni2w",
        {"location": "San Francisco"},
    ),
    "ag-ui/dotnet-backend-tool-result-text.jsonl": (
        "SearchRestaurants",
        None,
        {"request": {"Location": "Seattle", "Cuisine": "Italian"}},
    ),
}


def _lines(name: str) -> list[str]:
    text = (AGENT / name).read_text(encoding="utf-8-sig")
    return [line for line in text.splitlines() if line.strip()]


def _as_sse(name: str, named: bool) -> bytes:
    """The recording re-framed as the server sends it: ``data:`` lines, with the
    Interactions ``event:`` name when ``named``."""
    out = []
    for line in _lines(name):
        kind = json.loads(line).get("event_type")
        head = f"event: {kind}\n" if named and kind else ""
        out.append(f"{head}data: {line}\n\n")
    return "".join(out).encode()


def _bodies(name: str) -> list[bytes]:
    raw = (AGENT / name).read_bytes()
    return [raw, _as_sse(name, False), _as_sse(name, True)]


def _text(report: ssescope.Report) -> str:
    return "".join(o.get("text") or "" for o in report.to_dict()["outputs"])


@needs_streams
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_real_recording_gives_its_verdict_and_facts(name: str) -> None:
    status, raw_finish, length, start, usage = EXPECTED[name]
    provider = name.split("/", maxsplit=1)[0]
    for body in _bodies(name):
        report = ssescope.inspect(body)
        d = report.to_dict()
        assert d["provider"] == provider
        assert d["status"] == status, d["status_reason"]
        text = _text(report)
        assert len(text) == length
        assert text.startswith(start)
        if raw_finish is not None:
            assert d["outputs"][-1]["raw_finish_reason"] == raw_finish
        if usage is not None:
            u = d["usage"]
            assert (u["input_tokens"], u["output_tokens"], u["reasoning_tokens"]) == usage
        if name in CALLS:
            fn, call_id, args = CALLS[name]
            calls = [c for o in d["outputs"] for c in o["tool_calls"]]
            assert [(c["name"], c["input"]) for c in calls] == [(fn, args)]
            if call_id is not None:
                assert calls[0]["id"] == call_id


@needs_streams
def test_run_finished_after_run_error_stays_failed_and_is_reported() -> None:
    report = ssescope.inspect((AGENT / "ag-ui/gemini-raw-tool-then-run-error.jsonl").read_bytes())
    assert report.status == "failed"
    d = report.to_dict()
    assert d["error"]["message"] == "Could not convert `part.function_call` to text."
    order = [x for x in d["diagnostics"] if x["code"] == "ag-ui.order"]
    assert [x["message"] for x in order] == ["RUN_FINISHED after RUN_ERROR: the run stays failed."]


def _cuts(body: bytes) -> list[int]:
    """Every byte near an event boundary, and a byte inside each event."""
    points: set[int] = set()
    start = 0
    for end in [i + 1 for i, b in enumerate(body) if b == 0x0A]:
        points.update({max(0, end - 2), end - 1, end, min(len(body), end + 1)})
        points.add((start + end) // 2)
        start = end
    return sorted(p for p in points if p < len(body.rstrip()))


@needs_streams
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_cut_recording_is_never_completed(name: str) -> None:
    full = ssescope.inspect((AGENT / name).read_bytes()).status
    for body in _bodies(name):
        # the last terminal: a cut before it must not give the full verdict of a success
        for cut in _cuts(body):
            report = ssescope.inspect(body[:cut])
            if full == "completed" or full == "incomplete":
                assert report.status == "truncated", (cut, report.to_dict()["status_reason"])
            else:  # a failed run stays failed once its RUN_ERROR arrived
                assert report.status in ("truncated", "failed"), cut


def test_bad_input_is_reported_and_the_rest_is_read() -> None:
    body = (
        b'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n'
        b"data: {not json\n\n"
        b'data: {"type":"NO_SUCH_EVENT"}\n\n'
        b'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Hi"}\n\n'
        b'data: {"type":"TEXT_MESSAGE_CONTENT","delta":"lost"}\n\n'
        b'data: {"type":"STATE_DELTA","delta":[{"op":"replace","path":"/x","value":1}]}\n\n'
        b'data: {"type":"TOOL_CALL_END","toolCallId":"c"}\n\n'
        b'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n'
    )
    report = ssescope.inspect(body)
    codes = [d.code for d in report.diagnostics]
    assert report.provider == "ag-ui"
    assert report.status == "completed"
    assert _text(report) == "Hi"
    for code in (
        "json.invalid",
        "provider.unknown-event",
        "ag-ui.missing-id",
        "ag-ui.patch-failed",
    ):
        assert code in codes
    assert codes.count("ag-ui.order") == 2  # content never started, end never started


def test_an_interactions_stream_ending_on_a_delta_is_truncated() -> None:
    body = (
        b'event: interaction.created\ndata: {"interaction":{"id":"v1_a","status":"in_progress"},'
        b'"event_type":"interaction.created"}\n\n'
        b'event: step.start\ndata: {"index":0,"step":{"type":"model_output"},"event_type":"step.start"}\n\n'
        b'event: step.delta\ndata: {"index":0,"delta":{"type":"text","text":"Hel"},"event_type":"step.delta"}\n\n'
    )
    report = ssescope.inspect(body)
    assert report.provider == "gemini-interactions"
    assert report.status == "truncated"
    assert _text(report) == "Hel"
    assert "gemini-interactions.missing-completed" in [d.code for d in report.diagnostics]


@pytest.mark.parametrize(
    ("status", "verdict"),
    [
        ("failed", "failed"),
        ("cancelled", "cancelled"),
        ("incomplete", "incomplete"),
        ("completed", "completed"),
    ],
)
def test_the_final_interaction_status_gives_the_verdict(status: str, verdict: str) -> None:
    body = (
        (
            'data: {"interaction":{"id":"v1_a","previous_interaction_id":"v1_p"},"event_type":"interaction.created"}\n\n'
            'data: {"interaction":{"id":"v1_a","status":"STATUS"},"event_type":"interaction.completed"}\n\n'
        )
        .replace("STATUS", status)
        .encode()
    )
    report = ssescope.inspect(body)
    assert report.status == verdict
    [previous] = [
        d
        for d in report.to_dict()["diagnostics"]
        if d["code"] == "gemini-interactions.previous-interaction"
    ]
    assert previous["args"]["previous"] == "v1_p"  # the turn it continues, in the Report
    assert report.to_dict()["id"] == "v1_a"


def _final(interaction: str) -> bytes:
    return (
        'data: {"interaction":{"id":"v1_a"},"event_type":"interaction.created"}\n\n'
        'data: {"interaction":' + interaction + ',"event_type":"interaction.completed"}\n\n'
    ).encode()


def test_an_unknown_final_status_is_reported_and_the_response_still_ends() -> None:
    report = ssescope.inspect(_final('{"id":"v1_a","status":"paused"}'))
    assert report.status == "completed"
    [found] = [d for d in report.diagnostics if d.code == "gemini-interactions.unknown-status"]
    assert "'paused'" in found.message


@pytest.mark.parametrize(
    ("usage", "form"),
    [('"many"', "not-an-object"), ('{"total_input_tokens":"7"}', "not-an-integer")],
)
def test_a_malformed_interaction_usage_is_reported(usage: str, form: str) -> None:
    report = ssescope.inspect(_final('{"id":"v1_a","status":"completed","usage":' + usage + "}"))
    assert report.status == "completed"
    found = [
        d
        for d in report.to_dict()["diagnostics"]
        if d["code"] == "gemini-interactions.invalid-usage"
    ]
    assert [d["form"] for d in found] == [form]


def test_a_run_error_with_its_text_under_error_is_read_and_noted() -> None:
    body = (
        b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n'
        b'{"type":"RUN_ERROR","error":"model overloaded"}\n'
    )
    report = ssescope.inspect(body)
    assert report.provider == "ag-ui"
    assert report.status == "failed"
    assert report.to_dict()["error"]["message"] == "model overloaded"
    assert "ag-ui.error-key" in [d.code for d in report.diagnostics]


def test_an_interactions_error_event_is_failed() -> None:
    body = b'data: {"event_type":"error","error":{"code":"quota","message":"over quota"}}\n\n'
    report = ssescope.inspect(body)
    assert report.provider == "gemini-interactions"
    assert report.status == "failed"
    assert report.to_dict()["error"]["message"] == "over quota"


def test_json_patch_applies_and_a_patch_that_does_not_is_refused() -> None:
    state: JSON = {"items": [1], "n": 0}
    patch: JSON = [
        {"op": "add", "path": "/items/-", "value": 2},
        {"op": "replace", "path": "/n", "value": 5},
        {"op": "copy", "from": "/n", "path": "/m"},
        {"op": "test", "path": "/m", "value": 5},
    ]
    assert apply_patch(state, patch) == {"items": [1, 2], "n": 5, "m": 5}
    with pytest.raises(PatchError, match="operation 0"):
        apply_patch(state, [{"op": "remove", "path": "/missing"}])
    # a patch that fails halfway leaves the state as it was before it, every change undone
    before = {"items": [1, {"a": 2}], "n": 5, "m": 5}
    state = {"items": [1, {"a": 2}], "n": 5, "m": 5}
    undone: JSON = [
        {"op": "add", "path": "/items/0", "value": 0},
        {"op": "remove", "path": "/n"},
        {"op": "replace", "path": "/items/2/a", "value": 3},
        {"op": "add", "path": "/items/-", "value": 9},
        {"op": "move", "from": "/m", "path": "/k"},
        {"op": "add", "path": "/new", "value": {}},
        {"op": "test", "path": "/k", "value": 6},
    ]
    with pytest.raises(PatchError, match="operation 6: test failed"):
        apply_patch(state, undone)
    assert state == before
    with pytest.raises(PatchError, match="into one of its own members"):
        apply_patch(state, [{"op": "move", "from": "/items", "path": "/items/0"}])
    assert apply_patch(state, [{"op": "replace", "path": "", "value": [1]}]) == [1]


def test_messages_of_a_run_stay_apart() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_START", "messageId": "a"},
        {"type": "TEXT_MESSAGE_START", "messageId": "b"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a", "delta": "one"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "b", "delta": "two"},
        {"type": "TEXT_MESSAGE_END", "messageId": "a"},
        {"type": "TEXT_MESSAGE_END", "messageId": "b"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode()
    outputs = ssescope.inspect(body).to_dict()["outputs"]
    assert [o["text"] for o in outputs] == ["one", "two"]


@needs_streams
@pytest.mark.parametrize(
    ("name", "quirk", "status", "code"),
    [
        (
            "ag-ui/dotnet-backend-tool-result-text.jsonl",
            "run-finished-after-run-error",
            "failed",
            "ag-ui.order",
        ),
        (
            "gemini-interactions/steps-thought-text.jsonl",
            "ends-on-content-delta",
            "truncated",
            "gemini-interactions.missing-completed",
        ),
    ],
)
def test_a_quirk_preset_gives_the_servers_bug(
    name: str, quirk: str, status: str, code: str
) -> None:
    from ssescope.serve.quirks import apply_quirks, parse_quirk

    plan = apply_quirks(_as_sse(name, named=True), [parse_quirk(quirk)])
    report = ssescope.inspect(plan.body)
    assert report.status == status
    assert code in [d.code for d in report.diagnostics]


def test_an_interactions_record_that_is_json_but_not_an_object_is_reported_and_the_rest_read() -> (
    None
):
    created, completed = _final('{"id":"v1_a","status":"completed"}').split(b"\n\n", 1)
    body = created + b"\n\ndata: [1, 2]\n\n" + completed
    report = ssescope.inspect(body)
    assert report.provider == "gemini-interactions"
    assert "gemini-interactions.unexpected-json" in [d.code for d in report.diagnostics]
    assert report.status == "completed"  # the records after it were read

"""A2A (0.x and 1.0): the real recordings give their README's verdicts and artifacts,
every cut before the deciding state is truncated, and chunking changes nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import ssescope
from ssescope import Pipeline
from ssescope.events import Terminal

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
A2A = STREAMS / "agent" / "a2a"

# file -> (status, artifact text) as agent/README.md states them
REAL = {
    "langgraph-currency-message-stream-v03.sse": ("completed", "10 USD is 856.2 INR."),
    "local-v03-completed-artifact-chunks.sse": ("completed", "Hello world."),
    "local-v03-failed.sse": ("failed", ""),
    "local-v03-input-required.sse": ("incomplete", ""),
    "local-v03-cancel-never-closes.sse": ("truncated", ""),
    "local-v10-completed-artifact-chunks.sse": ("completed", "Hello world."),
    "local-v10-canceled.sse": ("cancelled", ""),
    "local-v10-subscribe-to-task.sse": ("completed", "Hello world."),
}

# file -> (last state, {artifact id prefix: text}, status messages) as agent/README.md states them
FACTS: dict[str, tuple[str, dict[str, str], list[str]]] = {
    "langgraph-currency-message-stream-v03.sse": (
        "completed",
        {"08373241-a74": "10 USD is 856.2 INR."},
        ["Looking up the exchange rates...", "Processing the exchange rates.."],
    ),
    "local-v03-completed-artifact-chunks.sse": (
        "completed",
        {"art-1": "Hello world."},
        ["Working on it..."],
    ),
    "local-v03-failed.sse": ("failed", {}, ["Working on it...", "Upstream service unavailable"]),
    "local-v03-input-required.sse": (
        "input-required",
        {},
        ["Working on it...", "Which city do you mean?"],
    ),
    "local-v03-cancel-never-closes.sse": ("working", {}, ["Working on it..."]),
    "local-v10-completed-artifact-chunks.sse": (
        "completed",
        {"art-1": "Hello world."},
        ["Working on it..."],
    ),
    "local-v10-canceled.sse": ("canceled", {}, ["Working on it..."]),
    # (the README states no status message here: the one it has came in the task snapshot)
    "local-v10-subscribe-to-task.sse": (
        "completed",
        {"art-1": "Hello world."},
        ["Working on it..."],
    ),
}

needs_real = pytest.mark.skipif(
    not A2A.is_dir(), reason=f"the real A2A recordings are not at {A2A} (set SSESCOPE_REAL_STREAMS)"
)


@needs_real
@pytest.mark.parametrize("name", sorted(REAL))
def test_a_real_recording_gives_its_verdict_and_artifact(name: str) -> None:
    status, text = REAL[name]
    report = ssescope.inspect(A2A / name).to_dict()
    assert report["provider"] == "a2a"
    assert report["status"] == status
    assert (report["outputs"][0]["text"] if report["outputs"] else "") == text


@needs_real
@pytest.mark.parametrize("name", sorted(FACTS))
def test_a_real_recording_gives_its_task_artifacts_and_status_messages(name: str) -> None:
    state, artifacts, messages = FACTS[name]
    report = ssescope.inspect(A2A / name).to_dict()
    task = report["task"]
    assert task["state"] == state
    assert task["id"] and task["context_id"]
    assert [m["text"] for m in task["messages"]] == messages
    assert {m["role"] for m in task["messages"]} == {"agent"}
    assert task["states"][-1]["state"] == state
    found = report.get("artifacts", [])
    assert len(found) == len(artifacts)
    for art, (prefix, text) in zip(found, artifacts.items(), strict=True):
        assert art["id"].startswith(prefix)
        assert art["text"] == text
        assert art["complete"] is True
    asks = [a["text"] for a in task["asks"]]
    assert asks == (["Which city do you mean?"] if state == "input-required" else [])
    assert not [
        d
        for d in report["diagnostics"]
        if d["code"].startswith("a2a.") and d["code"] != "a2a.missing-final"
    ]


@needs_real
@pytest.mark.parametrize("name", sorted(REAL))
def test_every_cut_before_the_deciding_state_is_truncated(name: str) -> None:
    data = (A2A / name).read_bytes()
    pipeline = Pipeline(provider="a2a", keep_records=True)
    events = pipeline.feed(data) + pipeline.close()
    deciding = {e.record for e in events if isinstance(e, Terminal)}
    ends = [r.end for r in pipeline.records if r.index in deciding]
    for cut in range(min(ends, default=len(data))):
        status = ssescope.inspect(data[:cut], provider="a2a").status
        assert status == "truncated", (cut, status)


@needs_real
@pytest.mark.parametrize("name", sorted(REAL))
def test_a_recording_fed_in_small_chunks_gives_the_same_report(name: str) -> None:
    data = (A2A / name).read_bytes()
    whole = ssescope.inspect(iter([data])).to_dict()
    pieces = ssescope.inspect(iter([data[i : i + 5] for i in range(0, len(data), 5)])).to_dict()
    assert pieces["provider"] == "a2a"
    assert pieces == whole


def test_a_working_task_without_a_final_state_is_truncated() -> None:
    body = (
        b'data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t",'
        b'"status":{"state":"working"},"final":false}}\n\n'
    )
    report = ssescope.inspect(body).to_dict()
    assert report["status"] == "truncated"
    assert "a2a.missing-final" in [d["code"] for d in report["diagnostics"]]


def test_bad_input_is_reported_and_the_rest_is_read() -> None:
    body = (
        b"data: {oops\n\n"
        b'data: {"jsonrpc":"2.0","id":1,"result":{"kind":"mystery"}}\n\n'
        b'data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t",'
        b'"artifact":{"artifactId":"a","parts":[{"kind":"text","text":"hi"}]}}}\n\n'
        b'data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t",'
        b'"status":{"state":"rejected"},"final":true}}\n\n'
    )
    report = ssescope.inspect(body, provider="a2a").to_dict()
    codes = [d["code"] for d in report["diagnostics"]]
    assert "json.invalid" in codes and "a2a.unknown-result" in codes
    assert report["status"] == "failed"
    assert report["outputs"][0]["text"] == "hi"


def _sse(*results: object, v10: bool = False) -> bytes:
    """A stream of JSON-RPC responses carrying ``results``."""
    out = []
    for result in results:
        msg = {"result": result, "id": 1, "jsonrpc": "2.0"}
        out.append(f"data: {json.dumps(msg)}\r\n\r\n")
    return "".join(out).encode()


def _chunk(artifact_id: object, parts: list[object], **flags: object) -> dict[str, object]:
    return {
        "kind": "artifact-update",
        "taskId": "t",
        "contextId": "c",
        "artifact": {"artifactId": artifact_id, "parts": parts},
        **flags,
    }


def _status(state: str, text: str | None = None, **extra: object) -> dict[str, object]:
    status: dict[str, object] = {"state": state}
    if text is not None:
        status["message"] = {
            "kind": "message",
            "role": "agent",
            "parts": [{"kind": "text", "text": text}],
        }
    return {"kind": "status-update", "taskId": "t", "contextId": "c", "status": status, **extra}


def _text(text: str) -> dict[str, str]:
    return {"kind": "text", "text": text}


def _codes(report: dict[str, object]) -> list[str]:
    return [d["code"] for d in report["diagnostics"]]  # type: ignore[attr-defined]


def test_an_append_to_an_artifact_never_started_is_reported_and_starts_it() -> None:
    body = _sse(
        _chunk("a", [_text("lost start, ")], append=True),
        _chunk("a", [_text("end")], append=True, lastChunk=True),
        _status("completed", final=True),
    )
    report = ssescope.inspect(body).to_dict()
    assert _codes(report).count("a2a.append-without-start") == 1
    (art,) = report["artifacts"]
    assert (art["text"], art["complete"], art["chunks"]) == ("lost start, end", True, 2)
    assert report["outputs"][0]["text"] == "lost start, end"
    assert report["status"] == "completed"


def test_a_chunk_after_the_last_chunk_is_reported_and_kept() -> None:
    body = _sse(
        _chunk("a", [_text("one")], append=False, lastChunk=True),
        _chunk("a", [_text(" more")], append=True, lastChunk=False),
        _status("completed", final=True),
    )
    report = ssescope.inspect(body).to_dict()
    (diag,) = [d for d in report["diagnostics"] if d["code"] == "a2a.after-last-chunk"]
    assert diag["record"] == 1
    assert (
        diag["message"]
        == "Record 1 is a chunk of artifact 'a' after its last chunk (record 0); it is kept."
    )
    (art,) = report["artifacts"]
    assert (art["text"], art["complete"]) == ("one more", False)


def test_interleaved_artifacts_are_kept_apart_with_their_data_and_file_parts() -> None:
    body = _sse(
        _chunk("a", [_text("Hel")], append=False, lastChunk=False),
        _chunk(
            "b",
            [
                {"kind": "data", "data": {"rows": [1, 2]}},
                {
                    "kind": "file",
                    "file": {"name": "r.csv", "mimeType": "text/csv", "bytes": "aGVsbG8="},
                },
                {"kind": "file", "file": {"name": "big.bin", "uri": "https://x/big.bin"}},
            ],
            append=False,
            lastChunk=True,
        ),
        _chunk("a", [_text("lo")], append=True, lastChunk=True),
        _status("completed", final=True),
    )
    report = ssescope.inspect(body).to_dict()
    a, b = report["artifacts"]
    assert (a["id"], a["text"], a["parts"]) == ("a", "Hello", [_text("Hello")])
    assert b["parts"] == [
        {"kind": "data", "data": {"rows": [1, 2]}},
        {"kind": "file", "name": "r.csv", "mime_type": "text/csv", "uri": None, "bytes": 5},
        {
            "kind": "file",
            "name": "big.bin",
            "mime_type": None,
            "uri": "https://x/big.bin",
            "bytes": None,
        },
    ]
    assert "aGVsbG8" not in json.dumps(report)  # a file's bytes are never kept
    assert report["outputs"][0]["text"] == "Hello"


def test_the_1_0_shapes_give_the_same_sections() -> None:
    body = _sse(
        {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"}}},
        {
            "artifactUpdate": {
                "taskId": "t",
                "contextId": "c",
                "artifact": {
                    "artifactId": "a",
                    "name": "n",
                    "description": "d",
                    "parts": [
                        {"text": "x"},
                        {"data": [1]},
                        {
                            "raw": "AAEC",
                            "filename": "f.bin",
                            "mediaType": "application/octet-stream",
                        },
                        {"url": "https://x/f", "mediaType": "image/png"},
                    ],
                },
            }
        },
        {
            "artifactUpdate": {
                "taskId": "t",
                "contextId": "c",
                "artifact": {"artifactId": "a", "parts": [{"text": "y"}]},
                "append": True,
                "lastChunk": True,
            }
        },
        {"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "by the way"}]}},
        {
            "statusUpdate": {
                "taskId": "t",
                "contextId": "c",
                "status": {
                    "state": "TASK_STATE_AUTH_REQUIRED",
                    "message": {
                        "messageId": "m2",
                        "role": "ROLE_AGENT",
                        "parts": [{"data": {"scheme": "oauth2"}}],
                    },
                },
            }
        },
    )
    report = ssescope.inspect(body).to_dict()
    assert report["provider"] == "a2a"
    assert report["status"] == "incomplete"
    task = report["task"]
    assert [s["state"] for s in task["states"]] == ["submitted", "auth-required"]
    assert task["messages"] == [
        {"record": 3, "role": "agent", "text": "by the way", "state": None},
        {"record": 4, "role": "agent", "text": '{"scheme":"oauth2"}', "state": "auth-required"},
    ]
    assert task["asks"] == [{"record": 4, "state": "auth-required", "text": '{"scheme":"oauth2"}'}]
    (art,) = report["artifacts"]
    assert (art["name"], art["description"], art["complete"]) == ("n", "d", True)
    assert art["parts"] == [
        _text("x"),
        {"kind": "data", "data": [1]},
        {
            "kind": "file",
            "name": "f.bin",
            "mime_type": "application/octet-stream",
            "uri": None,
            "bytes": 3,
        },
        {
            "kind": "file",
            "name": None,
            "mime_type": "image/png",
            "uri": "https://x/f",
            "bytes": None,
        },
        _text("y"),
    ]
    assert report["outputs"][0]["text"] == "xy"


def test_a_restart_that_repeats_the_text_so_far_adds_only_the_rest_to_the_reply() -> None:
    body = _sse(
        _chunk("a", [_text("Hello")], append=False),
        _chunk("a", [_text("Hello world")], append=False),
        _chunk("a", [_text("Bye")], append=False, lastChunk=True),
        _status("completed", final=True),
    )
    report = ssescope.inspect(body).to_dict()
    (art,) = report["artifacts"]
    assert (art["text"], art["chunks"], art["complete"]) == ("Bye", 3, True)
    assert report["outputs"][0]["text"] == "Hello worldBye"
    assert not [c for c in _codes(report) if c.startswith("a2a.")]


def test_a_task_snapshot_s_artifacts_start_them_and_a_repeat_changes_nothing() -> None:
    snapshot = {
        "kind": "task",
        "id": "t",
        "contextId": "c",
        "status": {"state": "working"},
        "artifacts": [{"artifactId": "a", "parts": [_text("Hello ")]}],
    }
    final = {
        "kind": "task",
        "id": "t",
        "contextId": "c",
        "status": {"state": "completed"},
        "artifacts": [{"artifactId": "a", "parts": [_text("Hello world.")]}],
    }
    body = _sse(
        snapshot,
        _chunk("a", [_text("world.")], append=True, lastChunk=True),
        final,
    )
    report = ssescope.inspect(body).to_dict()
    (art,) = report["artifacts"]
    assert (art["text"], art["chunks"], art["complete"], art["last_record"]) == (
        "Hello world.",
        2,
        True,
        1,
    )
    assert report["outputs"][0]["text"] == "Hello world."
    assert report["status"] == "completed"
    assert not [c for c in _codes(report) if c.startswith("a2a.")]


def test_a_message_without_a_task_is_the_reply_and_ends_the_stream() -> None:
    message = {"kind": "message", "messageId": "m", "role": "agent", "parts": [_text("Hi there")]}
    report = ssescope.inspect(_sse(message)).to_dict()
    assert report["provider"] == "a2a"
    assert report["status"] == "completed"
    assert report["status_reason"] == "agent message (no task)"
    assert report["outputs"][0]["text"] == "Hi there"
    assert "task" not in report and "artifacts" not in report


def test_bad_artifacts_and_parts_are_reported_and_the_rest_is_read() -> None:
    body = _sse(
        {"kind": "artifact-update", "taskId": "t", "artifact": "not an object"},
        _chunk(None, [_text("kept ")]),
        _chunk(
            "a", [{"kind": "video", "frames": 3}, 7, _text("text")], append=False, lastChunk=True
        ),
        {
            "kind": "task",
            "id": "t",
            "status": {"state": "completed"},
            "artifacts": [{"parts": []}, 3],
        },
    )
    report = ssescope.inspect(body, provider="a2a").to_dict()
    codes = _codes(report)
    assert codes.count("a2a.invalid-artifact") == 4  # (two in the task's artifacts)
    assert codes.count("a2a.unknown-part") == 2
    invalid = [d["message"] for d in report["diagnostics"] if d["code"] == "a2a.invalid-artifact"]
    assert invalid[:2] == [
        "Record 0 has an artifact without an artifact object: there is nothing to assemble it into.",
        "Record 1 has an artifact without an artifactId: there is nothing to assemble it into.",
    ]
    assert report["outputs"][0]["text"] == "kept text"
    (art,) = report["artifacts"]
    assert art["parts"] == [_text("text")]
    assert report["status"] == "completed"


def test_a_final_flag_that_disagrees_with_the_state_is_reported_and_the_state_decides() -> None:
    body = _sse(
        _status("working", "still busy", final=True),
        _status("completed", final=False),
    )
    report = ssescope.inspect(body).to_dict()
    found = [d["message"] for d in report["diagnostics"] if d["code"] == "a2a.final-mismatch"]
    assert found == [
        "Record 0 says final: True with the task state 'working'; the state decides.",
        "Record 1 says final: False with the task state 'completed'; the state decides.",
    ]
    assert report["status"] == "completed"

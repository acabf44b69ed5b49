"""A2A artifacts assembled from any sequence of chunks: each artifact, the reply and the
diagnostics are what a plain model of the rules (docs/report.md, ``artifacts``) gives."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import ssescope

chunks = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]),
        st.booleans(),  # append
        st.booleans(),  # lastChunk
        st.lists(st.sampled_from(["x", "y", "xy", ""]), min_size=1, max_size=2),
    ),
    min_size=1,
    max_size=10,
)


def _model(
    seq: list[tuple[str, bool, bool, list[str]]],
) -> tuple[dict[str, tuple[str, bool]], str, int, int]:
    """Each artifact's (text, complete), the reply, and how many appends to an artifact
    never started and chunks after a last chunk there were."""
    texts: dict[str, str] = {}
    complete: dict[str, bool] = {}
    closed: set[str] = set()
    reply, unstarted, after_last = "", 0, 0
    for artifact, append, last, pieces in seq:
        text = "".join(pieces)
        if artifact not in texts:
            unstarted += append
            texts[artifact] = text
            reply += text
        else:
            if artifact in closed:
                after_last += 1
            if append:
                texts[artifact] += text
                reply += text
            else:
                before = texts[artifact]
                reply += text[len(before) :] if before and text.startswith(before) else text
                texts[artifact] = text
                closed.discard(artifact)
        complete[artifact] = last
        if last:
            closed.add(artifact)
    return {k: (texts[k], complete[k]) for k in texts}, reply, unstarted, after_last


@settings(max_examples=150, deadline=None, derandomize=True)
@given(seq=chunks)
def test_any_sequence_of_chunks_assembles_as_the_rules_say(
    seq: list[tuple[str, bool, bool, list[str]]],
) -> None:
    records = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "kind": "artifact-update",
                "taskId": "t",
                "artifact": {
                    "artifactId": a,
                    "parts": [{"kind": "text", "text": p} for p in pieces],
                },
                "append": append,
                "lastChunk": last,
            },
        }
        for a, append, last, pieces in seq
    ]
    body = "".join(f"data: {json.dumps(r)}\n\n" for r in records).encode()
    report = ssescope.inspect(body, provider="a2a").to_dict()
    artifacts, reply, unstarted, after_last = _model(seq)
    assert {a["id"]: (a["text"], a["complete"]) for a in report["artifacts"]} == artifacts
    assert [a["id"] for a in report["artifacts"]] == list(artifacts)
    assert sum(a["chunks"] for a in report["artifacts"]) == len(seq)
    assert (report["outputs"][0]["text"] if report["outputs"] else "") == reply
    codes = [d["code"] for d in report["diagnostics"]]
    assert codes.count("a2a.append-without-start") == unstarted
    assert codes.count("a2a.after-last-chunk") == after_last
    assert report["status"] == "truncated"  # (no task state came)

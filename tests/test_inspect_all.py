"""inspect_all: every stream of a capture, each Report naming its entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ssescope
from ssescope.containers import read_all, read_container

HAR = Path(__file__).parent / "fixtures" / "containers" / "devtools-several-streams.har"


def _line(rid: str, ts: float, content: str, finish: str | None = None) -> dict[str, object]:
    delta = {"content": content} if content else {}
    return {
        "ts": ts,
        "stream_id": rid,
        "chunk": {
            "id": f"chatcmpl-{rid}",
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        },
    }


# two streams whose lines interleave, and a bad line
LOG = (
    "\n".join(
        json.dumps(x)
        for x in (
            _line("x", 10.0, "Hel"),
            _line("y", 10.2, "Bon"),
            _line("x", 10.4, "lo", "stop"),
            _line("y", 11.0, "jour"),
        )
    )
    + "\nnot json\n"
).encode()


def test_every_streamed_entry_of_a_har_gets_a_report_naming_it() -> None:
    reports = ssescope.inspect_all(HAR)
    assert [r.status for r in reports] == ["completed", "truncated", "completed"]
    assert [r.text for r in reports] == ["Hello", "", "Bonjour"]
    entry = reports[1].entry
    assert entry is not None
    assert (entry.index, entry.method, entry.url) == (
        2,
        "POST",
        "https://chat.example.test/api/openai/chat",
    )
    assert entry.started == "2026-03-01T10:00:05.000Z"
    assert reports[1].to_dict()["entry"] == entry.to_dict()
    assert ssescope.inspect_all(HAR.read_bytes())[2].to_dict() == reports[2].to_dict()


def test_inspect_of_several_entries_asks_for_one_and_reads_the_one_named() -> None:
    with pytest.raises(ssescope.UsageError, match=r"3 streams \(entries 1, 2, 3\); .*inspect_all"):
        ssescope.inspect(HAR)
    report = ssescope.inspect(HAR, entry=2)
    assert report.entry is not None and report.entry.index == 2
    assert report.to_dict() == ssescope.inspect_all(HAR)[1].to_dict()
    # the first body alone, as read_container gives it, still names the others
    assert "har.multiple-entries" in [d.code for d in read_container(HAR.read_bytes()).diagnostics]


def test_an_input_holding_one_stream_gives_a_list_of_one_report_without_entry() -> None:
    body = b'{"model":"llama3","message":{"role":"assistant","content":"hi"},"done":true}\n'
    (report,) = ssescope.inspect_all(body)
    assert report.to_dict() == ssescope.inspect(body).to_dict()
    assert "entry" not in report.to_dict()
    (chunked,) = ssescope.inspect_all(iter([body[:5], body[5:]]))
    assert chunked.text == "hi"


def test_a_jsonl_log_is_split_by_its_stream_field_even_when_lines_interleave() -> None:
    bodies = read_all(LOG)
    assert [b.entry.index if b.entry else None for b in bodies] == [0, 1]
    assert [c.time for c in bodies[1].chunks] == pytest.approx([0.0, 0.8])
    assert [d.code for d in bodies[0].diagnostics] == ["jsonl.invalid-line"]
    assert bodies[1].diagnostics == []
    reports = ssescope.inspect_all(LOG)
    assert [(r.text, r.status) for r in reports] == [
        ("Hello", "completed"),
        ("Bonjour", "truncated"),
    ]
    first = read_container(LOG)
    assert [d.code for d in first.diagnostics] == ["jsonl.invalid-line", "jsonl.multiple-streams"]


def test_a_jsonl_dump_of_one_stream_has_no_entry() -> None:
    one = b"\n".join(json.dumps(_line("x", 1.0 + i, "a")).encode() for i in range(3))
    (body,) = read_all(one)
    assert body.entry is None
    assert [c.time for c in body.chunks] == [0.0, 1.0, 2.0]

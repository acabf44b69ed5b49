"""`inspect` of a capture the proxy is still writing: STREAMING, never a verdict."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.cli.cli_helpers import ROOT, run

from ssescope.cli import exitcodes
from ssescope.inflight import in_flight

STREAM = (ROOT / "tests" / "fixtures" / "live" / "openai_chat.sse").read_text()
NAME = "20261201T041512.123456Z-0001-post-v1-chat-completions"


def _record_folder(tmp_path: Path, cut_at: int) -> Path:
    """A record folder holding one capture of the first ``cut_at`` events, no end yet."""
    events = [e + "\n\n" for e in STREAM.split("\n\n") if e.strip()]
    head = {
        "ssescope": "capture",
        "version": 1,
        "request": {"method": "POST", "url": "http://127.0.0.1/v1/chat/completions"},
        "response": {"status": 200, "headers": [["content-type", "text/event-stream"]]},
    }
    lines = [json.dumps(head)] + [
        json.dumps({"t": i * 0.05, "data": e}) for i, e in enumerate(events[:cut_at])
    ]
    (tmp_path / "index.jsonl").write_text(json.dumps({"name": "other", "verdict": "completed"}))
    capture = tmp_path / f"{NAME}.ssecap"
    capture.write_text("\n".join(lines) + "\n")
    return capture


def test_a_capture_being_written_is_streaming_with_its_reply_so_far(tmp_path: Path) -> None:
    capture = _record_folder(tmp_path, 4)
    past = time.time() - 2.5
    os.utime(capture, (past, past))
    result = run("inspect", str(capture), "--pretty")
    assert result.code == exitcodes.IN_FLIGHT, result.err
    first = result.out.splitlines()[0]
    assert "STREAMING (streaming for " in first and "no verdict until it ends" in first
    assert "idle 2." in first  # (the time since the capture was last written)
    assert "truncated" not in result.out and "error" not in result.out
    assert "Hello," in result.out  # the reply so far
    assert "findings about its end come when it ends" in result.out
    # piped: the Report of the bytes so far, the state on stderr, the same exit code
    piped = run("inspect", str(capture))
    assert piped.code == exitcodes.IN_FLIGHT
    assert json.loads(piped.out)["records"]["total"] == 4
    assert "no verdict until it ends" in piped.err


def test_once_it_ends_the_capture_is_judged(tmp_path: Path) -> None:
    capture = _record_folder(tmp_path, 4)
    with capture.open("a") as fp:
        fp.write(json.dumps({"end": "cancelled", "t": 0.3}) + "\n")
    assert in_flight(capture) is None
    result = run("inspect", str(capture), "--pretty")
    assert result.code != exitcodes.IN_FLIGHT and "STREAMING" not in result.out
    # an index line for it is an end too (the proxy writes it once the exchange ended)
    capture = _record_folder(tmp_path, 4)
    assert in_flight(capture) is not None
    with (tmp_path / "index.jsonl").open("a") as fp:
        fp.write("\n" + json.dumps({"name": NAME, "verdict": "truncated"}) + "\n")
    assert in_flight(capture) is None
    assert run("inspect", str(capture)).code == exitcodes.TRUNCATED


def test_a_capture_outside_a_record_folder_is_judged_as_it_is(tmp_path: Path) -> None:
    capture = _record_folder(tmp_path, 4)
    (tmp_path / "index.jsonl").unlink()
    assert in_flight(capture) is None
    assert run("inspect", str(capture)).code == exitcodes.TRUNCATED


def test_the_verdict_line_names_a_long_silence_without_content(tmp_path: Path) -> None:
    capture = _record_folder(tmp_path, 99)
    (tmp_path / "index.jsonl").unlink()
    lines = capture.read_text().splitlines()
    chunks = [json.loads(x) for x in lines[1:]]
    for i, chunk in enumerate(chunks):
        chunk["t"] = i * 0.05 + (3.0 if i >= 3 else 0.0)  # 3 s of silence after record 2
    capture.write_text("\n".join([lines[0], *(json.dumps(c) for c in chunks)]) + "\n")
    first = run("inspect", str(capture), "--pretty").out.splitlines()[0]
    assert "completed" in first and "· idle 3.0 s mid text" in first, first
    # a stream without such a silence says nothing of it
    calm = _record_folder(tmp_path, 99)
    (tmp_path / "index.jsonl").unlink()
    assert "· idle " not in run("inspect", str(calm), "--pretty").out

"""records (formerly frames) shows the cut; the verdict counts the problems; small words."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cli.cli_helpers import EXAMPLES, ROOT, run

CUT = EXAMPLES / "broken-openai-cut-mid-tool-call.sse"


def test_frames_shows_the_cut_tail_as_its_own_row() -> None:
    result = run("records", str(CUT), env={"COLUMNS": "160"})
    assert result.code == 3  # records exits as inspect does: truncated
    lines = result.out.splitlines()
    cut = next(line for line in lines if line.split()[0] == "cut")
    assert cut.split()[1:3] == ["971", str(CUT.stat().st_size - 971)]
    assert "sse.unterminated-event" in cut
    assert 'data: {"id":"chatcmpl-B7x2kQ9"' in cut
    assert lines[-1] == "3 records · 1,176 bytes · truncated · cut at byte 971"
    row0 = next(line for line in lines if line.split()[0] == "0")
    assert "tool.incomplete" not in row0 and "invalid" not in row0
    row2 = next(line for line in lines if line.split()[0] == "2")
    assert 'args ty": "Ly' in row2
    assert "tool.incomplete" in row2


def test_frames_jsonl_has_the_cut_row_last() -> None:
    out = run("records", "--jsonl", str(CUT)).out
    assert run("frames", "--jsonl", str(CUT)).out == out  # the former name still works
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[-1]["kind"] == "tail"
    assert rows[-1]["index"] is None
    assert rows[-1]["offset"] == 971
    assert rows[-1]["diagnostics"] == ["sse.unterminated-event"]
    assert rows[2]["diagnostics"] == ["stream.missing-done", "tool.incomplete"]


def test_frames_event_names_keep_their_distinguishing_suffix() -> None:
    result = run("frames", "--example", "openai-responses-reasoning", env={"COLUMNS": "100"})
    assert "reasoning_summary_text.delta" in result.out
    assert "response.reasonin…" not in result.out


def test_frames_piped_into_a_reader_that_stops_exits_quietly(tmp_path: Path) -> None:
    big = tmp_path / "big.sse"
    big.write_bytes(b"".join(b'data: {"n":%d}\n\n' % i for i in range(20000)))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", "records", str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # the reader stops, as `| head -1` does
    with proc.stderr:
        err = proc.stderr.read()
    assert proc.wait(timeout=60) == 3  # the stream's own verdict: no terminal marker
    assert first.startswith(b"unknown")
    assert err == b""


def test_the_verdict_line_counts_errors_and_warnings_and_exit_codes_stay() -> None:
    result = run("inspect", "--pretty", str(CUT), env={"COLUMNS": "200"})
    first = result.out.splitlines()[0]
    assert first.endswith("· 3 records · 1,176 bytes · 1 error, 2 warnings")
    assert result.code == 3


def test_a_completed_stream_with_a_broken_tool_call_says_so_but_exits_0() -> None:
    body = (
        b'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1",'
        b'"function":{"name":"f","arguments":"{bad"}}]}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n'
        b"data: [DONE]\n\n"
    )
    result = run("inspect", "--pretty", "-", stdin=body, env={"COLUMNS": "200"})
    first = result.out.splitlines()[0]
    assert " completed " in first
    assert first.endswith("1 error")
    assert result.code == 0
    strict = run("inspect", "--json", "--fail-on", "error", "-", stdin=body)
    assert strict.code == 5


def test_one_record_is_a_record() -> None:
    result = run("inspect", "--pretty", "-", stdin=b"data: [DONE]\n\n", env={"COLUMNS": "200"})
    assert "· 1 record," in result.out.splitlines()[0]


def test_a_provider_error_without_a_type_does_not_print_none() -> None:
    body = b'data: {"error": {"message": "boom"}}\n\n'
    result = run(
        "inspect", "--pretty", "--provider", "openai-chat", "-", stdin=body, env={"COLUMNS": "200"}
    )
    assert "provider error: boom" in result.out
    assert "None" not in result.out


def test_records_redact_keeps_late_findings_redacted(tmp_path: Path) -> None:
    call = {"index": 0, "id": "c1", "function": {"name": "get", "arguments": '{"city": "Ly'}}
    first = {"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}
    second = {"choices": [{"index": 0, "delta": {"content": "secret words"}}]}
    path = tmp_path / "late.sse"
    path.write_text(f"data: {json.dumps(first)}\n\ndata: {json.dumps(second)}\n\n")
    out = run("records", "--jsonl", "--redact", str(path)).out
    lines = [json.loads(line) for line in out.splitlines()]
    finding = lines[-1]
    # the call's last record was printed before the stream ended: its finding comes late
    assert (finding["kind"], finding["code"]) == ("finding", "tool.incomplete")
    assert finding["record"] == 0
    assert finding["args"]["arguments"].startswith("[redacted 12 chars sha256:")
    assert "Ly" not in out and "secret words" not in out


def _piped_to_head(*args: str) -> tuple[int, bytes, bytes]:
    """Run ``ssescope ARGS | head -c 1``: the reader leaves after the first byte."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.read(1)
    proc.stdout.close()  # the next write meets a closed pipe
    with proc.stderr:
        err = proc.stderr.read()
    return proc.wait(timeout=60), first, err


def test_the_exit_code_survives_a_reader_that_leaves_early() -> None:
    for args in (
        ["inspect", str(CUT), "--pretty"],
        ["inspect", str(CUT), "--json"],
        ["records", str(CUT)],
        ["records", str(CUT), "--jsonl"],
    ):
        code, first, err = _piped_to_head(*args)
        assert first, args
        assert code == 3, (args, err)  # truncated, as when the whole output is read
        assert b"Traceback" not in err and b"Broken pipe" not in err, args


def test_records_exits_with_the_verdict_as_inspect_does() -> None:
    assert run("records", str(CUT)).code == 3
    assert run("records", str(CUT), "--jsonl").code == 3
    assert run("records", "--example", "openai-chat-tool-call").code == 0
    assert run("records", "--example", "broken-anthropic-overloaded").code == 4


def test_reading_stdin_at_a_terminal_says_it_waits_for_the_stream() -> None:
    import pty

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    main, other = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", "inspect", "-", "--json"],
        stdin=other,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(other)
    assert proc.stderr is not None and proc.stdout is not None
    with proc.stderr, proc.stdout:
        line = proc.stderr.readline()
        os.write(main, b"\x04")  # Ctrl-D: end of input, nothing sent
        proc.stdout.read()
        proc.wait(timeout=60)
    os.close(main)
    assert line == b"ssescope: reading the stream from standard input (paste it, then Ctrl-D)\n"

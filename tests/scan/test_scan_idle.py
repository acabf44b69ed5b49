"""The scan names the longest silence where it was (``idle 3.0 s mid tool call``) in its
rows, its terminal summary and its HTML report, and takes ``--idle-threshold`` as
``inspect`` and the proxy do: the stall threshold every stream is judged with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ssescope.cli import main
from ssescope.containers import CaptureWriter


def _chunk(delta: dict[str, Any]) -> bytes:
    body = {
        "id": "c",
        "object": "chat.completion.chunk",
        "model": "gpt-test",
        "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
    }
    return f"data: {json.dumps(body)}\n\n".encode()


def _call(args: str, first: bool = False) -> dict[str, Any]:
    call: dict[str, Any] = {"index": 0, "function": {"arguments": args}}
    if first:
        call.update(id="call_1", type="function")
        call["function"]["name"] = "get_weather"
    return {"tool_calls": [call]}


def _silent_mid_tool_call(path: Path) -> None:
    """Text every 30 ms, a tool call whose arguments stop for 3 s, then a cut."""
    writer = CaptureWriter(
        path,
        request={"method": "POST", "url": "https://api.example.test/v1/chat", "headers": []},
        response_status=200,
        response_headers=[("content-type", "text/event-stream")],
    )
    t = 0.1
    writer.write_chunk(_chunk({"role": "assistant", "content": ""}), t)
    for word in ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]:
        t += 0.03
        writer.write_chunk(_chunk({"content": word + " "}), t)
    writer.write_chunk(_chunk(_call('{"city": ', first=True)), t + 0.03)
    writer.write_chunk(_chunk(_call('"Par')), t + 3.03)
    writer.close("eof", t + 3.05)


def _scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["scan", *args, "--no-color"])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    _silent_mid_tool_call(folder / "cut.ssecap")
    return folder


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_rows_and_summary_say_the_stream_went_idle_mid_tool_call(
    corpus: Path, tmp_path: Path, jobs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.jsonl"
    html = tmp_path / "report.html"
    code, output = _scan(
        capsys, str(corpus), "--jobs", jobs, "--out", str(out), "--html", str(html)
    )
    assert code == 0, output
    [row] = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["status"] == "truncated"
    assert row["max_content_idle_s"] == pytest.approx(3.0, abs=1e-6)
    assert row["max_content_idle_after"] == "tool call"
    assert "timing.stall" in row["diagnostics"]  # 3 s is long for a 30 ms pace
    assert "idle 3.0 s mid tool call" in output  # the open-next line
    assert "idle 3.0 s mid tool call" in html.read_text()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_idle_threshold_sets_the_stall_threshold_of_every_stream(
    corpus: Path, tmp_path: Path, jobs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.jsonl"
    code, output = _scan(
        capsys, str(corpus), "--jobs", jobs, "--out", str(out), "--idle-threshold", "5"
    )
    assert code == 0, output
    [row] = [json.loads(line) for line in out.read_text().splitlines()]
    assert "timing.stall" not in row["diagnostics"]  # 3 s is under the fixed 5 s
    assert row["max_content_idle_after"] == "tool call"
    code, output = _scan(
        capsys, str(corpus), "--jobs", jobs, "--out", str(out), "--idle-threshold", "2.5"
    )
    assert code == 0, output
    [row] = [json.loads(line) for line in out.read_text().splitlines()]
    assert "timing.stall" in row["diagnostics"]


def test_idle_threshold_must_be_a_positive_number(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, output = _scan(capsys, str(corpus), "--idle-threshold", "0")
    assert code == 2
    assert "--idle-threshold" in output


@pytest.mark.parametrize("workers", [1, 2])
def test_the_process_pool_judges_with_the_threshold_it_was_given(
    corpus: Path, workers: int
) -> None:
    # (a scan of fewer than POOL_MIN inputs judges them in its own process: here the
    # pool's workers are started as a large scan starts them)
    from ssescope.aggregate.timing import TimingOptions
    from ssescope.scan.engines.local import judge
    from ssescope.scan.engines.shards import FileShard, connect

    shards = [FileShard((str(corpus / "cut.ssecap"),)) for _ in range(3)]
    found = {}
    for threshold in (5.0, 2.5):
        timing = TimingOptions(stall_s=threshold, stall_pace=None)
        con = connect(threads=1)
        try:
            rows = [r for _, b in judge(shards, workers, con, timing=timing) for r in b.to_pylist()]
        finally:
            con.close()
        assert len(rows) == 3
        found[threshold] = {"timing.stall" in r["diagnostics"] for r in rows}
    assert found == {5.0: {False}, 2.5: {True}}

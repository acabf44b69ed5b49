"""A HAR or a JSONL log holding several streams: every entry is reported."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.cli_helpers import ROOT, run

HAR = ROOT / "tests" / "fixtures" / "containers" / "devtools-several-streams.har"


def _log(tmp_path: Path) -> Path:
    def chunk(rid: str, ts: float, delta: dict[str, object], finish: str | None) -> str:
        return json.dumps(
            {
                "ts": ts,
                "request_id": rid,
                "url": "https://api.example.test/v1/chat/completions?api_key=sk-secret",
                "method": "POST",
                "chunk": {
                    "id": f"chatcmpl-{rid}",
                    "object": "chat.completion.chunk",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                },
            }
        )

    lines = [
        chunk("a", 100.0, {"content": "one"}, None),
        chunk("b", 100.5, {"content": "two"}, None),
        chunk("a", 101.0, {}, "stop"),
        chunk("b", 101.5, {}, "length"),
    ]
    path = tmp_path / "app.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_json_prints_an_array_of_reports_each_naming_its_entry_and_exits_with_the_worst() -> None:
    result = run("inspect", str(HAR), "--json")
    assert result.code == 3  # entry 2 is truncated, the others completed
    reports = json.loads(result.out)
    assert [r["status"] for r in reports] == ["completed", "truncated", "completed"]
    assert [r["entry"]["index"] for r in reports] == [1, 2, 3]
    assert reports[2]["entry"] == {
        "index": 3,
        "method": "POST",
        "url": "https://chat.example.test/api/anthropic/messages",
        "started": "2026-03-01T10:00:09.000Z",
    }
    assert reports[2]["provider"] == "anthropic"
    assert all("har.multiple-entries" not in str(r["diagnostics"]) for r in reports)


def test_the_terminal_view_shows_one_verdict_line_per_entry_then_the_details() -> None:
    result = run("inspect", str(HAR), "--pretty", "--no-color")
    assert result.code == 3
    lines = result.out.splitlines()
    assert lines[0] == "3 streams in this har:"
    head = "\n".join(lines[:8])
    assert "#1 POST https://chat.example.test/api/openai/chat" in head
    assert "truncated" in head
    assert "#3 POST https://chat.example.test/api/anthropic/messages" in head
    assert "Bonjour" in result.out and "Hello" in result.out
    assert result.out.index("Hello") < result.out.index("Bonjour")


def test_entry_selects_one_and_prints_a_single_report() -> None:
    result = run("inspect", str(HAR), "--entry", "3", "--json")
    assert result.code == 0
    report = json.loads(result.out)
    assert report["entry"]["index"] == 3
    assert report["outputs"][0]["text"] == "Bonjour"
    truncated = run("inspect", str(HAR), "--entry", "2", "--json")
    assert truncated.code == 3


def test_an_entry_that_does_not_exist_is_a_usage_error_naming_the_others() -> None:
    result = run("inspect", str(HAR), "--entry", "0")
    assert result.code == 2
    assert "there is no entry 0; the input holds the entries 1, 2, 3" in result.err
    assert "Traceback" not in result.err


def test_a_single_stream_input_still_prints_one_report_object_and_entry_0_selects_it() -> None:
    example = ROOT / "src" / "ssescope" / "examples" / "openai-chat-tool-call.sse"
    whole = json.loads(run("inspect", str(example), "--json").out)
    assert isinstance(whole, dict)
    assert "entry" not in whole
    chosen = run("inspect", str(example), "--entry", "0", "--json")
    assert chosen.code == 0
    assert json.loads(chosen.out) == whole


def test_a_jsonl_log_of_several_requests_is_reported_stream_by_stream(tmp_path: Path) -> None:
    result = run("inspect", str(_log(tmp_path)), "--json")
    assert result.code == 0  # completed and incomplete
    reports = json.loads(result.out)
    assert [r["outputs"][0]["text"] for r in reports] == ["one", "two"]
    assert [r["status"] for r in reports] == ["completed", "incomplete"]
    assert reports[1]["entry"]["index"] == 1
    assert reports[1]["entry"]["url"].endswith("api_key=[redacted]")
    assert reports[0]["entry"]["started"].startswith("1970-01-01T00:01:40")
    failing = run("inspect", str(_log(tmp_path)), "--json", "--fail-on", "incomplete")
    assert failing.code == 6


def test_records_replay_and_check_take_entry_and_refuse_to_guess_without_it(
    tmp_path: Path,
) -> None:
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({"finish_reason": "stop"}))
    for args in (["records"], ["replay"], ["check", "--against", str(expected)]):
        guessed = run(*args[:1], str(HAR), *args[1:])
        assert guessed.code == 2, args
        assert "the input holds 3 streams (entries 1, 2, 3): pick one with --entry N" in (
            guessed.err
        )
        missing = run(*args[:1], str(HAR), *args[1:], "--entry", "0")
        assert missing.code == 2 and "there is no entry 0" in missing.err, args
    # entry 2 is the truncated one, entry 3 the anthropic one: each command reads that one
    records = run("records", str(HAR), "--entry", "2", "--jsonl")
    assert records.code == 3
    anthropic = run("records", str(HAR), "--entry", "3", "--jsonl")
    events = [json.loads(line).get("event") for line in anthropic.out.splitlines()]
    assert "message_start" in events and anthropic.code == 0
    replay = run("replay", str(HAR), "--entry", "3", "--json")
    assert replay.code == 0 and json.loads(replay.out)["identical"] is True
    check = run("check", str(HAR), "--entry", "1", "--against", str(expected))
    assert check.code == 0, check.out + check.err

"""frames, replay, check and --redact, end to end and on their own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli.cli_helpers import EXAMPLES, run

from ssescope import codes
from ssescope.aggregate.report import OutputReport, Report, ResponseReport, ToolCallReport
from ssescope.cli.exitcodes import exit_code
from ssescope.compare import compare_result, load_result
from ssescope.diagnostics import Diagnostic
from ssescope.output.redaction import redact_report

BAD_JSON = str(EXAMPLES / "broken-bad-json-record.sse")


def test_frames_jsonl_gives_one_object_per_record_and_marks_the_invalid_one() -> None:
    result = run("frames", BAD_JSON, "--jsonl", "--provider", "unknown")
    lines = [json.loads(line) for line in result.out.splitlines()]
    # a finding raised at the end about an earlier record follows the rows
    rows = [r for r in lines if r["kind"] != "finding"]
    assert [r["index"] for r in rows] == list(range(9))
    assert [(f["code"], f["record"]) for f in lines if f["kind"] == "finding"] == [
        ("provider.unknown-event", 0)
    ]
    assert rows[3]["invalid"] is True
    assert "json.invalid" in rows[3]["diagnostics"]
    assert rows[3]["data"].endswith("]")
    assert rows[8]["data"] == "[DONE]"
    assert all(r["length"] > 0 for r in rows)


def test_frames_table_shows_comments_and_the_invalid_mark() -> None:
    keep = run("frames", "--example", "broken-crlf-keepalive", "--provider", "unknown")
    bad = run("frames", BAD_JSON, "--provider", "unknown")
    assert ": comment" in keep.out
    assert "keep-alive" in keep.out
    assert "✗ invalid" in bad.out


def test_replay_is_identical_in_every_chunking() -> None:
    result = run(
        "replay",
        BAD_JSON,
        "--json",
        "--random",
        "3",
        "--seed",
        "7",
        "--provider",
        "unknown",
    )
    data = json.loads(result.out)
    assert result.code == 0
    assert data["identical"] is True
    names = [r["chunking"] for r in data["runs"]]
    assert names[:7] == [
        "whole",
        "1 byte",
        "2 bytes",
        "3 bytes",
        "7 bytes",
        "64 bytes",
        "1024 bytes",
    ]
    assert names[7:] == ["random seed 7", "random seed 8", "random seed 9"]
    assert len({r["digest"] for r in data["runs"]}) == 1


def test_replay_check_table_says_identical() -> None:
    result = run("replay", BAD_JSON, "--random", "1", "--provider", "unknown")
    assert "identical in every chunking" in result.out


def test_check_against_equal_text_exits_0_and_different_text_exits_5(tmp_path: Path) -> None:
    same = tmp_path / "same.txt"
    same.write_text("")
    other = tmp_path / "other.txt"
    other.write_text("hello\n")
    ok = run("check", BAD_JSON, "--against", str(same), "--provider", "unknown")
    bad = run("check", BAD_JSON, "--against", str(other), "--provider", "unknown")
    # the stream itself has no terminal marker: its code (3) wins over the comparison's
    assert (ok.code, bad.code) == (3, 3)
    assert ok.out.startswith("the stream itself is truncated: ")
    assert "text differs" in bad.out
    assert "-hello" in bad.out
    whole = str(EXAMPLES / "openai-chat-tool-call.sse")
    assert run("check", whole, "--against", str(same)).code == 0
    assert run("check", whole, "--against", str(other)).code == 5


def test_check_json_without_known_keys_is_a_usage_error(tmp_path: Path) -> None:
    result_file = tmp_path / "r.json"
    result_file.write_text('{"nothing": 1}')
    result = run("check", BAD_JSON, "--against", str(result_file))
    assert result.code == 2
    assert "Traceback" not in result.err


def _report(status: str = "completed", **extra: object) -> Report:
    call = ToolCallReport("call_1", "get_weather", '{"city": "Lyon"}', {"city": "Lyon"}, True)
    out = OutputReport(
        0,
        text="Hi there",
        tool_calls=[call],
        finish_reason="tool_calls",
        raw_finish_reason="tool_calls",
    )
    response = ResponseReport(status=status, outputs=[out])  # type: ignore[arg-type]
    return Report(response=response, responses=[response], **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("status", "fail_on", "code"),
    [
        ("completed", [], 0),
        ("incomplete", [], 0),
        ("incomplete", ["incomplete"], 6),
        ("truncated", [], 3),
        ("failed", [], 4),
        ("cancelled", [], 130),
    ],
)
def test_exit_code_follows_the_status(status: str, fail_on: list[str], code: int) -> None:
    assert exit_code(_report(status), fail_on=fail_on) == code


def test_http_status_400_or_more_exits_4() -> None:
    assert exit_code(_report(http_status=429)) == 4


def test_strict_exits_5_only_on_error_severity_framing_findings() -> None:
    bad = Diagnostic(codes.JSON_INVALID, "Record 1 is not valid JSON.", 10, 1)
    other = Diagnostic(codes.TOOL_INCOMPLETE, "The call never ended.", 10, 1)
    assert exit_code(_report(diagnostics=[bad]), strict=True) == 5
    assert exit_code(_report(diagnostics=[bad])) == 0
    assert exit_code(_report(diagnostics=[other]), strict=True) == 0


def test_fail_on_warning_includes_errors_and_fail_on_error_ignores_warnings() -> None:
    warning = Diagnostic(codes.SSE_INVALID_RETRY, "The retry field 'x' is not a number.", 0, 0)
    error = Diagnostic(codes.TOOL_INCOMPLETE, "The call never ended.", 0, 0)
    assert exit_code(_report(diagnostics=[warning]), fail_on=["warning"]) == 5
    assert exit_code(_report(diagnostics=[warning]), fail_on=["error"]) == 0
    assert exit_code(_report(diagnostics=[error]), fail_on=["warning"]) == 5


def test_redact_replaces_content_with_length_and_hash_everywhere() -> None:
    data = _report(
        diagnostics=[
            Diagnostic(codes.JSON_INVALID, "Record 1 is 'secret stuff'.", 0, 1, raw="secret")
        ]
    ).to_dict()
    redact_report(data)
    text = json.dumps(data)
    assert "Hi there" not in text
    assert "Lyon" not in text
    assert "secret" not in text
    assert data["outputs"][0]["text"].startswith("[redacted 8 chars sha256:")
    assert data["outputs"][0]["tool_calls"][0]["input"] is None


def test_compare_reports_each_differing_field() -> None:
    expected = load_result(
        json.dumps(
            {
                "text": "Hi there",
                "tool_calls": [{"name": "get_weather", "arguments": '{"city": "Paris"}'}],
                "finish_reason": "tool_calls",
                "usage": {"input_tokens": 3},
            }
        ).encode(),
        "r.json",
    )
    diffs = {d.path: d.message for d in compare_result(expected, _report())}
    assert diffs == {
        "outputs[0].tool_calls[0].arguments.city": 'the result has "Paris", the stream has "Lyon"',
        "usage.input_tokens": "the result has 3, the stream reported none",
    }


def test_compare_accepts_input_objects_and_raw_finish_reasons() -> None:
    expected = {
        "tool_calls": [{"name": "get_weather", "input": {"city": "Lyon"}, "id": "call_1"}],
        "finish_reason": "tool_calls",
        "text": "Hi there",
    }
    assert compare_result(expected, _report()) == []


def test_invalid_tool_arguments_show_the_parse_error_and_its_position(tmp_path: Path) -> None:
    chunk = (
        '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
        '{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":'
        '{"name":"f","arguments":"{\\"a\\": 1,, \\"b\\": 2}"}}]},"finish_reason":null}]}'
    )
    end = '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}'
    stream = tmp_path / "invalid.sse"
    stream.write_text(f"data: {chunk}\n\ndata: {end}\n\ndata: [DONE]\n\n")
    result = run("inspect", "--pretty", "--only", "tools", str(stream), env={"COLUMNS": "120"})
    assert "invalid arguments" in result.out
    assert '{"a": 1,⟨here⟩, "b": 2}' in result.out


def test_redact_hides_the_text_of_a_real_example_in_both_views() -> None:
    human = run("inspect", "--pretty", "--redact", "--example", "anthropic-thinking-tool-use")
    data = json.loads(
        run("inspect", "--json", "--redact", "--example", "anthropic-thinking-tool-use").out
    )
    for out in (human.out, json.dumps(data)):
        assert "Lyon" not in out
        assert "sha256:" in out


def test_frames_redact_shows_lengths_and_hashes_instead_of_data() -> None:
    result = run("frames", "--jsonl", "--redact", str(EXAMPLES / "openai-chat-tool-call.sse"))
    assert result.code == 0
    rows = [json.loads(line) for line in result.out.splitlines()]
    assert rows
    assert all(r["data"].startswith("[redacted ") for r in rows if r["data"])
    assert "Lyon" not in result.out


def test_redact_hides_a_snapshot_with_an_apostrophe_in_both_views(tmp_path: Path) -> None:
    secret = "it's my hunter2"
    base = '"item_id":"m","output_index":0,"content_index":0'
    stream = tmp_path / "mismatch.sse"
    stream.write_text(
        "event: response.output_text.delta\n"
        f'data: {{"type":"response.output_text.delta",{base},"delta":"{secret}"}}\n\n'
        "event: response.output_text.done\n"
        f'data: {{"type":"response.output_text.done",{base},"text":"{secret}!"}}\n\n'
    )
    plain = json.loads(run("inspect", "--json", str(stream)).out)
    mismatch = [d for d in plain["diagnostics"] if d["code"] == "snapshot.mismatch"]
    assert mismatch and '"it\'s my hunter2!"' in mismatch[0]["message"]
    assert mismatch[0]["args"]["snapshot"] == secret + "!"
    redacted_json = run("inspect", "--json", "--redact", str(stream)).out
    human = run("inspect", "--pretty", "--redact", str(stream), env={"COLUMNS": "300"}).out
    for out in (redacted_json, human):
        assert "hunter2" not in out
        assert "sha256:" in out

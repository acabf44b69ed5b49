"""The command line against hostile input and option values: usage errors, strict JSON."""

from __future__ import annotations

import io
import json
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ssescope
from ssescope.cli import exitcodes, main
from ssescope.output import strictjson

CHAT = (
    b'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,'
    b'"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


def _run(args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    with CliRunner().isolation(input=stdin) as streams:
        code = main(args)
        sys.stdout.flush()
        sys.stderr.flush()
        out, err = streams[0].getvalue(), streams[1].getvalue()
    return code, out.decode(), err.decode()


def _strict(text: str) -> Any:
    def refuse(token: str) -> None:
        raise AssertionError(f"not strict JSON: {token}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["serve", ".", "--port", "70000"], "--port"),
        (["serve", ".", "--speed", "nan"], "--speed"),
        (["serve", ".", "--speed", "0"], "--speed"),
        (["web", "--port", "-1"], "--port"),
        (["request", "http://127.0.0.1:9/", "--stall", "inf"], "--stall"),
        (["request", "http://127.0.0.1:9/", "--stall", "-1"], "--stall"),
        (["replay", "x", "--random", "5000"], "--random"),
        # nan passes every range comparison and inf the lower bound: either would switch
        # a stall threshold or a time-out off without a word
        (["inspect", "x.sse", "--idle-threshold", "nan"], "--idle-threshold"),
        (["inspect", "x.sse", "--idle-threshold", "inf"], "--idle-threshold"),
        (["proxy", "http://127.0.0.1:9", "--finish-grace", "nan"], "--finish-grace"),
        (["proxy", "http://127.0.0.1:9", "--idle-timeout", "inf"], "--idle-timeout"),
    ],
)
def test_an_out_of_range_option_value_is_a_usage_error(args: list[str], needle: str) -> None:
    code, out, err = _run(args)
    assert code == exitcodes.USAGE
    assert needle in err
    assert "internal error" not in err
    assert len(err.strip().splitlines()) == 1
    assert out == ""


def _gzip_dump() -> bytes:
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n\r\n"
    return head + c.compress(CHAT) + c.flush()


@pytest.mark.parametrize(
    "data",
    [
        _gzip_dump(),
        CHAT.replace(b"hi", b"h\\u0000i") + b": \x00 comment with a NUL byte\n\n",
        b": \x00\n\n" + CHAT,
        CHAT.decode().encode("utf-16"),
    ],
    ids=["gzip-curl-dump", "nul-in-data", "nul-in-comment", "utf-16"],
)
def test_the_cli_reads_what_the_library_reads(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "input"
    path.write_bytes(data)
    code, out, err = _run(["inspect", str(path), "--json"])
    assert err == ""
    assert _strict(out) == json.loads(json.dumps(ssescope.inspect(path).to_dict()))
    assert code in (exitcodes.COMPLETED, exitcodes.TRUNCATED)


def test_the_gzip_dump_is_decoded_by_the_cli() -> None:
    code, out, _ = _run(["inspect", "-", "--json"], _gzip_dump())
    assert code == exitcodes.COMPLETED
    assert _strict(out)["outputs"][0]["text"] == "hi"


def test_json_output_is_strict_for_non_finite_input() -> None:
    body = (
        b'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
        b'{"tool_calls":[{"index":0,"id":"t","function":{"name":"f","arguments":'
        b'"{\\"x\\": NaN}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1e999}}'
        b"\n\ndata: [DONE]\n\n"
    )
    _, out, _ = _run(["inspect", "-", "--json"], body)
    report = _strict(out)
    assert "json.non-finite-number" in [d["code"] for d in report["diagnostics"]]
    _, out, _ = _run(["frames", "-", "--jsonl"], body)
    for line in out.split("\n")[:-1]:
        _strict(line)


def test_strict_json_nulls_non_finite_floats_and_writes_in_pieces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(strictjson, "WRITE_PIECE", 64)
    writes: list[int] = []

    class Recorder(io.StringIO):
        def write(self, s: str) -> int:
            writes.append(len(s))
            return super().write(s)

    value = {"text": "x" * 1000, "n": [float("nan"), float("inf"), 1.5], "deep": [[["y" * 300]]]}
    stream = Recorder()
    strictjson.write(value, stream, indent=2)
    assert max(writes) <= 2 * 64  # a piece, plus at most one small part over it
    assert len(writes) > 20
    expected = {"text": "x" * 1000, "n": [None, None, 1.5], "deep": [[["y" * 300]]]}
    assert _strict(stream.getvalue()) == expected
    assert stream.getvalue().endswith("\n")
    assert strictjson.dumps(value) == json.dumps(expected, separators=(",", ":"))


def test_check_with_a_non_object_usage_or_a_deep_result_is_a_usage_error(
    tmp_path: Path,
) -> None:
    stream = tmp_path / "s.sse"
    stream.write_bytes(CHAT)
    for i, content in enumerate(['{"usage": [1, 2]}', '{"text": ' + "[" * 500 + "]" * 500 + "}"]):
        expected = tmp_path / f"e{i}.json"
        expected.write_text(content)
        code, _, err = _run(["check", str(stream), "--against", str(expected)])
        assert code == exitcodes.USAGE, err
        assert len(err.strip().splitlines()) == 1
        assert "internal error" not in err


def test_the_web_api_answers_strict_json_for_non_finite_input() -> None:
    from starlette.testclient import TestClient

    from ssescope.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1:8765")
    body = CHAT.replace(b'"content":"hi"', b'"content":"hi","x":NaN')
    body += b'data: {"choices":[],"usage":{"prompt_tokens":-Infinity}}\n\n'
    res = client.post("/api/inspect", content=body)
    assert res.status_code == 200
    data = _strict(res.text)
    codes = [d["code"] for d in data["report"]["diagnostics"]]
    assert codes.count("json.non-finite-number") == 2


def test_frame_views_mark_every_invalid_record_past_the_listed_diagnostics() -> None:
    body = b"data: {bad json\n\n" * 300
    code, out, _ = _run(["frames", "-", "--jsonl", "--provider", "openai-chat"], body)
    assert code == exitcodes.TRUNCATED  # 300 bad records and no terminal marker
    lines = [json.loads(line) for line in out.splitlines()]
    # one row per record, then the findings raised at the end about earlier records
    rows = [line for line in lines if line["kind"] != "finding"]
    assert len(rows) == 300
    assert all(row["invalid"] for row in rows)
    findings = [line["code"] for line in lines if line["kind"] == "finding"]
    assert findings == ["stream.diagnostics-capped"]
    from starlette.testclient import TestClient

    from ssescope.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1:8765")
    res = client.post("/api/inspect?provider=openai-chat", content=body)
    data = res.json()
    codes = [d["code"] for d in data["report"]["diagnostics"]]
    assert codes.count("json.invalid") == 100
    assert codes.count("stream.diagnostics-capped") == 1
    assert [f["state"] for f in data["frames"]] == ["invalid"] * 300

"""A Report or a one-line error, never a traceback, in bounded memory: whatever the bytes.

Hypothesis builds adversarial inputs (deep nesting, extreme numbers, control characters,
other encodings, compressed and wrapped bodies, many bad records) and drives each
through the library, every command that reads a stream (in-process) and the web API.
"""

from __future__ import annotations

import base64
import json
import sys
import tracemalloc
import zlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ssescope
from ssescope.cli import exitcodes, main

MEMORY_BOUND = 16 * 1024 * 1024
"""tracemalloc peak allowed for inspecting one input (inputs stay under 200 kB)."""

_NUMBERS = ["1e999", "-1e999", "NaN", "Infinity", "-Infinity", "1" + "0" * 400, "-1", "2.5"]
_CONTROL = st.lists(
    st.sampled_from(["\x00", "\x1b", "\x1b]52;c;AAAA\x07", "\r", "\n", "\u2028", "é", "a"]),
    max_size=12,
).map("".join)


@st.composite
def _deep(draw: st.DrawFn) -> str:
    depth = draw(st.sampled_from([1, 127, 129, 254, 300, 1100]))
    opener = draw(st.sampled_from(["[", '{"a":']))
    closer = "]" if opener == "[" else "}"
    return opener * depth + "1" + closer * depth


@st.composite
def _record(draw: st.DrawFn) -> str:
    """One JSON-ish record text in a provider shape, with something hostile inside."""
    number = draw(st.sampled_from(_NUMBERS))
    text = json.dumps(draw(_CONTROL))
    deep = draw(_deep())
    templates = [
        '{"choices":[{"index":0,"delta":{"content":<t>}}]}',
        '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c",'
        '"function":{"name":<t>,"arguments":<s>}}]},"finish_reason":"tool_calls"}]}',
        '{"choices":[],"usage":{"prompt_tokens":<n>,"completion_tokens":<n>}}',
        '{"type":"tool-input-available","toolCallId":"a","toolName":"f","input":<d>}',
        '{"type":"content_block_delta","index":0,"delta":<d>}',
        '{"candidates":[{"content":{"parts":[{"text":<t>}]}}],"usageMetadata":'
        '{"promptTokenCount":<n>}}',
        '{"message":{"content":<t>},"done":true,"eval_count":<n>}',
        "{bad json <t>",
        "<d>",
    ]
    template = draw(st.sampled_from(templates))
    return (
        template.replace("<t>", text)
        .replace("<n>", number)
        .replace("<s>", json.dumps(deep))
        .replace("<d>", deep)
    )


def _sse(records: list[str], event: str) -> bytes:
    head = f"event: {event}\n" if event else ""
    return "".join(f"{head}data: {r}\n\n" for r in records).encode("utf-8", "surrogatepass")


def _capture(records: list[str], status: object, times: list[object]) -> bytes:
    header = {"ssescope": "capture", "version": 1, "request": {"method": "POST", "url": "u"}}
    header["response"] = {"status": status, "headers": []}
    lines = [json.dumps(header)]
    for i, r in enumerate(records):
        t = times[i % len(times)]
        data = json.dumps("data: " + r + "\n\n")
        lines.append(f'{{"t": {t}, "data": {data}}}')
    return ("\n".join(lines) + "\n").encode()


def _har(records: list[str], event: str) -> bytes:
    body = base64.b64encode(_sse(records, "")).decode()
    messages = [{"time": 1.0, "eventName": event, "data": r} for r in records]
    entry = {
        "request": {"method": "GET", "url": "https://example.test/s", "headers": []},
        "response": {
            "status": 200,
            "headers": [],
            "content": {"mimeType": "text/event-stream", "encoding": "base64", "text": body},
        },
        "_eventSourceMessages": messages,
    }
    if len(event) % 2:
        del entry["response"]["content"]["text"]  # type: ignore[index]
    return json.dumps({"log": {"version": "1.2", "entries": [entry]}}).encode()


def _gzip_dump(body: bytes, extra: bytes) -> bytes:
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    z = c.compress(body) + c.flush()
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n\r\n"
    return head + z + extra


@st.composite
def hostile_inputs(draw: st.DrawFn) -> bytes:
    """A whole input file: a body or a container around one, with hostile content."""
    records = draw(st.lists(_record(), min_size=1, max_size=6))
    records *= draw(st.sampled_from([1, 1, 40]))  # sometimes many repeats
    event = draw(st.sampled_from(["", "message", "x\ndata: injected", "error"]))
    number = draw(st.sampled_from(_NUMBERS))
    kind = draw(
        st.sampled_from(
            ["sse", "ndjson", "utf16", "capture", "har", "jsonl", "gzip", "bytes", "line"]
        )
    )
    if kind == "sse":
        return _sse(records, event)
    if kind == "ndjson":
        return "\n".join(records).encode("utf-8", "surrogatepass")
    if kind == "utf16":
        return _sse(records, "").decode("utf-8", "replace").encode("utf-16")
    if kind == "capture":
        return _capture(records, draw(st.sampled_from([200, -1, 99999, "x"])), [0.5, number])
    if kind == "har":
        return _har(records, event)
    if kind == "jsonl":
        return "\n".join(f'{{"ts": {number}, "chunk": {r}}}' for r in records).encode()
    if kind == "gzip":
        return _gzip_dump(_sse(records, ""), draw(st.sampled_from([b"", b"junk", b"\x1f\x8b"])))
    if kind == "line":
        return b"data: " + b"\x1b[2J" * draw(st.integers(0, 5_000))
    return draw(st.binary(max_size=2000)) + b"\x00" + _sse(records, "")


def _strict_loads(text: str | bytes) -> Any:
    def refuse(token: str) -> None:
        raise AssertionError(f"not strict JSON: {token}")

    return json.loads(text, parse_constant=refuse)


# -- the library ----------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hostile_inputs())
def test_the_library_gives_a_strict_json_report_in_bounded_memory(data: bytes) -> None:
    tracemalloc.start()
    try:
        report = ssescope.inspect(data)
        text = json.dumps(report.to_dict(), allow_nan=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert _strict_loads(text)["schema"] == 1
    assert peak < MEMORY_BOUND + 20 * len(data), (peak, len(data))


# -- every command that reads a stream, in-process ---------------------------------------

_RESULT_CODES = {
    exitcodes.COMPLETED,
    exitcodes.USAGE,
    exitcodes.TRUNCATED,
    exitcodes.FAILED,
    exitcodes.MISMATCH,
    exitcodes.INCOMPLETE,
    exitcodes.INTERRUPTED,
}


def _run(args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    runner = CliRunner()
    with runner.isolation(input=stdin) as streams:
        code = main(args)
        sys.stdout.flush()
        sys.stderr.flush()
        out, err = streams[0].getvalue(), streams[1].getvalue()
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def _one_line_at_most(err: str) -> None:
    assert "Traceback" not in err
    assert "internal error" not in err, err
    assert len(err.strip().splitlines()) <= 1, err


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=hostile_inputs())
def test_every_command_gives_a_result_or_one_line(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "stream.bin"
    path.write_bytes(data)
    expected = tmp_path / "expected.json"
    expected.write_text('{"text": "", "usage": {"input_tokens": 1}}')

    code, out, err = _run(["inspect", "-", "--json"], data)
    assert code in _RESULT_CODES
    verdict = code
    _one_line_at_most(err)
    assert _strict_loads(out)["schema"] == 1

    code, out, err = _run(["frames", str(path), "--jsonl"])
    assert code == verdict, err  # records exits with the verdict, as inspect does
    _one_line_at_most(err)
    for line in out.split("\n")[:-1]:  # (U+2028 may stand raw inside a line)
        _strict_loads(line)

    code, out, err = _run(["frames", str(path), "--no-color"])
    assert code == verdict, err
    _one_line_at_most(err)

    code, out, err = _run(["replay", str(path), "--random", "1", "--json"])
    assert code == exitcodes.COMPLETED, (err, out[:2000])
    assert _strict_loads(out)["identical"] is True

    # (a stream that is itself cut or failed gives its own code)
    broken = (exitcodes.TRUNCATED, exitcodes.FAILED, exitcodes.INTERRUPTED)
    code, out, err = _run(["check", str(path), "--against", str(expected), "--no-color"])
    assert code in (exitcodes.COMPLETED, exitcodes.MISMATCH, *broken)
    _one_line_at_most(err)

    code, out, err = _run(["check", str(path), "--against", str(path), "--no-color"])
    assert code in (exitcodes.COMPLETED, exitcodes.MISMATCH, exitcodes.USAGE, *broken)
    _one_line_at_most(err)


# -- the web API --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def web_client() -> Any:
    from starlette.testclient import TestClient

    from ssescope.web import create_app

    return TestClient(create_app(), base_url="http://127.0.0.1:8765")


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=hostile_inputs())
def test_the_web_api_answers_strict_json(data: bytes, web_client: Any) -> None:
    res = web_client.post("/api/inspect", content=data)
    assert res.status_code == 200, res.text[:300]
    body = _strict_loads(res.content)
    assert body["report"]["schema"] == 1

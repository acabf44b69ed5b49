"""A cut tool call whose arguments already parse says so, rather than "left unparsed"."""

from __future__ import annotations

import json

import ssescope


def _chunk(calls: list[dict[str, object]], finish: str | None = None) -> bytes:
    delta = {"tool_calls": calls} if calls else {}
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    body = {"id": "c1", "object": "chat.completion.chunk", "model": "m", "choices": [choice]}
    return b"data: " + json.dumps(body).encode() + b"\n\n"


def _call(index: int, name: str, arguments: str, first: bool) -> dict[str, object]:
    fn: dict[str, str] = {"arguments": arguments}
    call: dict[str, object] = {"index": index, "function": fn}
    if first:
        fn["name"] = name
        call.update(id=f"call_{index}", type="function")
    return call


PARALLEL = [
    _chunk([_call(0, "get_weather", '{"city": ', True)]),
    _chunk([_call(0, "get_weather", '"Paris"}', False)]),
    _chunk([_call(1, "get_time", '{"tz": ', True)]),
    _chunk([_call(1, "get_time", '"CET"}', False)]),
]


def test_parallel_calls_cut_after_their_arguments_parse_say_the_end_never_came() -> None:
    report = ssescope.inspect(b"".join(PARALLEL))  # cut before the finish reason
    assert report.status == "truncated"
    found = [d for d in report.diagnostics if d.code == "tool.incomplete"]
    assert [d.form for d in found] == ["parses", "parses"]
    assert "parse as a JSON object, but the stream never confirmed the end" in found[1].message
    assert "left unparsed" not in found[1].message
    assert [c.input for c in report.response.outputs[0].tool_calls] == [None, None]  # not executed


def test_a_call_cut_mid_arguments_is_still_left_unparsed() -> None:
    report = ssescope.inspect(b"".join(PARALLEL[:3]))
    found = {(d.args or {})["label"]: d for d in report.diagnostics if d.code == "tool.incomplete"}
    assert found["call_1"].form == "unparsed"
    assert found["call_1"].message.endswith("its input is left unparsed.")
    assert found["call_0"].form == "parses"


def test_the_finish_reason_ends_them_and_nothing_is_said() -> None:
    report = ssescope.inspect(b"".join([*PARALLEL, _chunk([], "tool_calls"), b"data: [DONE]\n\n"]))
    assert report.status == "completed"
    assert not [d for d in report.diagnostics if d.code == "tool.incomplete"]
    assert [c.input for c in report.response.outputs[0].tool_calls] == [
        {"city": "Paris"},
        {"tz": "CET"},
    ]

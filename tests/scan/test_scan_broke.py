"""``where_broke``: where a failed, truncated or cancelled stream broke, read from its
Report, for each place (and ``None`` for the streams that did not break)."""

from __future__ import annotations

import pyarrow as pa
import pytest

from ssescope import inspect
from ssescope.scan import scan_batch
from ssescope.scan.broke import PLACES, where_broke


def sse(*events: str) -> bytes:
    return "".join(f"data: {e}\n\n" for e in events).encode()


def chunk(delta: str, finish: str = "null") -> str:
    return (
        '{"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
        f'[{{"index":0,"delta":{delta},"finish_reason":{finish}}}]}}'
    )


TEXT = chunk('{"content":"Hi"}')
REASONING = chunk('{"reasoning_content":"Let me think"}')
TOOL = chunk(
    '{"tool_calls":[{"index":0,"id":"call_1","type":"function",'
    '"function":{"name":"f","arguments":"{\\"q\\": \\"wea"}}]}'
)
STOP = chunk("{}", '"stop"')


def anthropic(*events: str) -> bytes:
    return "".join(
        f"event: {e.split(':', 1)[0]}\ndata: {e.split(':', 1)[1]}\n\n" for e in events
    ).encode()


START = 'message_start:{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}'
TOOL_START = 'content_block_start:{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"f","input":{}}}'
TOOL_ARGS = 'content_block_delta:{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"a\\": 1}"}}'
TOOL_STOP = 'content_block_stop:{"type":"content_block_stop","index":0}'


@pytest.mark.parametrize(
    ("body", "place"),
    [
        (b"", "before-first-byte"),
        (sse(chunk('{"role":"assistant"}')), "before-first-content"),
        (sse(REASONING), "mid-reasoning"),
        (sse(REASONING, TEXT), "mid-text"),
        (sse(TEXT, TOOL), "mid-tool-arguments"),
        (anthropic(START, TOOL_START, TOOL_ARGS, TOOL_STOP), "after-tool-call"),
        (sse(TEXT, STOP), "after-finish"),
        (sse(TEXT, STOP) + b"data: [DONE]\n\n", None),
    ],
)
def test_each_place_a_stream_breaks(body: bytes, place: str | None) -> None:
    report = inspect(body)
    assert where_broke(report) == place
    assert place is None or place in PLACES
    assert report.status == ("completed" if place is None else "truncated")
    # the scan's column is the same reading of the same Report
    rows = scan_batch(pa.RecordBatch.from_pydict({"body": [body]})).to_pylist()
    assert rows[0]["where_broke"] == place


def test_a_failed_stream_broke_where_its_error_came() -> None:
    error = b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"x"}}\n\n'
    text = 'content_block_start:{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}'
    delta = 'content_block_delta:{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}'
    report = inspect(anthropic(START, text, delta) + error)
    assert report.status == "failed" and where_broke(report) == "mid-text"
    assert where_broke(inspect(anthropic(START) + error)) == "before-first-content"

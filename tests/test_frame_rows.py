"""Frame rows: the cut tail as a row, previews from the engine, rows in any chunking."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ssescope.framing import Framer
from ssescope.output.frame_rows import FrameRow, FrameRows, json_type, preview_of
from ssescope.pipeline import Pipeline

from .splits import all_splits

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "ssescope" / "examples"
CUT = (EXAMPLES / "broken-openai-cut-mid-tool-call.sse").read_bytes()


def rows_of(chunks: list[bytes], **options: Any) -> tuple[list[FrameRow], FrameRows]:
    pipeline = Pipeline(keep_records=True, **options)
    table = FrameRows(pipeline)
    rows: list[FrameRow] = []
    for chunk in chunks:
        rows += table.take(pipeline.feed(chunk))
    rows += table.finish(pipeline.close())
    return rows, table


def test_the_cut_example_ends_with_a_row_for_the_bytes_after_byte_971() -> None:
    rows, _ = rows_of([CUT])
    tail = rows[-1]
    assert tail.kind == "tail"
    assert tail.index is None
    assert (tail.offset, tail.length) == (971, len(CUT) - 971)
    assert tail.data == CUT[971:].decode().rstrip("\n")
    assert [d.code for d in tail.diagnostics] == ["sse.unterminated-event"]
    assert [r.index for r in rows[:-1]] == [0, 1, 2]


def test_end_of_stream_findings_are_on_the_last_record_of_the_call() -> None:
    rows, table = rows_of([CUT])
    assert [d.code for d in rows[0].diagnostics] == []
    assert {d.code for d in rows[2].diagnostics} == {"stream.missing-done", "tool.incomplete"}
    incomplete = next(d for d in rows[2].diagnostics if d.code == "tool.incomplete")
    assert (incomplete.record, incomplete.offset) == (2, len(CUT))
    assert table.late == []


def test_previews_show_the_argument_fragments_as_received() -> None:
    rows, _ = rows_of([CUT])
    assert rows[0].preview == "start gpt-4o-mini-2024-07-18 · tool get_weather"
    assert rows[1].preview == 'args {"ci'
    assert rows[2].preview == 'args ty": "Ly'
    assert not any(r.invalid for r in rows)


def test_rows_are_the_same_in_every_chunking() -> None:
    whole, _ = rows_of([CUT])
    for chunks in all_splits(CUT):
        assert rows_of(chunks)[0] == whole


def test_a_stream_that_ends_cleanly_has_no_tail() -> None:
    body = (EXAMPLES / "openai-chat-tool-call.sse").read_bytes()
    rows, _ = rows_of([body])
    assert all(r.kind != "tail" for r in rows)


@pytest.mark.parametrize(
    ("framing", "body", "start", "code"),
    [
        ("sse", b"data: 1\n\ndata: 2", 9, "sse.unterminated-event"),
        ("sse", b"data: 1\n\nevent: x\ndata: 2\n", 9, "sse.unterminated-event"),
        ("json-array", b'[{"a":1},{"b":', 9, "json-array.unterminated-element"),
        ("aws-eventstream", b"\x00\x00\x00\x40\x00\x00", 0, "eventstream.truncated-message"),
    ],
)
def test_every_framer_keeps_its_unterminated_tail(
    framing: str, body: bytes, start: int, code: str
) -> None:
    framer = Framer(framing)
    framer.feed(body)
    assert framer.tail is None
    framer.close()
    assert framer.tail is not None
    assert (framer.tail.start, framer.tail.end, framer.tail.code.name) == (start, len(body), code)


def test_an_ndjson_body_never_leaves_a_tail() -> None:
    framer = Framer("ndjson")
    framer.feed(b'{"a":1}\n{"b":')
    framer.close()
    assert framer.tail is None


def test_records_without_an_event_line_show_their_json_type() -> None:
    body = (EXAMPLES / "vercel-ui.sse").read_bytes()
    rows, _ = rows_of([body])
    assert [r.event for r in rows[:4]] == ["start", "start-step", "text-start", "text-delta"]
    assert rows[3].preview == '"Streaming "'
    assert json_type('{"type": 3}') is None
    assert json_type('{"type": "x"') is None


def test_a_preview_names_finish_usage_and_errors() -> None:
    from ssescope.events import Finish, ProviderError, Usage

    events = [
        Finish(0, 0, "stop", "end_turn"),
        Usage(0, {"input_tokens": 3, "output_tokens": 4}, None, "usage"),
        ProviderError(0, None, "overloaded"),
    ]
    assert preview_of(events) == "finish end_turn · usage 3 in · 4 out · error overloaded"


def test_rows_are_released_while_the_stream_is_fed() -> None:
    body = b"".join(
        b'data: {"choices":[{"index":0,"delta":{"content":"%d"}}]}\n\n' % i for i in range(200)
    )
    pipeline = Pipeline(keep_records=True)
    table = FrameRows(pipeline)
    first = table.take(pipeline.feed(body[: len(body) // 2]))
    assert 90 < len(first) < 100  # all but the last record seen so far
    assert pipeline.records == []  # handed over, not kept
    rest = table.take(pipeline.feed(body[len(body) // 2 :])) + table.finish(pipeline.close())
    assert [r.index for r in first + rest] == list(range(200))


def test_a_record_nested_too_deep_to_write_again_keeps_its_data_as_preview() -> None:
    deep = "[" * 300 + "1" + "]" * 300
    body = f'data: {{"type":"tool-input-available","toolCallId":"a","input":{deep}}}\n\n'
    rows, _ = rows_of([body.encode()], provider="vercel-ui", framing="sse")
    assert rows[0].event == "tool-input-available"
    assert rows[0].preview.endswith("]" * 20 + "}")


def test_every_invalid_record_is_flagged_past_the_listed_diagnostics() -> None:
    body = b"data: {bad json\n\n" * 150
    rows, table = rows_of([body], provider="openai-chat")
    assert len(rows) == 150 and all(row.invalid for row in rows)
    listed = [row for row in rows if any(d.code == "json.invalid" for d in row.diagnostics)]
    assert len(listed) == 100  # the Report lists the first 100
    assert [d.code for d in table.late] == ["stream.diagnostics-capped"]


def test_an_audio_record_is_previewed_by_its_size_and_transcript() -> None:
    from ssescope.events import Audio
    from ssescope.output.frame_rows import preview_of

    assert preview_of([Audio(0, 0, data="AAAA" * 4)]) == "audio 12 bytes"
    assert preview_of([Audio(0, 0, transcript="Hi")]) == 'transcript "Hi"'

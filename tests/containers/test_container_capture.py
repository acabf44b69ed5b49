from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssescope.containers import CaptureWriter, read_capture, read_container
from ssescope.errors import UsageError


def _codes(body):
    return [d.code for d in body.diagnostics]


def test_a_capture_gives_exact_chunks_times_headers_and_end(fixture_bytes):
    body = read_container(fixture_bytes("anthropic-split-utf8.ssecap"))
    assert body.container == "ssecap"
    assert body.lost == []
    assert body.status == 200
    assert body.content_type == "text/event-stream; charset=utf-8"
    assert [c.time for c in body.chunks] == [0.412, 0.5301, 0.5312, 0.9]
    # 'é' was split across two reads: both halves are base64 lines, joined exactly
    assert body.chunks[1].data.endswith(b"Caf\xc3")
    assert body.chunks[2].data.startswith(b"\xa9")
    assert "Café".encode() in body.body
    assert body.end == "eof"
    assert body.timing == {"first_byte_s": 0.412, "total_s": 0.95}
    assert body.request is not None
    assert body.request["headers"][0] == ("x-api-key", "[redacted]")
    assert body.diagnostics == []


def test_an_interrupted_capture_reports_the_cut_line_and_keeps_the_rest(fixture_bytes):
    body = read_capture(fixture_bytes("interrupted.ssecap"))
    assert len(body.chunks) == 2
    assert _codes(body) == ["ssecap.truncated-line"]
    assert body.end is None


def test_a_garbled_line_in_the_middle_is_skipped_and_reading_goes_on():
    data = (
        b'{"ssescope":"capture","version":1,"request":null,"response":{"status":200,"headers":[]}}\n'
        b'{"t":0.1,"data":"data: 1\\n\\n"}\n'
        b'{"t":0.2,"data":"da\n'
        b'{"t":0.3,"b64":"@@@"}\n'
        b'{"t":"soon","data":"data: 3\\n\\n"}\n'
        b'{"t":0.4}\n'
        b'{"end":"cancelled","t":0.5}\n'
        b'{"t":0.6,"data":"late"}\n'
    )
    body = read_capture(data)
    assert [c.data for c in body.chunks] == [b"data: 1\n\n", b"data: 3\n\n", b"late"]
    assert [c.time for c in body.chunks] == [0.1, None, 0.6]
    assert _codes(body) == [
        "ssecap.invalid-line",
        "ssecap.invalid-line",
        "ssecap.missing-time",
        "ssecap.invalid-line",
        "ssecap.data-after-end",
    ]
    assert body.end == "cancelled"


def test_a_capture_with_a_broken_header_still_gives_its_chunks():
    body = read_capture(b'{"ssescope":"capt\n{"t":0.1,"data":"x"}\n')
    assert body.body == b"x"
    assert _codes(body) == ["ssecap.invalid-header"]


def test_a_future_version_is_read_with_a_warning():
    body = read_capture(b'{"ssescope":"capture","version":2}\n{"t":0,"data":"x"}\n')
    assert body.body == b"x"
    assert _codes(body) == ["ssecap.unknown-version"]


def test_an_error_status_in_a_capture_is_reported():
    body = read_capture(b'{"ssescope":"capture","version":1,"response":{"status":503}}\n')
    assert _codes(body) == ["http.error-status"]


def test_the_writer_redacts_secrets_in_the_request_and_response():
    fp = io.BytesIO()
    writer = CaptureWriter(
        fp,
        request={
            "method": "POST",
            "url": "https://generativelanguage.example.test/v1/m:stream?alt=sse&key=placeholder",
            "headers": {"x-goog-api-key": "placeholder", "Accept": "text/event-stream"},
        },
        response_status=200,
        response_headers=[("Content-Type", "text/event-stream"), ("Set-Cookie", "a=b")],
    )
    writer.close()
    header = json.loads(fp.getvalue().splitlines()[0])
    assert header == {
        "ssescope": "capture",
        "version": 1,
        "request": {
            "method": "POST",
            "url": "https://generativelanguage.example.test/v1/m:stream?alt=sse&key=[redacted]",
            "headers": [["x-goog-api-key", "[redacted]"], ["Accept", "text/event-stream"]],
        },
        "response": {
            "status": 200,
            "headers": [["Content-Type", "text/event-stream"], ["Set-Cookie", "[redacted]"]],
        },
    }
    assert b"placeholder" not in fp.getvalue()


def test_the_writer_writes_text_chunks_as_text_and_others_as_base64():
    fp = io.BytesIO()
    writer = CaptureWriter(fp)
    writer.write_chunk(b"data: hi\n\n", 0.25)
    writer.write_chunk(b"\xc3", 0.5)
    writer.close("stalled")
    lines = [json.loads(x) for x in fp.getvalue().splitlines()]
    assert lines[1:] == [
        {"t": 0.25, "data": "data: hi\n\n"},
        {"t": 0.5, "b64": "ww=="},
        {"end": "stalled", "t": 0.5},
    ]


def test_the_writer_owns_a_file_it_opened(tmp_path):
    path = tmp_path / "x.ssecap"
    with CaptureWriter(path, response_status=200) as writer:
        writer.write_chunk(b"data: 1\n\n", 0.1)
    body = read_container(path.read_bytes())
    assert body.container == "ssecap"
    assert body.body == b"data: 1\n\n"
    assert body.end is None


def test_an_exception_inside_the_writer_context_records_an_error_end(tmp_path):
    path = tmp_path / "x.ssecap"
    with pytest.raises(RuntimeError), CaptureWriter(path) as writer:
        writer.write_chunk(b"data: 1\n\n", 0.1)
        raise RuntimeError("network went away")
    assert read_capture(path.read_bytes()).end == "error"


def test_writer_misuse_raises_usage_errors():
    writer = CaptureWriter(io.BytesIO())
    with pytest.raises(UsageError):
        writer.write_chunk(b"x", float("nan"))
    with pytest.raises(UsageError):
        writer.close("finished")  # type: ignore[arg-type]
    writer.close()
    with pytest.raises(UsageError):
        writer.write_chunk(b"x", 1.0)


chunk_lists = st.lists(
    st.tuples(
        st.one_of(st.binary(max_size=40), st.text(max_size=20).map(str.encode)),
        st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False),
    ),
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(chunk_lists, st.sampled_from([None, "eof", "cancelled", "stalled", "error"]))
def test_any_chunk_list_survives_write_then_read_exactly(chunks, end):
    fp = io.BytesIO()
    writer = CaptureWriter(fp, request={"method": "GET", "url": "http://x/", "headers": []})
    for data, t in chunks:
        writer.write_chunk(data, t)
    writer.close(end)
    body = read_capture(fp.getvalue())
    assert [(c.data, c.time) for c in body.chunks] == chunks
    assert body.end == end
    assert body.diagnostics == []

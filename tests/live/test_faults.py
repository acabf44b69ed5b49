"""The fault transformations are pure functions of the body and the record spans."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import ssescope
from ssescope.errors import UsageError
from ssescope.serve.faults import (
    Fault,
    apply_faults,
    error_frame,
    parse_fault,
    record_spans,
    schedule,
)

ANTHROPIC = (Path(__file__).parent.parent / "fixtures" / "live" / "anthropic.sse").read_bytes()


@pytest.mark.parametrize(
    ("spec", "fault"),
    [
        ("cut@120", Fault("cut", byte=120)),
        ("cut@record:3", Fault("cut", record=3)),
        ("stall@record:2:1.5", Fault("stall", record=2, seconds=1.5)),
        ("garble@record:4", Fault("garble", record=4)),
        ("error@record:4", Fault("error", record=4)),
        ("http-error:429", Fault("http-error", status=429)),
        ("crlf", Fault("crlf")),
        ("no-done", Fault("no-done")),
    ],
)
def test_fault_specs_parse_into_faults_and_print_back(spec: str, fault: Fault) -> None:
    assert parse_fault(spec) == fault
    assert str(parse_fault(spec)) == spec


@pytest.mark.parametrize(
    "spec", ["cut", "cut@x", "stall@record:1", "garble@3", "http-error:200", "explode", "cut@-1"]
)
def test_malformed_fault_specs_are_usage_errors(spec: str) -> None:
    with pytest.raises(UsageError):
        parse_fault(spec)


def test_record_spans_cover_the_records_the_framer_found() -> None:
    spans, framing, provider = record_spans(ANTHROPIC)
    assert (framing, provider) == ("sse", "anthropic")
    assert len(spans) == 11
    assert spans[0].start == 0
    assert spans[-1].end == len(ANTHROPIC)
    assert all(a.end == b.start for a, b in itertools.pairwise(spans))


def test_no_fault_leaves_the_body_untouched() -> None:
    assert apply_faults(ANTHROPIC, []).body == ANTHROPIC


def test_cut_at_a_byte_truncates_there() -> None:
    assert apply_faults(ANTHROPIC, [parse_fault("cut@100")]).body == ANTHROPIC[:100]


def test_cut_at_a_record_ends_inside_that_record() -> None:
    spans, _, _ = record_spans(ANTHROPIC)
    body = apply_faults(ANTHROPIC, [parse_fault("cut@record:4")]).body
    assert spans[4].start < len(body) < spans[4].end
    assert ssescope.inspect(body).status == "truncated"


def test_stall_pauses_before_the_record_and_forces_a_chunk_boundary() -> None:
    spans, _, _ = record_spans(ANTHROPIC)
    plan = apply_faults(ANTHROPIC, [parse_fault("stall@record:3:2")])
    assert plan.pauses == [(spans[3].start, 2.0)]
    chunks = schedule(plan, chunk=10_000)
    assert [w for _, w in chunks] == [0.0, 2.0]
    assert chunks[1][0].startswith(b'event: content_block_delta\ndata: {"type"')
    assert b"Bonjour" in chunks[1][0]


def test_garble_breaks_the_json_of_one_record_only() -> None:
    report = ssescope.inspect(apply_faults(ANTHROPIC, [parse_fault("garble@record:4")]).body)
    invalid = [d for d in report.diagnostics if d.code == "json.invalid"]
    assert [d.record for d in invalid] == [4]
    assert report.text == "Bonjour tous 🎉."


def test_error_replaces_the_rest_with_the_providers_own_error() -> None:
    body = apply_faults(ANTHROPIC, [parse_fault("error@record:5")]).body
    assert body.endswith(error_frame("anthropic", "sse"))
    report = ssescope.inspect(body)
    assert report.status == "failed"
    assert report.error is not None
    assert report.text == "Bonjour à"


@pytest.mark.parametrize(
    ("provider", "framing", "expected"),
    [
        ("openai-chat", "sse", b'data: {"error":'),
        ("anthropic", "sse", b"event: error\ndata: "),
        ("openai-responses", "sse", b'event: error\ndata: {"type":"error"'),
        ("gemini", "sse", b'data: {"error":{"code":503'),
        ("ollama", "ndjson", b'{"error":'),
    ],
)
def test_error_frames_have_each_providers_shape(
    provider: str, framing: str, expected: bytes
) -> None:
    frame = error_frame(provider, framing)
    assert frame.startswith(expected)
    payload = frame.split(b"data: ", 1)[-1]
    json.loads(payload)


@pytest.mark.parametrize("fault", ["crlf", "cr", "split-utf8"])
def test_line_ending_and_utf8_faults_keep_the_report(fault: str) -> None:
    plan = apply_faults(ANTHROPIC, [parse_fault(fault)])
    chunks = [c for c, _ in schedule(plan, chunk="original")]
    clean = ssescope.inspect(ANTHROPIC)
    faulty = ssescope.inspect(chunks)
    assert (faulty.status, faulty.text, faulty.records.total) == (
        clean.status,
        clean.text,
        clean.records.total,
    )


def test_split_utf8_cuts_chunks_inside_multibyte_characters() -> None:
    plan = apply_faults(ANTHROPIC, [parse_fault("split-utf8")])
    chunks = [c for c, _ in schedule(plan, chunk=4096)]
    with pytest.raises(UnicodeDecodeError):
        for c in chunks:
            c.decode("utf-8")


def test_drop_blank_lines_merges_the_events_into_one() -> None:
    body = apply_faults(ANTHROPIC, [parse_fault("drop-blank-lines")]).body
    assert b"\n\n" not in body
    assert ssescope.inspect(body).status == "truncated"


def test_no_done_removes_the_terminal_marker() -> None:
    body = apply_faults(ANTHROPIC, [parse_fault("no-done")]).body
    assert b"message_stop" not in body
    assert ssescope.inspect(body).text == "Bonjour à tous 🎉."


def test_http_error_answers_with_the_providers_error_body() -> None:
    plan = apply_faults(ANTHROPIC, [parse_fault("http-error:529")])
    assert plan.http_status == 529
    assert json.loads(plan.body)["error"]["type"] == "overloaded_error"


def test_random_chunking_is_reproducible_and_loses_nothing() -> None:
    plan = apply_faults(ANTHROPIC, [])
    a = schedule(plan, chunk="random:7")
    assert a == schedule(plan, chunk="random:7")
    assert b"".join(c for c, _ in a) == ANTHROPIC
    assert len(a) > 11


def test_original_delay_replays_the_capture_timing_scaled_by_speed() -> None:
    plan = apply_faults(b"data: 1\n\ndata: 2\n\n", [])
    chunks = schedule(plan, delay="original", speed=2.0, original=[(9, 0.5), (18, 1.5)])
    assert chunks == [(b"data: 1\n\n", 0.25), (b"data: 2\n\n", 0.5)]


@pytest.mark.parametrize(("chunk", "delay"), [("0", "0"), ("x", "0"), ("4", "soon")])
def test_bad_chunking_or_delay_is_a_usage_error(chunk: str, delay: str) -> None:
    with pytest.raises(UsageError):
        schedule(apply_faults(ANTHROPIC, []), chunk=chunk, delay=delay)


@pytest.mark.parametrize(
    ("provider", "framing"),
    [
        ("openai-chat", "sse"),
        ("anthropic", "sse"),
        ("openai-responses", "sse"),
        ("gemini", "sse"),
        ("ollama", "ndjson"),
        ("cohere", "sse"),
        ("bedrock", "ndjson"),
        ("bedrock", "aws-eventstream"),
        ("vercel-ui", "sse"),
    ],
)
def test_each_providers_injected_error_fails_the_stream(provider: str, framing: str) -> None:
    report = ssescope.inspect(
        iter([error_frame(provider, framing)]), provider=provider, framing=framing
    )
    assert report.status == "failed"
    assert report.error is not None
    assert "provider.error" in [d.code for d in report.diagnostics]


@pytest.mark.parametrize(
    "spec",
    ["cut@record:11", "cut@record:99", "garble@record:50", "stall@record:11:1", "error@record:12"],
)
def test_a_fault_past_the_last_record_is_refused_with_the_record_count(spec: str) -> None:
    with pytest.raises(UsageError, match=r"it has 11 record\(s\) \(numbered 0 to 10\)"):
        apply_faults(ANTHROPIC, [parse_fault(spec)])


def test_a_cut_past_the_last_byte_is_refused_with_the_size() -> None:
    with pytest.raises(UsageError, match=f"it has {len(ANTHROPIC)} bytes"):
        apply_faults(ANTHROPIC, [parse_fault(f"cut@{len(ANTHROPIC)}")])


def test_faults_on_the_last_record_still_apply() -> None:
    cut = apply_faults(ANTHROPIC, [parse_fault("cut@record:10")])
    assert ssescope.inspect(iter([cut.body])).status == "truncated"
    # error@record:N one past the last record appends the provider's error
    appended = apply_faults(ANTHROPIC, [parse_fault("error@record:11")])
    assert appended.body.startswith(ANTHROPIC)
    assert ssescope.inspect(iter([appended.body])).status == "failed"

"""The OpenAI Realtime adapter: server events of a session in (one per WebSocket
message), one Report per response out, the verdict from ``response.done``'s status.

The captures under ``tests/fixtures/realtime`` are constructed from the documented event
shapes (``make_fixtures.py`` there); the one real session is the translation session of
the real streams."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from tests.cli.cli_helpers import run

import ssescope
from ssescope.providers._quirks import WireRecord
from ssescope.providers.realtime.quirks import QUIRKS

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "realtime"
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
TRANSLATION = STREAMS / "agent" / "openai-realtime" / "translation-session-events.jsonl"


def reports(name: str) -> list[ssescope.Report]:
    return ssescope.inspect_all((FIXTURES / name).read_bytes())


def codes_of(report: ssescope.Report) -> list[str]:
    return [d.code for d in report.diagnostics]


def audio(report: ssescope.Report) -> dict[str, Any]:
    data = report.to_dict()["outputs"][0]["audio"]
    assert isinstance(data, dict)
    return data


def lines(*events: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(e).encode() + b"\n" for e in events)


def ev(kind: str, n: int = 0, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "event_id": f"event_{n}", **fields}


def done(status: str, details: object = None, **response: Any) -> dict[str, Any]:
    body = {"object": "realtime.response", "id": "r1", "status": status, "output": []}
    return ev("response.done", 9, response={**body, "status_details": details, **response})


CREATED = ev("response.created", 1, response={"object": "realtime.response", "id": "r1"})


def text_delta(text: str, kind: str = "response.output_text.delta") -> dict[str, Any]:
    return ev(kind, 2, response_id="r1", item_id="i1", output_index=0, content_index=0, delta=text)


def test_the_real_translation_session_is_completed_by_session_closed() -> None:
    if not TRANSLATION.is_file():
        pytest.skip(f"the real streams are not at {STREAMS} (set SSESCOPE_REAL_STREAMS)")
    report = ssescope.inspect(TRANSLATION.read_bytes())
    assert report.provider == "realtime"
    assert "session.created" in report.provider_rule
    assert report.status == "completed"
    assert report.response.status_reason == "session.closed"
    assert report.response.model == "gpt-realtime-translate"
    sound = audio(report)
    assert sound["transcript"] == "La rápida zorra marrón salta sobre el perro perezoso."
    assert (sound["chunks"], sound["bytes"], sound["format"]) == (1, 3, "pcm16")
    assert report.text == ""  # the input transcript is the user's, not the output
    assert report.records.unknown == 0


def test_a_function_call_then_a_text_answer_are_two_entries() -> None:
    first, second = reports("tool-call-then-text.ssecap")
    assert first.provider == second.provider == "realtime"
    assert first.status == second.status == "completed"
    assert first.response.status_reason == "response.done, status completed"
    call = first.to_dict()["outputs"][0]["tool_calls"][0]
    assert (call["id"], call["name"], call["arguments"]) == (
        "call_001",
        "get_weather",
        '{"city":"Paris"}',
    )
    assert first.to_dict()["outputs"][0]["finish_reason"] == "tool_calls"
    assert second.text == "It is 18 °C in Paris."
    assert second.to_dict()["outputs"][0]["finish_reason"] == "stop"
    usage = second.to_dict()["usage"]
    assert (usage["input_tokens"], usage["output_tokens"], usage["total_tokens"]) == (201, 56, 257)
    assert usage["cached_input_tokens"] == 128
    assert [r.to_dict()["entry"]["index"] for r in (first, second)] == [0, 1]
    sent = [json.loads(m)["type"] for m in first.to_dict()["source"]["websocket"]["sent"]]
    # the tool's output goes with the call it answers, before the next response.create
    assert sent == [
        "session.update",
        "conversation.item.create",
        "response.create",
        "conversation.item.create",
    ]
    assert codes_of(first) == codes_of(second) == []


def test_a_turn_the_server_detects_starts_an_entry_and_a_barge_in_is_cancelled() -> None:
    first, second = reports("voice-barge-in.ssecap")
    assert first.status == "completed"
    assert second.status == "cancelled"
    assert second.response.status_reason == "response.done, status cancelled (turn_detected)"
    assert second.to_dict()["outputs"][0]["raw_finish_reason"] == "turn_detected"
    assert audio(first)["transcript"] == "Sure, here is a story."
    assert (audio(first)["chunks"], audio(first)["bytes"]) == (5, 2400)
    assert (audio(second)["chunks"], audio(second)["bytes"]) == (2, 960)
    assert first.text == second.text == ""
    # audio is what a voice client plays: its first chunk is the first content
    assert first.timing.first_content_s == 0.44
    assert first.timing.max_content_idle_s == 0.4
    # the audio itself is in no Report, not even the client's appended audio
    for report in (first, second):
        text = json.dumps(report.to_dict())
        assert "AAAAAAAAAAAA" not in text
    sent = first.to_dict()["source"]["websocket"]["sent"]
    assert json.loads(sent[0])["audio"] == "(2560 base64 characters, not kept)"


def test_a_close_mid_response_is_truncated_never_completed() -> None:
    (report,) = reports("closed-mid-response.ssecap")
    assert report.status == "truncated"
    assert "code 1011 (keepalive ping timeout)" in report.response.status_reason
    assert report.text == "The answer is"
    assert codes_of(report) == [
        "realtime.missing-response-done",
        "websocket.close-code",
        "websocket.closed-before-terminal",
    ]
    data = (FIXTURES / "closed-mid-response.ssecap").read_bytes()
    dropped = data.replace(b'{"code": 1011, "reason": "keepalive ping timeout"}', b'"dropped"')
    assert dropped != data
    report = ssescope.inspect(dropped)
    assert report.status == "truncated"
    assert "websocket.no-close-frame" in codes_of(report)


def test_an_error_outside_a_response_then_a_close_is_failed() -> None:
    (report,) = reports("error-then-close.ssecap")
    assert report.status == "failed"
    assert report.error is not None
    assert report.error["code"] == "response_cancel_not_active"
    assert codes_of(report) == ["realtime.session-error", "websocket.close-code"]


def test_an_error_between_responses_leaves_the_verdicts_alone() -> None:
    error = ev("error", 5, error={"type": "invalid_request_error", "message": "bad"})
    report = ssescope.inspect(lines(CREATED, text_delta("Hi"), done("completed"), error))
    assert report.status == "completed"
    assert report.error is None
    assert "realtime.session-error" in codes_of(report)


def test_an_error_during_a_response_is_its_error_and_response_done_decides() -> None:
    error = ev("error", 5, error={"type": "server_error", "code": "x", "message": "oops"})
    report = ssescope.inspect(lines(CREATED, error, text_delta("Hi")))
    assert report.status == "failed"  # no response.done after the error: it ended the response
    assert "realtime.missing-response-done" in codes_of(report)
    assert report.error is not None and report.error["message"] == "oops"
    report = ssescope.inspect(lines(CREATED, error, text_delta("Hi"), done("completed")))
    assert report.status == "completed"


def test_failed_and_incomplete_statuses_carry_their_details() -> None:
    (failed,) = reports("failed-server-error.jsonl")
    assert failed.status == "failed"
    assert (
        failed.response.status_reason
        == "response.done, status failed (server_error: internal_error)"
    )
    assert failed.error is not None
    assert (failed.error["type"], failed.error["code"]) == ("server_error", "internal_error")
    assert failed.text == "Let me"
    (beta,) = reports("beta-incomplete-max-tokens.jsonl")
    assert beta.status == "incomplete"
    assert beta.to_dict()["outputs"][0]["finish_reason"] == "length"
    assert "(max_output_tokens)" in beta.response.status_reason
    assert audio(beta)["transcript"] == "A very long"


@pytest.mark.parametrize(
    ("details", "status", "finish"),
    [
        ({"reason": "content_filter"}, "incomplete", "content_filter"),
        ({"reason": "client_cancelled"}, "cancelled", "other"),
    ],
)
def test_each_status_gives_its_verdict(details: dict[str, str], status: str, finish: str) -> None:
    report = ssescope.inspect(lines(CREATED, text_delta("Hi"), done(status, details)))
    assert report.status == status
    assert report.to_dict()["outputs"][0]["finish_reason"] == finish
    assert details["reason"] in report.response.status_reason


def test_an_unknown_status_is_incomplete_and_a_status_without_details_is_said() -> None:
    report = ssescope.inspect(lines(CREATED, done("in_progress")))
    assert report.status == "incomplete"
    assert "realtime.unknown-status" in codes_of(report)
    report = ssescope.inspect(lines(CREATED, done("incomplete")))
    assert report.status == "incomplete"
    assert "no status_details" in report.response.status_reason
    assert "realtime.status-without-details" in codes_of(report)


def test_ga_and_beta_text_deltas_assemble_alike() -> None:
    for kind in ("response.output_text.delta", "response.text.delta"):
        body = lines(CREATED, text_delta("Hel", kind), text_delta("lo", kind), done("completed"))
        report = ssescope.inspect(body)
        assert (report.provider, report.text, report.status) == ("realtime", "Hello", "completed")


def test_the_final_items_stand_in_for_parts_and_calls_never_streamed() -> None:
    output = [
        {"type": "function_call", "call_id": "c9", "name": "f", "arguments": "{}"},
        {"type": "message", "id": "m1", "content": [{"type": "output_text", "text": "Done."}]},
    ]
    report = ssescope.inspect(lines(CREATED, done("completed", output=output)))
    assert report.text == "Done."
    (call,) = report.to_dict()["outputs"][0]["tool_calls"]
    assert (call["id"], call["name"], call["arguments"]) == ("c9", "f", "{}")


def test_rate_limits_transcription_failures_and_bad_fields_are_diagnosed() -> None:
    limits = ev(
        "rate_limits.updated",
        7,
        rate_limits=[{"name": "tokens", "limit": 10, "remaining": 0, "reset_seconds": 1.5}],
    )
    failed = ev(
        "conversation.item.input_audio_transcription.failed",
        8,
        item_id="u1",
        error={"message": "bad audio"},
    )
    bad = text_delta(42)  # type: ignore[arg-type]
    report = ssescope.inspect(lines(CREATED, bad, failed, done("completed"), limits))
    found = codes_of(report)
    assert "realtime.rate-limit-reached" in found
    assert "realtime.transcription-failed" in found
    assert "realtime.invalid-field" in found
    assert report.status == "completed"


def test_a_message_that_is_json_but_not_an_object_is_reported_and_the_rest_read() -> None:
    body = lines(CREATED, text_delta("Hi")) + b"[1, 2]\n" + lines(done("completed"))
    report = ssescope.inspect(body, provider="realtime")
    assert "realtime.unexpected-json" in codes_of(report)
    assert report.status == "completed"
    assert report.outputs[0].text == "Hi"


def test_detection_keeps_responses_api_events_apart() -> None:
    responses = {"type": "response.created", "sequence_number": 0, "response": {"id": "r"}}
    assert ssescope.inspect(lines(responses)).provider == "openai-responses"
    assert ssescope.inspect(lines(CREATED)).provider == "realtime"
    error = ev("error", 1, error={"type": "invalid_request_error", "message": "no"})
    report = ssescope.inspect(lines(error))
    assert (report.provider, report.status) == ("realtime", "failed")


def _records(data: bytes) -> list[WireRecord]:
    return [WireRecord(None, line) for line in data.decode().splitlines()]


def _body(records: list[WireRecord]) -> bytes:
    return "".join(f"{r.data}\n" for r in records).encode()


def test_the_quirks_rewrite_the_wire_as_the_bug_reports_say() -> None:
    data = lines(CREATED, text_delta("Hi"), done("completed", {"type": "completed"}))
    quirked = _body(QUIRKS["realtime-incomplete-no-details"](_records(data)))
    report = ssescope.inspect(quirked)
    assert report.status == "incomplete"
    assert "realtime.status-without-details" in codes_of(report)
    beta = _body(QUIRKS["realtime-beta-event-names"](_records(data)))
    assert b"response.text.delta" in beta and b"output_text" not in beta
    assert ssescope.inspect(beta).text == "Hi"


def test_inspect_entry_picks_one_response_of_a_connection() -> None:
    path = str(FIXTURES / "voice-barge-in.ssecap")
    result = run("inspect", "--json", "--entry", "1", path)
    assert result.code == 130, result.err  # the exit code of a cancelled response
    data = json.loads(result.out)
    assert (data["status"], data["entry"]["index"]) == ("cancelled", 1)
    listing = run("inspect", "--pretty", "--no-color", path)
    assert "cancelled" in listing.out and "completed" in listing.out


def test_a_bounded_pipeline_caps_a_long_transcript_and_keeps_no_audio() -> None:
    from ssescope import Pipeline
    from ssescope.limits import BOUNDED_CONTENT_CHARS

    piece = "x" * 10_000
    deltas = [
        ev("response.output_audio_transcript.delta", 3, item_id="i1", delta=piece)
        for _ in range(BOUNDED_CONTENT_CHARS // len(piece) + 20)
    ]
    sound = ev("response.output_audio.delta", 4, item_id="i1", delta="AAAA" * 1000)
    pipeline = Pipeline(bounded=True)
    for event in (CREATED, sound, *deltas, sound, done("completed")):
        pipeline.feed(json.dumps(event).encode() + b"\n")
    pipeline.close()
    report = pipeline.report()
    got = audio(report)
    assert len(got["transcript"]) == BOUNDED_CONTENT_CHARS
    assert (got["chunks"], got["bytes"]) == (2, 6000)
    assert "stream.memory-capped" in codes_of(report)
    assert report.status == "completed"


def test_the_terminal_view_shows_the_audio_by_count_size_and_transcript() -> None:
    result = run(
        "inspect", "--pretty", "--no-color", "--entry", "0", str(FIXTURES / "voice-barge-in.ssecap")
    )
    assert "audio: 5 chunks, 2,400 bytes (audio/pcm)" in result.out
    assert "audio transcript" in result.out and "Sure, here is a story." in result.out


def test_a_close_after_the_client_cancelled_is_cancelled_not_cut() -> None:
    data = (FIXTURES / "closed-mid-response.ssecap").read_text().splitlines()
    cancel = json.dumps({"t": 0.3, "dir": "send", "data": '{"type":"response.cancel"}'})
    report = ssescope.inspect(("\n".join([*data[:-1], cancel, data[-1]]) + "\n").encode())
    assert report.status == "cancelled"
    assert report.response.status_reason == (
        "the client sent response.cancel, and the WebSocket closed with code 1011 "
        "(keepalive ping timeout) before the terminal event"
    )
    assert "websocket.closed-before-terminal" not in codes_of(report)
    assert "websocket.close-code" in codes_of(report)
    first, _ = ssescope.inspect_all(("\n".join([*data[:-1], cancel, *data[1:3]]) + "\n").encode())
    assert first.status == "cancelled"
    assert "the next response began" in first.response.status_reason


@pytest.mark.parametrize("name", ["tool-call-then-text.ssecap", "voice-barge-in.ssecap"])
def test_a_connection_cut_after_any_message_never_completes_a_response_it_cut(name: str) -> None:
    header, *messages, _close = (FIXTURES / name).read_text().splitlines()
    for k in range(len(messages) + 1):
        kept = messages[:k]
        data = "\n".join([header, *kept, json.dumps({"close": "dropped"})]) + "\n"
        reports_ = ssescope.inspect_all(data.encode())
        done = sum('\\"response.done\\"' in line for line in kept)
        statuses = [r.status for r in reports_]
        # every response whose response.done arrived keeps its verdict; the last one,
        # cut before its response.done, is truncated
        assert statuses.count("truncated") == (0 if done == len(reports_) else 1), (k, statuses)
        assert all(s != "completed" for s in statuses[done:]), (k, statuses)


def test_events_without_event_ids_are_still_read_as_realtime() -> None:
    session = {"type": "session.created", "session": {"type": "realtime", "model": "m"}}
    bare = {"type": "response.done", "response": {"status": "completed", "output": []}}
    report = ssescope.inspect(lines(session, bare))
    assert (report.provider, report.response.model, report.status) == ("realtime", "m", "completed")
    assert "whose session is a Realtime session" in report.provider_rule
    report = ssescope.inspect(lines(bare))
    assert (report.provider, report.status) == ("realtime", "completed")
    assert report.provider_rule == "a response.done event (OpenAI Realtime)"


def test_serve_applies_the_realtime_quirks_to_a_realtime_stream() -> None:
    from ssescope.serve.quirks import apply_quirks, parse_quirk

    body = (FIXTURES / "failed-server-error.jsonl").read_bytes()
    plan = apply_quirks(body, [parse_quirk("realtime-incomplete-no-details")])
    assert plan.provider == "realtime"
    report = ssescope.inspect(plan.body)
    assert report.response.status_reason == "response.done, status incomplete (no status_details)"
    with pytest.raises(ssescope.UsageError, match="does not apply to openai-chat"):
        apply_quirks(b'data: {"choices":[]}\n\n', [parse_quirk("realtime-beta-event-names")])


def test_a_capture_that_starts_mid_response_gets_the_id_from_response_done() -> None:
    report = ssescope.inspect(lines(text_delta("Hi"), done("completed")))
    assert (report.response.id, report.text, report.status) == ("r1", "Hi", "completed")
    assert report.provider == "realtime"


def test_a_capture_of_the_real_openai_realtime_client_is_read_as_realtime() -> None:
    # recorded here: the openai client's realtime.connect() through the proxy to serve
    path = ROOT / "tests" / "fixtures" / "websocket" / "realtime-text-turn.ssecap"
    (report,) = ssescope.inspect_all(path.read_bytes())
    assert (report.provider, report.status) == ("realtime", "completed")
    assert report.text == "Bonjour tout le monde."
    sent = [json.loads(m)["type"] for m in report.to_dict()["source"]["websocket"]["sent"]]
    assert sent == ["session.update", "conversation.item.create", "response.create"]
    assert codes_of(report) == []

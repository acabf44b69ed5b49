"""The Pipeline and ``inspect``: detection, live events, timing, counts and misuse."""

from __future__ import annotations

from pathlib import Path

import pytest

import ssescope
from ssescope import Pipeline, UsageError
from ssescope.aggregate.timing import TimingOptions, compute_timing
from ssescope.framing.records import JSONRecord
from ssescope.providers.detect import detect_provider


def rec(data: str, event: str | None = None) -> JSONRecord:
    return JSONRecord(0, data, 0, len(data), None, event)


class TestProviderDetection:
    @pytest.mark.parametrize(
        ("data", "event", "provider"),
        [
            ('{"object":"chat.completion.chunk","choices":[]}', None, "openai-chat"),
            ('{"id":"x","choices":[{"delta":{}}]}', None, "openai-chat"),
            ('{"type":"message_start","message":{}}', None, "anthropic"),
            ('{"type":"response.created","response":{}}', None, "openai-responses"),
            ('{"type":"error","sequence_number":2,"error":{}}', None, "openai-responses"),
            ('{"type":"message-start","id":"x"}', None, "cohere"),
            ('{"type":"text-delta","id":"0","delta":"x"}', None, "vercel-ui"),
            ('{"candidates":[{"content":{"parts":[]}}]}', None, "gemini"),
            ('{"model":"llama","message":{"content":"x"},"done":false}', None, "ollama"),
            ('{"messageStart":{"role":"assistant"}}', None, "bedrock"),
            (
                '{"object":"error","message":"bad","type":"BadRequestError","code":400}',
                None,
                "openai-chat",
            ),
            ('{"role":"assistant"}', "event:messageStart", "bedrock"),
            # each provider's in-stream error decides on its own
            ('{"error":{"message":"x"}}', None, "openai-chat"),
            ('{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}', None, "gemini"),
            ('{"error":"model not found"}', None, "ollama"),
            ('{"type":"error","error":{"type":"overloaded_error"}}', "error", "anthropic"),
            ('{"type":"error","code":"server_error","message":"x"}', "error", "openai-responses"),
            ('{"type":"error","errorText":"x"}', None, "vercel-ui"),
            ('{"throttlingException":{"message":"x"}}', None, "bedrock"),
        ],
    )
    def test_each_rule_recognises_its_provider(
        self, data: str, event: str | None, provider: str
    ) -> None:
        found = detect_provider(rec(data, event))
        assert found is not None
        assert found[0] == provider
        assert found[1]

    @pytest.mark.parametrize("data", ["[DONE]", '{"error":null}', "not json", "[1]"])
    def test_records_that_say_nothing_do_not_decide(self, data: str) -> None:
        assert detect_provider(rec(data)) is None

    def test_a_stream_of_unrecognised_records_is_reported_as_unknown(self) -> None:
        report = ssescope.inspect(b'data: {"hello": 1}\n\ndata: {"hello": 2}\n\n')
        assert report.provider == "unknown"
        assert report.records.unknown == 2
        assert report.status == "truncated"

    def test_an_unknown_provider_name_is_a_usage_error(self) -> None:
        with pytest.raises(UsageError, match="unknown provider"):
            Pipeline(provider="nope")

    def test_an_unknown_framing_name_is_a_usage_error(self) -> None:
        with pytest.raises(UsageError, match="unknown framing"):
            Pipeline(framing="xml")


class TestPipeline:
    def test_feed_after_close_and_report_before_close_are_usage_errors(self) -> None:
        p = Pipeline()
        with pytest.raises(UsageError):
            p.report()
        p.close()
        with pytest.raises(UsageError):
            p.feed(b"x")
        with pytest.raises(UsageError):
            p.close()

    def test_an_empty_body_is_truncated_and_says_so(self) -> None:
        report = ssescope.inspect(b"")
        assert report.status == "truncated"
        assert "empty" in report.response.status_reason
        assert report.to_dict()["schema"] == 1

    def test_records_are_counted_by_kind(self) -> None:
        report = ssescope.inspect(
            b': keep-alive\n\ndata: {"a":1}\n\ndata: oops\n\n', provider="unknown"
        )
        assert report.records.to_dict() == {
            "total": 3,
            "data": 2,
            "comments": 1,
            "invalid": 1,
            "unknown": 1,
        }

    def test_the_report_json_has_every_key_of_the_contract(self) -> None:
        d = ssescope.inspect(b"data: {}\n\n").to_dict()
        for key in (
            "schema",
            "source",
            "framing",
            "provider",
            "status",
            "outputs",
            "usage",
            "error",
            "records",
            "diagnostics",
            "timing",
        ):
            assert key in d
        assert set(d["source"]) >= {"container", "bytes"}
        assert set(d["timing"]) >= {
            "first_byte_s",
            "first_event_s",
            "first_content_s",
            "total_s",
            "max_gap_s",
        }

    def test_inspect_reads_a_path_and_an_iterable_of_chunks_alike(self, tmp_path: Path) -> None:
        body = b'data: {"a": 1}\n\n: c\n\n'
        f = tmp_path / "s.sse"
        f.write_bytes(body)
        from_path = ssescope.inspect(f).to_dict()
        from_chunks = ssescope.inspect(iter([body[:5], body[5:]])).to_dict()
        assert from_path["source"]["lost"] == ["timing", "chunk boundaries", "headers", "request"]
        del from_path["source"], from_chunks["source"]
        assert from_path == from_chunks

    def test_inspect_refuses_a_directory_and_a_missing_file(self, tmp_path: Path) -> None:
        with pytest.raises(UsageError, match="directory"):
            ssescope.inspect(tmp_path)
        with pytest.raises(UsageError, match="no such file"):
            ssescope.inspect(tmp_path / "missing")

    def test_without_arrival_times_timing_is_not_measured(self) -> None:
        timing = ssescope.inspect(b"data: {}\n\n").timing
        assert timing.to_dict() == {
            "first_byte_s": None,
            "first_event_s": None,
            "first_content_s": None,
            "total_s": None,
            "max_gap_s": None,
            "max_content_idle_s": None,
            "max_content_idle_after": None,
            "gap_histogram": None,
        }

    def test_arrival_times_give_first_byte_first_event_and_gaps(self) -> None:
        p = Pipeline(provider="unknown")
        p.feed(b": ping\n\n", 0.1)
        p.feed(b"data: {}\n", 0.2)
        p.feed(b"\n", 0.5)
        p.close(0.6)
        t = p.report().timing
        assert (t.first_byte_s, t.first_event_s, t.total_s) == (0.1, 0.5, 0.6)
        assert t.max_gap_s == pytest.approx(0.4)


class TestTimingDiagnostics:
    def test_a_long_gap_is_a_stall(self) -> None:
        _, diags = compute_timing(
            0.0, 20.0, [(0, 0.0, 0), (1, 15.0, 10)], 0, 0, TimingOptions(stall_s=10)
        )
        assert [d.code for d in diags] == ["timing.stall"]
        assert diags[0].record == 1

    def test_a_long_silence_after_the_last_record_is_a_stall(self) -> None:
        _, diags = compute_timing(
            0.0, 30.0, [(0, 0.1, 0), (1, 0.2, 10)], 0, 0, TimingOptions(stall_s=10)
        )
        assert [d.code for d in diags] == ["timing.stall"]
        assert diags[0].record == 1
        assert "after record 1 until the end" in diags[0].message

    def test_many_records_at_once_after_a_wait_is_a_burst(self) -> None:
        times = [(0, 0.0, 0)] + [(i, 0.5 + i * 1e-5, i * 10) for i in range(1, 12)]
        _, diags = compute_timing(0.0, 0.6, times, 0, 0, TimingOptions())
        assert [d.code for d in diags] == ["timing.burst"]

    def test_a_whole_response_held_back_and_sent_in_the_first_chunk_is_a_burst(self) -> None:
        times = [(i, 0.515 + i * 3e-6, i * 10) for i in range(11)]
        _, diags = compute_timing(0.515, 0.52, times, 0, 0, TimingOptions())
        assert [d.code for d in diags] == ["timing.burst"]
        assert "0.515 s wait" in diags[0].message

    def test_a_steady_stream_has_no_timing_diagnostics(self) -> None:
        times = [(i, i * 0.05, i) for i in range(50)]
        timing, diags = compute_timing(0.0, 2.5, times, 0, 0, TimingOptions())
        assert diags == []
        assert timing.gap_histogram is not None
        assert timing.gap_histogram["<100ms"] == 49

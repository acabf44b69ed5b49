"""The aggregation rules of ARCHITECTURE §4, one rule per test, on hand-built events."""

from __future__ import annotations

from ssescope.aggregate import Aggregator
from ssescope.events import (
    Audio,
    Citation,
    Finish,
    ProviderError,
    ReasoningDelta,
    ReasoningMeta,
    RefusalDelta,
    ResponseStart,
    Snapshot,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallsEnd,
    Unknown,
    Usage,
)


def run(*events: object) -> tuple[Aggregator, list]:
    agg = Aggregator()
    agg.feed(events)  # type: ignore[arg-type]
    return agg, agg.close()


def codes(agg: Aggregator) -> list[str]:
    return [d.code for d in agg.diagnostics]


class TestOutputs:
    def test_outputs_of_different_choices_are_never_merged(self) -> None:
        _, [resp] = run(TextDelta(0, 0, "a"), TextDelta(1, 1, "x"), TextDelta(2, 0, "b"))
        assert [(o.index, o.text) for o in resp.outputs] == [(0, "ab"), (1, "x")]

    def test_text_reasoning_and_refusal_stay_separate(self) -> None:
        _, [resp] = run(
            ReasoningDelta(0, 0, "think"), TextDelta(1, 0, "say"), RefusalDelta(2, 0, "no")
        )
        out = resp.outputs[0]
        assert (out.text, out.reasoning, out.refusal) == ("say", "think", "no")

    def test_parts_join_in_the_order_they_first_appeared(self) -> None:
        _, [resp] = run(
            TextDelta(0, 0, "A", part="p1"),
            TextDelta(1, 0, "X", part="p2"),
            TextDelta(2, 0, "B", part="p1"),
        )
        assert resp.outputs[0].text == "ABX"

    def test_a_signature_replaces_the_previous_one(self) -> None:
        _, [resp] = run(ReasoningMeta(0, 0, signature="s1"), ReasoningMeta(1, 0, signature="s2"))
        assert resp.outputs[0].reasoning_signature == "s2"

    def test_citations_and_audio_are_collected_apart_from_text(self) -> None:
        _, [resp] = run(
            Citation(0, 0, {"url": "u"}),
            Audio(1, 0, data="AAAA", transcript="hi", format="wav"),
            Audio(2, 0, data="AAA=", transcript=" there"),
        )
        out = resp.outputs[0]
        assert out.citations == [{"url": "u"}]
        assert out.audio is not None
        assert (out.audio.bytes, out.audio.transcript, out.audio.format) == (5, "hi there", "wav")
        assert out.text == ""


class TestToolCalls:
    def test_fragments_concatenate_by_index_and_parse_once_at_the_end(self) -> None:
        _, [resp] = run(
            ToolCallDelta(0, 0, index=0, id="c1", name="f", arguments=""),
            ToolCallDelta(1, 0, index=0, arguments='{"a"'),
            ToolCallDelta(2, 0, index=0, arguments=": 1}"),
            ToolCallsEnd(3, 0),
        )
        [call] = resp.outputs[0].tool_calls
        assert (call.id, call.name, call.arguments, call.input, call.complete) == (
            "c1",
            "f",
            '{"a": 1}',
            {"a": 1},
            True,
        )

    def test_a_repeated_id_or_name_is_never_concatenated(self) -> None:
        agg, [resp] = run(
            ToolCallDelta(0, 0, index=0, id="c1", name="get", arguments="{"),
            ToolCallDelta(1, 0, index=0, id="c1", name="get", arguments="}"),
            ToolCallsEnd(2, 0),
        )
        [call] = resp.outputs[0].tool_calls
        assert (call.id, call.name, call.arguments) == ("c1", "get", "{}")
        assert "tool.conflicting-name" not in codes(agg)

    def test_a_different_later_name_is_reported_and_the_first_kept(self) -> None:
        agg, [resp] = run(
            ToolCallDelta(0, 0, index=0, id="c1", name="a"),
            ToolCallDelta(1, 0, index=0, name="b"),
            ToolCallsEnd(2, 0),
        )
        assert resp.outputs[0].tool_calls[0].name == "a"
        assert "tool.conflicting-name" in codes(agg)

    def test_a_new_id_at_a_reused_index_starts_a_new_call(self) -> None:
        _, [resp] = run(
            ToolCallDelta(0, 0, index=0, id="c1", name="add_new_task", arguments="{}"),
            ToolCallDelta(1, 0, index=0, id="c2", name="add_ideas", arguments="{}"),
            ToolCallsEnd(2, 0),
        )
        assert [c.name for c in resp.outputs[0].tool_calls] == ["add_new_task", "add_ideas"]

    def test_an_empty_id_on_continuations_keeps_the_call(self) -> None:
        _, [resp] = run(
            ToolCallDelta(0, 0, index=0, id="c1", name="w", arguments='{"x":'),
            ToolCallDelta(1, 0, index=0, id="", arguments="1}"),
            ToolCallsEnd(2, 0),
        )
        [call] = resp.outputs[0].tool_calls
        assert call.input == {"x": 1}

    def test_fragments_without_index_or_id_go_to_the_open_call(self) -> None:
        _, [resp] = run(
            ToolCallDelta(0, 0, id="c1", name="f", arguments='{"a":'),
            ToolCallDelta(1, 0, arguments="2}"),
            ToolCallsEnd(2, 0),
        )
        assert resp.outputs[0].tool_calls[0].input == {"a": 2}

    def test_an_id_arriving_later_names_the_call_at_its_index(self) -> None:
        _, [resp] = run(
            ToolCallDelta(0, 0, index=3, arguments='{"a":'),
            ToolCallDelta(1, 0, index=3, id="late", name="f", arguments="1}"),
            ToolCallsEnd(2, 0),
        )
        [call] = resp.outputs[0].tool_calls
        assert (call.id, call.name, call.input) == ("late", "f", {"a": 1})

    def test_interleaved_parallel_calls_stay_apart(self) -> None:
        _, [resp] = run(
            ToolCallDelta(0, 0, index=0, id="a", name="f", arguments='{"x":'),
            ToolCallDelta(1, 0, index=1, id="b", name="g", arguments='{"y":'),
            ToolCallDelta(2, 0, index=0, arguments="1}"),
            ToolCallDelta(3, 0, index=1, arguments="2}"),
            ToolCallsEnd(4, 0),
        )
        assert [c.input for c in resp.outputs[0].tool_calls] == [{"x": 1}, {"y": 2}]

    def test_an_unended_call_is_incomplete_and_left_unparsed(self) -> None:
        agg, [resp] = run(ToolCallDelta(0, 0, index=0, id="c", name="f", arguments='{"a": "b'))
        [call] = resp.outputs[0].tool_calls
        assert (call.complete, call.input, call.arguments) == (False, None, '{"a": "b')
        assert "tool.incomplete" in codes(agg)

    def test_invalid_arguments_of_an_ended_call_are_reported_not_repaired(self) -> None:
        agg, [resp] = run(
            ToolCallDelta(0, 0, index=0, id="c", name="f", arguments='{"a": }'), ToolCallsEnd(1, 0)
        )
        [call] = resp.outputs[0].tool_calls
        assert call.complete and call.input is None and call.error
        assert call.arguments == '{"a": }'
        assert "tool.invalid-arguments" in codes(agg)

    def test_empty_arguments_of_an_ended_call_mean_no_arguments(self) -> None:
        _, [resp] = run(
            ToolCallDelta(0, 0, index=0, id="c", name="f", arguments=""), ToolCallEnd(1, 0, index=0)
        )
        assert resp.outputs[0].tool_calls[0].input == {}

    def test_arguments_only_in_the_snapshot_are_taken_from_it(self) -> None:
        agg, [resp] = run(
            ToolCallDelta(0, 0, index=1, id="c", name="f"),
            ToolCallEnd(1, 0, index=1, arguments='{"q":1}'),
        )
        assert resp.outputs[0].tool_calls[0].input == {"q": 1}
        assert "snapshot.mismatch" not in codes(agg)

    def test_freeform_arguments_are_not_parsed_as_json(self) -> None:
        _, [resp] = run(
            ToolCallDelta(0, 0, index=0, id="c", name="sql", arguments="SELECT 1", format="text"),
            ToolCallsEnd(1, 0),
        )
        call = resp.outputs[0].tool_calls[0]
        assert (call.arguments, call.input, call.error) == ("SELECT 1", None, None)

    def test_whole_calls_are_accepted(self) -> None:
        _, [resp] = run(
            ToolCall(0, 0, index=0, name="f", arguments='{"a":1}'),
            ToolCall(1, 0, index=1, name="g", arguments="{}"),
        )
        assert [(c.name, c.input, c.complete) for c in resp.outputs[0].tool_calls] == [
            ("f", {"a": 1}, True),
            ("g", {}, True),
        ]

    def test_the_partial_view_closes_what_is_open(self) -> None:
        agg = Aggregator()
        agg.feed([ToolCallDelta(0, 0, index=0, id="c", name="f", arguments='{"city": "Par')])
        assert agg.tool_calls(0)[0].partial_input() == {"city": "Par"}


class TestSnapshots:
    def test_an_equal_snapshot_changes_nothing(self) -> None:
        agg, [resp] = run(TextDelta(0, 0, "ab", part="p"), Snapshot(1, 0, "text", "ab", part="p"))
        assert resp.outputs[0].text == "ab"
        assert codes(agg) == []

    def test_a_snapshot_is_never_appended(self) -> None:
        _, [resp] = run(
            TextDelta(0, 0, "hello", part="p"), Snapshot(1, 0, "text", "hello", part="p")
        )
        assert resp.outputs[0].text == "hello"

    def test_a_longer_different_snapshot_wins_with_a_diagnostic(self) -> None:
        agg, [resp] = run(
            TextDelta(0, 0, "hel", part="p"), Snapshot(1, 0, "text", "hello", part="p")
        )
        assert resp.outputs[0].text == "hello"
        assert "snapshot.mismatch" in codes(agg)

    def test_a_shorter_snapshot_loses_to_the_deltas(self) -> None:
        agg, [resp] = run(
            TextDelta(0, 0, "hello", part="p"), Snapshot(1, 0, "text", "he", part="p")
        )
        assert resp.outputs[0].text == "hello"
        assert "snapshot.mismatch" in codes(agg)

    def test_a_part_known_only_from_its_snapshot_takes_it(self) -> None:
        _, [resp] = run(Snapshot(0, 0, "reasoning", "why", part="r"))
        assert resp.outputs[0].reasoning == "why"


class TestUsage:
    def test_the_latest_non_null_value_per_field_wins_and_nothing_is_summed(self) -> None:
        _, [resp] = run(
            Usage(0, {"input_tokens": 43, "output_tokens": 1}, {}, "message_start"),
            Usage(1, {"input_tokens": None, "output_tokens": 20}, {}, "message_delta"),
            Usage(2, {"input_tokens": 61, "output_tokens": 30}, {"x": 1}, "message_delta"),
        )
        assert resp.usage is not None
        assert (resp.usage.input_tokens, resp.usage.output_tokens, resp.usage.total_tokens) == (
            61,
            30,
            None,
        )
        assert resp.usage.raw == {"x": 1}

    def test_no_usage_is_none_and_reported_as_missing_after_a_clean_end(self) -> None:
        agg, [resp] = run(TextDelta(0, 0, "x"), Terminal(1, "completed", "done"))
        assert resp.usage is None
        assert "usage.missing" in codes(agg)


class TestStatus:
    def test_the_default_status_is_truncated(self) -> None:
        _, [resp] = run(TextDelta(0, 0, "x"))
        assert resp.status == "truncated"

    def test_the_terminal_marker_decides(self) -> None:
        _, [resp] = run(
            TextDelta(0, 0, "x"),
            Finish(1, 0, "length", "length"),
            Terminal(2, "incomplete", "length"),
        )
        assert resp.status == "incomplete"
        assert (resp.outputs[0].finish_reason, resp.outputs[0].raw_finish_reason) == (
            "length",
            "length",
        )

    def test_a_provider_error_fails_the_response(self) -> None:
        _, [resp] = run(TextDelta(0, 0, "x"), ProviderError(1, "overloaded_error", "Overloaded"))
        assert resp.status == "failed"
        assert resp.error is not None and resp.error["type"] == "overloaded_error"

    def test_a_later_non_null_finish_reason_replaces_null(self) -> None:
        _, [resp] = run(
            Finish(0, 0, None, None), Finish(1, 0, "stop", "stop"), Finish(2, 0, None, None)
        )
        assert resp.outputs[0].finish_reason == "stop"

    def test_content_after_the_terminal_marker_is_kept_and_reported(self) -> None:
        agg, [resp] = run(
            TextDelta(0, 0, "a"), Terminal(1, "completed", "done"), TextDelta(2, 0, "b")
        )
        assert resp.outputs[0].text == "ab"
        assert "stream.events-after-terminal" in codes(agg)

    def test_a_response_start_after_a_terminal_begins_a_new_response(self) -> None:
        agg, responses = run(
            ResponseStart(0, "r1"),
            TextDelta(1, 0, "one"),
            Terminal(2, "completed", "done"),
            ResponseStart(3, "r2"),
            TextDelta(4, 0, "two"),
        )
        assert [(r.id, r.outputs[0].text, r.status) for r in responses] == [
            ("r1", "one", "completed"),
            ("r2", "two", "truncated"),
        ]
        assert "stream.multiple-responses" in codes(agg)

    def test_a_think_tag_in_the_text_is_reported(self) -> None:
        agg, _ = run(TextDelta(0, 0, "<think>hm</think>hi"))
        assert "content.think-tag-in-text" in codes(agg)

    def test_unknown_records_are_counted_per_type(self) -> None:
        agg, _ = run(Unknown(0, "x"), Unknown(1, "x"), Unknown(2, "y"))
        assert agg.unknown_records == 3
        assert codes(agg).count("provider.unknown-event") == 2


class TestLongReplies:
    def test_thousands_of_pieces_join_to_the_same_text_in_order(self) -> None:
        words = [f"w{i} " for i in range(5000)]
        _, [resp] = run(*(TextDelta(i, 0, w) for i, w in enumerate(words)))
        assert resp.outputs[0].text == "".join(words)

    def test_a_snapshot_is_compared_with_every_piece_of_a_long_part(self) -> None:
        words = [f"w{i} " for i in range(3000)]
        events = [ReasoningDelta(i, 0, w, part="r") for i, w in enumerate(words)]
        agg, [resp] = run(*events, Snapshot(3000, 0, "reasoning", "".join(words), part="r"))
        assert resp.outputs[0].reasoning == "".join(words)
        assert "snapshot.mismatch" not in codes(agg)

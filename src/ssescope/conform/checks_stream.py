"""Checks on how a stream is framed, begins and ends (read from the engine's Report)."""

from __future__ import annotations

from collections.abc import Callable

from . import _sources as src
from ._judges import by_codes_when_asked, check, evidence_at, passed, skipped
from .exchange import Exchange
from .registry import Check, Judge, Outcome
from .wire import ChatShape, Tally, Wire

__all__ = ["CHECKS"]


def _terminal_reached(exchange: Exchange) -> Outcome:
    report = exchange.report
    if report.status != "truncated":
        return passed()
    last = report.response.last_record
    return Outcome("fail", (evidence_at(exchange, report.response.status_reason, last),))


_streamed = by_codes_when_asked(
    ("stream.not-streamed",),
    "stream",
    "the request did not ask for a stream (`stream` is not true)",
)


def _error_not_completed(exchange: Exchange) -> Outcome:
    report = exchange.report
    if report.error is None or report.status != "completed":
        return passed()
    return Outcome(
        "fail",
        (evidence_at(exchange, f"error {report.error} under a completed terminal"),),
    )


def _counted(exchange: Exchange, tally: Tally, text: str, *, offset: bool = False) -> Outcome:
    """Passed when ``tally`` counts nothing; else failed, with ``text`` (``{n}`` the count)
    as the evidence at the first place the wire showed it (a byte offset when ``offset``,
    else a record)."""
    if not tally.count:
        return passed()
    record, at = (None, tally.first) if offset else (tally.first, None)
    return Outcome("fail", (evidence_at(exchange, text.format(n=tally.count), record, at),))


def _sse_rule(fact: Callable[[Wire], Tally], text: str, *, offset: bool = False) -> Judge:
    """A judge failing an SSE stream whose wire shows ``fact``."""

    def judge(exchange: Exchange) -> Outcome:
        wire = exchange.wire
        if wire is None or exchange.report.framing != "sse":
            return skipped("not an SSE stream")
        return _counted(exchange, fact(wire), text, offset=offset)

    return judge


def _whole_characters(exchange: Exchange) -> Outcome:
    wire = exchange.wire
    if wire is None or not wire.chunked:
        return skipped("the chunk boundaries are not known")
    text = "{n} chunk boundary(ies) inside a UTF-8 character"
    return _counted(exchange, wire.split_chars, text, offset=True)


def _chat_rule(fact: Callable[[ChatShape], Tally], text: str) -> Judge:
    """A judge failing a chat stream whose chunks show ``fact``."""

    def judge(exchange: Exchange) -> Outcome:
        shape = None if exchange.wire is None else exchange.wire.chat
        if shape is None:
            return skipped("no chat chunks were read")
        return _counted(exchange, fact(shape), text)

    return judge


CHECKS: tuple[Check, ...] = (
    check(
        "stream.not-empty",
        "MUST",
        "the body is a stream",
        "A streaming response's body is a stream of events, not empty, an HTML page or text.",
        src.SSE,
        ("stream.empty", "stream.html-page", "stream.plain-text"),
        any_stream=True,
    ),
    check(
        "stream.streamed",
        "SHOULD",
        "the reply is streamed",
        "A response to a streaming request arrives as a stream, not as one JSON body (a "
        "known request that did not say `stream: true` is not judged).",
        src.OPENAI_CHAT,
        _streamed,
    ),
    check(
        "sse.well-formed",
        "MUST",
        "events are well-formed SSE",
        "Every event ends with a blank line, every data line has its `data:` field, ids "
        "hold no NUL and `retry` is digits only.",
        src.SSE,
        (
            "sse.unterminated-event",
            "sse.terminal-event-unterminated",
            "sse.unprefixed-json",
            "sse.nul-in-id",
            "sse.invalid-retry",
        ),
    ),
    check(
        "sse.lf-line-endings",
        "SHOULD",
        "lines end with LF",
        "Lines end with LF. CR and CRLF are valid SSE, but a reader that splits on LF "
        "keeps a CR in every field, and one that never sees an LF never sees a line.",
        src.SSE,
        _sse_rule(
            lambda wire: wire.cr_lines, "{n} event(s) with CR or CRLF line ends", offset=True
        ),
        any_stream=True,
    ),
    check(
        "sse.one-data-line",
        "SHOULD",
        "each event's data is one line",
        "Each event carries its payload in one `data:` line. Several lines are valid SSE "
        "(joined with LF), but a client that takes one line per event reads half a payload.",
        src.SSE,
        _sse_rule(
            lambda wire: wire.multi_line_data,
            "{n} event(s) with their data over several data: lines",
        ),
        any_stream=True,
    ),
    check(
        "chunks.whole-characters",
        "SHOULD",
        "chunks end on character boundaries",
        "No chunk ends inside a UTF-8 character: a client that decodes each chunk on its "
        "own, without a streaming decoder, turns a split character into U+FFFD.",
        src.SSE,
        _whole_characters,
        any_stream=True,
    ),
    check(
        "utf8.valid",
        "MUST",
        "the body is UTF-8",
        "An event stream is UTF-8; no byte sequence in it is invalid.",
        src.SSE,
        ("utf8.invalid-bytes",),
        any_stream=True,
    ),
    check(
        "json.valid",
        "MUST",
        "every payload is JSON",
        "Every data payload (other than a documented marker) is one valid JSON value, with "
        "finite numbers.",
        src.JSON,
        (
            "json.invalid",
            "json.non-finite-number",
            "ndjson.not-json-line",
            "json-array.missing-comma",
            "json-array.unterminated-element",
            "json-array.unexpected-text",
        ),
    ),
    check(
        "events.typed",
        "MUST",
        "events name their type",
        "Every event carries its type, and an SSE `event:` name agrees with the payload's.",
        src.OPENAI_RESPONSES,
        (
            "openai-responses.missing-type",
            "ag-ui.missing-type",
            "gemini-interactions.missing-event-type",
            "openai-responses.event-name-mismatch",
            "openai-responses.not-an-object",
            "anthropic.missing-type",
            "anthropic.event-name-mismatch",
            "cohere.event-name-mismatch",
            "vercel-ui.missing-type",
            "vercel-ui.not-an-object",
        ),
    ),
    check(
        "terminal.reached",
        "MUST",
        "the stream ends with its terminal",
        "A stream ends with the protocol's terminal event or marker, never by the bytes "
        "just stopping.",
        src.SSE,
        _terminal_reached,
    ),
    check(
        "terminal.agrees-with-status",
        "MUST",
        "the terminal agrees with the status",
        "The terminal event agrees with the status it carries (no `response.completed` "
        "holding `incomplete`, no `message_stop` after an error).",
        src.OPENAI_RESPONSES,
        ("stream.contradictory-terminal",),
    ),
    check(
        "terminal.nothing-after",
        "MUST",
        "nothing follows the terminal",
        "No content event follows the terminal event of a response.",
        src.OPENAI_RESPONSES,
        ("stream.events-after-terminal", "ssecap.data-after-end"),
    ),
    check(
        "terminal.error-not-completed",
        "MUST",
        "an error is not followed by a fabricated completion",
        "A stream that sends an error frame ends as failed; it does not also claim a "
        "completed response.",
        src.ANTHROPIC,
        _error_not_completed,
    ),
    check(
        "terminal.finish-reason",
        "MUST",
        "the reply states why it ended",
        "The final chunk or stop event carries a finish (stop) reason.",
        src.OPENAI_CHAT,
        (
            "stream.done-without-finish",
            "openai-chat.missing-finish",
            "anthropic.stop-without-reason",
            "gemini.no-finish-reason",
            "bedrock.stop-without-reason",
            "cohere.missing-finish-reason",
            "ollama.missing-done-reason",
        ),
    ),
    check(
        "terminal.known-finish-reason",
        "SHOULD",
        "the finish reason is a documented one",
        "The finish (stop) reason is one the protocol documents.",
        src.OPENAI_CHAT,
        (
            "openai-chat.unknown-finish-reason",
            "anthropic.invalid-stop-reason",
            "vercel-ui.unknown-finish-reason",
        ),
    ),
    check(
        "terminal.done-marker",
        "MUST",
        "the chat stream ends with [DONE]",
        "An OpenAI-compatible chat stream ends with exactly one `data: [DONE]`.",
        src.OPENAI_CHAT,
        ("stream.missing-done", "openai-chat.duplicate-done", "openai-chat.malformed-done"),
        ("openai-chat",),
    ),
    check(
        "lifecycle.single-response",
        "MUST",
        "one lifecycle per response",
        "A response starts once: no second `message_start`, no spliced second message.",
        src.ANTHROPIC,
        (
            "anthropic.duplicate-message-start",
            "anthropic.spliced-message",
            "bedrock.duplicate-message-start",
        ),
    ),
    check(
        "lifecycle.started",
        "MUST",
        "the response is started before its content",
        "Content events come after the event that starts the message.",
        src.ANTHROPIC,
        ("anthropic.missing-message-start",),
    ),
    check(
        "lifecycle.stopped",
        "MUST",
        "the response is stopped",
        "A message is closed by its stop event (`message_stop`, `messageStop`, "
        "`message-end`, `done: true`).",
        src.ANTHROPIC,
        (
            "anthropic.missing-message-stop",
            "bedrock.missing-message-stop",
            "cohere.missing-message-end",
            "ollama.missing-done",
            "ag-ui.missing-run-end",
            "gemini-interactions.missing-completed",
        ),
    ),
    check(
        "lifecycle.block-order",
        "MUST",
        "content blocks open, grow and close in order",
        "Each content block is started once, receives deltas of its own type, and is stopped once.",
        src.ANTHROPIC,
        (
            "anthropic.block-restarted",
            "anthropic.delta-without-start",
            "anthropic.delta-type-mismatch",
            "anthropic.stop-without-start",
            "anthropic.block-stopped-twice",
            "anthropic.missing-index",
            "vercel-ui.part-not-started",
            "ag-ui.order",
            "gemini-interactions.step-unclosed",
        ),
    ),
    check(
        "ids.stable",
        "MUST",
        "ids are stable within a response",
        "Every chunk of one response carries the same response id, and an output item "
        "keeps its id.",
        src.OPENAI_CHAT,
        ("openai-chat.id-changed", "openai-responses.item-id-changed"),
    ),
    check(
        "responses.sequence",
        "SHOULD",
        "sequence numbers have no gaps",
        "Each event's `sequence_number` is one more than the previous event's.",
        src.OPENAI_RESPONSES,
        ("openai-responses.sequence-gap",),
        ("openai-responses",),
    ),
    check(
        "responses.final-agrees",
        "MUST",
        "the final snapshot agrees with the deltas",
        "The final response object holds the output the deltas built, not an empty one.",
        src.OPENAI_RESPONSES,
        ("openai-responses.empty-final-output", "snapshot.mismatch"),
    ),
    check(
        "content.no-cumulative-deltas",
        "MUST",
        "deltas are increments",
        "Each delta carries only new text, not the text so far.",
        src.OPENAI_CHAT,
        ("content.cumulative-deltas",),
    ),
    check(
        "content.no-think-tags",
        "SHOULD",
        "reasoning is not inlined as tags",
        "Reasoning travels in its own field, not as `<think>` tags inside the text.",
        src.OPENAI_CHAT,
        ("content.think-tag-in-text",),
    ),
    check(
        "chat.shape",
        "SHOULD",
        "chunks have the documented shape",
        "Each chat chunk is a `chat.completion.chunk` with indexed choices.",
        src.OPENAI_CHAT,
        (
            "openai-chat.invalid-shape",
            "openai-chat.unexpected-object",
            "openai-chat.missing-choice-index",
        ),
        ("openai-chat",),
    ),
    check(
        "chat.finish-once",
        "SHOULD",
        "a choice's finish reason comes once",
        "A choice's `finish_reason` is null on every chunk but its last: a client that "
        "stops at the first one loses the rest of the reply.",
        src.OPENAI_CHAT,
        _chat_rule(
            lambda shape: shape.finish_repeated,
            "{n} choice(s) with finish_reason set on more than one chunk",
        ),
        ("openai-chat",),
    ),
    check(
        "chat.choices-present",
        "SHOULD",
        "every chunk carries a choice",
        "Every chunk but the final usage chunk carries a choice: a client that reads "
        "`choices[0]` fails on an empty list (such as a first `prompt_filter_results` chunk).",
        src.OPENAI_CHAT,
        _chat_rule(
            lambda shape: shape.empty_choices, "{n} chunk(s) with empty choices and no usage"
        ),
        ("openai-chat",),
    ),
    check(
        "chat.assistant-role",
        "SHOULD",
        "the first delta names the role",
        "The first delta of each choice says `role: assistant`, as OpenAI sends it: a client "
        "that builds the message from the deltas is otherwise left without a role.",
        src.OPENAI_CHAT,
        _chat_rule(lambda shape: shape.roleless, "{n} choice(s) whose first delta names no role"),
        ("openai-chat",),
    ),
)

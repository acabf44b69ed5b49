"""Checks that need to know what the request asked for.

In URL mode the request is one of the set, and its
:class:`~ssescope.conform.cases.Expectation` states what it asked (usage asked or not, a
forced tool call, ``n=2``, a token limit, an invalid request, a hang-up). In capture mode
the expectation is read from the request the capture kept
(:mod:`ssescope.conform.asked`); a capture without its request skips these checks, and the
checks of what only URL mode knows (that a request was valid, that the client hung up on
purpose) skip every capture. Each check judges the exchanges whose expectation concerns it
and skips the others.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import codes
from . import _sources as src
from ._judges import check, evidence_at, passed, skipped
from .asked import decoded_body
from .cases import Expectation
from .exchange import Exchange
from .registry import Check, Judge, Outcome

__all__ = ["CHECKS", "NO_REQUEST"]

NO_REQUEST = "the capture holds no request"
"""Why a check of what the request asked skips a capture that did not keep it."""
_NO_CASE = "needs a request conform sent (URL mode)"
_TOOL_FINISH = frozenset({"openai-chat", "anthropic"})
"""The protocols whose reply to a forced call ends with the tool-call finish reason
(`tool_calls`, `tool_use`); Gemini says `STOP`, and Responses has none."""


def _unknown(exchange: Exchange) -> str:
    """Why nothing is known of what ``exchange``'s request asked."""
    body = exchange.request_body
    if body is None:
        return NO_REQUEST
    if decoded_body(body) is None:
        return "the recorded request body is not a JSON object"
    return f"conform does not read what a {exchange.provider} request asks"


def _not_streamed(exchange: Exchange) -> str | None:
    """Why ``exchange`` holds no stream to judge against its request, or ``None``."""
    if exchange.case is not None:
        return None if _answered_ok(exchange) is None else "the server did not answer with a stream"
    status = exchange.report.http_status
    if status is not None and status >= 300:
        return f"the recorded response is HTTP {status}, not a stream"
    if exchange.report.status == "cancelled":
        return "the client hung up on the recorded stream"
    return None


def _when(
    wanted: Callable[[Expectation], bool],
    why: str,
    *,
    streamed: bool = False,
    url_only: bool = False,
) -> Callable[[Judge], Judge]:
    """Judge only the answers to the requests ``wanted`` picks (with ``streamed``, only
    those answered with a stream: the others fail ``request.answered``; with ``url_only``,
    only URL mode's)."""

    def wrap(judge: Judge) -> Judge:
        def wrapped(exchange: Exchange) -> Outcome:
            if url_only and exchange.case is None:
                return skipped(_NO_CASE)
            expect = exchange.expect
            if expect is None:
                return skipped(_unknown(exchange))
            if not wanted(expect):
                return skipped(f"only judges the {why}")
            if streamed:
                why_not = _not_streamed(exchange)
                if why_not is not None:
                    return skipped(why_not)
            return judge(exchange)

        return wrapped

    return wrap


def _expect(exchange: Exchange) -> Expectation:
    expect = exchange.expect
    assert expect is not None  # (the judges run under _when)
    return expect


def _fail(exchange: Exchange, text: str) -> Outcome:
    return Outcome("fail", (evidence_at(exchange, text, exchange.report.response.last_record),))


def _answered_ok(exchange: Exchange) -> Outcome | None:
    """A failure when the server did not answer a valid request with a stream."""
    status = exchange.report.http_status
    if status is None:
        return _fail(exchange, "no answer: " + _connection_error(exchange))
    if status >= 300:
        return _fail(exchange, f"HTTP {status}")
    return None


def _connection_error(exchange: Exchange) -> str:
    for d in exchange.report.diagnostics:
        if d.code == codes.STREAM_CONNECTION_ERROR.name:
            return d.message
    return exchange.report.response.status_reason


@_when(
    lambda e: not e.reject and not e.hangup,
    "valid requests that are read to the end",
    url_only=True,
)
def _answered(exchange: Exchange) -> Outcome:
    failed = _answered_ok(exchange)
    if failed is not None:
        return failed
    response = exchange.report.response
    if response.status in ("completed", "incomplete"):
        return passed()
    error = exchange.report.error
    why = f": {error.get('message')}" if error else f" ({response.status_reason})"
    return _fail(exchange, f"a valid request ended {response.status}{why}")


@_when(lambda e: e.usage is not None, "requests that say whether they want usage", streamed=True)
def _usage_as_asked(exchange: Exchange) -> Outcome:
    usage = exchange.report.response.usage
    has = usage is not None and any(
        v is not None for v in (usage.input_tokens, usage.output_tokens, usage.total_tokens)
    )
    asked = _expect(exchange).usage
    if asked and not has:
        return _fail(exchange, "include_usage was on and the stream carried no usage")
    if not asked and has:
        return _fail(exchange, "include_usage was off and the stream carried usage")
    return passed()


def _calls(exchange: Exchange) -> list[str]:
    return [
        call.name or "(no name)"
        for output in exchange.report.response.outputs
        for call in output.tool_calls
    ]


def _cut(exchange: Exchange) -> str | None:
    """Why a capture's reply may lack what its request asked: it was cut on purpose."""
    if exchange.case is None and exchange.report.status == "incomplete":
        return "the recorded reply was cut (a token limit or a filter)"
    return None


@_when(lambda e: e.tool is not None or e.any_tool, "requests that force a tool call", streamed=True)
def _forced_call(exchange: Exchange) -> Outcome:
    expect = _expect(exchange)
    cut = _cut(exchange)
    if cut is not None:
        return skipped(cut)
    names = _calls(exchange)
    got = ", ".join(names) if names else "no tool call"
    if expect.tool is not None and expect.tool not in names:
        return _fail(exchange, f"the request forced a call to {expect.tool}; the reply holds {got}")
    if expect.tool is None and not names:
        return _fail(exchange, "the request forced a tool call; the reply holds none")
    if exchange.provider in _TOOL_FINISH and not (
        expect.stop_allowed and exchange.provider == "openai-chat"
    ):
        for output in exchange.report.response.outputs:
            if output.tool_calls and output.finish_reason != "tool_calls":
                raw = output.raw_finish_reason or output.finish_reason or "none"
                return _fail(exchange, f"the forced call ended with finish reason {raw}")
    return passed()


@_when(lambda e: e.parallel, "requests that allow parallel tool calls", streamed=True)
def _parallel_distinct(exchange: Exchange) -> Outcome:
    calls = [c for o in exchange.report.response.outputs for c in o.tool_calls]
    if len(calls) < 2:
        return skipped(f"the reply made {len(calls)} tool call(s), not several")
    ids = [c.id for c in calls if c.id]
    if len(set(ids)) != len(ids):
        return _fail(exchange, f"tool call ids repeat: {', '.join(ids)}")
    broken = [c.name or "?" for c in calls if c.complete and c.error is not None]
    if broken:
        return _fail(exchange, f"arguments that do not parse: {', '.join(broken)}")
    return passed()


@_when(lambda e: e.one_call, "requests that turn parallel tool calls off", streamed=True)
def _one_call(exchange: Exchange) -> Outcome:
    names = _calls(exchange)
    if len(names) > 1:
        return _fail(
            exchange,
            f"parallel tool calls were off, yet the reply made {len(names)} calls: "
            + ", ".join(names),
        )
    return passed()


@_when(lambda e: e.no_calls, "requests that offer no tool or forbid calls", streamed=True)
def _no_unasked_call(exchange: Exchange) -> Outcome:
    names = _calls(exchange)
    if names:
        return _fail(
            exchange,
            "the request offered no tool (or forbade calls), yet the reply calls "
            + ", ".join(names),
        )
    return passed()


def _output_tokens(exchange: Exchange) -> int | None:
    usage = exchange.report.response.usage
    return None if usage is None else usage.output_tokens


@_when(
    lambda e: e.cut or e.limit is not None,
    "requests with a token limit",
    streamed=True,
)
def _cut_says_length(exchange: Exchange) -> Outcome:
    expect = _expect(exchange)
    response = exchange.report.response
    if response.status == "incomplete":
        return passed()
    reasons = [o.raw_finish_reason or o.finish_reason for o in response.outputs]
    shown = ", ".join(str(r) for r in reasons if r) or "none"
    if expect.cut:  # URL mode's limit is small enough to cut any reply to its prompt
        return _fail(
            exchange,
            f"the token limit cut the reply, yet it ended {response.status} (finish reason {shown})",
        )
    limit = expect.limit
    used = _output_tokens(exchange)
    if limit is None or used is None:
        return skipped(
            f"the stream carries no output token count to compare with the limit {limit}"
        )
    if used < limit:
        return skipped(f"the reply stayed under the token limit ({used} of {limit} tokens)")
    return _fail(
        exchange,
        f"the reply used {used} output tokens of the request's limit of {limit}, yet it "
        f"ended {response.status} (finish reason {shown})",
    )


@_when(lambda e: e.choices > 1, "requests for several choices", streamed=True)
def _choices(exchange: Exchange) -> Outcome:
    wanted = _expect(exchange).choices
    outputs = exchange.report.response.outputs
    indexes = sorted(o.index for o in outputs)
    if indexes != list(range(wanted)):
        return _fail(exchange, f"asked for {wanted} choices; got indexes {indexes}")
    unfinished = [o.index for o in outputs if o.finish_reason is None]
    if unfinished:
        return _fail(exchange, f"choices without a finish reason: {unfinished}")
    return passed()


@_when(lambda e: e.reject, "the invalid request", url_only=True)
def _rejected(exchange: Exchange) -> Outcome:
    status = exchange.report.http_status
    if status is None:
        return _fail(exchange, "no answer: " + _connection_error(exchange))
    if 400 <= status < 500:
        return passed()
    return _fail(exchange, f"an invalid request was answered HTTP {status}, not 4xx")


@_when(lambda e: e.after_hangup, "the request after a hang-up", url_only=True)
def _survives(exchange: Exchange) -> Outcome:
    failed = _answered_ok(exchange)
    if failed is not None:
        return failed
    status = exchange.report.status
    if status in ("completed", "incomplete"):
        return passed()
    return _fail(exchange, f"after a hang-up, a plain request ended {status}")


@_when(lambda e: e.hangup, "the request the client hangs up on", url_only=True)
def _upstream_closed(exchange: Exchange) -> Outcome:
    view = exchange.upstream
    if view is None:
        return skipped("no --upstream (an ssescope serve behind the server) to observe")
    if not view.seen:
        return _fail(exchange, "the upstream never received the forwarded request")
    if view.closed:
        return passed()
    return _fail(
        exchange,
        f"{view.waited:.1f} s after the client hung up, the server still read the upstream "
        "stream (or read it to its end)",
    )


CHECKS: tuple[Check, ...] = (
    check(
        "request.answered",
        "MUST",
        "every valid request is answered with a whole stream",
        "A valid streaming request is answered 2xx, within the timeout, with a stream that "
        "ends completed (or incomplete, for a cut by the token limit).",
        src.HTTP,
        _answered,
        any_stream=True,
        needs_case=True,
    ),
    check(
        "request.usage-as-asked",
        "SHOULD",
        "usage is sent when asked for, and only then",
        "With `stream_options.include_usage` the stream ends with a usage chunk; without "
        "it, no chunk carries usage.",
        src.OPENAI_CHAT_OPTIONS,
        _usage_as_asked,
        ("openai-chat",),
        needs_request=True,
    ),
    check(
        "request.forced-tool-call",
        "MUST",
        "a forced tool call is made, and ends as one",
        "When the request forces a tool call (`tool_choice`; Gemini's mode `ANY`), the reply "
        "calls the tool it names (any of them, when it names none) and, in Chat Completions "
        "and Messages, ends with the tool-call finish reason (`tool_calls`, `tool_use`); a "
        "Chat call forced by name may end with `stop`, as OpenAI ends it.",
        src.OPENAI_CHAT_TOOL_CHOICE,
        _forced_call,
        needs_request=True,
    ),
    check(
        "request.parallel-calls",
        "MUST",
        "parallel tool calls are distinct calls",
        "Several tool calls in one reply each have their own id and arguments that parse.",
        src.OPENAI_CHAT,
        _parallel_distinct,
        needs_request=True,
    ),
    check(
        "request.one-call",
        "MUST",
        "no parallel calls when they are off",
        "With `parallel_tool_calls: false` (Anthropic's `disable_parallel_tool_use`) the "
        "reply makes at most one tool call.",
        src.OPENAI_CHAT_PARALLEL,
        _one_call,
        needs_request=True,
    ),
    check(
        "request.no-unasked-call",
        "MUST",
        "no tool call the request did not allow",
        "A request that offers no tool, or forbids calls (`tool_choice: none`, Anthropic's "
        '`{"type": "none"}`, Gemini\'s mode `NONE`), gets a reply without tool calls.',
        src.OPENAI_CHAT_TOOL_CHOICE,
        _no_unasked_call,
        needs_request=True,
    ),
    check(
        "request.cut-is-incomplete",
        "MUST",
        "a reply cut by the token limit says so",
        "A reply cut by `max_tokens` (`max_output_tokens`, `maxOutputTokens`) ends with the "
        "length finish reason (`length`, `max_tokens`, `MAX_TOKENS`, status `incomplete`), "
        "not as completed: URL mode's limit cuts any reply; a recorded reply whose output "
        "tokens reach its request's limit was cut by it.",
        src.OPENAI_CHAT,
        _cut_says_length,
        needs_request=True,
    ),
    check(
        "request.n-choices",
        "MUST",
        "every choice asked for is streamed",
        "With `n=2` (`candidateCount`) the stream carries choices 0 and 1, each with its "
        "finish reason.",
        src.OPENAI_CHAT,
        _choices,
        ("openai-chat", "gemini"),
        needs_request=True,
    ),
    check(
        "request.invalid-rejected",
        "MUST",
        "an invalid request is refused",
        "A request the API cannot accept is answered with a 4xx status, not a stream.",
        src.HTTP,
        _rejected,
        any_stream=True,
        needs_case=True,
    ),
    check(
        "hangup.server-survives",
        "MUST",
        "the server answers after a client hang-up",
        "After a client closes the connection mid-stream, the next request is answered normally.",
        src.HTTP,
        _survives,
        any_stream=True,
        needs_case=True,
    ),
    check(
        "hangup.upstream-closed",
        "SHOULD",
        "a client hang-up closes the upstream",
        "A gateway whose client hangs up closes its own upstream request, instead of "
        "reading (and paying for) the rest of the generation.",
        src.HTTP,
        _upstream_closed,
        any_stream=True,
        needs_case=True,
    ),
)

"""Checks that need to know what the request asked for: URL mode's request set.

Each judges the answer to the cases whose :class:`~ssescope.conform.cases.Expectation`
concerns it (usage asked or not, a forced tool call, ``n=2``, a token limit, an invalid
request, a hang-up) and skips the others; in capture mode they skip, since conform did not
choose the request.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import codes
from . import _sources as src
from ._judges import check, evidence_at, passed, skipped
from .cases import Expectation
from .exchange import Exchange
from .registry import Check, Judge, Outcome

__all__ = ["CHECKS"]

_NO_CASE = "needs a request conform sent (URL mode)"
_TOOL_FINISH = frozenset({"openai-chat", "anthropic"})
"""The protocols whose reply to a forced call ends with the tool-call finish reason
(`tool_calls`, `tool_use`); Gemini says `STOP`, and Responses has none."""


def _when(
    wanted: Callable[[Expectation], bool], why: str, *, streamed: bool = False
) -> Callable[[Judge], Judge]:
    """Judge only the answers to the cases ``wanted`` picks (with ``streamed``, only those
    the server answered with a stream: the others fail ``request.answered``)."""

    def wrap(judge: Judge) -> Judge:
        def wrapped(exchange: Exchange) -> Outcome:
            if exchange.case is None:
                return skipped(_NO_CASE)
            if not wanted(exchange.case.expect):
                return skipped(f"only judges the {why}")
            if streamed and _answered_ok(exchange) is not None:
                return skipped("the server did not answer with a stream")
            return judge(exchange)

        return wrapped

    return wrap


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


@_when(lambda e: not e.reject and not e.hangup, "valid requests that are read to the end")
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
    assert exchange.case is not None
    usage = exchange.report.response.usage
    has = usage is not None and any(
        v is not None for v in (usage.input_tokens, usage.output_tokens, usage.total_tokens)
    )
    asked = exchange.case.expect.usage
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


@_when(lambda e: e.tool is not None, "requests that force a tool call", streamed=True)
def _forced_call(exchange: Exchange) -> Outcome:
    assert exchange.case is not None
    wanted = exchange.case.expect.tool
    names = _calls(exchange)
    if wanted not in names:
        got = ", ".join(names) if names else "no tool call"
        return _fail(exchange, f"the request forced a call to {wanted}; the reply holds {got}")
    if exchange.provider in _TOOL_FINISH:
        for output in exchange.report.response.outputs:
            if output.tool_calls and output.finish_reason != "tool_calls":
                raw = output.raw_finish_reason or output.finish_reason or "none"
                return _fail(exchange, f"the forced call ended with finish reason {raw}")
    return passed()


@_when(lambda e: e.parallel, "requests that ask for parallel tool calls", streamed=True)
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


@_when(lambda e: e.cut, "requests with a token limit that cuts the reply", streamed=True)
def _cut_says_length(exchange: Exchange) -> Outcome:
    response = exchange.report.response
    reasons = [o.raw_finish_reason or o.finish_reason for o in response.outputs]
    if response.status == "incomplete":
        return passed()
    shown = ", ".join(str(r) for r in reasons if r) or "none"
    return _fail(
        exchange,
        f"the token limit cut the reply, yet it ended {response.status} (finish reason {shown})",
    )


@_when(lambda e: e.choices > 1, "requests for several choices", streamed=True)
def _choices(exchange: Exchange) -> Outcome:
    assert exchange.case is not None
    wanted = exchange.case.expect.choices
    outputs = exchange.report.response.outputs
    indexes = sorted(o.index for o in outputs)
    if indexes != list(range(wanted)):
        return _fail(exchange, f"asked for {wanted} choices; got indexes {indexes}")
    unfinished = [o.index for o in outputs if o.finish_reason is None]
    if unfinished:
        return _fail(exchange, f"choices without a finish reason: {unfinished}")
    return passed()


@_when(lambda e: e.reject, "the invalid request")
def _rejected(exchange: Exchange) -> Outcome:
    status = exchange.report.http_status
    if status is None:
        return _fail(exchange, "no answer: " + _connection_error(exchange))
    if 400 <= status < 500:
        return passed()
    return _fail(exchange, f"an invalid request was answered HTTP {status}, not 4xx")


@_when(lambda e: e.after_hangup, "the request after a hang-up")
def _survives(exchange: Exchange) -> Outcome:
    failed = _answered_ok(exchange)
    if failed is not None:
        return failed
    status = exchange.report.status
    if status in ("completed", "incomplete"):
        return passed()
    return _fail(exchange, f"after a hang-up, a plain request ended {status}")


@_when(lambda e: e.hangup, "the request the client hangs up on")
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
        needs_case=True,
    ),
    check(
        "request.forced-tool-call",
        "MUST",
        "a forced tool call is made, and ends as one",
        "When the request forces a call to a tool (`tool_choice`), the reply holds a call "
        "to that tool and, in Chat Completions and Messages, ends with the tool-call finish "
        "reason (`tool_calls`, `tool_use`).",
        src.OPENAI_CHAT_TOOL_CHOICE,
        _forced_call,
        needs_case=True,
    ),
    check(
        "request.parallel-calls",
        "MUST",
        "parallel tool calls are distinct calls",
        "Several tool calls in one reply each have their own id and arguments that parse.",
        src.OPENAI_CHAT,
        _parallel_distinct,
        needs_case=True,
    ),
    check(
        "request.cut-is-incomplete",
        "MUST",
        "a reply cut by the token limit says so",
        "A reply cut by `max_tokens` ends with the length finish reason (`length`, "
        "`max_tokens`, `MAX_TOKENS`, status `incomplete`), not as completed.",
        src.OPENAI_CHAT,
        _cut_says_length,
        needs_case=True,
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
        needs_case=True,
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

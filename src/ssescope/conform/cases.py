"""URL mode's request set: the fixed requests ``conform URL`` sends, per protocol.

Each :class:`Case` is one request (its path under the API base URL and its JSON body) and
what it asked for (:class:`Expectation`): the checks that need a particular request (usage
sent when asked and only then, a forced tool call, ``n=2`` choices, a cut by the token
limit, a request the server must reject, a client that hangs up) read it from there.
Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import UsageError

__all__ = [
    "CASE_IDS",
    "KEY_HEADERS",
    "PROTOCOLS",
    "Case",
    "Expectation",
    "cases_for",
]

TOOL = "get_weather"
"""The one tool every request with tools offers."""

_TOOL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "the city's name"}},
    "required": ["city"],
    "additionalProperties": False,
}
_TOOL_TEXT = "Get the current weather in a city."

_PLAIN = "Say hello in five words."
_FORCED = "What is the weather in Paris? Use the tool."
_PARALLEL = (
    "What is the weather in Paris and in Tokyo? Call the tool once for each city, "
    "both calls in this one reply."
)
_LONG = "Count from 1 to 200, one number per line, and nothing else."
_STORY = "Write a story of about 400 words about a lighthouse keeper."

CUT_TOKENS = 5
"""The token limit of the ``max-tokens`` case: small enough to cut any reply to its prompt."""
RESPONSES_CUT_TOKENS = 16
"""The Responses API's smallest ``max_output_tokens``."""


@dataclass(frozen=True, slots=True)
class Expectation:
    """What one request asked of the server, for the checks that depend on it.

    Attributes:
        usage: ``True`` when the request asked for usage, ``False`` when the protocol
            sends usage only when asked and this request did not ask, ``None`` when the
            protocol always sends it (or the case says nothing of it).
        tool: the tool the request forced a call to, if any.
        parallel: whether the request asked for several tool calls in one reply.
        choices: how many choices (candidates) the request asked for.
        cut: whether the token limit is small enough to cut the reply.
        reject: whether the request is invalid and must be refused.
        hangup: whether the client hangs up after the first content (the stream itself
            is then not judged).
        after_hangup: whether this request follows a hang-up (the server must answer it).
        any_tool: whether the request forced a call to one of several tools, naming none
            (``tool_choice: "required"``, ``{"type": "any"}``, Gemini's mode ``ANY``).
        stop_allowed: whether the forced call may end with the ordinary stop reason: OpenAI
            itself ends a Chat call forced by name with ``finish_reason: "stop"``.
        no_calls: whether the request offered no tool, or forbade calls
            (``tool_choice: "none"``): a tool call answers what was not asked.
        one_call: whether the request turned parallel calls off (``parallel_tool_calls:
            false``, Anthropic's ``disable_parallel_tool_use``): at most one call.
        limit: the output token limit the request set (``max_tokens`` …), if any: a
            reply that reaches it may end with the length finish reason, and must.
        stream: whether the request asked for a stream (``stream: true``); ``None`` when
            the protocol says it elsewhere (Gemini's URL).
    """

    usage: bool | None = None
    tool: str | None = None
    parallel: bool = False
    choices: int = 1
    cut: bool = False
    reject: bool = False
    hangup: bool = False
    after_hangup: bool = False
    any_tool: bool = False
    stop_allowed: bool = False
    no_calls: bool = False
    one_call: bool = False
    limit: int | None = None
    stream: bool | None = None


@dataclass(frozen=True, slots=True)
class Case:
    """One request of the set.

    Attributes:
        id: the case's stable name (``plain``, ``tool-forced`` …), as ``--case`` takes it.
        title: what the request does, for the table and the evidence.
        path: the path under the API base URL (with its query, if any).
        body: the JSON body.
        expect: what the request asked for.
    """

    id: str
    title: str
    path: str
    body: dict[str, Any]
    expect: Expectation = field(default_factory=Expectation)


CASE_IDS = (
    "plain",
    "tool-forced",
    "tools-parallel",
    "max-tokens",
    "usage",
    "n2",
    "reject",
    "hangup",
    "after-hangup",
)
"""Every case name, in the order they are sent (a protocol may lack some)."""

KEY_HEADERS: dict[str, tuple[str, str, str]] = {
    "openai-chat": ("OPENAI_API_KEY", "Authorization", "Bearer "),
    "openai-responses": ("OPENAI_API_KEY", "Authorization", "Bearer "),
    "anthropic": ("ANTHROPIC_API_KEY", "x-api-key", ""),
    "gemini": ("GEMINI_API_KEY", "x-goog-api-key", ""),
}
"""Per protocol: the environment variable holding the API key, the header that carries it,
and the prefix of its value."""


Body = Callable[..., dict[str, Any]]
"""A protocol's request body for a prompt, with extra top-level fields."""


@dataclass(frozen=True, slots=True)
class _Shape:
    """How one protocol asks for each thing the request set needs.

    Attributes:
        path: the path under the API base URL.
        body: the body of a prompt (``body(prompt, **extra)``).
        forced: the extra fields that offer the tool and force a call to it.
        parallel: the extra fields that offer the tool and allow parallel calls.
        cut: the extra fields of the token limit that cuts the reply, and its title.
        invalid: the invalid request's body, and its title.
        usage: the extra fields asking for usage, when the protocol sends it only then.
        n2: the extra fields asking for two choices, when the protocol has them.
    """

    path: str
    body: Body
    forced: dict[str, Any]
    parallel: dict[str, Any]
    cut: tuple[dict[str, Any], str]
    invalid: tuple[dict[str, Any], str]
    usage: dict[str, Any] | None = None
    n2: tuple[dict[str, Any], str] | None = None


def _cut(field: str, tokens: int = CUT_TOKENS, within: str = "") -> tuple[dict[str, Any], str]:
    """The extra fields of a token limit of ``tokens`` in ``field`` (inside the object
    ``within``, if named), and the title of the case they cut."""
    limit = {field: tokens}
    return ({within: limit} if within else limit), f"{field} {tokens} cuts the reply"


def _openai(
    path: str,
    body: Body,
    tools: list[dict[str, Any]],
    cut: tuple[dict[str, Any], str],
    invalid: tuple[dict[str, Any], str],
    **more: Any,
) -> _Shape:
    """The shape of an OpenAI protocol: ``tool_choice: "required"`` forces a call to the
    tool, and ``parallel_tool_calls`` allows several."""
    return _Shape(
        path,
        body,
        forced={"tools": tools, "tool_choice": "required"},
        parallel={"tools": tools, "parallel_tool_calls": True},
        cut=cut,
        invalid=invalid,
        **more,
    )


def _cases(shape: _Shape) -> list[Case]:
    """The request set of one protocol, in :data:`CASE_IDS` order."""

    def case(name: str, title: str, expect: Expectation, prompt: str, /, **extra: Any) -> Case:
        return Case(name, title, shape.path, shape.body(prompt, **extra), expect)

    asked = shape.usage is not None  # usage comes only when asked: the other cases say no
    plain = Expectation(usage=False if asked else None, no_calls=True)
    forced = replace(plain, tool=TOOL, no_calls=False)
    parallel = replace(plain, parallel=True, no_calls=False)
    cut_extra, cut_title = shape.cut
    invalid, invalid_title = shape.invalid
    out = [
        case("plain", "plain text", plain, _PLAIN),
        case("tool-forced", "a forced tool call", forced, _FORCED, **shape.forced),
        case("tools-parallel", "parallel tool calls", parallel, _PARALLEL, **shape.parallel),
        case("max-tokens", cut_title, replace(plain, cut=True), _LONG, **cut_extra),
    ]
    if shape.usage is not None:
        usage = Expectation(usage=True, no_calls=True)
        out.append(case("usage", "include_usage on", usage, _PLAIN, **shape.usage))
    if shape.n2 is not None:
        n2_extra, n2_title = shape.n2
        out.append(case("n2", n2_title, replace(plain, choices=2), _PLAIN, **n2_extra))
    return [
        *out,
        Case("reject", invalid_title, shape.path, invalid, Expectation(reject=True)),
        case("hangup", "the client hangs up mid-stream", Expectation(hangup=True), _STORY),
        case(
            "after-hangup", "plain text after a hang-up", replace(plain, after_hangup=True), _PLAIN
        ),
    ]


def _chat(model: str) -> list[Case]:
    def body(prompt: str, **extra: Any) -> dict[str, Any]:
        return {
            "model": model,
            "messages": [{"role": "user", "content": prompt}],
            "stream": True,
            **extra,
        }

    tools = [
        {
            "type": "function",
            "function": {"name": TOOL, "description": _TOOL_TEXT, "parameters": _TOOL_SCHEMA},
        }
    ]
    invalid = {"model": model, "messages": "not a list of messages", "stream": True}
    return _cases(
        _openai(
            "/chat/completions",
            body,
            tools,
            _cut("max_tokens"),
            (invalid, "an invalid request (messages is not a list)"),
            usage={"stream_options": {"include_usage": True}},
            n2=({"n": 2}, "n=2 choices"),
        )
    )


def _responses(model: str) -> list[Case]:
    def body(prompt: str, **extra: Any) -> dict[str, Any]:
        return {"model": model, "input": prompt, "stream": True, **extra}

    tools = [
        {
            "type": "function",
            "name": TOOL,
            "description": _TOOL_TEXT,
            "parameters": _TOOL_SCHEMA,
            "strict": True,
        }
    ]
    invalid = {"model": model, "input": 42, "stream": True}
    return _cases(
        _openai(
            "/responses",
            body,
            tools,
            _cut("max_output_tokens", RESPONSES_CUT_TOKENS),
            (invalid, "an invalid request (input is a number)"),
        )
    )


def _anthropic(model: str) -> list[Case]:
    def body(prompt: str, **extra: Any) -> dict[str, Any]:
        return {
            "model": model,
            "max_tokens": 1024,
            "messages": [{"role": "user", "content": prompt}],
            "stream": True,
            **extra,
        }

    tools = [{"name": TOOL, "description": _TOOL_TEXT, "input_schema": _TOOL_SCHEMA}]
    return _cases(
        _Shape(
            "/messages",
            body,
            forced={"tools": tools, "tool_choice": {"type": "tool", "name": TOOL}},
            parallel={"tools": tools, "tool_choice": {"type": "auto"}},
            cut=_cut("max_tokens"),
            invalid=(
                {"model": model, "max_tokens": 16, "messages": "not a list", "stream": True},
                "an invalid request (messages is not a list)",
            ),
        )
    )


def _gemini(model: str) -> list[Case]:
    def body(prompt: str, **extra: Any) -> dict[str, Any]:
        return {"contents": [{"role": "user", "parts": [{"text": prompt}]}], **extra}

    tools = [
        {
            "functionDeclarations": [
                {"name": TOOL, "description": _TOOL_TEXT, "parameters": _TOOL_SCHEMA}
            ]
        }
    ]
    forced = {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [TOOL]}}
    return _cases(
        _Shape(
            f"/models/{model}:streamGenerateContent?alt=sse",
            body,
            forced={"tools": tools, "toolConfig": forced},
            parallel={"tools": tools},
            cut=_cut("maxOutputTokens", within="generationConfig"),
            invalid=({"contents": "not a list"}, "an invalid request (contents is not a list)"),
            n2=({"generationConfig": {"candidateCount": 2}}, "candidateCount 2"),
        )
    )


PROTOCOLS: dict[str, Callable[[str], list[Case]]] = {
    "openai-chat": _chat,
    "openai-responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
}
"""The protocols URL mode speaks, each with the builder of its request set."""


def cases_for(protocol: str, model: str, only: tuple[str, ...] = ()) -> list[Case]:
    """The request set of ``protocol`` for ``model`` (only the cases named in ``only``,
    if given; ``after-hangup`` comes with ``hangup``).

    Raises:
        UsageError: an unknown protocol, or a case the protocol does not have.
    """
    build = PROTOCOLS.get(protocol)
    if build is None:
        raise UsageError(f"unknown protocol {protocol!r}; expected one of: {', '.join(PROTOCOLS)}")
    cases = build(model)
    if not only:
        return cases
    known = {c.id for c in cases}
    for name in only:
        if name not in known:
            raise UsageError(
                f"{protocol} has no case {name!r}; its cases: {', '.join(c.id for c in cases)}"
            )
    wanted = set(only) | ({"after-hangup"} if "hangup" in only else set())
    return [c for c in cases if c.id in wanted]

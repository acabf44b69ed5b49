"""URL mode's request set: the fixed requests ``conform URL`` sends, per protocol.

Each :class:`Case` is one request (its path under the API base URL and its JSON body) and
what it asked for (:class:`Expectation`): the checks that need a particular request (usage
sent when asked and only then, a forced tool call, ``n=2`` choices, a cut by the token
limit, a request the server must reject, a client that hangs up) read it from there.
Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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
    """

    usage: bool | None = None
    tool: str | None = None
    parallel: bool = False
    choices: int = 1
    cut: bool = False
    reject: bool = False
    hangup: bool = False
    after_hangup: bool = False


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


def _openai_tool() -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": TOOL, "description": _TOOL_TEXT, "parameters": _TOOL_SCHEMA},
    }


def _chat(model: str) -> list[Case]:
    def body(prompt: str, **extra: Any) -> dict[str, Any]:
        return {
            "model": model,
            "messages": [{"role": "user", "content": prompt}],
            "stream": True,
            **extra,
        }

    path = "/chat/completions"
    tools = [_openai_tool()]
    return [
        Case("plain", "plain text", path, body(_PLAIN), Expectation(usage=False)),
        Case(
            "tool-forced",
            "a forced tool call",
            path,
            body(_FORCED, tools=tools, tool_choice="required"),
            Expectation(usage=False, tool=TOOL),
        ),
        Case(
            "tools-parallel",
            "parallel tool calls",
            path,
            body(_PARALLEL, tools=tools, parallel_tool_calls=True),
            Expectation(usage=False, parallel=True),
        ),
        Case(
            "max-tokens",
            f"max_tokens {CUT_TOKENS} cuts the reply",
            path,
            body(_LONG, max_tokens=CUT_TOKENS),
            Expectation(usage=False, cut=True),
        ),
        Case(
            "usage",
            "include_usage on",
            path,
            body(_PLAIN, stream_options={"include_usage": True}),
            Expectation(usage=True),
        ),
        Case("n2", "n=2 choices", path, body(_PLAIN, n=2), Expectation(usage=False, choices=2)),
        Case(
            "reject",
            "an invalid request (messages is not a list)",
            path,
            {"model": model, "messages": "not a list of messages", "stream": True},
            Expectation(reject=True),
        ),
        Case(
            "hangup", "the client hangs up mid-stream", path, body(_STORY), Expectation(hangup=True)
        ),
        Case(
            "after-hangup",
            "plain text after a hang-up",
            path,
            body(_PLAIN),
            Expectation(usage=False, after_hangup=True),
        ),
    ]


def _responses(model: str) -> list[Case]:
    def body(prompt: str, **extra: Any) -> dict[str, Any]:
        return {"model": model, "input": prompt, "stream": True, **extra}

    path = "/responses"
    tools = [
        {
            "type": "function",
            "name": TOOL,
            "description": _TOOL_TEXT,
            "parameters": _TOOL_SCHEMA,
            "strict": True,
        }
    ]
    return [
        Case("plain", "plain text", path, body(_PLAIN)),
        Case(
            "tool-forced",
            "a forced tool call",
            path,
            body(_FORCED, tools=tools, tool_choice="required"),
            Expectation(tool=TOOL),
        ),
        Case(
            "tools-parallel",
            "parallel tool calls",
            path,
            body(_PARALLEL, tools=tools, parallel_tool_calls=True),
            Expectation(parallel=True),
        ),
        Case(
            "max-tokens",
            f"max_output_tokens {RESPONSES_CUT_TOKENS} cuts the reply",
            path,
            body(_LONG, max_output_tokens=RESPONSES_CUT_TOKENS),
            Expectation(cut=True),
        ),
        Case(
            "reject",
            "an invalid request (input is a number)",
            path,
            {"model": model, "input": 42, "stream": True},
            Expectation(reject=True),
        ),
        Case(
            "hangup", "the client hangs up mid-stream", path, body(_STORY), Expectation(hangup=True)
        ),
        Case(
            "after-hangup",
            "plain text after a hang-up",
            path,
            body(_PLAIN),
            Expectation(after_hangup=True),
        ),
    ]


def _anthropic(model: str) -> list[Case]:
    def body(prompt: str, max_tokens: int = 1024, **extra: Any) -> dict[str, Any]:
        return {
            "model": model,
            "max_tokens": max_tokens,
            "messages": [{"role": "user", "content": prompt}],
            "stream": True,
            **extra,
        }

    path = "/messages"
    tools = [{"name": TOOL, "description": _TOOL_TEXT, "input_schema": _TOOL_SCHEMA}]
    return [
        Case("plain", "plain text", path, body(_PLAIN)),
        Case(
            "tool-forced",
            "a forced tool call",
            path,
            body(_FORCED, tools=tools, tool_choice={"type": "tool", "name": TOOL}),
            Expectation(tool=TOOL),
        ),
        Case(
            "tools-parallel",
            "parallel tool calls",
            path,
            body(_PARALLEL, tools=tools, tool_choice={"type": "auto"}),
            Expectation(parallel=True),
        ),
        Case(
            "max-tokens",
            f"max_tokens {CUT_TOKENS} cuts the reply",
            path,
            body(_LONG, max_tokens=CUT_TOKENS),
            Expectation(cut=True),
        ),
        Case(
            "reject",
            "an invalid request (messages is not a list)",
            path,
            {"model": model, "max_tokens": 16, "messages": "not a list", "stream": True},
            Expectation(reject=True),
        ),
        Case(
            "hangup", "the client hangs up mid-stream", path, body(_STORY), Expectation(hangup=True)
        ),
        Case(
            "after-hangup",
            "plain text after a hang-up",
            path,
            body(_PLAIN),
            Expectation(after_hangup=True),
        ),
    ]


def _gemini(model: str) -> list[Case]:
    def body(prompt: str, **extra: Any) -> dict[str, Any]:
        return {"contents": [{"role": "user", "parts": [{"text": prompt}]}], **extra}

    path = f"/models/{model}:streamGenerateContent?alt=sse"
    tools = [
        {
            "functionDeclarations": [
                {"name": TOOL, "description": _TOOL_TEXT, "parameters": _TOOL_SCHEMA}
            ]
        }
    ]
    forced = {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [TOOL]}}
    return [
        Case("plain", "plain text", path, body(_PLAIN)),
        Case(
            "tool-forced",
            "a forced tool call",
            path,
            body(_FORCED, tools=tools, toolConfig=forced),
            Expectation(tool=TOOL),
        ),
        Case(
            "tools-parallel",
            "parallel tool calls",
            path,
            body(_PARALLEL, tools=tools),
            Expectation(parallel=True),
        ),
        Case(
            "max-tokens",
            f"maxOutputTokens {CUT_TOKENS} cuts the reply",
            path,
            body(_LONG, generationConfig={"maxOutputTokens": CUT_TOKENS}),
            Expectation(cut=True),
        ),
        Case(
            "n2",
            "candidateCount 2",
            path,
            body(_PLAIN, generationConfig={"candidateCount": 2}),
            Expectation(choices=2),
        ),
        Case(
            "reject",
            "an invalid request (contents is not a list)",
            path,
            {"contents": "not a list"},
            Expectation(reject=True),
        ),
        Case(
            "hangup", "the client hangs up mid-stream", path, body(_STORY), Expectation(hangup=True)
        ),
        Case(
            "after-hangup",
            "plain text after a hang-up",
            path,
            body(_PLAIN),
            Expectation(after_hangup=True),
        ),
    ]


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

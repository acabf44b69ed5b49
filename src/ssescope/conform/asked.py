"""What a recorded request asked for: capture mode's :class:`~ssescope.conform.cases.Expectation`.

URL mode's cases state what each request asked (:mod:`ssescope.conform.cases`). A capture
that keeps its request's body (an ``.ssecap`` header's ``request.body``, a HAR entry's
``postData``, a proxy record) says the same things in the protocol's own fields, and
:func:`expectation_of` reads them back, one reader per protocol (:data:`READERS`);
:data:`ASKED` lists, for the docs, what each field asks of the reply and which check
judges it. Nothing here does I/O; a body that is not a JSON object gives no expectation.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .cases import Expectation

__all__ = ["ASKED", "READERS", "Asked", "decoded_body", "expectation_of"]

_BODY_LIMIT = 16 << 20
"""Request bodies longer than this are not read (as for the tools they declare)."""


def decoded_body(body: object) -> dict[str, Any] | None:
    """The request body as a JSON object: a dict as given, or JSON text (``str`` or
    ``bytes``) decoded; anything else (or text that is not a JSON object) gives ``None``."""
    if isinstance(body, dict):
        return body
    if isinstance(body, bytes | bytearray | memoryview):
        body = bytes(body).decode("utf-8", "replace")
    if not isinstance(body, str) or len(body) > _BODY_LIMIT:
        return None
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _count(value: object) -> int | None:
    """A positive integer count (not a bool), else ``None``."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _offered(body: dict[str, Any], key: str = "tools") -> list[Any]:
    tools = body.get(key)
    return tools if isinstance(tools, list) else []


def _names(tools: list[Any]) -> list[str]:
    """The names of the offered tools that give one (Chat's ``function.name`` or a flat
    ``name``)."""
    out: list[str] = []
    for tool in tools:
        if not isinstance(tool, dict):
            continue
        function = tool.get("function")
        name = function.get("name") if isinstance(function, dict) else tool.get("name")
        if isinstance(name, str) and name:
            out.append(name)
    return out


def _forced(names: list[str], by_name: str | None) -> tuple[str | None, bool]:
    """The forced tool and whether any tool will do: the one named, else the only tool
    offered, else any of them."""
    if by_name:
        return by_name, False
    if len(names) == 1:
        return names[0], False
    return None, True


def _openai(body: dict[str, Any], tools: list[Any], *, chat: bool) -> Expectation:
    """What an OpenAI Chat or Responses request asked for."""
    names = _names(tools)
    if chat:
        names += _names(_offered(body, "functions"))
        tools = tools + _offered(body, "functions")
    choice = body.get("tool_choice", body.get("function_call") if chat else None)
    tool: str | None = None
    any_tool = stop_allowed = False
    no_calls = not tools or choice == "none"
    if choice == "required" and tools:
        tool, any_tool = _forced(names, None)
    elif isinstance(choice, dict):
        function = choice.get("function")
        named = function.get("name") if isinstance(function, dict) else choice.get("name")
        if isinstance(named, str) and named:
            tool, any_tool, stop_allowed = named, False, chat
    stream = body.get("stream") is True
    usage: bool | None = None
    if chat and stream:
        usage = _dict(body.get("stream_options")).get("include_usage") is True
    limits = ("max_completion_tokens", "max_tokens") if chat else ("max_output_tokens",)
    limit = next((n for n in (_count(body.get(k)) for k in limits) if n is not None), None)
    parallel = body.get("parallel_tool_calls")
    return Expectation(
        usage=usage,
        tool=None if no_calls else tool,
        parallel=bool(tools) and parallel is not False and not no_calls,
        choices=(_count(body.get("n")) or 1) if chat else 1,
        any_tool=any_tool and not no_calls,
        stop_allowed=stop_allowed,
        no_calls=no_calls,
        one_call=bool(tools) and parallel is False,
        limit=limit,
        stream=stream,
    )


def _chat(body: dict[str, Any]) -> Expectation:
    return _openai(body, _offered(body), chat=True)


def _responses(body: dict[str, Any]) -> Expectation:
    return _openai(body, _offered(body), chat=False)


def _anthropic(body: dict[str, Any]) -> Expectation:
    """What an Anthropic Messages request asked for."""
    tools = _offered(body)
    choice = _dict(body.get("tool_choice"))
    kind = choice.get("type")
    no_calls = not tools or kind == "none"
    tool: str | None = None
    any_tool = False
    if kind == "any" and tools:
        tool, any_tool = _forced(_names(tools), None)
    elif kind == "tool" and isinstance(choice.get("name"), str) and choice["name"]:
        tool = choice["name"]
    one_call = bool(tools) and choice.get("disable_parallel_tool_use") is True
    return Expectation(
        tool=None if no_calls else tool,
        parallel=not no_calls and not one_call,
        any_tool=any_tool and not no_calls,
        no_calls=no_calls,
        one_call=one_call,
        limit=_count(body.get("max_tokens")),
        stream=body.get("stream") is True,
    )


def _either(obj: dict[str, Any], camel: str, snake: str) -> Any:
    return obj.get(camel, obj.get(snake))


def _gemini(body: dict[str, Any]) -> Expectation:
    """What a Gemini ``generateContent`` request asked for (camel or snake case)."""
    names: list[str] = []
    for offered_tool in _offered(body):
        declared = _either(_dict(offered_tool), "functionDeclarations", "function_declarations")
        names += _names(declared if isinstance(declared, list) else [])
    offered = bool(_offered(body))
    config = _dict(
        _either(
            _dict(_either(body, "toolConfig", "tool_config")),
            "functionCallingConfig",
            "function_calling_config",
        )
    )
    mode = str(config.get("mode", "")).upper()
    no_calls = not offered or mode == "NONE"
    tool: str | None = None
    any_tool = False
    if mode == "ANY" and offered:
        allowed = _either(config, "allowedFunctionNames", "allowed_function_names")
        allowed = [a for a in allowed if isinstance(a, str)] if isinstance(allowed, list) else []
        tool, any_tool = _forced(allowed or names, None)
    generation = _dict(_either(body, "generationConfig", "generation_config"))
    return Expectation(
        tool=None if no_calls else tool,
        parallel=not no_calls,
        choices=_count(_either(generation, "candidateCount", "candidate_count")) or 1,
        any_tool=any_tool and not no_calls,
        no_calls=no_calls,
        limit=_count(_either(generation, "maxOutputTokens", "max_output_tokens")),
    )


@dataclass(frozen=True, slots=True)
class Asked:
    """One thing a request can ask, for the docs: where it says it, what the reply must
    then do, and the check that judges it."""

    says: str
    reply: str
    check: str


ASKED: tuple[Asked, ...] = (
    Asked(
        "Chat's `stream_options.include_usage` on / off (with `stream: true`)",
        "carries usage / carries none",
        "request.usage-as-asked",
    ),
    Asked(
        "`tool_choice` forces a tool (`required`, by name; Anthropic's `any`, `tool`; "
        "Gemini's mode `ANY`; Cohere's `REQUIRED`; Bedrock's `toolChoice`)",
        "calls it (any offered tool, when none is named), ending with the tool-call finish "
        "reason but for a Chat call forced by name",
        "request.forced-tool-call",
    ),
    Asked(
        "tools offered, parallel calls not turned off",
        "makes distinct calls whose arguments parse",
        "request.parallel-calls",
    ),
    Asked(
        "`parallel_tool_calls: false`; Anthropic's `disable_parallel_tool_use`",
        "makes one call at most",
        "request.one-call",
    ),
    Asked(
        "no tools, or `tool_choice: none` (Anthropic's `none`, Gemini's mode `NONE`, "
        "Cohere's `NONE`)",
        "makes no tool call",
        "request.no-unasked-call",
    ),
    Asked(
        "Chat's `n`; Gemini's `candidateCount`",
        "streams every choice, each with its finish reason",
        "request.n-choices",
    ),
    Asked(
        "`max_tokens`, `max_completion_tokens`, `max_output_tokens`; Gemini's "
        "`maxOutputTokens`, Ollama's `num_predict`, Bedrock's `maxTokens`",
        "may end with the length finish reason, and must when its output tokens reach the limit",
        "request.cut-is-incomplete",
    ),
    Asked(
        "`stream` not `true` (Chat, Responses, Messages)",
        "is not judged as a stream",
        "stream.streamed",
    ),
)
"""What a recorded request can ask, and the check judging each (``docs/conform.md``)."""


def _ollama(body: dict[str, Any]) -> Expectation:
    """What an Ollama ``/api/chat`` or ``/api/generate`` request asked for: it has no
    ``tool_choice``, and limits the reply by ``num_predict``."""
    tools = _offered(body)
    return Expectation(
        parallel=bool(tools),
        no_calls=not tools,
        limit=_count(_dict(body.get("options")).get("num_predict")),
    )


def _cohere(body: dict[str, Any]) -> Expectation:
    """What a Cohere v2 chat request asked for (``tool_choice``: ``REQUIRED``, ``NONE``)."""
    tools = _offered(body)
    choice = str(body.get("tool_choice", "")).upper()
    no_calls = not tools or choice == "NONE"
    tool, any_tool = _forced(_names(tools), None) if choice == "REQUIRED" else (None, False)
    return Expectation(
        tool=None if no_calls else tool,
        parallel=not no_calls,
        any_tool=any_tool and not no_calls,
        no_calls=no_calls,
        limit=_count(body.get("max_tokens")),
        stream=body.get("stream") is True,
    )


def _bedrock(body: dict[str, Any]) -> Expectation:
    """What a Bedrock request asked for: Converse's ``toolConfig`` and ``inferenceConfig``,
    or an Anthropic body sent to ``InvokeModel``."""
    if "anthropic_version" in body:
        return replace(_anthropic(body), stream=None)  # (InvokeModel's URL says it)
    config = _dict(body.get("toolConfig"))
    tools = _offered(config)
    names = [n for t in tools for n in _names([_dict(_dict(t).get("toolSpec"))])]
    choice = _dict(config.get("toolChoice"))
    named = _dict(choice.get("tool")).get("name")
    tool: str | None = None
    any_tool = False
    if "any" in choice and tools:
        tool, any_tool = _forced(names, None)
    elif isinstance(named, str) and named:
        tool = named
    return Expectation(
        tool=tool if tools else None,
        parallel=bool(tools),
        any_tool=any_tool,
        no_calls=not tools,
        limit=_count(_dict(body.get("inferenceConfig")).get("maxTokens")),
    )


READERS: dict[str, Callable[[dict[str, Any]], Expectation]] = {
    "openai-chat": _chat,
    "openai-responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "ollama": _ollama,
    "cohere": _cohere,
    "bedrock": _bedrock,
}
"""Per protocol (a Report's provider): the reader of what its request body asked for."""


def expectation_of(body: object, protocol: str) -> Expectation | None:
    """What the request ``body`` (a JSON value, or its text) asked of a ``protocol``
    server (a Report's ``provider``), or ``None`` when the body is not a JSON object or
    conform reads no request of that protocol."""
    reader = READERS.get(protocol)
    found = decoded_body(body)
    if reader is None or found is None:
        return None
    return reader(found)

"""A client's final result, read into the Report's field names.

Each official client builds its own final object from a stream. This module reads the
JSON form of each one (an SDK object is first dumped to JSON) into one
:class:`ExpectedReply` that names things as the Report does, and records only what the
result states: a field it does not have stays ``None`` and is not compared.

Shapes read (tried in this order):

* ``ssescope-report``: ssescope's own Report (``schema`` and ``outputs``);
* ``openai-chat-completion``: an openai ``ChatCompletion`` (``choices[].message``);
* ``gemini-generate-content``: a Gemini ``GenerateContentResponse`` (``candidates``,
  camelCase or snake_case keys);
* ``anthropic-message``: an anthropic ``Message`` (``type: "message"``, ``content``);
* ``openai-response``: an openai Responses ``Response`` (``object: "response"`` or an
  ``output`` list);
* ``vercel-ai-sdk``: the result of the Vercel AI SDK's ``generateText`` /
  ``streamText`` (``toolCalls``, ``finishReason``, ``usage.inputTokens``…);
* ``fields``: an object with any of ``text``, ``reasoning``, ``refusal``,
  ``tool_calls``, ``finish_reason``, ``usage`` (the Report's own names);
* ``text``: plain text, the expected text of output 0.

A ``null`` text is the empty text. A field of the wrong type raises
:class:`ResultError` with the field's path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ..aggregate.report import USAGE_KEYS
from ..events import JSON
from ._read import (
    ResultError,
    _arguments,
    _count,
    _first,
    _kind,
    _list,
    _obj,
    _opt_obj,
    _opt_str,
    _text,
    _usage,
)
from .vercel import NOT_CARRIED

__all__ = [
    "SHAPES",
    "ExpectedCall",
    "ExpectedOutput",
    "ExpectedReply",
    "ResultError",
    "normalise_result",
]

ALL_KINDS = frozenset({"function", "custom", "mcp", "server"})
"""Every kind of tool call a Report can hold."""


@dataclass(slots=True)
class ExpectedCall:
    """One tool call as the result states it.

    Attributes:
        id: the call id, ``None`` when the result gives none.
        name: the tool name, ``None`` when the result gives none.
        arguments: the arguments, parsed when they are JSON text (a freeform input or
            invalid JSON stays a string); meaningful only when ``has_arguments``.
        has_arguments: whether the result states the arguments at all.
    """

    id: str | None = None
    name: str | None = None
    arguments: JSON = None
    has_arguments: bool = False


@dataclass(slots=True)
class ExpectedOutput:
    """One output (choice, candidate) as the result states it; ``None`` = not stated.

    Attributes:
        index: the output's index (the choice or candidate index).
        call_kinds: the Report tool-call kinds the result's list of calls covers (an
            anthropic ``Message`` lists server tool uses, a ``ChatCompletion`` cannot).
        finish_reason: the finish reason in the result's own words; it matches the
            Report's unified or raw finish reason.
        raw_finish_reason: the provider's own finish reason, when the result keeps it
            beside its own word (the Vercel AI SDK's ``rawFinishReason``).
    """

    index: int = 0
    text: str | None = None
    reasoning: str | None = None
    refusal: str | None = None
    tool_calls: list[ExpectedCall] | None = None
    call_kinds: frozenset[str] = ALL_KINDS
    finish_reason: str | None = None
    raw_finish_reason: str | None = None


@dataclass(slots=True)
class ExpectedReply:
    """A client's result in the Report's names.

    Attributes:
        shape: which client's object it was (see the module's list).
        outputs: the outputs it states.
        usage: the usage counts it states, by the Report's usage keys.
        response_id: the response id it names, used to pick the response of a capture
            that holds several.
        usage_stated: whether the result has its usage field at all (``null`` or without
            counts included): a client's result that has it but lacks the stream's counts
            lost them; one without the field says nothing about usage.
    """

    shape: str
    outputs: list[ExpectedOutput] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    response_id: str | None = None
    usage_stated: bool = False

    @property
    def client(self) -> bool:
        """Whether the result is a client SDK's object that has its usage field (it
        carries the stream's usage over when the stream has one), not expected fields or
        a Report."""
        return self.usage_stated and self.shape not in ("ssescope-report", "fields", "text")

    def stated(self) -> list[str]:
        """The Report fields the result states, in the Report's order."""
        names = ["text", "reasoning", "refusal", "tool_calls", "finish_reason"]
        found = [n for n in names if any(getattr(o, n) is not None for o in self.outputs)]
        return [*found, "usage"] if self.usage else found


def _call(
    raw: object, path: str, id_keys: tuple[str, ...], name_keys: tuple[str, ...]
) -> tuple[dict[str, Any], ExpectedCall]:
    obj = _obj(raw, path)
    id_key, call_id = _first(obj, *id_keys)
    name_key, name = _first(obj, *name_keys)
    call = ExpectedCall(
        id=_opt_str(call_id, f"{path}.{id_key}") or None,
        name=_opt_str(name, f"{path}.{name_key}"),
    )
    return obj, call


def _typed(value: object, path: str) -> Iterator[tuple[str, dict[str, Any], str | None]]:
    """Each object of the list ``value`` (at ``path``), with its path and its ``type``
    (``None`` when that is not a string): a Responses output item, an anthropic block."""
    for n, raw in enumerate(_list(value, path)):
        where = f"{path}[{n}]"
        obj = _obj(raw, where)
        kind = obj.get("type")
        yield where, obj, kind if isinstance(kind, str) else None


def _with_args(call: ExpectedCall, obj: Mapping[str, Any], *keys: str) -> ExpectedCall:
    key, value = _first(obj, *keys)
    if key is not None:
        call.arguments = _arguments(value)
        call.has_arguments = True
    return call


# -- shapes ---------------------------------------------------------------------------

_UsageKeys: TypeAlias = tuple[tuple[tuple[str, ...], str], ...]
"""How to read a result's usage: ``(source path, Report key)`` pairs (see ``_usage``)."""


def _openai_usage(input_key: str, output_key: str) -> _UsageKeys:
    """The usage of an openai object that names its input and output counts
    ``input_key`` and ``output_key``: the cached count sits in the input's details
    object, the reasoning count in the output's (``completion_tokens_details``)."""
    return (
        ((input_key,), "input_tokens"),
        ((output_key,), "output_tokens"),
        (("total_tokens",), "total_tokens"),
        ((f"{output_key}_details", "reasoning_tokens"), "reasoning_tokens"),
        ((f"{input_key}_details", "cached_tokens"), "cached_input_tokens"),
    )


_CHAT_USAGE = _openai_usage("prompt_tokens", "completion_tokens")


def _chat_content(value: object, path: str) -> str:
    """A message's content: a string, ``null``, or a list of text parts."""
    if isinstance(value, list):
        texts = []
        for n, part in enumerate(value):
            part_obj = _obj(part, f"{path}[{n}]")
            if part_obj.get("type") in ("text", "output_text"):
                texts.append(_text(part_obj.get("text"), f"{path}[{n}].text"))
        return "".join(texts)
    return _text(value, path)


def _chat_completion(d: dict[str, Any]) -> ExpectedReply:
    reply = ExpectedReply("openai-chat-completion", response_id=_opt_str(d.get("id"), "id"))
    for n, raw in enumerate(_list(d["choices"], "choices")):
        choice = _obj(raw, f"choices[{n}]")
        index = _count(choice.get("index"), f"choices[{n}].index")
        out = ExpectedOutput(
            n if index is None else index, call_kinds=frozenset({"function", "custom"})
        )
        where = f"choices[{n}].message"
        message = _opt_obj(choice.get("message"), where) or {}
        out.text = _chat_content(message.get("content"), f"{where}.content")
        out.refusal = _text(message.get("refusal"), f"{where}.refusal")
        key, reasoning = _first(message, "reasoning_content", "reasoning")
        if reasoning is not None:
            out.reasoning = _text(reasoning, f"{where}.{key}")
        calls: list[ExpectedCall] = []
        raw_calls = message.get("tool_calls")
        for c, raw_call in enumerate(
            [] if raw_calls is None else _list(raw_calls, f"{where}.tool_calls")
        ):
            call_path = f"{where}.tool_calls[{c}]"
            obj, call = _call(raw_call, call_path, ("id",), ())
            if isinstance(obj.get("custom"), dict):
                custom = obj["custom"]
                call.name = _opt_str(custom.get("name"), f"{call_path}.custom.name")
                _with_args(call, custom, "input")
            else:
                function = _obj(obj.get("function"), f"{call_path}.function")
                call.name = _opt_str(function.get("name"), f"{call_path}.function.name")
                _with_args(call, function, "arguments")
            calls.append(call)
        legacy = message.get("function_call")
        if legacy is not None:
            function = _obj(legacy, f"{where}.function_call")
            call = ExpectedCall(name=_opt_str(function.get("name"), f"{where}.function_call.name"))
            calls.append(_with_args(call, function, "arguments"))
        out.tool_calls = calls
        out.finish_reason = _opt_str(choice.get("finish_reason"), f"choices[{n}].finish_reason")
        reply.outputs.append(out)
    reply.usage = _usage(d.get("usage"), "usage", _CHAT_USAGE)
    return reply


_RESPONSES_USAGE = _openai_usage("input_tokens", "output_tokens")

_RESPONSES_CALLS = {
    "function_call": "arguments",
    "custom_tool_call": "input",
    "mcp_call": "arguments",
}


def _response(d: dict[str, Any]) -> ExpectedReply:
    reply = ExpectedReply("openai-response", response_id=_opt_str(d.get("id"), "id"))
    out = ExpectedOutput(0, call_kinds=frozenset({"function", "custom", "mcp"}))
    text: list[str] = []
    refusal: list[str] = []
    reasoning: list[str] = []
    calls: list[ExpectedCall] = []
    for path, item, itype in _typed(d.get("output"), "output"):
        if itype == "message":
            content = item.get("content")
            for c, raw_part in enumerate(
                [] if content is None else _list(content, f"{path}.content")
            ):
                part = _obj(raw_part, f"{path}.content[{c}]")
                if part.get("type") == "output_text":
                    text.append(_text(part.get("text"), f"{path}.content[{c}].text"))
                elif part.get("type") == "refusal":
                    refusal.append(_text(part.get("refusal"), f"{path}.content[{c}].refusal"))
        elif itype == "reasoning":
            for key in ("summary", "content"):
                parts = item.get(key)
                for c, raw_part in enumerate(
                    [] if parts is None else _list(parts, f"{path}.{key}")
                ):
                    part = _obj(raw_part, f"{path}.{key}[{c}]")
                    reasoning.append(_text(part.get("text"), f"{path}.{key}[{c}].text"))
        elif itype in _RESPONSES_CALLS:
            _, call = _call(item, path, ("call_id", "id"), ("name",))
            calls.append(_with_args(call, item, _RESPONSES_CALLS[itype]))
    out.text, out.refusal, out.reasoning = "".join(text), "".join(refusal), "".join(reasoning)
    out.tool_calls = calls
    details = _opt_obj(d.get("incomplete_details"), "incomplete_details")
    reason = _opt_str(details.get("reason"), "incomplete_details.reason") if details else None
    out.finish_reason = reason or _opt_str(d.get("status"), "status")
    reply.outputs.append(out)
    reply.usage = _usage(d.get("usage"), "usage", _RESPONSES_USAGE)
    return reply


_ANTHROPIC_USAGE = (
    (("input_tokens",), "input_tokens"),
    (("output_tokens",), "output_tokens"),
    (("cache_read_input_tokens",), "cached_input_tokens"),
)
_ANTHROPIC_CALLS = {"tool_use": "function", "server_tool_use": "server", "mcp_tool_use": "mcp"}


def _anthropic(d: dict[str, Any]) -> ExpectedReply:
    reply = ExpectedReply("anthropic-message", response_id=_opt_str(d.get("id"), "id"))
    out = ExpectedOutput(0, call_kinds=frozenset(_ANTHROPIC_CALLS.values()))
    text: list[str] = []
    reasoning: list[str] = []
    calls: list[ExpectedCall] = []
    for path, block, btype in _typed(d.get("content"), "content"):
        if btype == "text":
            text.append(_text(block.get("text"), f"{path}.text"))
        elif btype == "thinking":
            reasoning.append(_text(block.get("thinking"), f"{path}.thinking"))
        elif btype in _ANTHROPIC_CALLS:
            _, call = _call(block, path, ("id",), ("name",))
            calls.append(_with_args(call, block, "input"))
    out.text, out.reasoning, out.tool_calls = "".join(text), "".join(reasoning), calls
    out.finish_reason = _opt_str(d.get("stop_reason"), "stop_reason")
    reply.outputs.append(out)
    reply.usage = _usage(d.get("usage"), "usage", _ANTHROPIC_USAGE)
    return reply


_GEMINI_USAGE = tuple(
    ((spelling,), target)
    for camel, snake, target in (
        ("promptTokenCount", "prompt_token_count", "input_tokens"),
        ("candidatesTokenCount", "candidates_token_count", "output_tokens"),
        ("totalTokenCount", "total_token_count", "total_tokens"),
        ("thoughtsTokenCount", "thoughts_token_count", "reasoning_tokens"),
        ("cachedContentTokenCount", "cached_content_token_count", "cached_input_tokens"),
    )
    for spelling in (camel, snake)
)


def _gemini(d: dict[str, Any]) -> ExpectedReply:
    _, response_id = _first(d, "responseId", "response_id")
    reply = ExpectedReply(
        "gemini-generate-content", response_id=_opt_str(response_id, "responseId")
    )
    candidates = d.get("candidates")
    for n, raw in enumerate([] if candidates is None else _list(candidates, "candidates")):
        path = f"candidates[{n}]"
        candidate = _obj(raw, path)
        index = _count(candidate.get("index"), f"{path}.index")
        out = ExpectedOutput(n if index is None else index, call_kinds=frozenset({"function"}))
        text: list[str] = []
        reasoning: list[str] = []
        calls: list[ExpectedCall] = []
        content = _opt_obj(candidate.get("content"), f"{path}.content") or {}
        parts = content.get("parts")
        for p, raw_part in enumerate(
            [] if parts is None else _list(parts, f"{path}.content.parts")
        ):
            part_path = f"{path}.content.parts[{p}]"
            part = _obj(raw_part, part_path)
            key, function = _first(part, "functionCall", "function_call")
            if function is not None:
                _, call = _call(function, f"{part_path}.{key}", ("id",), ("name",))
                call.arguments = _arguments(
                    _opt_obj(function.get("args"), f"{part_path}.{key}.args") or {}
                )
                call.has_arguments = True
                calls.append(call)
            elif part.get("text") is not None:
                target = reasoning if part.get("thought") is True else text
                target.append(_text(part.get("text"), f"{part_path}.text"))
        out.text, out.reasoning, out.tool_calls = "".join(text), "".join(reasoning), calls
        key, finish = _first(candidate, "finishReason", "finish_reason")
        out.finish_reason = _opt_str(finish, f"{path}.{key}")
        reply.outputs.append(out)
    key, usage = _first(d, "usageMetadata", "usage_metadata")
    reply.usage = _usage(usage, key or "usageMetadata", _GEMINI_USAGE)
    return reply


_VERCEL_USAGE = (
    (("inputTokens",), "input_tokens"),
    (("promptTokens",), "input_tokens"),
    (("outputTokens",), "output_tokens"),
    (("completionTokens",), "output_tokens"),
    (("totalTokens",), "total_tokens"),
    (("reasoningTokens",), "reasoning_tokens"),
    (("outputTokenDetails", "reasoningTokens"), "reasoning_tokens"),
    (("cachedInputTokens",), "cached_input_tokens"),
    (("inputTokenDetails", "cacheReadTokens"), "cached_input_tokens"),
)
_VERCEL_KEYS = ("toolCalls", "finishReason", "reasoningText", "toolResults", "steps")


def _vercel(d: dict[str, Any]) -> ExpectedReply:
    response = _opt_obj(d.get("response"), "response") or {}
    reply = ExpectedReply("vercel-ai-sdk", response_id=_opt_str(response.get("id"), "response.id"))
    out = ExpectedOutput(0, call_kinds=frozenset({"function", "custom"}))
    if "text" in d:
        out.text = _text(d["text"], "text")
    if "reasoningText" in d:
        out.reasoning = _text(d["reasoningText"], "reasoningText")
    elif isinstance(d.get("reasoning"), list):
        out.reasoning = "".join(
            _text(_obj(part, f"reasoning[{n}]").get("text"), f"reasoning[{n}].text")
            for n, part in enumerate(d["reasoning"])
        )
    elif "reasoning" in d and d["reasoning"] is not None:
        out.reasoning = _text(d["reasoning"], "reasoning")
    if "toolCalls" in d:
        calls: list[ExpectedCall] = []
        for n, raw in enumerate(_list(d["toolCalls"], "toolCalls")):
            obj, call = _call(raw, f"toolCalls[{n}]", ("toolCallId",), ("toolName",))
            if obj.get("providerExecuted") is True:
                continue  # executed by the provider: not a client call in the Report
            calls.append(_with_args(call, obj, "input", "args"))
        out.tool_calls = calls
    if "finishReason" in d:
        # the SDK's own word (tool-calls, other, unknown…): compare.vercel reads it
        out.finish_reason = _opt_str(d["finishReason"], "finishReason") or None
        out.raw_finish_reason = _opt_str(d.get("rawFinishReason"), "rawFinishReason") or None
    reply.outputs.append(out)
    usage = _usage(d.get("usage"), "usage", _VERCEL_USAGE)
    for key in NOT_CARRIED:
        usage.pop(key, None)  # computed by the SDK, not carried over from the stream
    reply.usage = usage
    return reply


_REPORT_USAGE = tuple(((key,), key) for key in USAGE_KEYS)
_FIELD_KEYS = ("text", "reasoning", "refusal", "tool_calls", "finish_reason", "usage")


def _fields_output(d: dict[str, Any], prefix: str, index: int) -> ExpectedOutput:
    out = ExpectedOutput(index)
    for key in ("text", "reasoning", "refusal"):
        if key in d:
            setattr(out, key, _text(d[key], f"{prefix}{key}"))
    if "tool_calls" in d:
        calls: list[ExpectedCall] = []
        for n, raw in enumerate(_list(d["tool_calls"], f"{prefix}tool_calls")):
            obj, call = _call(raw, f"{prefix}tool_calls[{n}]", ("id",), ("name",))
            # a Report's call has the parsed "input" (null when freeform or invalid)
            # beside the raw "arguments"
            _with_args(call, obj, "input" if obj.get("input") is not None else "arguments")
            calls.append(call)
        out.tool_calls = calls
    if "finish_reason" in d:
        out.finish_reason = _opt_str(d["finish_reason"], f"{prefix}finish_reason")
    return out


def _fields(d: dict[str, Any]) -> ExpectedReply:
    reply = ExpectedReply("fields", outputs=[_fields_output(d, "", 0)])
    reply.usage = _usage(d.get("usage"), "usage", _REPORT_USAGE)
    return reply


def _report(d: dict[str, Any]) -> ExpectedReply:
    reply = ExpectedReply("ssescope-report", response_id=_opt_str(d.get("id"), "id"))
    for n, raw in enumerate(_list(d["outputs"], "outputs")):
        output = _obj(raw, f"outputs[{n}]")
        index = _count(output.get("index"), f"outputs[{n}].index")
        reply.outputs.append(
            _fields_output(output, f"outputs[{n}].", n if index is None else index)
        )
    reply.usage = _usage(d.get("usage"), "usage", _REPORT_USAGE)
    return reply


SHAPES: tuple[
    tuple[str, Callable[[dict[str, Any]], bool], Callable[[dict[str, Any]], ExpectedReply]], ...
] = (
    ("ssescope-report", lambda d: "outputs" in d and "schema" in d, _report),
    ("openai-chat-completion", lambda d: "choices" in d, _chat_completion),
    (
        "gemini-generate-content",
        lambda d: "candidates" in d or "usageMetadata" in d or "usage_metadata" in d,
        _gemini,
    ),
    ("anthropic-message", lambda d: d.get("type") == "message" and "content" in d, _anthropic),
    (
        "openai-response",
        lambda d: d.get("object") == "response" or isinstance(d.get("output"), list),
        _response,
    ),
    ("vercel-ai-sdk", lambda d: any(k in d for k in _VERCEL_KEYS), _vercel),
    ("fields", lambda d: any(k in d for k in _FIELD_KEYS), _fields),
)
"""The shapes read, in the order they are tried: (name, test, reader)."""


_USAGE_KEYS = ("usage", "usageMetadata", "usage_metadata")


def _as_json(result: object) -> object:
    """The JSON form of ``result``: SDK objects (pydantic models) are dumped, a Report
    becomes its JSON contract."""
    from ..aggregate.report import Report

    if isinstance(result, Report):
        return result.to_dict()
    dump = getattr(result, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    to_dict = getattr(result, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return result


def normalise_result(result: object) -> ExpectedReply:
    """Read a client's final result into the Report's names.

    ``result`` is an SDK object (openai ``ChatCompletion`` or ``Response``, anthropic
    ``Message``, Gemini ``GenerateContentResponse``), its JSON form as a dict, the Vercel
    AI SDK's result JSON, a ssescope :class:`~ssescope.Report` or its JSON, a dict of
    the Report's field names, or a string (the expected text of output 0).

    Raises:
        ResultError: the object has no known shape, or one of its fields has the wrong
            type (the message names the field).
    """
    value = _as_json(result)
    if isinstance(value, str):
        return ExpectedReply("text", outputs=[ExpectedOutput(0, text=value)])
    if not isinstance(value, dict):
        raise ResultError(f"the result must be an object or a text, not {_kind(value)}")
    for _name, test, reader in SHAPES:
        if test(value):
            reply = reader(value)
            reply.usage_stated = any(key in value for key in _USAGE_KEYS)
            return reply
    raise ResultError(
        "the result is an object of no known shape: expected a ChatCompletion, a Responses "
        "Response, an anthropic Message, a Gemini GenerateContentResponse, a Vercel AI SDK "
        f"result, a ssescope Report, or any of: {', '.join(_FIELD_KEYS)}"
    )

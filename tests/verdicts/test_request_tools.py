"""The tools a request declared, in every provider's request shape."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ssescope.containers.request_tools import DeclaredTool, request_tools


def pairs(tools: tuple[DeclaredTool, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each tool's name and required properties."""
    return tuple((t.name, t.required) for t in tools)


_SCHEMA = {"type": "object", "properties": {"city": {}}, "required": ["city"]}

SHAPES: dict[str, dict[str, Any]] = {
    "openai-chat": {
        "tools": [{"type": "function", "function": {"name": "w", "parameters": _SCHEMA}}]
    },
    "openai-chat legacy functions": {"functions": [{"name": "w", "parameters": _SCHEMA}]},
    "openai-responses": {"tools": [{"type": "function", "name": "w", "parameters": _SCHEMA}]},
    "anthropic": {"tools": [{"name": "w", "description": "d", "input_schema": _SCHEMA}]},
    "gemini": {"tools": [{"functionDeclarations": [{"name": "w", "parameters": _SCHEMA}]}]},
    "gemini snake case": {
        "tools": [{"function_declarations": [{"name": "w", "parametersJsonSchema": _SCHEMA}]}]
    },
    "bedrock": {
        "toolConfig": {"tools": [{"toolSpec": {"name": "w", "inputSchema": {"json": _SCHEMA}}}]}
    },
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_provider_s_request_shape_gives_the_tool_and_its_required_properties(
    shape: str,
) -> None:
    body = SHAPES[shape]
    assert pairs(request_tools(body)) == (("w", ("city",)),)
    assert pairs(request_tools(json.dumps(body))) == (("w", ("city",)),)
    assert pairs(request_tools(json.dumps(body).encode())) == (("w", ("city",)),)


def test_a_tool_without_required_properties_has_none() -> None:
    body = {"tools": [{"name": "now", "input_schema": {"type": "object"}}, {"name": "x"}]}
    assert pairs(request_tools(body)) == (("now", ()), ("x", ()))


@pytest.mark.parametrize(
    "body",
    [
        None,
        "",
        "not json",
        "[1]",
        b"\xff\xfe",
        {"tools": "x"},
        {"tools": [1, None]},
        42,
        "[" * 100000,
    ],
)
def test_bodies_without_tools_give_none(body: object) -> None:
    assert pairs(request_tools(body)) == ()


def test_names_that_are_not_strings_and_required_entries_that_are_not_are_left_out() -> None:
    schema = {"required": ["a", 3, None]}
    body = {"tools": [{"name": 5, "input_schema": schema}, {"name": "t", "input_schema": schema}]}
    assert pairs(request_tools(body)) == (("t", ("a",)),)

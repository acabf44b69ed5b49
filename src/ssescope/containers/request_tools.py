"""The tools a request declared, read from its body: each one's name and required inputs.

A capture that keeps the request (an ``.ssecap`` header's ``request.body``, a HAR entry's
``request.postData``, a proxy record) tells what tools the model was offered. What the
aggregator needs of them is, per tool name, the properties its input schema requires:
a call to such a tool with empty arguments is then a warning, not just a reading
(``tool.empty-arguments-required``). Every provider's request shape is read:

* OpenAI Chat, Ollama, Cohere v2: ``tools[].function.{name, parameters}``, and Chat's
  legacy ``functions[].{name, parameters}``;
* OpenAI Responses: ``tools[].{name, parameters}`` (``type: "function"``);
* Anthropic Messages: ``tools[].{name, input_schema}``;
* Gemini: ``tools[].functionDeclarations[].{name, parameters | parametersJsonSchema}``
  (or the snake-case spellings);
* Bedrock Converse: ``toolConfig.tools[].toolSpec.{name, inputSchema.json}``.

Nothing here does I/O; a body that is not JSON, or declares no tool, gives no tools. Only
the first levels of the body are walked (no recursion), however deep it nests.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["ToolSchemas", "request_tools"]

ToolSchemas = tuple[tuple[str, tuple[str, ...]], ...]
"""``((tool name, the properties its input schema requires), ...)``, in request order."""

_BODY_LIMIT = 16 << 20  # request bodies longer than this are not read for tools


def request_tools(body: object) -> ToolSchemas:
    """The tools declared by a request body: JSON text (``str`` or ``bytes``) or the
    decoded JSON value; anything else gives none.

    Returns:
        Each declared tool's name and the names of its schema's ``required`` properties
        (empty when it requires none), in the order the request lists them.
    """
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    if isinstance(body, str):
        if len(body) > _BODY_LIMIT or ("tool" not in body and "function" not in body):
            return ()
        try:
            body = json.loads(body)
        except (ValueError, RecursionError):  # (not JSON, or nested past the stack)
            return ()
    if not isinstance(body, dict):
        return ()
    found: list[tuple[str, tuple[str, ...]]] = []
    for name, schema in _declared(body):
        if isinstance(name, str) and name:
            found.append((name, _required(schema)))
    return tuple(found)


def _declared(body: dict[str, Any]) -> list[tuple[object, object]]:
    """``(name, input schema)`` of every tool the body declares, in any provider's shape."""
    out: list[tuple[object, object]] = []
    tools = body.get("tools")
    config = body.get("toolConfig")
    if isinstance(config, dict) and isinstance(config.get("tools"), list):
        tools = config["tools"]  # Bedrock Converse
    for tool in tools if isinstance(tools, list) else []:
        if not isinstance(tool, dict):
            continue
        function = tool.get("function")
        spec = tool.get("toolSpec")
        declarations = tool.get("functionDeclarations", tool.get("function_declarations"))
        if isinstance(function, dict):  # OpenAI Chat, Ollama, Cohere v2
            out.append((function.get("name"), function.get("parameters")))
        elif isinstance(spec, dict):  # Bedrock Converse
            schema = spec.get("inputSchema")
            out.append((spec.get("name"), schema.get("json") if isinstance(schema, dict) else None))
        elif isinstance(declarations, list):  # Gemini
            for decl in declarations:
                if isinstance(decl, dict):
                    schema = decl.get("parameters", decl.get("parametersJsonSchema"))
                    out.append((decl.get("name"), schema))
        elif "input_schema" in tool:  # Anthropic Messages
            out.append((tool.get("name"), tool.get("input_schema")))
        elif "name" in tool:  # OpenAI Responses (and other flat shapes)
            out.append((tool.get("name"), tool.get("parameters")))
    functions = body.get("functions")  # Chat's legacy functions
    out.extend(
        (function.get("name"), function.get("parameters"))
        for function in (functions if isinstance(functions, list) else [])
        if isinstance(function, dict)
    )
    return out


def _required(schema: object) -> tuple[str, ...]:
    """The names in an input schema's ``required`` list (strings only)."""
    if not isinstance(schema, dict):
        return ()
    required = schema.get("required")
    if not isinstance(required, list):
        return ()
    return tuple(r for r in required if isinstance(r, str))

"""The schema a call is checked against: Gemini's OpenAPI-style schemas made JSON Schema,
and strict mode's rules made explicit.

Gemini's ``parameters`` is an OpenAPI 3 subset: type names in upper case (``"OBJECT"``,
``"STRING"``) and ``nullable: true`` instead of a ``"null"`` type. They are rewritten into
the JSON Schema they mean before checking.

OpenAI's strict mode (Structured Outputs for function calling) requires every property of
every object to be listed in ``required`` and every object to set ``additionalProperties:
false``; the platform rejects a strict schema that does not, and guarantees that the
model's arguments match it. A stream from a server that claims strict mode is therefore
checked against the schema with those two rules applied to every object, so a reply from a
gateway or a compatible server that ignored ``strict`` shows up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["from_openapi", "strict_form"]

_MAX_DEPTH = 64  # schemas nested deeper are left as they are below this depth


def from_openapi(schema: Any, depth: int = 0) -> Any:
    """Gemini's OpenAPI-style schema as JSON Schema (a new value; the input is untouched)."""
    return _rewrite(schema, depth, _OPENAPI_INNER, _openapi_node)


def strict_form(schema: Any, depth: int = 0) -> Any:
    """``schema`` with strict mode's rules made explicit on every object schema: all its
    properties required, no additional properties (a new value)."""
    return _rewrite(schema, depth, _STRICT_INNER, _strict_node)


_NAMED = ("properties", "$defs", "definitions")
"""The keys whose value maps names to schemas."""
_OPENAPI_INNER = ("items", "anyOf", "oneOf", "allOf", "not", "additionalProperties")
"""The keys whose value is a schema or a list of them, in Gemini's dialect."""
_STRICT_INNER = ("items", "anyOf", "oneOf", "allOf", "not", "prefixItems")
"""The keys whose value is a schema or a list of them, that strict mode's rules reach."""


def _rewrite(
    schema: Any,
    depth: int,
    inner: tuple[str, ...],
    node: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]],
) -> Any:
    """A copy of ``schema`` in which ``node(original, copy)`` has rewritten every schema
    object, its subschemas (under ``_NAMED`` and ``inner`` keys) rewritten first."""
    if depth > _MAX_DEPTH:
        return schema
    if isinstance(schema, list):
        return [_rewrite(s, depth + 1, inner, node) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _NAMED and isinstance(value, dict):
            out[key] = {k: _rewrite(v, depth + 1, inner, node) for k, v in value.items()}
        elif key in inner:
            out[key] = _rewrite(value, depth + 1, inner, node)
        else:
            out[key] = value
    return node(schema, out)


def _openapi_node(schema: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """Upper-case type names lowered, ``nullable: true`` made a ``"null"`` type, and the
    OpenAPI-only keys dropped."""
    if isinstance(out.get("type"), str):
        out["type"] = out["type"].lower()
    out.pop("nullable", None)
    out.pop("propertyOrdering", None)
    if schema.get("nullable") is True and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
    return out


def _strict_node(_schema: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """Every property required and no other allowed, on an object schema."""
    properties = out.get("properties")
    if isinstance(properties, dict):
        out["required"] = list(properties)
        out["additionalProperties"] = False
    return out

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

from typing import Any

__all__ = ["from_openapi", "strict_form"]

_MAX_DEPTH = 64  # schemas nested deeper are left as they are below this depth


def from_openapi(schema: Any, depth: int = 0) -> Any:
    """Gemini's OpenAPI-style schema as JSON Schema (a new value; the input is untouched)."""
    if depth > _MAX_DEPTH:
        return schema
    if isinstance(schema, list):
        return [from_openapi(s, depth + 1) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            out[key] = value.lower()
        elif key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            out[key] = {k: from_openapi(v, depth + 1) for k, v in value.items()}
        elif key in ("items", "anyOf", "oneOf", "allOf", "not", "additionalProperties"):
            out[key] = from_openapi(value, depth + 1)
        elif key in ("nullable", "propertyOrdering"):
            continue
        else:
            out[key] = value
    if schema.get("nullable") is True and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
    return out


def strict_form(schema: Any, depth: int = 0) -> Any:
    """``schema`` with strict mode's rules made explicit on every object schema: all its
    properties required, no additional properties (a new value)."""
    if depth > _MAX_DEPTH:
        return schema
    if isinstance(schema, list):
        return [strict_form(s, depth + 1) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            out[key] = {k: strict_form(v, depth + 1) for k, v in value.items()}
        elif key in ("items", "anyOf", "oneOf", "allOf", "not", "prefixItems"):
            out[key] = strict_form(value, depth + 1)
        else:
            out[key] = value
    properties = out.get("properties")
    if isinstance(properties, dict):
        out["required"] = list(properties)
        out["additionalProperties"] = False
    return out

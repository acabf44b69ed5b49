"""The parts of the check: reading the request's tools, the schema dialects, the checker."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssescope import codes
from ssescope.toolschema import DeclaredTool, ToolChecker, request_tools
from ssescope.toolschema.check import MAX_MISMATCHES, json_path
from ssescope.toolschema.dialect import from_openapi, strict_form

OBJECT: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}}


def tool(schema: dict[str, Any], **kw: Any) -> DeclaredTool:
    """A declared tool ``t`` with ``schema``."""
    return DeclaredTool("t", schema=schema, where="tools[0].input_schema", **kw)


def rules(checker: ToolChecker, value: Any, cut: bool = False) -> list[tuple[object, ...]]:
    """``(path, rule, strict)`` of each mismatch of a call of ``t``."""
    return [
        (f.args["path"], f.args["rule"], f.args["strict"])
        for f in checker.check("t", value, cut=cut)
        if f.code == codes.TOOL_SCHEMA_MISMATCH
    ]


# -- the request's tools ----------------------------------------------------------------


def test_strict_eager_and_where_are_read_from_each_shape() -> None:
    body = {
        "tools": [
            {"type": "function", "function": {"name": "a", "parameters": OBJECT, "strict": True}},
            {"type": "function", "name": "b", "parameters": OBJECT, "strict": False},
            {"name": "c", "input_schema": OBJECT, "eager_input_streaming": True},
            {"functionDeclarations": [{"name": "d", "parameters": {"type": "OBJECT"}}]},
        ]
    }
    found = {t.name: t for t in request_tools(body)}
    assert (found["a"].strict, found["a"].where) == (True, "tools[0].function.parameters")
    assert (found["b"].strict, found["b"].where) == (False, "tools[1].parameters")
    assert (found["c"].eager, found["c"].where) == (
        "eager_input_streaming",
        "tools[2].input_schema",
    )
    assert (found["d"].dialect, found["d"].where) == (
        "openapi",
        "tools[3].functionDeclarations[0].parameters",
    )
    assert found["a"].schema == OBJECT


def test_chat_s_custom_tools_are_offered_without_a_schema() -> None:
    body = {"tools": [{"type": "custom", "custom": {"name": "sql", "format": {"type": "text"}}}]}
    (declared,) = request_tools(body)
    assert (declared.name, declared.schema, declared.where) == ("sql", None, "tools[0].custom")
    assert ToolChecker([declared]).offered("sql") is None


def test_only_openai_s_strict_flag_brings_its_stricter_rules() -> None:
    body = {
        "tools": [
            {"name": "anthropic", "input_schema": OBJECT, "strict": True},
            {"type": "function", "name": "responses", "parameters": OBJECT, "strict": True},
        ]
    }
    found = {t.name: t.strict for t in request_tools(body)}
    # Anthropic's strict guarantees the schema as written: no rule is added to it
    assert found == {"anthropic": False, "responses": True}


def test_the_fine_grained_beta_header_makes_every_tool_eager() -> None:
    body = json.dumps({"tools": [{"name": "c", "input_schema": OBJECT}]})
    headers = [("Anthropic-Beta", "fine-grained-tool-streaming-2025-05-14,other")]
    (declared,) = request_tools(body, headers)
    assert declared.eager == "the fine-grained-tool-streaming beta"
    (plain,) = request_tools(body, [("anthropic-beta", "other")])
    assert plain.eager == ""


# -- the dialects -----------------------------------------------------------------------


def test_gemini_s_openapi_types_and_nullable_become_json_schema() -> None:
    schema = {
        "type": "OBJECT",
        "properties": {"n": {"type": "INTEGER", "nullable": True}, "xs": {"type": "ARRAY"}},
        "propertyOrdering": ["n", "xs"],
    }
    assert from_openapi(schema) == {
        "type": "object",
        "properties": {"n": {"type": ["integer", "null"]}, "xs": {"type": "array"}},
    }
    assert schema["type"] == "OBJECT"  # the request's own value is untouched


def test_strict_form_requires_every_property_of_every_object_and_forbids_others() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "object", "properties": {"b": {}}}, "c": {}},
        "required": ["c"],
    }
    strict = strict_form(schema)
    assert strict["required"] == ["a", "c"]
    assert strict["additionalProperties"] is False
    assert strict["properties"]["a"]["required"] == ["b"]
    assert strict["properties"]["a"]["additionalProperties"] is False
    assert schema["required"] == ["c"]


def test_json_paths_quote_keys_that_are_not_names() -> None:
    assert json_path(["a", 0, "b c", "ok_1"]) == "$.a[0]['b c'].ok_1"


# -- the checker ------------------------------------------------------------------------


def test_strict_mode_adds_only_the_mismatches_its_rules_find() -> None:
    schema = {**OBJECT, "properties": {"a": {"type": "string"}, "b": {}}}
    plain = ToolChecker([tool(schema)])
    strict = ToolChecker([tool(schema, strict=True)])
    assert rules(plain, {"a": 1, "z": 0}) == [("$.a", "type", "")]
    assert rules(strict, {"a": 1, "z": 0}) == [
        ("$", "additionalProperties", ", strict mode"),
        ("$", "required", ", strict mode"),
        ("$.a", "type", ""),
    ]


def test_a_cut_call_is_not_held_to_what_may_still_come() -> None:
    schema = {
        "type": "object",
        "properties": {
            "done": {"type": "object", "properties": {"x": {}}, "required": ["x"]},
            "mode": {"enum": ["w", "a"]},
            "open": {"type": "object", "properties": {"s": {"enum": ["yes"]}}},
        },
        "required": ["done", "mode", "open", "later"],
        "additionalProperties": False,
    }
    checker = ToolChecker([tool(schema)])
    value = {"done": {}, "mode": "x", "bad": 1, "open": {"s": "ye"}}
    assert rules(checker, value, cut=True) == [
        ("$", "additionalProperties", ""),  # "bad" arrived whole: not the cut's doing
        ("$.done", "required", ""),  # a finished object that lacks its property
        ("$.mode", "enum", ""),  # a finished value
    ]
    ended = {path for path, _, _ in rules(checker, value)}
    assert {"$", "$.open.s"} <= ended  # ended, the same call breaks those too


def test_at_most_a_few_mismatches_are_reported_and_the_last_counts_the_rest() -> None:
    schema = {"type": "object", "additionalProperties": {"type": "string"}}
    findings = ToolChecker([tool(schema)]).check("t", {f"k{i}": i for i in range(9)})
    assert len(findings) == MAX_MISMATCHES
    assert findings[-1].args["more"] == "; and 4 more mismatches"
    assert all(f.args["more"] == "" for f in findings[:-1])


def test_a_tool_without_schema_or_a_call_without_tools_is_not_checked() -> None:
    checker = ToolChecker([DeclaredTool("t")])
    assert checker.check("t", {"anything": 1}) == []
    assert checker.offered("t") is None
    offered = checker.offered("u")
    assert offered is not None and offered.args["offered"] == "'t'"
    assert ToolChecker([]).offered("u") is None  # no tools declared: nothing to compare


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "int"},
        {"$ref": "https://schemas.example/remote.json"},
        {"$ref": "#/$defs/missing"},
        {"properties": {"a": {"pattern": "("}}},
        {"$ref": "#", "properties": {"a": {"$ref": "#"}}},
    ],
)
def test_a_schema_jsonschema_cannot_use_is_reported_unchecked(schema: dict[str, Any]) -> None:
    value: Any = {"a": "x"}
    for _ in range(200):  # deep, for the schema that refers to itself: past the stack
        value = {"a": value}
    findings = ToolChecker([tool(schema)]).check("t", value)
    assert [(f.code, f.form) for f in findings] == [(codes.TOOL_SCHEMA_UNCHECKED, "bad-schema")]
    assert findings[0].args["reason"]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(
    schema=st.dictionaries(
        st.sampled_from([*sorted(OBJECT), "required", "enum", "items", "$ref", "minimum"]),
        _JSON,
        max_size=4,
    ),
    value=_JSON,
    cut=st.booleans(),
)
def test_any_schema_and_any_value_give_findings_never_an_exception(
    schema: dict[str, Any], value: Any, cut: bool
) -> None:
    for strict in (False, True):
        for finding in ToolChecker([tool(schema, strict=strict)]).check("t", value, cut=cut):
            assert finding.code in (codes.TOOL_SCHEMA_MISMATCH, codes.TOOL_SCHEMA_UNCHECKED)

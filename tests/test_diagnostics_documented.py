"""Every diagnostic code is owned by one layer, indexed once, and documented from its object."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from ssescope import codes
from ssescope.codes import (
    aggregate,
    containers_files,
    containers_http,
    framing,
    jsonrpc,
    live,
    websocket,
)
from ssescope.codes.spec import Code, declared
from ssescope.diagnostics import diagnostic
from ssescope.output.catalog import CODES, PAGES, lookup
from ssescope.providers.registry import PROVIDERS, codes_module

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "ssescope"


def owners() -> list[ModuleType]:
    """The modules that own codes: the shared layers' and each provider's."""
    found = [containers_http, containers_files, websocket, framing, aggregate, jsonrpc, live]
    found += [m for m in map(codes_module, PROVIDERS) if m is not None]
    return found


def test_every_code_object_of_an_owner_is_listed_in_its_codes_and_indexed() -> None:
    modules = owners()
    for module in modules:
        others = {c for m in modules if m is not module for c in declared(m)[0]}
        defined = {v for v in vars(module).values() if isinstance(v, Code)} - others
        assert defined == set(declared(module)[0]), module.__name__
        for code in declared(module)[0]:
            assert lookup(code.name) == code


def test_codes_are_made_only_in_the_modules_that_own_them() -> None:
    # by module name, not __file__: a compiled core's modules are .so files
    allowed = {SRC.joinpath(*m.__name__.split(".")[1:]).with_suffix(".py") for m in owners()}
    makers = (SRC / "codes" / "spec.py", SRC / "codes" / "per_provider.py")
    allowed = {p.resolve() for p in allowed} | {p.resolve() for p in makers}
    strays = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in SRC.rglob("*.py")
        if path.resolve() not in allowed
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Code", "Form")
    ]
    assert strays == []


def test_the_shared_package_exports_every_shared_code() -> None:
    for module in (containers_http, containers_files, websocket, framing, aggregate, jsonrpc, live):
        for code in module.CODES:
            name = next(k for k, v in vars(module).items() if v is code)
            assert getattr(codes, name) is code


def test_every_page_is_generated_from_the_registry() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "diagnostics_index.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout
    on_disk = {p.stem for p in (ROOT / "docs" / "diagnostics").glob("*.md")}
    assert on_disk == {p.name for p in PAGES}


def _render_with_placeholders(code: Code, form: str | None, args: set[str]) -> str:
    try:
        words: dict[str, Any] = dict.fromkeys(args, "x")
        return diagnostic(code, record=1, form=form, **words).message
    except ValueError:  # a numeric format spec: the argument is a number
        numbers: dict[str, Any] = dict.fromkeys(args, 1.5)
        return diagnostic(code, record=1, form=form, **numbers).message


def test_every_template_renders_with_its_arguments() -> None:
    for code in CODES.values():
        for form in code.forms or (None,):
            assert _render_with_placeholders(code, form, set(code.arguments()))


def test_every_form_a_layer_adds_renders_as_its_shared_code() -> None:
    forms = [f for m in owners() for f in declared(m)[1]]
    assert {f.name for f in forms if f.code.name == "provider.error"} == set(
        lookup("provider.error").forms
    )
    for form in forms:
        shared = lookup(form.code.name)
        assert form.name in shared.forms
        words: dict[str, Any] = dict.fromkeys(shared.arguments(), "x")
        d = diagnostic(form, record=1, **words)
        assert (d.code, d.form, d.severity) == (shared.name, form.name, shared.severity)


def test_content_arguments_are_arguments_of_the_template() -> None:
    for code in CODES.values():
        assert set(code.content) <= code.arguments(), code.name


def test_a_diagnostic_takes_its_severity_and_message_from_its_code() -> None:
    d = diagnostic(codes.SSE_INVALID_RETRY, 7, 2, value="1_000")
    assert d.spec is codes.SSE_INVALID_RETRY
    assert d.code == "sse.invalid-retry"
    assert d.severity == codes.SSE_INVALID_RETRY.severity == "warning"
    assert d.message.startswith("The retry field '1_000' is not")
    assert d.args == {"value": "1_000"}
    assert d.to_dict()["args"] == {"value": "1_000"}

"""docs/adding-a-provider.md is true: a throwaway provider added as the guide says works.

A copy of the source tree gets a toy NDJSON protocol, ``acme``, in a package of its own
(adapter, codes with a provider.error form, knowledge), the registry lines and a README
row, and nothing else. Then, in that copy: the docs pages are written and checked,
``inspect`` detects the provider and reports its codes, and the Report follows the
schema that ``ssescope schema`` prints.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]

PACKAGE = {
    "__init__.py": '''"""Acme: a toy NDJSON protocol, one ``{"acme": text}`` line per delta, ``{"done": true}``
at the end, ``{"error": message}`` for a failure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .adapter import AcmeAdapter

__all__ = ["AcmeAdapter"]

__getattr__ = lazy_exports(__name__, __all__)
''',
    "codes.py": '''"""The diagnostic codes documented on ``docs/diagnostics/acme.md``."""

from __future__ import annotations

from ...codes.aggregate import PROVIDER_ERROR
from ...codes.spec import Code, Form, Page

PAGE = Page("acme", "# Acme diagnostics\\n\\nCodes raised by the Acme adapter.\\n")

UNEXPECTED_JSON = Code(
    "acme.unexpected-json",
    "warning",
    "provider",
    PAGE,
    "Record {record} is not an object: {obj!q}.",
    "- **Means:** a line is JSON but not an object.\\n- **Example:** `[1]`\\n- **What to do:** fix the server.\\n",
    content=("obj",),
)

MISSING_DONE = Code(
    "acme.missing-done",
    "warning",
    "provider",
    PAGE,
    "The stream ended without a done line.",
    "- **Means:** no `done` line.\\n- **Example:** `{\\"acme\\":\\"Hi\\"}`\\n- **What to do:** retry.\\n",
)

EMPTY_DELTA = Code(
    "acme.empty-delta",
    "info",
    "provider",
    PAGE,
    "Record {record} carries an empty delta.",
    "- **Means:** an empty text.\\n- **Example:** `{\\"acme\\":\\"\\"}`\\n- **What to do:** nothing.\\n",
)

ERROR = Form(PROVIDER_ERROR, "acme", "Acme reported an error: {text!q:200}.")
''',
    "adapter.py": '''"""The AcmeAdapter (see the package docstring)."""

from __future__ import annotations

from typing import ClassVar

from ...events import JSON, Finish, TextDelta
from ...framing.records import DataRecord
from .._base import AdapterBase, AdapterOutput, diag, provider_error
from . import codes

__all__ = ["AcmeAdapter"]


class AcmeAdapter(AdapterBase):
    """Adapter for the Acme stream."""

    name: ClassVar[str] = "acme"

    def __init__(self, framing: str) -> None:
        super().__init__(framing, codes.UNEXPECTED_JSON)

    def _feed_object(
        self, obj: dict[str, JSON], record: DataRecord, out: list[AdapterOutput]
    ) -> None:
        """Map one line to events and diagnostics."""
        if not self._started:
            self._response_start(record, out)
        if "error" in obj:
            text = str(obj["error"])
            provider_error(record, out, text, None, None, obj, form=codes.ERROR, text=text)
            self._response_end(record, out, "failed", "error")
        elif obj.get("done") is True:
            out.append(Finish(record.index, 0, "stop", "done"))
            self._response_end(record, out, "completed", "done")
        elif isinstance(obj.get("acme"), str):
            if not obj["acme"]:
                out.append(diag(codes.EMPTY_DELTA, record))
            out.append(TextDelta(record.index, 0, str(obj["acme"])))

    def _unfinished(self) -> list[AdapterOutput]:
        """End of stream: the missing done line."""
        return self._unended(codes.MISSING_DONE)
''',
    "knowledge.py": '''"""What ssescope knows about Acme streams outside the adapter."""

from __future__ import annotations

from .._knowledge import DetectRule, ErrorFrame, Knowledge, Probe

__all__ = ["KNOWLEDGE"]


def _acme_line(probe: Probe) -> str | None:
    if probe.obj is not None and "acme" in probe.obj:
        return "a JSON object with 'acme' (Acme)"
    return None


KNOWLEDGE = Knowledge(
    name="acme",
    adapter="adapter:AcmeAdapter",
    rules=(DetectRule(125, _acme_line),),
    error_frame=ErrorFrame(None, {"error": "boom"}),
)
"""The registry's entry for Acme."""
''',
}

STREAM = b'{"acme": "Hel"}\n[1]\n{"acme": ""}\n{"acme": "lo"}\n{"error": "overloaded"}\n'


def _add_acme(tree: Path) -> list[str]:
    """Add the provider as the guide says; the files touched outside its package."""
    package = tree / "src" / "ssescope" / "providers" / "acme"
    package.mkdir()
    for name, text in PACKAGE.items():
        (package / name).write_text(text, encoding="utf-8")
    registry = tree / "src" / "ssescope" / "providers" / "registry.py"
    text = registry.read_text(encoding="utf-8")
    for old, new in (
        ('    "unknown",\n]', '    "acme",\n    "unknown",\n]'),
        ('    "unknown": "unknown",\n}', '    "acme": "acme",\n    "unknown": "unknown",\n}'),
    ):
        assert old in text, old
        text = text.replace(old, new)
    registry.write_text(text, encoding="utf-8")
    readme = tree / "README.md"
    lines = readme.read_text(encoding="utf-8").splitlines(keepends=True)
    table = next(i for i, line in enumerate(lines) if line.startswith("| provider |"))
    lines.insert(table + 2, "| Acme | NDJSON |\n")
    readme.write_text("".join(lines), encoding="utf-8")
    return ["README.md", "src/ssescope/providers/registry.py"]


def _run(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # The copy is not the code under test: a coverage run of the suite (which measures
    # subprocesses through these variables) must not measure it as a second ssescope.
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}
    env["PYTHONPATH"] = str(tree / "src")
    return subprocess.run(
        [sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("with-acme")
    shutil.copytree(
        ROOT / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    shutil.copytree(ROOT / "scripts", root / "scripts")
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copy(ROOT / "README.md", root / "README.md")
    assert _add_acme(root) == ["README.md", "src/ssescope/providers/registry.py"]
    (root / "acme.ndjson").write_bytes(STREAM)
    return root


def test_the_docs_of_the_new_codes_are_written_and_then_up_to_date(tree: Path) -> None:
    assert _run(tree, "scripts/diagnostics_index.py", "--check").returncode != 0
    assert _run(tree, "scripts/diagnostics_index.py").returncode == 0
    checked = _run(tree, "scripts/diagnostics_index.py", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    page = (tree / "docs" / "diagnostics" / "acme.md").read_text(encoding="utf-8")
    assert "### `acme.unexpected-json`" in page
    assert "`acme`: `Acme reported an error: {text!q:200}.`" in (
        tree / "docs" / "diagnostics" / "aggregate.md"
    ).read_text(encoding="utf-8")


def test_inspect_detects_the_new_provider_and_reports_its_codes(tree: Path) -> None:
    result = _run(tree, "-m", "ssescope", "inspect", "--json", "acme.ndjson")
    assert result.returncode == 4, result.stderr  # the stream reported an error
    report = json.loads(result.stdout)
    assert (report["provider"], report["status"]) == ("acme", "failed")
    assert report["outputs"][0]["text"] == "Hello"
    assert [(d["code"], d.get("form")) for d in report["diagnostics"]] == [
        ("acme.unexpected-json", None),
        ("acme.empty-delta", None),
        ("provider.error", "acme"),
    ]
    assert report["records"]["invalid"] == 0


def test_the_report_of_the_new_provider_follows_the_printed_schema(tree: Path) -> None:
    schema = json.loads(_run(tree, "-m", "ssescope", "schema").stdout)
    assert "acme" in schema["properties"]["provider"]["enum"]
    for args in (("--provider", "acme"), ("--redact",)):
        result = _run(tree, "-m", "ssescope", "inspect", "--json", *args, "acme.ndjson")
        report = json.loads(result.stdout)
        jsonschema.Draft202012Validator(schema).validate(report)
    assert "[1]" not in result.stdout  # --redact found the content argument by the code's name

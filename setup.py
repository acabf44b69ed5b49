"""Build script: the core compiled by mypyc where it can be, pure Python where it cannot.

The same typed modules are the only source. A wheel build (``python -m build``) or a
non-editable install (``pip install .``) compiles the core listed in ``core_modules()`` with
mypyc into C extensions that sit next to the ``.py`` files (Python imports the extension
first). The build stays pure Python, with identical behaviour, when:

* ``SSESCOPE_PURE=1`` is set at build time;
* the install is editable (``pip install -e .``), so an edit takes effect without a rebuild;
* no C compiler or no Python headers are found, or mypyc is not importable;
* compiling fails for any other reason (the build says so and installs the pure core).

``ssescope --version`` and ``ssescope.CORE`` say which core is running.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
# Packages compiled whole (their package __init__ modules stay Python: they only re-export)
# and single modules compiled too.
CORE_PACKAGES = ("framing", "providers", "aggregate")
CORE_MODULES = (
    "events.py",
    "pipeline.py",
    "exchange_verdicts.py",
    "diagnostics.py",
    "limits.py",
    "output/strictjson.py",
)
# A provider's codes module is data: it stays Python, like the shared codes in codes/.
DATA_MODULES = ("__init__.py", "codes.py")
# Commands that produce an installed or packed build; metadata steps (egg_info, dist_info,
# sdist) and editable wheels never compile.
BUILDING = {"bdist_wheel", "build", "build_ext", "install"}


def core_modules() -> list[str]:
    """The source files mypyc compiles, relative to the project root."""
    package = Path("src", "ssescope")
    files = [str(package / name) for name in CORE_MODULES]
    for sub in CORE_PACKAGES:
        paths = sorted((ROOT / package / sub).rglob("*.py"))
        files.extend(str(p.relative_to(ROOT)) for p in paths if p.name not in DATA_MODULES)
    return files


def why_pure() -> str | None:
    """Why this build installs the pure core, or None when it compiles."""
    if os.environ.get("SSESCOPE_PURE", "").strip() not in ("", "0"):
        return "SSESCOPE_PURE is set"
    commands = set(sys.argv[1:])
    if "editable_wheel" in commands or not commands & BUILDING:
        return "editable or metadata-only build"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if os.environ.get("CC"):
        cc = os.environ["CC"].split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}) found"
    include = sysconfig.get_paths().get("include", "")
    if not Path(include, "Python.h").is_file():
        return f"no Python headers in {include}"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    return None


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to the pure core when compiling fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compiler failure means: ship pure
            print(f"ssescope: compiling the core failed ({exc}); installing the pure core")
            self.extensions = []
            self.distribution.ext_modules = []


def docstrings(files: list[str]) -> dict[str, dict[str, str]]:
    """The module and class docstrings of the compiled modules, which compiled modules lose:
    ``{module: {"": module doc, class name: class doc}}`` (``ssescope.core_build`` puts them back)."""
    table: dict[str, dict[str, str]] = {}
    for file in files:
        tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
        name = ".".join(Path(file).relative_to("src").with_suffix("").parts)
        docs = {"": ast.get_docstring(tree, clean=False) or ""}
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                docs[node.name] = ast.get_docstring(node) or ""
        table[name] = docs
    return table


class BuildPyWithDocs(build_py):
    """``build_py`` that ships the docstring table next to a compiled core."""

    def run(self) -> None:
        super().run()
        if self.distribution.ext_modules:
            target = Path(self.build_lib, "ssescope", "_docstrings.json")
            target.write_text(json.dumps(docstrings(core_modules())), encoding="utf-8")


def extensions() -> list[Any]:
    """The mypyc extensions, or none for a pure build."""
    reason = why_pure()
    if reason is not None:
        print(f"ssescope: building the pure core ({reason})")
        return []
    from mypyc.build import mypycify

    print("ssescope: compiling the core with mypyc")
    os.chdir(ROOT)
    try:
        return list(mypycify(core_modules(), opt_level="3", multi_file=True))
    except (Exception, SystemExit) as exc:  # mypyc refused a module: ship pure
        print(f"ssescope: mypyc could not compile the core ({exc}); installing the pure core")
        return []


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithDocs},
)

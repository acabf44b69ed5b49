"""A pytest plugin: every diagnostic the library makes during the run is checked.

While the tests run, every :class:`~ssescope.diagnostics.Diagnostic` the library emits is
recorded (its emitter, the first caller outside the builders of ``ssescope.diagnostics``, is
library code: a test that builds a diagnostic itself does not count). At the end of the session:

* a diagnostic whose code is not in the registry, whose severity differs from the
  registry's, or that was built by hand with a message instead of through the registry
  (no ``args``) fails the run, whatever tests ran;
* when the whole suite ran (every test file collected, nothing deselected, every test
  run), a registered code that no test made fails the run too.

The emitter is found from Python frames, which the compiled core does not make: against it
(``ssescope.CORE == "mypyc"``) the plugin stands aside, and the pure core's run enforces it.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from ssescope import CORE
from ssescope.codes import CODES
from ssescope.diagnostics import Diagnostic

TESTS = Path(__file__).resolve().parent
LIBRARY = str(Path(sys.modules["ssescope"].__file__ or "").resolve().parent)
BUILDERS = str(Path(sys.modules["ssescope.diagnostics"].__file__ or "").resolve())

seen: Counter[str] = Counter()
misbuilt: dict[str, str] = {}


def problems(emitted: Iterable[str], wrong: dict[str, str], *, whole_suite: bool) -> list[str]:
    """What is wrong, as lines: unregistered or misbuilt diagnostics, and (for a whole
    suite) registered codes that were never made."""
    out = [f"{code}: {why}" for code, why in sorted(wrong.items())]
    codes = set(emitted)
    out += [
        f"{code}: emitted but not registered in ssescope.codes"
        for code in sorted(codes - set(CODES))
    ]
    if whole_suite:
        out += [f"{code}: registered but no test made it" for code in sorted(set(CODES) - codes)]
    return out


def _record(d: Diagnostic, caller: str, line: int) -> None:
    seen[d.code] += 1
    spec = CODES.get(d.code)
    if spec is None:
        return
    if d.args is None:
        misbuilt.setdefault(d.code, f"built by hand with a message at {caller}:{line}")
    elif d.severity != spec.severity:
        misbuilt.setdefault(d.code, f"severity {d.severity}, registered as {spec.severity}")


def _wrap(init: Callable[..., None]) -> Callable[..., None]:
    def __init__(self: Diagnostic, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        # the emitter: the first caller outside the builders of ssescope.diagnostics (a
        # test that builds a diagnostic itself is not the library emitting it)
        frame = sys._getframe(1)
        while frame.f_back is not None and frame.f_code.co_filename == BUILDERS:
            frame = frame.f_back
        caller = frame.f_code.co_filename
        if caller.startswith(LIBRARY):
            _record(self, caller, frame.f_lineno)

    return __init__


class _Run:
    def __init__(self) -> None:
        self.whole = False
        self.expected = 0
        self.ran = 0


_run = _Run()


def pytest_configure(config: pytest.Config) -> None:
    if CORE != "pure":
        return
    Diagnostic.__init__ = _wrap(Diagnostic.__init__)  # type: ignore[method-assign]


def pytest_collection_finish(session: pytest.Session) -> None:
    files = {Path(str(item.fspath)).resolve() for item in session.items}
    every = {p.resolve() for p in TESTS.rglob("test_*.py")}
    opt = session.config.option
    _run.whole = every <= files and not opt.keyword and not opt.markexpr and not opt.deselect
    _run.expected = len(session.items)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "teardown":
        _run.ran += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if CORE != "pure":
        return
    whole = _run.whole and _run.ran == _run.expected and exitstatus == 0
    found = problems(seen, misbuilt, whole_suite=whole)
    if not found:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "diagnostic registry", red=True)
        for line in found:
            reporter.write_line(line)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED

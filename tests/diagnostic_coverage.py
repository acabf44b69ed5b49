"""A pytest plugin: every diagnostic the library makes during the run is checked.

While the tests run, every :class:`~ssescope.diagnostics.Diagnostic` the library emits is
recorded (its emitter, the first caller outside the builders of ``ssescope.diagnostics``, is
library code: a test that builds a diagnostic itself does not count). At the end of the session:

* a diagnostic whose code is in no layer's ``CODES`` (so neither documented nor in the
  index), or that was built by hand with a message instead of from its code's template
  (no ``args``) fails the run, whatever tests ran;
* when the whole suite ran (every test file collected, nothing deselected, every test
  run), a registered code that no test made fails the run too.

Under pytest-xdist each worker records what its own tests emit and hands it to the
controller (``workeroutput``), which checks the union once all workers are done: the whole
suite counts as run when every worker collected all of it and the controller saw every test
end.

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
from ssescope.diagnostics import Diagnostic
from ssescope.output.catalog import CODES

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
        f"{code}: emitted but in no layer's codes (ssescope.output.catalog)"
        for code in sorted(codes - set(CODES))
    ]
    if whole_suite:
        out += [f"{code}: registered but no test made it" for code in sorted(set(CODES) - codes)]
    return out


def _record(d: Diagnostic, caller: str, line: int) -> None:
    seen[d.code] += 1
    if d.code in CODES and d.args is None:
        misbuilt.setdefault(d.code, f"built by hand with a message at {caller}:{line}")


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
        self.workers = 0


_run = _Run()


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


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


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object | None) -> None:
    """(xdist controller) Add what a finished worker saw to the union."""
    out = getattr(node, "workeroutput", None) or {}
    if "diagnostics_seen" not in out:
        _run.whole = False  # a worker that died tells nothing: not a whole run
        _run.workers += 1
        return
    seen.update(out["diagnostics_seen"])
    for code, why in out["diagnostics_misbuilt"].items():
        misbuilt.setdefault(code, why)
    whole = bool(out["diagnostics_whole"])
    _run.whole = whole if _run.workers == 0 else _run.whole and whole
    _run.expected = int(out["diagnostics_expected"])
    _run.workers += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if CORE != "pure":
        return
    config = session.config
    if _is_worker(config):
        # the controller checks the union of all workers once they are done
        output: dict[str, Any] = config.workeroutput  # type: ignore[attr-defined]
        output["diagnostics_seen"] = dict(seen)
        output["diagnostics_misbuilt"] = dict(misbuilt)
        output["diagnostics_whole"] = _run.whole
        output["diagnostics_expected"] = _run.expected
        return
    whole = _run.whole and _run.ran == _run.expected and exitstatus == 0
    found = problems(seen, misbuilt, whole_suite=whole)
    if not found:
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "diagnostic registry", red=True)
        for line in found:
            reporter.write_line(line)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED

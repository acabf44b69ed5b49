"""The registry check of tests/diagnostic_coverage.py reports what it must."""

from __future__ import annotations

from ssescope import codes
from ssescope.diagnostics import Diagnostic, diagnostic
from ssescope.output.catalog import CODES
from tests import diagnostic_coverage as coverage


def test_an_unregistered_code_is_reported_in_any_run() -> None:
    found = coverage.problems(["sse.invalid-retry", "sse.no-such-code"], {}, whole_suite=False)
    assert found == ["sse.no-such-code: emitted but in no layer's codes (ssescope.output.catalog)"]


def test_a_code_no_test_made_is_reported_only_for_the_whole_suite() -> None:
    every_but_one = list(CODES)[1:]
    assert coverage.problems(every_but_one, {}, whole_suite=False) == []
    found = coverage.problems(every_but_one, {}, whole_suite=True)
    assert found == [f"{next(iter(CODES))}: registered but no test made it"]
    assert coverage.problems(list(CODES), {}, whole_suite=True) == []


def test_a_diagnostic_built_by_hand_is_reported() -> None:
    wrong: dict[str, str] = {}
    saved = dict(coverage.misbuilt)
    try:
        coverage.misbuilt.clear()
        coverage._record(Diagnostic(codes.SSE_INVALID_RETRY, "by hand"), "x.py", 3)
        coverage._record(diagnostic(codes.SSE_UNKNOWN_FIELD, line="a", field="b"), "x.py", 5)
        wrong = dict(coverage.misbuilt)
    finally:
        coverage.misbuilt.clear()
        coverage.misbuilt.update(saved)
    assert wrong == {"sse.invalid-retry": "built by hand with a message at x.py:3"}
    assert coverage.problems([], wrong, whole_suite=False) == [
        "sse.invalid-retry: built by hand with a message at x.py:3"
    ]


class _Worker:
    """What an xdist worker hands its controller when it ends."""

    def __init__(self, **output: object) -> None:
        self.workeroutput = output


def test_under_xdist_the_controller_checks_the_union_of_what_every_worker_made() -> None:
    codes = list(CODES)
    saved = (dict(coverage.seen), dict(coverage.misbuilt), dict(vars(coverage._run)))
    try:
        coverage.seen.clear()
        coverage.misbuilt.clear()
        coverage._run.__init__()  # type: ignore[misc]
        half = len(codes) // 2
        for part in (codes[:half], codes[half:]):
            coverage.pytest_testnodedown(
                _Worker(
                    diagnostics_seen=dict.fromkeys(part, 1),
                    diagnostics_misbuilt={},
                    diagnostics_whole=True,
                    diagnostics_expected=7,
                ),
                None,
            )
        union = (set(coverage.seen), coverage._run.whole, coverage._run.expected)
        coverage.pytest_testnodedown(_Worker(), "crashed")  # a worker that died
        after_a_crash = coverage._run.whole
    finally:
        coverage.seen.clear()
        coverage.seen.update(saved[0])
        coverage.misbuilt.clear()
        coverage.misbuilt.update(saved[1])
        vars(coverage._run).update(saved[2])
    assert union == (set(codes), True, 7)
    assert coverage.problems(union[0], {}, whole_suite=union[1]) == []
    assert coverage.problems(codes[:half], {}, whole_suite=True) != []
    assert after_a_crash is False

"""Run every check over a set of exchanges and gather one result per check."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .exchange import Exchange
from .registry import Check, Evidence, Verdict

__all__ = ["CheckResult", "ConformResult", "run_checks"]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check over every exchange: ``fail`` if any failed, ``pass`` if any passed and
    none failed, ``skip`` if it applied to none.

    Attributes:
        check: the check.
        verdict: its verdict over the exchanges.
        evidence: the evidence of every failure.
        judged: how many exchanges it judged (not skipped).
        reason: why it was skipped, when it was.
    """

    check: Check
    verdict: Verdict
    evidence: tuple[Evidence, ...] = ()
    judged: int = 0
    reason: str = ""

    def to_dict(self) -> dict[str, object]:
        """Return the JSON form."""
        return {
            "id": self.check.id,
            "severity": self.check.severity,
            "title": self.check.title,
            "rule": self.check.rule,
            "source": self.check.source,
            "verdict": self.verdict,
            "judged": self.judged,
            "reason": self.reason,
            "evidence": [e.to_dict() for e in self.evidence],
        }


@dataclass(frozen=True, slots=True)
class ConformResult:
    """The battery's result: one :class:`CheckResult` per check, in registry order."""

    checks: tuple[CheckResult, ...]
    exchanges: int

    @property
    def ok(self) -> bool:
        """Whether every MUST holds."""
        return not any(r.verdict == "fail" and r.check.severity == "MUST" for r in self.checks)

    def failed(self, severity: str | None = None) -> list[CheckResult]:
        """The failed checks (of one severity, if given)."""
        return [
            r
            for r in self.checks
            if r.verdict == "fail" and (severity is None or r.check.severity == severity)
        ]

    def result(self, check_id: str) -> CheckResult:
        """The result of the check called ``check_id``."""
        for r in self.checks:
            if r.check.id == check_id:
                return r
        raise KeyError(check_id)


def _one(check: Check, exchanges: Sequence[Exchange]) -> CheckResult:
    evidence: list[Evidence] = []
    judged = 0
    reasons: list[str] = []
    failed = False
    for exchange in exchanges:
        outcome = check.run(exchange)
        if outcome.verdict == "skip":
            reasons.append(outcome.reason)
            continue
        judged += 1
        if outcome.verdict == "fail":
            failed = True
            evidence.extend(outcome.evidence)
    if failed:
        return CheckResult(check, "fail", tuple(evidence), judged)
    if judged:
        return CheckResult(check, "pass", (), judged)
    reason = reasons[0] if reasons else "no exchange to judge"
    return CheckResult(check, "skip", (), 0, reason)


def run_checks(
    exchanges: Iterable[Exchange], checks: Iterable[Check] | None = None
) -> ConformResult:
    """Judge ``exchanges`` with ``checks`` (default: every registered check)."""
    from . import CHECKS

    listed = list(exchanges)
    chosen = CHECKS if checks is None else tuple(checks)
    return ConformResult(tuple(_one(c, listed) for c in chosen), len(listed))

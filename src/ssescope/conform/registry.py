"""The conformance checks' registry: one :class:`Check` per rule, each with a stable id.

A check judges one :class:`~ssescope.conform.exchange.Exchange` (a Report and what the
capture knew of its HTTP exchange) and says whether it holds, with evidence when it does
not, or that it does not apply. Checks never parse anything: they read the Report the one
engine built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from ..fieldform import field_dict
from ..output.visible import visible
from .exchange import Exchange

__all__ = ["Check", "Evidence", "Outcome", "Severity", "Verdict", "register", "registered"]

Severity = Literal["MUST", "SHOULD"]
"""How binding a check is: a failed MUST fails the run; a failed SHOULD is reported."""

Verdict = Literal["pass", "fail", "skip"]
"""What a check found for one exchange."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a check saw the rule broken.

    Attributes:
        exchange: the exchange's name (file, and entry when the capture holds several).
        record: the record index, when known.
        offset: the byte offset in the body, when known.
        excerpt: a short quote of what broke the rule.
    """

    exchange: str
    record: int | None = None
    offset: int | None = None
    excerpt: str = ""

    @property
    def where(self) -> str:
        """The exchange, with the record and offset when known: ``"a.sse (record 3)"``."""
        parts = [
            part
            for part in (
                None if self.record is None else f"record {self.record}",
                None if self.offset is None else f"offset {self.offset}",
            )
            if part
        ]
        shown = visible(self.exchange)
        return f"{shown} ({', '.join(parts)})" if parts else shown

    def to_dict(self) -> dict[str, object]:
        """Return the JSON form."""
        return field_dict(self)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One check's finding on one exchange: ``pass``, ``fail`` (with evidence) or ``skip``."""

    verdict: Verdict
    evidence: tuple[Evidence, ...] = ()
    reason: str = ""


Judge = Callable[[Exchange], Outcome]
"""A check's judgement of one exchange."""


@dataclass(frozen=True, slots=True)
class Check:
    """One conformance rule.

    Attributes:
        id: stable dotted identifier, e.g. ``"terminal.agrees-with-status"``.
        severity: ``MUST`` or ``SHOULD``.
        title: a short line for the table.
        rule: the rule, as a full sentence.
        source: a link to the spec or reference client behaviour the rule comes from.
        judge: the function judging one exchange.
        protocols: the providers the check applies to (empty: every provider).
        any_stream: whether the check also judges a stream of no recognised LLM
            protocol (an agent protocol, plain events); most checks do not.
        needs_case: whether the check judges what only URL mode knows of its requests
            (that one was valid, or hung up on): it skips recorded exchanges.
        needs_request: whether the check judges what the request asked for, as URL
            mode's case states it or a capture's recorded request says it (it skips a
            capture without its request). The checks that need neither skip the stream
            the client hung up on.
    """

    id: str
    severity: Severity
    title: str
    rule: str
    source: str
    judge: Judge = field(compare=False, repr=False)
    protocols: frozenset[str] = frozenset()
    any_stream: bool = False
    needs_case: bool = False
    needs_request: bool = False

    def applies_to(self, exchange: Exchange) -> bool:
        """Whether the check concerns this exchange's protocol."""
        provider = exchange.provider
        if provider == "unknown" and not self.any_stream:
            return False
        return not self.protocols or provider in self.protocols

    def run(self, exchange: Exchange) -> Outcome:
        """Judge ``exchange`` (``skip`` when the check does not concern its protocol)."""
        case = exchange.case
        if case is not None and case.expect.hangup and not (self.needs_case or self.needs_request):
            return Outcome("skip", reason="the client hung up on purpose")
        if not self.applies_to(exchange):
            if not self.protocols:
                return Outcome("skip", reason="not a stream of a known LLM protocol")
            return Outcome("skip", reason=f"not a {'/'.join(sorted(self.protocols))} stream")
        return self.judge(exchange)


_CHECKS: dict[str, Check] = {}


def register(checks: Iterable[Check]) -> None:
    """Add checks to the registry (an id may be registered once)."""
    for check in checks:
        if check.id in _CHECKS:
            raise ValueError(f"conformance check {check.id!r} registered twice")
        _CHECKS[check.id] = check


def registered() -> tuple[Check, ...]:
    """Every registered check, in registration order."""
    return tuple(_CHECKS.values())

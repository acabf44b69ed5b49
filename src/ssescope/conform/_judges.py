"""Building blocks for checks: judging by the engine's diagnostics, and by headers."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..output.visible import visible
from .exchange import Exchange
from .registry import Check, Evidence, Judge, Outcome, Severity

__all__ = [
    "EXCERPT",
    "MAX_EVIDENCE",
    "by_codes",
    "by_codes_when_asked",
    "check",
    "evidence_at",
    "needs_headers",
    "passed",
    "skipped",
]

EXCERPT = 160
"""The longest excerpt a piece of evidence quotes."""
MAX_EVIDENCE = 5
"""The most pieces of evidence one check keeps per exchange."""

PASS = Outcome("pass")


def passed() -> Outcome:
    """The rule holds."""
    return PASS


def skipped(reason: str) -> Outcome:
    """The rule does not apply, and why."""
    return Outcome("skip", reason=reason)


def evidence_at(
    exchange: Exchange, excerpt: str, record: int | None = None, offset: int | None = None
) -> Evidence:
    """Evidence in ``exchange``, its excerpt made visible and cut to :data:`EXCERPT`."""
    text = visible(excerpt)
    if len(text) > EXCERPT:
        text = text[: EXCERPT - 1] + "…"
    return Evidence(exchange.name, record, offset, text)


def by_codes(codes: Iterable[str]) -> Judge:
    """A judge failing an exchange whose Report carries any of ``codes``."""
    wanted = frozenset(codes)

    def judge(exchange: Exchange) -> Outcome:
        found = [d for d in exchange.report.diagnostics if d.code in wanted]
        if not found:
            return PASS
        return Outcome(
            "fail",
            tuple(
                evidence_at(exchange, f"{d.code}: {d.message}", d.record, d.offset)
                for d in found[:MAX_EVIDENCE]
            ),
        )

    return judge


def by_codes_when_asked(codes: Iterable[str], asked: str, why: str) -> Judge:
    """:func:`by_codes`, skipped (``why``) when the request did not ask for what the codes
    miss: its expectation's ``asked`` field (``usage``, ``stream``) is ``False``."""
    judge = by_codes(codes)

    def when_asked(exchange: Exchange) -> Outcome:
        expect = exchange.expect
        if expect is not None and getattr(expect, asked) is False:
            return skipped(why)
        return judge(exchange)

    return when_asked


def check(
    id: str,
    severity: Severity,
    title: str,
    rule: str,
    source: str,
    judge: Judge | Iterable[str],
    protocols: Iterable[str] = (),
    *,
    any_stream: bool = False,
    needs_case: bool = False,
    needs_request: bool = False,
) -> Check:
    """A :class:`Check`; ``judge`` may be a judge or the diagnostic codes that break the rule."""
    if not callable(judge):
        judge = by_codes(judge)
    return Check(
        id,
        severity,
        title,
        rule,
        source,
        judge,
        frozenset(protocols),
        any_stream,
        needs_case,
        needs_request,
    )


def needs_headers(judge: Callable[[Exchange], Outcome]) -> Judge:
    """Skip ``judge`` on an exchange whose capture did not record response headers."""

    def wrapped(exchange: Exchange) -> Outcome:
        if not exchange.has_headers:
            return skipped("the capture holds no response headers")
        return judge(exchange)

    return wrapped

"""``ssescope conform``: a pass/fail battery of conformance checks on recorded exchanges.

Each check (:class:`Check`) has a stable id, a severity (MUST or SHOULD), its rule and the
link it comes from; it judges the Report the one engine built of each exchange, with the
headers and request the capture recorded (:class:`Exchange`).
"""

from __future__ import annotations

from . import checks_http, checks_request, checks_schema, checks_stream, checks_tools
from .captures import exchanges_of
from .cases import PROTOCOLS, Case, Expectation, cases_for
from .exchange import Exchange, UpstreamView
from .registry import Check, Evidence, Outcome, Severity, Verdict, register, registered
from .runner import CheckResult, ConformResult, run_checks

__all__ = [
    "CHECKS",
    "PROTOCOLS",
    "Case",
    "Check",
    "CheckResult",
    "ConformResult",
    "Evidence",
    "Exchange",
    "Expectation",
    "Outcome",
    "Severity",
    "UpstreamView",
    "Verdict",
    "cases_for",
    "exchanges_of",
    "run_checks",
]

register(
    (
        *checks_stream.CHECKS,
        *checks_tools.CHECKS,
        *checks_schema.CHECKS,
        *checks_http.CHECKS,
        *checks_request.CHECKS,
    )
)

CHECKS: tuple[Check, ...] = registered()
"""Every conformance check, in the order the table and docs list them."""

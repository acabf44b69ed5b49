"""``ssescope conform``: a pass/fail battery of conformance checks on recorded exchanges.

Each check (:class:`Check`) has a stable id, a severity (MUST or SHOULD), its rule and the
link it comes from; it judges the Report the one engine built of each exchange, with the
headers and request the capture recorded (:class:`Exchange`).
"""

from __future__ import annotations

from . import checks_http, checks_schema, checks_stream, checks_tools
from .captures import exchanges_of
from .exchange import Exchange
from .registry import Check, Evidence, Outcome, Severity, Verdict, register, registered
from .runner import CheckResult, ConformResult, run_checks

__all__ = [
    "CHECKS",
    "Check",
    "CheckResult",
    "ConformResult",
    "Evidence",
    "Exchange",
    "Outcome",
    "Severity",
    "Verdict",
    "exchanges_of",
    "run_checks",
]

register((*checks_stream.CHECKS, *checks_tools.CHECKS, *checks_schema.CHECKS, *checks_http.CHECKS))

CHECKS: tuple[Check, ...] = registered()
"""Every conformance check, in the order the table and docs list them."""

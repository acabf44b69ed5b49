"""``--redact``: the CLI's name for :mod:`ssescope.redaction`."""

from __future__ import annotations

from ..redaction import redact_diagnostic, redact_report, redacted

__all__ = ["redact_diagnostic", "redact_report", "redacted"]

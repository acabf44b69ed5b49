"""The replay server: serve captured streams over HTTP with chunking, delays and faults."""

from __future__ import annotations

from .faults import Fault, FaultPlan, apply_faults, parse_fault, schedule

__all__ = ["Fault", "FaultPlan", "apply_faults", "parse_fault", "schedule"]

"""Plugins for the whole suite."""

from __future__ import annotations

pytest_plugins = ["tests.diagnostic_coverage"]

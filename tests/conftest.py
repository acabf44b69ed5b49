"""Plugins for the whole suite.

The diagnostic registry's coverage check always runs. The ssescope pytest plugin is loaded
from this tree when no installed copy declares it: an install with the ``pytest`` or
``test`` extra registers it through its ``pytest11`` entry point, a copy installed before
the entry point existed does not.
"""

from __future__ import annotations

from importlib.metadata import entry_points

pytest_plugins = ["tests.diagnostic_coverage"]
if not any(ep.value == "ssescope.testing.plugin" for ep in entry_points(group="pytest11")):
    pytest_plugins.append("ssescope.testing.plugin")

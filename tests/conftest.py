"""Load the ssescope pytest plugin from this tree when no installed copy declares it.

An install of ssescope with the ``pytest`` or ``test`` extra registers the plugin through
its ``pytest11`` entry point; a copy installed before the entry point existed does not.
"""

from __future__ import annotations

from importlib.metadata import entry_points

if not any(ep.value == "ssescope.testing.plugin" for ep in entry_points(group="pytest11")):
    pytest_plugins = ["ssescope.testing.plugin"]

"""Every real captured stream gives the facts its EXPECTED.json entry states.

The captures live outside the project (``$SSESCOPE_REAL_STREAMS``, by default
``../shared/real_streams`` next to the repository). Where EXPECTED lists
``alternatives`` (other accepted values for one path) or ``variants`` (other complete
readings), any listed reading is right; ``tests/providers/oracle.py`` holds that check,
which the provider tests share. Where ssescope's reading departs from EXPECTED on purpose,
``tests/providers/departures.py`` says so and why.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import ssescope
from tests.providers.departures import depart
from tests.providers.oracle import expected_problems

ROOT = Path(__file__).resolve().parents[1]
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))

if not (STREAMS / "EXPECTED.json").is_file():
    pytest.skip(
        f"the real captured streams are not at {STREAMS} (set SSESCOPE_REAL_STREAMS)",
        allow_module_level=True,
    )

EXPECTED: dict[str, dict[str, Any]] = {
    name: depart(name, entry)
    for name, entry in json.loads((STREAMS / "EXPECTED.json").read_text()).items()
}
"""EXPECTED.json, with the documented departures applied (``tests/providers/departures.py``)."""


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_report_of_a_real_stream_agrees_with_expected(name: str) -> None:
    report = ssescope.inspect(STREAMS / name)
    problems = expected_problems(report.to_dict(), EXPECTED[name])
    assert not problems, "\n".join(problems)


def test_every_real_stream_is_listed_in_expected() -> None:
    # agent/ holds the agent-protocol streams, whose verdicts their own README gives
    files = {
        str(p.relative_to(STREAMS))
        for p in STREAMS.rglob("*")
        if p.is_file()
        and p.name not in ("README.md", "EXPECTED.json")
        and p.relative_to(STREAMS).parts[0] != "agent"
    }
    assert files == set(EXPECTED)

"""Where ssescope's reading of a real capture departs, on purpose, from EXPECTED.json.

EXPECTED.json (next to the captures, read-only) states what each real stream assembles
to. Where a rule of ``docs/verdicts.md`` reads a capture differently, the departure is
listed here with its reason, and the oracle checks the capture against the changed
reading instead: never a silent edit of the expectation.

Each entry maps a capture to the paths it changes (``status``, ``outputs[0].refusal``…,
as EXPECTED's ``variants`` spell them) and why.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

__all__ = ["DEPARTURES", "Departure", "depart"]


@dataclass(frozen=True)
class Departure:
    """One capture's changed reading: the values it sets, and the rule that says so."""

    overrides: dict[str, Any]
    why: str


_REFUSAL = Departure(
    {"status": "incomplete"},
    "refusal text makes the response incomplete on every provider (docs/verdicts.md, "
    "Refusals): EXPECTED reads this finish 'stop' refusal as completed",
)

_WEB_SEARCH_IDS = (
    "ws_0cc96ac817fdc57e006933370e71cc81989ece73cbdfe67d25",
    "ws_0cc96ac817fdc57e0069333715b11c81988f3c9b9af6a95481",
    "ws_0cc96ac817fdc57e006933371c82e48198aba79879e266ea8c",
    "ws_0cc96ac817fdc57e0069333721f6a081989f8e6a18dbc1e47a",
    "ws_0cc96ac817fdc57e00693337281754819898dbc2297d80e2df",
    "ws_0cc96ac817fdc57e00693337335db881989d7938ef5e5dcd6b",
)

DEPARTURES: dict[str, Departure] = {
    "openai-chat/refusal.sse": _REFUSAL,
    "openai-chat/refusal-logprobs.sse": _REFUSAL,
    "openai-responses/web-search-url-citations.jsonl": Departure(
        {
            "outputs[0].tool_calls": [
                {"id": call_id, "name": "web_search", "complete": True}
                for call_id in _WEB_SEARCH_IDS
            ]
        },
        "provider-run tool calls are listed among the tool calls on every provider, tagged "
        "kind 'server' (docs/verdicts.md, Provider-run tools): EXPECTED leaves the six "
        "web_search_call items out of tool_calls",
    ),
}


def _set(obj: Any, path: str, value: Any) -> None:
    parts = path.replace("]", "").replace("[", ".").split(".")
    cur = obj
    for part in parts[:-1]:
        cur = cur[int(part)] if isinstance(cur, list) else cur[part]
    last = parts[-1]
    if isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value


def depart(name: str, entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` (an EXPECTED.json entry) with the departure of capture ``name`` applied
    to its reading and to each of its variants; ``entry`` itself when there is none."""
    departure = DEPARTURES.get(name)
    if departure is None:
        return entry
    changed = copy.deepcopy(entry)
    for path, value in departure.overrides.items():
        _set(changed, path, value)
        for variant in changed.get("variants", []):
            variant.setdefault("overrides", {})[path] = value
    changed.setdefault("notes", []).append(f"departure: {departure.why}")
    return changed

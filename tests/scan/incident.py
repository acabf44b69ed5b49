"""A planted incident: a log of bodies where one route truncates 31 % of its streams (the
others 13 %), and one day 41 % (the others 12.5 to 14 %), beside ordinary stream files."""

from __future__ import annotations

import json
from pathlib import Path

ROUTES = ("/agent", "/chat", "/search")
DAYS = ("2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05")
PER_CELL = 40
"""Streams per route and day."""
TRUNCATED = {
    # day -> truncated streams of each route (in ROUTES' order), of PER_CELL each
    "2026-03-01": (9, 3, 3),
    "2026-03-02": (9, 4, 4),
    "2026-03-03": (25, 12, 12),
    "2026-03-04": (9, 3, 4),
    "2026-03-05": (10, 4, 3),
}
BAD_ROUTE, BAD_DAY = "/agent", "2026-03-03"

_HEAD = (
    'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    '[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n'
)
_TOOL = (
    'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    '[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function",'
    '"function":{"name":"search","arguments":"{\\"q\\": \\"wea"}}]},"finish_reason":null}]}\n\n'
)
_DONE = (
    'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    '[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


def _rate(truncated: int, total: int) -> float:
    return truncated / total


def route_rate(route: str) -> float:
    """The planted truncation rate of ``route``."""
    i = ROUTES.index(route)
    return _rate(sum(t[i] for t in TRUNCATED.values()), PER_CELL * len(DAYS))


def day_rate(day: str) -> float:
    """The planted truncation rate of ``day``."""
    return _rate(sum(TRUNCATED[day]), PER_CELL * len(ROUTES))


def write_incident(root: Path) -> Path:
    """Write the incident's log (``gateway/requests.jsonl``, one line per request:
    ``request_id``, ``ts``, ``route``, ``body``) and two stream files; return ``root``."""
    (root / "gateway").mkdir(parents=True, exist_ok=True)
    lines = []
    n = 0
    for day in DAYS:
        for r, route in enumerate(ROUTES):
            cut = TRUNCATED[day][r]
            for k in range(PER_CELL):
                # the cut ones: mid-text, and every third one mid tool call
                body = _HEAD + (_TOOL if k % 3 == 0 else "") if k < cut else _HEAD + _DONE
                ts = f"{day}T{(k % 24):02d}:{(k * 7) % 60:02d}:00Z"
                lines.append(
                    json.dumps({"request_id": f"q{n}", "ts": ts, "route": route, "body": body})
                )
                n += 1
    (root / "gateway" / "requests.jsonl").write_text("\n".join(lines) + "\n")
    (root / "local").mkdir(exist_ok=True)
    (root / "local" / "ok.sse").write_text(_HEAD + _DONE)
    (root / "local" / "cut.sse").write_text(_HEAD)
    return root

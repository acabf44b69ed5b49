"""Write the generated parts of ``docs/conform.md`` from the checks and the request set.

The page's prose is written by hand; three regions are generated, each between a marker
line and ``<!-- end -->``:

* ``<!-- generated: checks -->``: every registered check (:data:`ssescope.conform.CHECKS`)
  with its id, severity, rule, the protocols it applies to and its source link;
* ``<!-- generated: cases -->``: URL mode's request set, per protocol;
* ``<!-- generated: asked -->``: what a capture's recorded request can ask, and the check
  judging each (:data:`ssescope.conform.asked.ASKED`).

::

    python scripts/conform_docs.py          # rewrite the regions
    python scripts/conform_docs.py --check  # exit 1 if one is out of date (the tests run this)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ssescope.conform import CHECKS, PROTOCOLS, Check  # noqa: E402
from ssescope.conform.asked import ASKED, READERS  # noqa: E402

PAGE = ROOT / "docs" / "conform.md"
_REGION = re.compile(r"(<!-- generated: (?P<name>\w+) -->\n)(?P<body>.*?)(<!-- end -->)", re.S)
_MODEL = "MODEL"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _applies(check: Check) -> str:
    parts = [", ".join(f"`{p}`" for p in sorted(check.protocols)) if check.protocols else "all"]
    if check.needs_case:
        parts.append("URL mode")
    elif check.needs_request:
        parts.append("the request")
    return "; ".join(parts)


def checks_table() -> str:
    """The table of every check, in registry order."""
    rows = [
        "| id | level | rule | applies to | source |",
        "|---|---|---|---|---|",
    ]
    rows.extend(
        f"| `{check.id}` | {check.severity} | {_cell(check.rule)} | {_applies(check)} "
        f"| [{_host(check.source)}]({check.source}) |"
        for check in CHECKS
    )
    musts = sum(1 for c in CHECKS if c.severity == "MUST")
    summary = f"{len(CHECKS)} checks: {musts} MUST, {len(CHECKS) - musts} SHOULD."
    return summary + "\n\n" + "\n".join(rows) + "\n"


def _host(url: str) -> str:
    host = url.split("//", 1)[-1].split("/", 1)[0]
    return host.removeprefix("www.")


def cases_table() -> str:
    """The request set of each protocol: case, what it asks, path."""
    out: list[str] = []
    for protocol, build in PROTOCOLS.items():
        out.append(f"**{protocol}**\n")
        out.append("| case | request | path |")
        out.append("|---|---|---|")
        out.extend(f"| `{c.id}` | {_cell(c.title)} | `{c.path}` |" for c in build(_MODEL))
        out.append("")
    return "\n".join(out)


def asked_table() -> str:
    """What a recorded request can ask, what the reply must then do, and the check."""
    rows = ["| the request says | so the reply | check |", "|---|---|---|"]
    rows.extend(f"| {_cell(a.says)} | {_cell(a.reply)} | `{a.check}` |" for a in ASKED)
    protocols = ", ".join(f"`{p}`" for p in READERS)
    return "\n".join(rows) + f"\n\nThe requests read: {protocols}.\n"


GENERATORS = {"checks": checks_table, "cases": cases_table, "asked": asked_table}


def render(text: str) -> str:
    """``text`` with every generated region written afresh."""

    def fill(match: re.Match[str]) -> str:
        body = GENERATORS[match.group("name")]()
        return match.group(1) + body + match.group(4)

    return _REGION.sub(fill, text)


def main(argv: list[str]) -> int:
    """Rewrite the page, or with ``--check`` say whether it is stale (exit 1)."""
    text = PAGE.read_text(encoding="utf-8")
    fresh = render(text)
    found = {m.group("name") for m in _REGION.finditer(text)}
    if found != set(GENERATORS):
        print(f"{PAGE}: expected the regions {sorted(GENERATORS)}, found {sorted(found)}")
        return 1
    if "--check" in argv:
        if fresh != text:
            print(f"{PAGE} is stale: run python scripts/conform_docs.py")
            return 1
        return 0
    PAGE.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

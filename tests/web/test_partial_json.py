"""The page's ``parsePartial`` reads unfinished tool arguments as the engine does.

Every prefix of every tool call's arguments in the real streams and the fixtures, and a
few written to sit on the edges (numbers cut after their ``.``, escapes, dangling keys),
goes through the page's function in Chromium and through
:func:`ssescope.aggregate.partial_json.parse_partial`; the two values must be equal.
"""

from __future__ import annotations

from typing import Any

import pytest

import ssescope
from ssescope.aggregate.partial_json import parse_partial
from tests.core_reports import files

pytestmark = pytest.mark.browser

EDGES = [
    '{"a": 1, "n": -1.',
    '{"n": -1.5e',
    '{"n": 2E+',
    '{"n": -',
    "[1, 2., 3",
    '{"s": "a\\',
    '{"s": "a\\u00',
    '{"a": 1, "b"',
    '{"a": tru',
    '{"a": [null, fals',
    '{"big": 1e400',
    '{"a": 1}}',
    "[" * 130,
    "  ",
    "null",
]


def _arguments() -> list[str]:
    """Each distinct arguments text of a tool call in any fixture's or real stream's Reports."""
    found: set[str] = set()
    for path in files():
        try:
            reports = ssescope.inspect_all(path.read_bytes())
        except Exception:
            continue  # a file the engine refuses has no tool calls to read
        for report in reports:
            for output in report.to_dict()["outputs"]:
                found.update(
                    call["arguments"] for call in output["tool_calls"] if call["arguments"]
                )
    return sorted(found)


def _prefixes() -> list[str]:
    arguments = _arguments()
    assert len(arguments) >= 3, "no tool arguments found in the fixtures"
    texts = [*arguments, *EDGES]
    return sorted({text[:n] for text in texts for n in range(1, len(text) + 1)})


def test_the_page_reads_every_prefix_of_tool_arguments_as_the_engine(page: Any) -> None:
    prefixes = _prefixes()
    assert any(p.endswith('"n": -1.') for p in prefixes)
    shown = page.evaluate(
        """async (prefixes) => {
            const { parsePartial } = await import("/static/app.js");
            return prefixes.map((p) => {
                const value = parsePartial(p).value;
                return value === undefined ? null : value;
            });
        }""",
        prefixes,
    )
    differ = [
        (p, want, got)
        for p, want, got in zip(prefixes, map(parse_partial, prefixes), shown, strict=True)
        if want != got
    ]
    assert not differ, f"{len(differ)} of {len(prefixes)} prefixes differ, first: {differ[:3]}"


def test_the_page_says_ok_only_of_complete_json(page: Any) -> None:
    oks = page.evaluate(
        """async (texts) => {
            const { parsePartial } = await import("/static/app.js");
            return texts.map((t) => parsePartial(t).ok);
        }""",
        ['{"a": 1}', '{"a": 1', "[1, 2]", "[1, 2.", ""],
    )
    assert oks == [True, False, True, False, False]


def test_one_chromium_serves_every_page_test(browser: Any) -> None:
    """The page tests share one browser: it was launched once in this run, not per test."""
    from tests.browser import SHARED

    assert SHARED.opened == 1 and browser.is_connected()

"""What the proxy prints of a hostile request: a path holding rich markup, an error holding
escape sequences. The live table and the lines show them as text, and never break."""

from __future__ import annotations

import io
import threading
import time

import httpx
import pytest
from rich.console import Console

from ssescope.proxy import ProxyThread, Registry
from ssescope.proxy.display import LineWriter, LiveDisplay, exchange_line
from ssescope.serve.app import ServerThread

pytestmark = pytest.mark.network

LINK = "[link=https://evil.example]click[/link]"


def _terminal() -> Console:
    return Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=300)


def test_a_path_with_markup_is_text_in_the_live_table_and_in_the_line(
    replay: ServerThread,
) -> None:
    path = f"/openai_chat/v1/{LINK}/[/x]"
    with ProxyThread(replay.url) as proxy:
        thread = threading.Thread(
            target=httpx.post,
            args=(proxy.url + path + "?fault=stall@record:2:1",),
            kwargs={"timeout": 10},
        )
        thread.start()
        try:
            deadline = time.monotonic() + 5
            while not any(ex.status for ex in proxy.registry.active()):
                assert time.monotonic() < deadline, "the stream never started"
                time.sleep(0.01)
            console = _terminal()
            console.print(LiveDisplay(proxy.registry, console, header=proxy.url).render())
        finally:
            thread.join()
        proxy.flush()
        [ex] = proxy.registry.finished()
    table = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b]8;" not in table  # no OSC 8 hyperlink
    assert f"POST {path}?fault=stall@record:2:1" in table
    line = _terminal()
    LineWriter(console=line)(ex)
    printed = line.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b]8;" not in printed and f"POST {path}" in printed


def test_control_characters_from_an_exchange_are_made_visible() -> None:
    registry = Registry()
    ex = registry.new("POST", "/v1/x", "http://u/v1/x")
    ex.provider = "\x1b[2J"
    ex.error = "cannot reach \x1b]0;pwned\x07 \x1b]52;c;ZXZpbA==\x07 \u202e[/x]"
    console = _terminal()
    console.print(LiveDisplay(registry, console).render())
    LineWriter(console=console)(ex)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    for raw in ("\x1b[2J", "\x1b]0;", "\x1b]52;", "\x07", "\u202e"):
        assert raw not in out
    assert "\\x1b]0;pwned\\x07" in out and "\\u202e[/x]" in out
    assert exchange_line(ex).plain.count("\\x1b") == 3

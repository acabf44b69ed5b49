"""The one tool-call tracker the adapters share: calls by key, open or ended, and the
unified events it writes for them."""

from __future__ import annotations

from ssescope.events import ToolCall, ToolCallDelta, ToolCallEnd
from ssescope.providers._base import AdapterOutput
from ssescope.providers._tools import ToolCallTracker, TrackedCall


def test_a_call_by_index_is_announced_streamed_and_ended_once() -> None:
    tools: ToolCallTracker[int] = ToolCallTracker()
    out: list[AdapterOutput] = []
    call = tools.start(3, 10, out, 0, 3, "toolu_1", "get_weather", "server")
    tools.delta(tools.get(3), 11, '{"city"', out)
    assert tools.end(call, 12, out, None)
    assert not tools.end(call, 13, out, '{"x": 1}')  # a second end: nothing
    assert out == [
        ToolCallDelta(10, 0, 3, "toolu_1", "get_weather", None, None, "server", "json"),
        ToolCallDelta(11, 0, 3, None, None, '{"city"', None, "server", "json"),
        ToolCallEnd(12, 0, 3, "toolu_1", None, None),
    ]
    assert call.announced and call.streamed and call.ended
    assert tools.open_keys() == []


def test_a_call_by_id_addresses_its_fragments_by_id() -> None:
    tools: ToolCallTracker[str] = ToolCallTracker(by_id=True)
    out: list[AdapterOutput] = []
    tools.start("c1", 0, out, 0, None, "c1", "search")
    tools.delta(tools.get("c1"), 1, '{"q":', out)
    assert out[1] == ToolCallDelta(1, 0, None, "c1", None, '{"q":', None, "function", "json")


def test_a_fragment_of_a_call_never_started_takes_what_the_event_says() -> None:
    tools: ToolCallTracker[int] = ToolCallTracker()
    out: list[AdapterOutput] = []
    tools.delta(None, 4, "abc", out, 7, "custom", "text")
    tools.delta(None, 5, "def", out)
    assert out == [
        ToolCallDelta(4, 0, 7, None, None, "abc", None, "custom", "text"),
        ToolCallDelta(5, 0, None, None, None, "def", None, "function", "json"),
    ]


def test_the_event_may_name_another_position_kind_and_format() -> None:
    tools: ToolCallTracker[str] = ToolCallTracker()
    out: list[AdapterOutput] = []
    call = tools.track("item", 0, 1, None, "f", "mcp")
    tools.announce(call, 0, out, "mcp", "call_9", 2)
    tools.delta(call, 1, "x", out, 5, "function", "text")
    tools.end(call, 2, out, "{}", "f", 6)
    assert out == [
        ToolCallDelta(0, 0, 2, "call_9", "f", None, "mcp", "mcp", "json"),
        ToolCallDelta(1, 0, 5, None, None, "x", None, "function", "text"),
        ToolCallEnd(2, 0, 6, None, "{}", "f"),
    ]


def test_a_whole_call_is_one_event_and_ends_the_call() -> None:
    tools: ToolCallTracker[int] = ToolCallTracker()
    out: list[AdapterOutput] = []
    call = tools.track(0, 2, 0, "id", "run", "server", "text")
    tools.whole(call, 9, out, "ls", complete=False, call_id="other")
    assert out == [ToolCall(9, 2, 0, "other", "run", "ls", "server", "text", False)]
    assert call.ended
    assert tools.open_keys() == []
    assert tools.keys() == [0]


def test_finish_forgets_the_call_and_emits_it_whole() -> None:
    tools: ToolCallTracker[int] = ToolCallTracker()
    out: list[AdapterOutput] = []
    tools.track(1, 1, 0, None, "f")
    tools.finish(1, 3, out, '{"a":1}', True)
    assert out == [ToolCall(3, 1, 0, None, "f", '{"a":1}')]
    assert 1 not in tools
    assert len(tools) == 0


def test_calls_are_kept_in_the_order_they_started_a_restarted_one_last() -> None:
    tools: ToolCallTracker[str] = ToolCallTracker()
    for key in ("a", "b", "c"):
        tools.track(key)
    tools.track("a")  # started again: the newest
    assert tools.keys() == ["b", "c", "a"]
    b = tools.get("b")
    assert isinstance(b, TrackedCall)
    b.ended = True
    assert tools.open_keys() == ["c", "a"]
    assert tools.pop("c") is not None
    assert tools.pop("c") is None
    tools.clear()
    assert tools.keys() == []


def test_fragments_replace_the_arguments_a_call_started_with_then_append() -> None:
    tools: ToolCallTracker[int] = ToolCallTracker()
    call = tools.track(0)
    call.arguments = '{"start": true}'
    tools.append(call, '{"a"')
    tools.append(call, ": 1}")
    assert call.arguments == '{"a": 1}'
    assert call.streamed

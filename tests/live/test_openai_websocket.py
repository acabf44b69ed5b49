"""The real ``openai`` client over WebSockets (the Responses WebSocket mode and the Realtime
client) against ``ssescope serve`` replaying the captures of tests/fixtures/websocket,
directly and through ``ssescope proxy``, with each WebSocket fault: what the client
reported and what ssescope reported, side by side (the table of docs/websocket.md is
checked against these results)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openai
import pytest

from ssescope.proxy import ProxyThread
from ssescope.testing import SSEScopeServer

# openai 3.57 calls websockets' connect() outside a `with` (websockets 17 deprecates it)
pytestmark = pytest.mark.filterwarnings(
    "ignore:connect\\(\\) must be used as a context manager:DeprecationWarning"
)

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "websocket"
DOC = HERE.parents[1] / "docs" / "websocket.md"
TERMINALS = {"response.completed", "response.failed", "response.incomplete"}

# (fault, what the row of the doc table calls it)
FAULTS: list[tuple[str, str]] = [
    ("", "none"),
    ("close@record:10:1011", "close@record:10:1011"),
    ("close@record:10:1000", "close@record:10:1000"),
    ("drop@record:10", "drop@record:10"),
    ("error@record:10", "error@record:10"),
    ("stall@record:10:1", "stall@record:10:1"),
]


@dataclass(frozen=True)
class Seen:
    """What the client reported: the events it yielded, how its loop ended."""

    events: int
    last: str | None
    ended: str  # "terminal", "error event", "iterator ended", or the exception raised

    def shown(self) -> str:
        return f"{self.events} events, then {self.ended}"


def _outcome(run: Callable[[], Seen]) -> Seen:
    box: list[Seen | BaseException] = []

    def target() -> None:
        try:
            box.append(run())
        except BaseException as exc:  # (reported below)
            box.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "the client hung"
    result = box[0]
    if isinstance(result, BaseException):
        raise result
    return result


def _ended(exc: BaseException) -> str:
    rcvd = getattr(exc, "rcvd", None)
    if rcvd is not None:
        return f"{type(exc).__name__} ({rcvd.code})"
    if hasattr(exc, "rcvd"):
        return f"{type(exc).__name__} (no close frame)"
    return type(exc).__name__


def _client(base: str, websocket: bool) -> openai.OpenAI:
    # direct: the replay server's ws:// URL; through the proxy: its http:// base URL
    if websocket:
        return openai.OpenAI(
            base_url="http://unused.invalid/v1",
            websocket_base_url=base + "/v1",
            api_key="sk-test-placeholder",
            max_retries=0,
        )
    return openai.OpenAI(base_url=base + "/v1", api_key="sk-test-placeholder", max_retries=0)


def responses_client(base: str) -> Seen:
    """One turn of the Responses WebSocket mode, as an app writes it."""
    client = _client(base, base.startswith("ws"))
    events: list[str] = []
    try:
        with client.responses.connect() as conn:
            conn.response.create(model="gpt-5-mini", input="What is 19 times 30?")
            for event in conn:
                events.append(event.type)
                if event.type in TERMINALS:
                    return Seen(len(events), event.type, "terminal")
                if event.type == "error":
                    return Seen(len(events), event.type, "error event")
    except Exception as exc:
        return Seen(len(events), events[-1] if events else None, _ended(exc))
    return Seen(len(events), events[-1] if events else None, "iterator ended")


def realtime_client(base: str) -> Seen:
    """One Realtime text turn, as an app writes it."""
    client = _client(base, base.startswith("ws"))
    events: list[str] = []
    try:
        with client.realtime.connect(model="gpt-realtime") as conn:
            conn.session.update(session={"type": "realtime", "output_modalities": ["text"]})
            conn.response.create()
            for event in conn:
                events.append(event.type)
                if event.type == "response.done":
                    return Seen(len(events), event.type, "terminal")
                if event.type == "error":
                    return Seen(len(events), event.type, "error event")
    except Exception as exc:
        return Seen(len(events), events[-1] if events else None, _ended(exc))
    return Seen(len(events), events[-1] if events else None, "iterator ended")


@pytest.fixture(scope="module")
def server() -> Iterator[SSEScopeServer]:
    with SSEScopeServer() as running:
        yield running


def _both(
    server: SSEScopeServer, capture: str, fault: str, client: Callable[[str], Seen], tmp: Path
) -> tuple[Seen, Any]:
    """The client against the replay server, then through the proxy in front of it."""
    url = server.ws_url(FIXTURES / capture, fault=fault or ())
    direct = _outcome(lambda: client(url))
    with ProxyThread(url.replace("ws://", "http://", 1), record=tmp) as proxy:
        proxied = _outcome(lambda: client(proxy.url))
        proxy.flush()
        (ex,) = proxy.registry.finished()
    assert proxied == direct  # the proxy changes nothing the client sees
    return direct, ex


RESPONSES = "responses-ws-4-turns.ssecap"

# what the client reported and what ssescope reported, per fault (docs/websocket.md)
EXPECTED: dict[str, tuple[str, str, str]] = {
    "none": ("56 events, then terminal", "completed", "response.completed"),
    "close@record:10:1011": (
        "10 events, then ConnectionClosedError (1011)",
        "truncated",
        "the WebSocket closed with code 1011 (ssescope serve: close@record:10:1011) before "
        "the terminal event",
    ),
    "close@record:10:1000": (
        "10 events, then iterator ended",
        "truncated",
        "the WebSocket closed with code 1000 (ssescope serve: close@record:10:1000) before "
        "the terminal event",
    ),
    "drop@record:10": (
        "10 events, then ConnectionClosedError (no close frame)",
        "truncated",
        "the WebSocket dropped with no close frame before the terminal event",
    ),
    "error@record:10": (
        "11 events, then error event",
        "failed",
        "the provider reported an error: The server had an error while processing your request.",
    ),
    "stall@record:10:1": ("56 events, then terminal", "completed", "response.completed"),
}


@pytest.mark.parametrize(("fault", "name"), FAULTS, ids=[n for _, n in FAULTS])
def test_the_responses_websocket_client_and_ssescope_side_by_side(
    server: SSEScopeServer, tmp_path: Path, fault: str, name: str
) -> None:
    seen, ex = _both(server, RESPONSES, fault, responses_client, tmp_path)
    client_said, verdict, reason = EXPECTED[name]
    assert seen.shown() == client_said
    assert (ex.verdict, ex.status_reason) == (verdict, reason)
    if name == "stall@record:10:1":
        assert ex.content_idle_max_s >= 0.9  # the client waited; ssescope saw the silence
    row = f"| `{name}` | {client_said} | {verdict}: {reason} |"
    assert row in DOC.read_text(), f"docs/websocket.md lacks the row\n{row}"


# the Realtime client, per fault: what it reported, how the connection closed, and what
# ssescope reported (the second table of docs/websocket.md)
REALTIME: dict[str, tuple[str, tuple[int | None, str, bool], str]] = {
    "none": (
        "14 events, then terminal",
        (1000, "client", False),
        "completed: response.done, status completed",
    ),
    "close@record:4:1011": (
        "7 events, then ConnectionClosedError (1011)",
        (1011, "server", False),
        "truncated: the WebSocket closed with code 1011 (ssescope serve: close@record:4:1011) "
        "before the terminal event",
    ),
    "drop@record:4": (
        "7 events, then ConnectionClosedError (no close frame)",
        (None, "server", True),
        "truncated: the WebSocket dropped with no close frame before the terminal event",
    ),
    "error@record:4": (
        "8 events, then error event",
        (1000, "client", False),
        "failed: the provider reported an error: The server had an error while processing "
        "your request.",
    ),
    "stall@record:4:1": (
        "14 events, then terminal",
        (1000, "client", False),
        "completed: response.done, status completed",
    ),
}


@pytest.mark.parametrize("name", list(REALTIME))
def test_the_realtime_client_through_serve_and_the_proxy(
    server: SSEScopeServer, tmp_path: Path, name: str
) -> None:
    fault = "" if name == "none" else name
    seen, ex = _both(server, "realtime-text-turn.ssecap", fault, realtime_client, tmp_path)
    client_said, close, said = REALTIME[name]
    assert seen.shown() == client_said
    assert (ex.close_code, ex.closed_by, ex.dropped) == close
    assert f"{ex.verdict}: {ex.status_reason}" == said
    row = f"| `{name}` | {client_said} | {said} |"
    assert row in DOC.read_text(), f"docs/websocket.md lacks the row\n{row}"
    if fault.startswith("stall"):
        assert ex.content_idle_max_s >= 0.9  # the client waited; ssescope saw the silence
    # (the first 3 events are the preamble: session.created, session.updated, an item)
    # the client's messages passed through: session.update, then response.create
    sent = _sent(ex.capture)
    assert [m["type"] for m in sent] == ["session.update", "response.create"]


def _sent(capture: str | None) -> list[dict[str, Any]]:
    assert capture is not None
    lines = [json.loads(line) for line in Path(capture).read_text().splitlines()[1:]]
    return [json.loads(line["data"]) for line in lines if line.get("dir") == "send"]


def test_four_responses_on_one_socket_each_get_their_verdict(
    server: SSEScopeServer, tmp_path: Path
) -> None:
    url = server.ws_url(FIXTURES / RESPONSES)

    def four(base: str) -> Seen:
        client = _client(base, base.startswith("ws"))
        total = 0
        with client.responses.connect() as conn:
            for n in range(4):
                conn.response.create(model="gpt-5-mini", input=f"turn {n + 1}")
                for event in conn:
                    total += 1
                    if event.type in TERMINALS:
                        break
        return Seen(total, None, "closed")

    with ProxyThread(url.replace("ws://", "http://", 1), record=tmp_path) as proxy:
        seen = _outcome(lambda: four(proxy.url))
        proxy.flush()
        (ex,) = proxy.registry.finished()
    assert seen.events == 56 + 19 + 19 + 16
    assert (ex.verdict, ex.responses, ex.messages_sent) == ("completed", 4, 4)
    assert (ex.close_code, ex.closed_by) == (1000, "client")

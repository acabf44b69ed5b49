"""The ``ssescope_ws_server`` fixture with the real ``openai`` client's Responses WebSocket
mode (``client.responses.connect()``), as docs/testing.md shows it: what the client built
checked against what the server sent, and a close mid-response that the client takes for
the end of the answer, caught by the Report."""

from __future__ import annotations

from pathlib import Path

import openai
import pytest
from openai.types.responses import Response

from ssescope.testing import WebSocketServer, assert_assembled

# openai 3.57 calls websockets' connect() outside a `with` (websockets 17 deprecates it)
pytestmark = [
    pytest.mark.network,
    pytest.mark.filterwarnings(
        "ignore:connect\\(\\) must be used as a context manager:DeprecationWarning"
    ),
]

FOUR_TURNS = (
    Path(__file__).resolve().parents[1] / "fixtures" / "websocket" / ("responses-ws-4-turns.ssecap")
)
TERMINALS = {"response.completed", "response.failed", "response.incomplete"}


def ask(url: str, questions: list[str]) -> tuple[list[Response | None], list[str]]:
    """An app's client: each question one response.create on one socket; the final
    Response of each (``None`` when the loop ended without one), and every event's type."""
    client = openai.OpenAI(
        base_url="http://unused.invalid/v1",
        websocket_base_url=url + "/v1",
        api_key="sk-test-placeholder",
        max_retries=0,
    )
    finals: list[Response | None] = []
    seen: list[str] = []
    with client.responses.connect() as conn:
        for question in questions:
            conn.response.create(model="gpt-5-mini", input=question)
            final = None
            for event in conn:
                seen.append(event.type)
                if event.type in TERMINALS:
                    final = event.response  # type: ignore[union-attr]
                    break
            finals.append(final)
    return finals, seen


def test_what_the_openai_client_built_is_what_the_server_sent(
    ssescope_ws_server: WebSocketServer,
) -> None:
    url = ssescope_ws_server.url(FOUR_TURNS)
    finals, seen = ask(url, ["What is 19 times 30?", "And then?"])
    assert len(seen) == 56 + 19
    first, second = finals
    assert first is not None and second is not None
    report = assert_assembled(url, first, entry=0)
    assert report.status == "completed"
    assert assert_assembled(url, second, entry=1).status == "completed"
    with pytest.raises(AssertionError, match="differs from what was sent over the WebSocket"):
        assert_assembled(url, second, entry=0)
    sent = [r.to_dict()["source"]["websocket"]["sent"] for r in ssescope_ws_server.reports()]
    assert ['"What is 19 times 30?"' in s[0] for s in sent] == [True, False]


def test_a_close_with_1000_mid_response_ends_the_clients_loop_and_the_report_says_truncated(
    ssescope_ws_server: WebSocketServer,
) -> None:
    url = ssescope_ws_server.url(FOUR_TURNS, fault="close@record:10:1000")
    finals, seen = ask(url, ["What is 19 times 30?"])
    assert (finals, len(seen)) == ([None], 10)  # no exception: the loop just ended
    (report,) = ssescope_ws_server.reports()
    assert report.status == "truncated"
    assert report.response.status_reason == (
        "the WebSocket closed with code 1000 (ssescope serve: close@record:10:1000) before "
        "the terminal event"
    )


def test_a_drop_raises_in_the_client_and_is_a_cut_in_the_report(
    ssescope_ws_server: WebSocketServer,
) -> None:
    url = ssescope_ws_server.url(FOUR_TURNS, fault="drop@record:10")
    with pytest.raises(Exception, match="no close frame"):
        ask(url, ["What is 19 times 30?"])
    (report,) = ssescope_ws_server.reports()
    assert (report.status, report.records.total) == ("truncated", 10)
    assert "dropped with no close frame" in (report.response.status_reason or "")

"""A WebSocket capture on the web page: its messages in both directions (the client's as
requests, never assembled), how the connection closed, and the verdict. The captures are
the constructed Realtime fixtures (``tests/fixtures/realtime``)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ssescope.web import create_app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "realtime"
CUT = FIXTURES / "closed-mid-response.ssecap"
VOICE = FIXTURES / "voice-barge-in.ssecap"


def test_the_api_gives_both_directions_in_order_and_the_close(tmp_path: Path) -> None:
    client = TestClient(create_app(examples_dir=tmp_path), base_url="http://127.0.0.1:8765")
    answer = client.post("/api/inspect", content=CUT.read_bytes()).json()
    ws = answer["websocket"]
    assert ws["describe"] == "closed with code 1011 (keepalive ping timeout)"
    assert [(m["dir"], m.get("type"), m.get("first"), m.get("last")) for m in ws["order"]] == [
        ("receive", None, 0, 0),  # session.created
        ("send", "response.create", None, None),
        ("receive", None, 1, 6),
    ]
    assert answer["report"]["status"] == "truncated"
    assert ws["messages"] == 8  # both directions, as the Report counts them
    # the client's messages are not records: every record is a server message
    assert len(answer["frames"]) == 7
    plain = client.post("/api/inspect", content=b'data: {"type":"start"}\n\n').json()
    assert plain["websocket"] is None


def _png_pixels(data: bytes) -> tuple[int, int, set[bytes]]:
    """The width, height and set of distinct pixels (RGBA, 8 bits) of a PNG screenshot."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert (depth, color) in ((8, 6), (8, 2))
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    pixels: set[bytes] = set()
    prev = bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        filt, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):  # undo the scanline's filter (PNG spec, section 9)
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if filt == 1:
                line[i] = (line[i] + a) & 0xFF
            elif filt == 2:
                line[i] = (line[i] + b) & 0xFF
            elif filt == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 0xFF
        pixels.update(bytes(line[i : i + channels]) for i in range(0, stride, channels))
        prev = line
    return width, height, pixels


@pytest.mark.browser
def test_the_page_shows_a_websocket_capture_with_its_requests_close_and_verdict(
    page: Any, tmp_path: Path
) -> None:
    page.get_by_test_id("file-input").set_input_files(str(CUT))
    page.wait_for_selector("body[data-state=ready]")
    assert page.get_by_test_id("verdict-status").text_content() == "truncated"
    assert "code 1011 (keepalive ping timeout)" in (
        page.get_by_test_id("verdict-reason").text_content() or ""
    )
    panel = page.get_by_test_id("websocket")
    assert panel.is_visible()
    close = page.get_by_test_id("ws-close")
    assert close.text_content() == "Connection closed with code 1011 (keepalive ping timeout)"
    assert close.get_attribute("data-close") == "bad"
    assert page.get_by_test_id("ws-count").text_content() == "8 messages · 1 request"
    rows = page.locator("[data-testid=ws-message]")
    assert rows.count() == 3
    assert [rows.nth(i).get_attribute("data-dir") for i in range(3)] == [
        "receive",
        "send",
        "receive",
    ]
    request = rows.nth(1).text_content() or ""
    assert "→ request" in request and "response.create" in request
    # the request is not assembled: the reply holds only the server's text
    assert page.get_by_test_id("text").text_content() == "The answer is"
    assert page.get_by_test_id("frame-count").text_content() == "7 records"
    rows.nth(2).locator("button").click()
    assert page.get_by_test_id("raw-view").is_visible()
    shot = tmp_path / "websocket.png"
    panel.screenshot(path=str(shot))
    box = panel.bounding_box()
    width, height, pixels = _png_pixels(shot.read_bytes())
    assert box is not None and abs(width - box["width"]) <= 2 and abs(height - box["height"]) <= 2
    assert len(pixels) > 8  # text in several colours, not a blank box

    # a voice session: the second response (created by the server) was cancelled
    page.get_by_test_id("file-input").set_input_files(str(VOICE))
    page.wait_for_selector("body[data-state=ready][data-entry='0']")
    page.get_by_test_id("entry-1").click()
    page.wait_for_selector("body[data-state=ready][data-entry='1']")
    assert page.get_by_test_id("verdict-status").text_content() == "cancelled"
    card = page.get_by_test_id("audio")
    assert "2 chunks" in (card.text_content() or "")
    assert page.get_by_test_id("audio-transcript").text_content() == "Once upon"
    assert page.get_by_test_id("ws-close").text_content() == "Connection closed with code 1000"

    # a DevTools HAR: the two responses of its WebSocket entry, labelled as --entry takes them
    page.get_by_test_id("file-input").set_input_files(str(FIXTURES / "devtools-websocket.har"))
    page.wait_for_selector("body[data-state=ready][data-entry='0']")
    assert "#0.1" in (page.get_by_test_id("entry-1").text_content() or "")
    assert "#2" in (page.get_by_test_id("entry-2").text_content() or "")
    page.get_by_test_id("entry-1").click()
    page.wait_for_selector("body[data-state=ready][data-entry='1']")
    close = page.get_by_test_id("ws-close")
    assert close.text_content() == "Connection ended where the capture stops (no close recorded)"
    assert close.get_attribute("data-close") == "warn"

"""The diagnostic codes documented on ``docs/diagnostics/websocket.md``."""

from __future__ import annotations

from .spec import Code, Page, code_block, example_doc

__all__ = [
    "CODES",
    "PAGE",
    "WEBSOCKET_BINARY_MESSAGE",
    "WEBSOCKET_CLOSED_BEFORE_TERMINAL",
    "WEBSOCKET_CLOSE_CODE",
    "WEBSOCKET_INVALID_MESSAGE",
    "WEBSOCKET_MULTIPLE_RESPONSES",
    "WEBSOCKET_NO_CLOSE_FRAME",
]


PAGE = Page(
    "websocket",
    (
        "# WebSocket diagnostics\n"
        "\n"
        "Diagnostics about streams carried by a WebSocket (`websocket.*`): the messages of a\n"
        "capture, and how the connection ended. See\n"
        "[../containers.md](../containers.md#websocket-exchanges) for the forms and\n"
        "[../verdicts.md](../verdicts.md) for the verdict rules.\n"
    ),
)

WEBSOCKET_CLOSED_BEFORE_TERMINAL = Code(
    "websocket.closed-before-terminal",
    "error",
    "container",
    PAGE,
    "The WebSocket {end} before the response's terminal event: the stream is cut.",
    example_doc(
        "The connection ended (a close frame, or a drop) while the response had not sent its terminal event (`response.completed`, `response.failed`, `response.incomplete`). The verdict is `truncated`, and its line names the close code and reason.",
        code_block(
            '{"t":0.2,"dir":"receive","data":"{\\"type\\":\\"response.output_text.delta\\",…}"}\n'
            '{"close":{"code":1011,"reason":"keepalive ping timeout"},"t":0.9}\n'
        ),
        "Retry the request; the close code says whose side ended it (1001 going away, 1011 server error, 1006 no close frame).",
    ),
)

WEBSOCKET_CLOSE_CODE = Code(
    "websocket.close-code",
    "warning",
    "container",
    PAGE,
    "The WebSocket {end}, not 1000 (normal closure).",
    example_doc(
        "The close frame's code is not 1000, the normal closure: the server or an intermediary ended the connection for a reason it names in the code and reason.",
        code_block('{"close":{"code":1001,"reason":"going away"},"t":4.2}\n'),
        "Read the code and reason; a response already complete is kept as it is.",
    ),
)

WEBSOCKET_NO_CLOSE_FRAME = Code(
    "websocket.no-close-frame",
    "warning",
    "container",
    PAGE,
    "The WebSocket connection dropped with no close frame.",
    example_doc(
        "The connection ended without a close frame (the socket was cut): code 1006 in most clients.",
        code_block('{"close":"dropped","t":3.1}\n'),
        "Look for a proxy or load balancer idle timeout, or a server crash.",
    ),
)

WEBSOCKET_BINARY_MESSAGE = Code(
    "websocket.binary-message",
    "warning",
    "container",
    PAGE,
    "Server message {index} is a binary frame ({size} bytes); the protocol defines none, so it is not read as a record.",
    example_doc(
        "A server-to-client message is a binary frame. The JSON protocols read here send text frames only, so its bytes are counted and skipped.",
        code_block('{"t":0.3,"dir":"receive","b64":"AAEC"}\n'),
        "Check what sent it; the rest of the stream is read.",
    ),
)

WEBSOCKET_INVALID_MESSAGE = Code(
    "websocket.invalid-message",
    "warning",
    "container",
    PAGE,
    "WebSocket message {index} could not be read ({reason}); it is skipped.",
    example_doc(
        "A line or item of a WebSocket capture is not a message: not JSON, no direction, or no data.",
        code_block('{"type":"receive","time":1.5}\n'),
        "The rest of the capture is read; check what wrote it.",
    ),
)

WEBSOCKET_MULTIPLE_RESPONSES = Code(
    "websocket.multiple-responses",
    "info",
    "container",
    PAGE,
    "The WebSocket connection carried {n} responses; the first is read.",
    example_doc(
        "The client sent several `response.create` on one connection: each response is a stream of its own, like an entry of a HAR.",
        "A capture with two `response.create` messages.",
        "Use `read_all()` or `ssescope.inspect_all()` for every one, `--entry N` or `inspect(..., entry=N)` for one.",
    ),
)

CODES: tuple[Code, ...] = (
    WEBSOCKET_CLOSED_BEFORE_TERMINAL,
    WEBSOCKET_CLOSE_CODE,
    WEBSOCKET_NO_CLOSE_FRAME,
    WEBSOCKET_BINARY_MESSAGE,
    WEBSOCKET_INVALID_MESSAGE,
    WEBSOCKET_MULTIPLE_RESPONSES,
)
"""This module's codes, in the order their page documents them."""

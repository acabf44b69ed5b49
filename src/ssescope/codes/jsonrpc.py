"""The diagnostic codes documented on ``docs/diagnostics/jsonrpc.md``: the JSON-RPC 2.0
envelope that several providers carry over SSE, read by ``providers/_jsonrpc.py``."""

from __future__ import annotations

from .spec import Code, Page

__all__ = ["CODES", "JSONRPC_INVALID_ENVELOPE", "JSONRPC_UNEXPECTED_JSON", "PAGE"]

PAGE = Page(
    "jsonrpc",
    (
        "# JSON-RPC diagnostics\n"
        "\n"
        "Codes about the JSON-RPC 2.0 envelope (`jsonrpc.*`), raised by every provider whose\n"
        "events are JSON-RPC messages over SSE (one message per event). What a response means\n"
        "is the provider's own rule: see [../verdicts.md](../verdicts.md).\n"
    ),
)

JSONRPC_INVALID_ENVELOPE = Code(
    "jsonrpc.invalid-envelope",
    "warning",
    "provider",
    PAGE,
    "Record {record} is not a valid JSON-RPC 2.0 message: {problem}.",
    (
        "- **Means:** a wrong `jsonrpc` version, a response without an id, or a message with\n"
        "  both or neither of `result` and `error`. It is read as far as it can be.\n"
        '- **Example:** `{"jsonrpc":"1.0","id":1,"result":{}}`\n'
        "- **What to do:** report it to the server's authors.\n"
    ),
)

JSONRPC_UNEXPECTED_JSON = Code(
    "jsonrpc.unexpected-json",
    "warning",
    "provider",
    PAGE,
    "Record {record} is JSON but not a JSON-RPC message: {obj!q}; it is skipped.",
    (
        "- **Means:** a record is valid JSON but not an object (a batch array is not sent in\n"
        "  a streamed response); it is skipped.\n"
        "- **Example:** `[1]`\n"
        "- **What to do:** check that the body really is the protocol named (`--provider`).\n"
    ),
    content=("obj",),
)

CODES: tuple[Code, ...] = (JSONRPC_INVALID_ENVELOPE, JSONRPC_UNEXPECTED_JSON)
"""This module's codes, in the order their page documents them."""

"""The official MCP and A2A Python clients, each reading one stream a URL: what did they see?

Run by the interpreter that has the clients (not ssescope's; ``bench/agent_cuts.py`` starts
it, and so does tests/providers/test_mcp_client.py)::

    python -m venv /tmp/venv-agentclients
    /tmp/venv-agentclients/bin/pip install mcp a2a-sdk httpx
    echo '{"protocol": "mcp", "urls": [...], "timeout": 3}' | \
        /tmp/venv-agentclients/bin/python tests/rpc_clients.py

It reads ``{"protocol": "mcp" | "a2a", "version": "0.3" | "1.0" (A2A), "urls": [...],
"timeout": SECONDS}`` on stdin and prints one JSON object per URL, in order:
``{"outcome": ..., "detail": ..., "events": N, "last_state": ...}``. The outcomes:

- ``raised``: the client raised an exception;
- ``error``: it returned a JSON-RPC error of its own making (the mcp transport answers a
  request whose stream ended without a response with an error ``CONNECTION_CLOSED``);
- ``hung``: nothing ended the call within ``timeout`` seconds;
- ``returned``: it returned the server's response (MCP), or ended the event stream
  without complaint (A2A; ``last_state`` is the last task state it yielded).

MCP: ``mcp.client.streamable_http.streamable_http_client`` sends one ``tools/call``
request and reads the SSE answer (the transport layer that every ``ClientSession`` call
goes through; no ``initialize`` handshake, which ``serve`` replaying one recording cannot
answer). A2A: ``ClientFactory(...).create(card)`` with a JSON-RPC interface of the given
protocol version, ``send_message`` streaming.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio


async def _mcp(url: str, timeout: float) -> dict[str, Any]:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCError, JSONRPCRequest, JSONRPCResponse

    events = 0
    request = JSONRPCRequest(
        jsonrpc="2.0", id=1, method="tools/call", params={"name": "t", "arguments": {}}
    )
    try:
        with anyio.fail_after(timeout):
            async with streamable_http_client(url, terminate_on_close=False) as (read, write):
                await write.send(SessionMessage(request))
                async for item in read:
                    if isinstance(item, Exception):
                        return _row("raised", repr(item), events)
                    message = item.message
                    if isinstance(message, JSONRPCError):
                        return _row("error", message.error.message, events)
                    if isinstance(message, JSONRPCResponse):
                        return _row("returned", "a JSON-RPC result", events)
                    events += 1
        return _row("returned", "the read stream closed", events)
    except TimeoutError:
        return _row("hung", f"no end within {timeout} s", events)
    except Exception as exc:  # any error the client raises is noticing
        return _row("raised", f"{type(exc).__name__}: {exc}"[:200], events)


async def _a2a(url: str, version: str, timeout: float) -> dict[str, Any]:
    import httpx
    from a2a.client import ClientConfig, ClientFactory
    from a2a.types import a2a_pb2 as pb

    card = pb.AgentCard(
        name="replay",
        supported_interfaces=[
            pb.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version=version)
        ],
        capabilities=pb.AgentCapabilities(streaming=True),
    )
    message = pb.Message(role=pb.ROLE_USER, message_id="m-1", parts=[pb.Part(text="hi")])
    events = 0
    last_state = ""
    try:
        with anyio.fail_after(timeout):
            async with httpx.AsyncClient(timeout=timeout) as http:
                client = ClientFactory(ClientConfig(streaming=True, httpx_client=http)).create(card)
                async for event in client.send_message(pb.SendMessageRequest(message=message)):
                    events += 1
                    last_state = _state(pb, event) or last_state
        return _row("returned", "the stream ended", events, last_state)
    except TimeoutError:
        return _row("hung", f"no end within {timeout} s", events, last_state)
    except Exception as exc:  # any error the client raises is noticing
        return _row("raised", f"{type(exc).__name__}: {exc}"[:200], events, last_state)


def _state(pb: Any, event: Any) -> str:
    """The task state a StreamResponse carries (``TASK_STATE_WORKING``), if any."""
    for field in ("task", "status_update"):
        if event.HasField(field):
            return str(pb.TaskState.Name(getattr(event, field).status.state))
    return ""


def _row(outcome: str, detail: str, events: int, last_state: str = "") -> dict[str, Any]:
    return {"outcome": outcome, "detail": detail, "events": events, "last_state": last_state}


async def _main() -> None:
    job = json.loads(sys.stdin.read())
    timeout = float(job.get("timeout", 3))
    for url in job["urls"]:
        if job["protocol"] == "mcp":
            row = await _mcp(url, timeout)
        else:
            row = await _a2a(url, str(job.get("version", "1.0")), timeout)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    anyio.run(_main)

"""Cut Gemini Interactions, AG-UI, MCP and A2A recordings: which readers notice?

Run by hand (it is not part of the test suite)::

    npm install --prefix bench/node                  # @ag-ui/client, pinned in package.json
    python -m venv /tmp/venv-agentclients            # the mcp and a2a-sdk clients, apart
    /tmp/venv-agentclients/bin/pip install -r tests/providers/agent-clients-requirements.txt
    PYTHONPATH=src python bench/agent_cuts.py        # SSESCOPE_REAL_STREAMS names the recordings

(``SSESCOPE_AGENT_CLIENTS`` names that venv's interpreter when it is elsewhere.)

Each real recording under ``agent/gemini-interactions`` and ``agent/ag-ui`` is framed as
its server sends it (an SSE event per line, the Interactions ones with their ``event:``
name), then cut after each event before its first terminal (``interaction.completed`` /
``interaction.complete``, ``RUN_FINISHED`` / ``RUN_ERROR``): every such cut is a stream
whose end never arrived. Three readers get every cut:

- ssescope (``ssescope.inspect``), which must say ``truncated`` on each;
- google-genai's Interactions client (``client.interactions.create(..., stream=True)``),
  against a loopback server that answers with the cut;
- @ag-ui/client's ``HttpAgent.runAgent`` (Node), whose fetch answers with the cut.

The MCP Streamable HTTP and A2A recordings (``agent/mcp-streamable-http``, ``agent/a2a``)
are raw SSE bodies. Each is cut after every event before its terminal (the JSON-RPC
response; the final status-update) and in the middle of every event up to and including
the terminal; ``ssescope serve`` replays every cut, and the official client reads it in
the clients' interpreter (``tests/rpc_clients.py``):

- the mcp SDK's Streamable HTTP client transport, sending one ``tools/call``;
- a2a-sdk's ``ClientFactory`` client, ``send_message`` streaming, with the recording's
  protocol version (0.3 or 1.0).

A client *noticed* a cut when it raised or returned an error of its own (or, for ssescope,
said ``truncated``); a client that waited past the timeout ``hung``. The whole recordings
are run first: a complete recording the client raises on as it is (a schema it refuses)
says nothing about cuts, so only the cuts of the recordings it reads are counted for it.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.metadata import version
from pathlib import Path

import ssescope
from ssescope.providers.a2a.quirks import is_final_status

ROOT = Path(__file__).resolve().parents[1]
REAL = Path(os.environ.get("SSESCOPE_REAL_STREAMS", ROOT.parent / "shared" / "real_streams"))
AGENT = REAL / "agent"
NODE_DIR = Path(__file__).resolve().parent / "node"
TERMINALS = {
    "gemini-interactions": {"interaction.completed", "interaction.complete"},
    "ag-ui": {"RUN_FINISHED", "RUN_ERROR"},
}


@dataclass
class Recording:
    """One recording, framed as SSE, and where it may be cut."""

    name: str
    protocol: str
    events: list[bytes]
    """Each event as the server sends it (its ``event:`` line, data line, blank line)."""
    terminal: int
    """How many events come before the first terminal one."""

    def body(self, events: int | None = None) -> bytes:
        """The first ``events`` events (all of them by default)."""
        return b"".join(self.events[:events])

    def cuts(self) -> list[bytes]:
        """The stream cut after each event before the first terminal."""
        return [self.body(n) for n in range(1, self.terminal + 1)]


def recordings() -> list[Recording]:
    """Every recording of the two protocols, in name order."""
    found = []
    for protocol, terminals in TERMINALS.items():
        for path in sorted((AGENT / protocol).glob("*.jsonl")):
            lines = [line for line in path.read_text(encoding="utf-8-sig").splitlines() if line]
            events, kinds = [], []
            for line in lines:
                value = json.loads(line)
                kind = value.get("event_type") or value.get("type")
                kinds.append(kind)
                head = f"event: {kind}\n" if protocol == "gemini-interactions" else ""
                events.append(f"{head}data: {line}\n\n".encode())
            terminal = next((i for i, k in enumerate(kinds) if k in terminals), len(kinds))
            found.append(Recording(f"{protocol}/{path.name}", protocol, events, terminal))
    return found


RPC_PROTOCOLS = ("mcp-streamable-http", "a2a")
CLIENTS_PYTHON = Path(os.environ.get("SSESCOPE_AGENT_CLIENTS", "/tmp/venv-agentclients/bin/python"))
RPC_CLIENTS = ROOT / "tests" / "rpc_clients.py"
CLIENT_TIMEOUT_S = 3.0


@dataclass
class RpcRecording:
    """One raw SSE recording of a JSON-RPC protocol, and where it may be cut."""

    name: str
    protocol: str
    body: bytes
    bounds: list[tuple[int, int]]
    """Each event's (start, end) offsets: its lines and the blank line after them."""
    terminal: int | None
    """The index of the event that ends the stream, or ``None`` when none does."""

    @property
    def version(self) -> str:
        """The A2A protocol version of the recording's shape."""
        return "0.3" if b'"kind"' in self.body else "1.0"

    def cuts(self) -> list[bytes]:
        """After each event before the terminal, and inside each event up to it."""
        last = len(self.bounds) - 1 if self.terminal is None else self.terminal
        points = {end for _, end in self.bounds[:last]}
        if self.terminal is None:
            points.add(self.bounds[-1][1])  # the recording is itself a cut
        points.update((start + end) // 2 for start, end in self.bounds[: last + 1])
        return [self.body[:p] for p in sorted(points) if p > 0]


def _events(body: bytes) -> list[tuple[int, int]]:
    """The (start, end) of each SSE event block of ``body`` (CRLF or LF lines)."""
    bounds, start, i = [], 0, 0
    while i < len(body):
        for blank in (b"\r\n\r\n", b"\n\n"):
            if body.startswith(blank, i):
                if body[start:i].strip():
                    bounds.append((start, i + len(blank)))
                start = i = i + len(blank)
                break
        else:
            i += 1
    return bounds


def _data(block: bytes) -> object:
    lines = [line[5:].strip() for line in block.splitlines() if line.startswith(b"data:")]
    try:
        return json.loads(b"\n".join(lines)) if lines else None
    except ValueError:
        return None


def _ends(protocol: str, value: object) -> bool:
    """Whether an event ends the stream: the JSON-RPC response (MCP), or a status-update
    that ends or pauses the task (A2A: ``final: true``, or a terminal or interrupted
    state)."""
    if not isinstance(value, dict):
        return False
    if protocol == "mcp-streamable-http":
        return "method" not in value and ("result" in value or "error" in value)
    return "error" in value or is_final_status(value)  # (the final-status-missing preset's rule)


def rpc_recordings(protocol: str) -> list[RpcRecording]:
    """Every raw SSE recording of ``protocol``, in name order."""
    found = []
    for path in sorted((AGENT / protocol).glob("*.sse")):
        body = path.read_bytes()
        bounds = _events(body)
        ends = [i for i, (a, b) in enumerate(bounds) if _ends(protocol, _data(body[a:b]))]
        terminal = ends[0] if ends else None
        found.append(RpcRecording(f"{protocol}/{path.name}", protocol, body, bounds, terminal))
    return found


def rpc_client_rows(protocol: str, bodies: list[bytes], version: str) -> list[dict[str, str]]:
    """What the official client of ``protocol`` saw of each body, replayed by ``ssescope
    serve`` (one capture a body)."""
    import io
    import tempfile

    from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app

    if not bodies:
        return []
    with tempfile.TemporaryDirectory() as folder:
        names = []
        for i, body in enumerate(bodies):
            (Path(folder) / f"cut{i:05d}.sse").write_bytes(body)
            names.append(f"cut{i:05d}")
        app = make_app(load_captures(Path(folder)), ReplayOptions(), log=io.StringIO())
        with ServerThread(app) as server:
            job = {
                "protocol": "mcp" if protocol == "mcp-streamable-http" else "a2a",
                "version": version,
                "timeout": CLIENT_TIMEOUT_S,
                "urls": [f"{server.url}/{name}/rpc" for name in names],
            }
            done = subprocess.run(
                [str(CLIENTS_PYTHON), str(RPC_CLIENTS)],
                input=json.dumps(job),
                capture_output=True,
                text=True,
                check=True,
            )
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def _client_version(protocol: str) -> str:
    package = "mcp" if protocol == "mcp-streamable-http" else "a2a-sdk"
    done = subprocess.run(
        [
            str(CLIENTS_PYTHON),
            "-c",
            f"from importlib.metadata import version; print(version({package!r}))",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return f"{package} {done.stdout.strip()}" if done.returncode == 0 else ""


def rpc_rows() -> None:
    """The MCP and A2A table: each protocol's cuts, ssescope's verdicts, its client's."""
    print()
    print("MCP and A2A: cuts after each event before the terminal and inside each event up to it")
    print()
    print(
        "| protocol | recordings | cuts | ssescope said truncated | client "
        "| recordings it refuses whole | cuts of the others | noticed (raised or error) "
        "| hung | returned quietly |"
    )
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for protocol in RPC_PROTOCOLS:
        found = rpc_recordings(protocol)
        cuts = [c for r in found for c in r.cuts()]
        ours = sum(map(ssescope_noticed, cuts))
        name = _client_version(protocol) if CLIENTS_PYTHON.exists() else ""
        if not name:
            row = f"(needs {CLIENTS_PYTHON} with mcp and a2a-sdk) | - | - | - | - | -"
        else:
            counts = {"noticed": 0, "hung": 0, "returned": 0}
            refused = others = 0
            for rec in found:
                whole = rpc_client_rows(protocol, [rec.body], rec.version)[0]
                if rec.terminal is not None and whole["outcome"] in ("raised", "error"):
                    refused += 1
                    continue
                rows = rpc_client_rows(protocol, rec.cuts(), rec.version)
                others += len(rows)
                for r in rows:
                    outcome = r["outcome"]
                    key = "noticed" if outcome in ("raised", "error") else outcome
                    counts[key] += 1
            row = (
                f"{name} | {refused} | {others} | {counts['noticed']} | {counts['hung']} "
                f"| {counts['returned']}"
            )
        print(f"| {protocol} | {len(found)} | {len(cuts)} | {ours} | {row} |")


def ssescope_noticed(body: bytes) -> bool:
    """ssescope said the stream is cut."""
    return ssescope.inspect(body).status == "truncated"


class _Answer(BaseHTTPRequestHandler):
    body = b""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def _server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def genai_noticed(bodies: list[bytes]) -> list[bool]:
    """Whether google-genai's streaming Interactions client raised on each body."""
    from google import genai

    out = []
    with _server() as url:
        client = genai.Client(api_key="not-a-key", http_options={"base_url": url})
        for body in bodies:
            _Answer.body = body
            try:
                for _event in client.interactions.create(
                    model="gemini-2.5-flash", input="hi", stream=True
                ):
                    pass
            except Exception:  # any error the client raises is noticing
                out.append(True)
            else:
                out.append(False)
    return out


def agui_noticed(bodies: list[bytes]) -> list[bool]:
    """Whether @ag-ui/client's ``HttpAgent.runAgent`` threw on each body."""
    encoded = json.dumps([base64.b64encode(b).decode() for b in bodies])
    done = subprocess.run(
        ["node", str(NODE_DIR / "agui_cuts.mjs")],
        input=encoded,
        capture_output=True,
        text=True,
        check=True,
        cwd=NODE_DIR,
    )
    return [bool(r["noticed"]) for r in json.loads(done.stdout)]


def _agui_version() -> str:
    package = NODE_DIR / "node_modules" / "@ag-ui" / "client" / "package.json"
    return str(json.loads(package.read_text())["version"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rpc-only", action="store_true", help="only the MCP and A2A table (no genai, no node)"
    )
    args = parser.parse_args()
    if not AGENT.is_dir():
        sys.exit(f"the real agent streams are not at {AGENT} (set SSESCOPE_REAL_STREAMS)")
    if args.rpc_only:
        rpc_rows()
        return
    has_node = shutil.which("node") is not None and (NODE_DIR / "node_modules" / "@ag-ui").is_dir()
    clients = {
        "gemini-interactions": (f"google-genai {version('google-genai')}", genai_noticed),
        "ag-ui": (f"@ag-ui/client {_agui_version()}" if has_node else "", agui_noticed),
    }
    print(f"ssescope core: {ssescope.CORE}; cuts after each event before the first terminal")
    print()
    print(
        "| protocol | recordings | cuts | ssescope said truncated | client "
        "| recordings it refuses whole | cuts of the others | cuts it noticed |"
    )
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    for protocol in TERMINALS:
        found = [r for r in recordings() if r.protocol == protocol]
        cuts = [c for r in found for c in r.cuts()]
        ours = sum(map(ssescope_noticed, cuts))
        name, run = clients[protocol]
        if not name:
            row = "(needs `npm install --prefix bench/node`) | - | - | -"
        else:
            refused = run([r.body() for r in found])
            read = [r for r, no in zip(found, refused, strict=True) if not no]
            others = [c for r in read for c in r.cuts()]
            row = f"{name} | {sum(refused)} | {len(others)} | {sum(run(others))}"
        print(f"| {protocol} | {len(found)} | {len(cuts)} | {ours} | {row} |")
    rpc_rows()


if __name__ == "__main__":
    main()

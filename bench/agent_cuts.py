"""Cut Gemini Interactions and AG-UI recordings at every event boundary: which readers notice?

Run by hand (it is not part of the test suite)::

    npm install --prefix bench/node                  # @ag-ui/client, pinned in package.json
    PYTHONPATH=src python bench/agent_cuts.py        # SSESCOPE_REAL_STREAMS names the recordings

Each real recording under ``agent/gemini-interactions`` and ``agent/ag-ui`` is framed as
its server sends it (an SSE event per line, the Interactions ones with their ``event:``
name), then cut after each event before its first terminal (``interaction.completed`` /
``interaction.complete``, ``RUN_FINISHED`` / ``RUN_ERROR``): every such cut is a stream
whose end never arrived. Three readers get every cut:

- ssescope (``ssescope.inspect``), which must say ``truncated`` on each;
- google-genai's Interactions client (``client.interactions.create(..., stream=True)``),
  against a loopback server that answers with the cut;
- @ag-ui/client's ``HttpAgent.runAgent`` (Node), whose fetch answers with the cut.

A client *noticed* a cut when it raised (or, for ssescope, said ``truncated``). The whole
recordings are run first: a recording the client raises on as it is (a schema it refuses)
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
    parser.parse_args()
    if not AGENT.is_dir():
        sys.exit(f"the real agent streams are not at {AGENT} (set SSESCOPE_REAL_STREAMS)")
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


if __name__ == "__main__":
    main()

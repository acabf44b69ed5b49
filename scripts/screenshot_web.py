"""Take screenshots of the web page into docs/img/web-*.png, and time a 50k-record load.

Run by hand: ``PYTHONPATH=src python scripts/screenshot_web.py``. Every screenshot shows a
bundled example (``ssescope examples``), so anyone can reproduce it. Needs Playwright and
Debian's chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from ssescope.web import create_app

ROOT = Path(__file__).resolve().parents[1]
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _serve() -> tuple[uvicorn.Server, str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}/"


def big_stream(n: int = 50_000) -> bytes:
    """An Ollama NDJSON stream of ``n`` lines (one token each)."""
    lines = [
        json.dumps(
            {
                "model": "m",
                "created_at": "2026-01-01T00:00:00Z",
                "message": {"role": "assistant", "content": f"tok{i} "},
                "done": False,
            }
        )
        for i in range(n - 1)
    ]
    lines.append(
        json.dumps(
            {
                "model": "m",
                "created_at": "2026-01-01T00:00:09Z",
                "message": {"role": "assistant", "content": ""},
                "done": True,
                "done_reason": "stop",
                "prompt_eval_count": 3,
                "eval_count": n,
            }
        )
    )
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    """Write the screenshots and print the 50k-record timing."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--example", default="broken-openai-cut-mid-tool-call")
    parser.add_argument("--scrub-example", default="anthropic-thinking-tool-use")
    parser.add_argument("--scrub-to", default="13", help="the record the scrub shot stops at")
    args = parser.parse_args()
    server, url = _serve()
    out = ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for scheme in ("light", "dark"):
            page = browser.new_page(viewport={"width": 1440, "height": 900}, color_scheme=scheme)
            page.goto(url + "?example=" + args.example)
            page.wait_for_selector("body[data-state=ready]")
            page.locator("[data-testid=frame-row][data-state=cut]").click()
            page.wait_for_timeout(200)
            page.screenshot(path=str(out / f"web-{scheme}.png"), full_page=True)
            page.close()
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(url + "?example=" + args.scrub_example)
        page.wait_for_selector("body[data-state=ready]")
        page.locator("[data-testid=scrubber]").fill(args.scrub_to)
        page.wait_for_timeout(100)
        page.screenshot(path=str(out / "web-scrub.png"), full_page=True)
        page.close()

        data = big_stream()
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(url)
        page.wait_for_selector("body[data-examples=loaded]")
        page.locator("[data-testid=file-input]").set_input_files(
            files=[{"name": "big.ndjson", "mimeType": "application/x-ndjson", "buffer": data}]
        )
        start = time.perf_counter()
        page.wait_for_selector("body[data-state=ready]", timeout=120_000)
        loaded = time.perf_counter() - start
        start = time.perf_counter()
        page.locator("[data-testid=frame-table]").evaluate(
            "t => { t.scrollTop = t.scrollHeight / 2; }"
        )
        page.locator("[data-testid=frame-filter]").fill("tok4999")
        page.wait_for_timeout(0)
        filtered = time.perf_counter() - start
        print(
            f"50,000 records, {len(data):,} bytes: inspected and rendered in {loaded:.2f} s; filter in {filtered:.3f} s"
        )
        browser.close()
    server.should_exit = True


if __name__ == "__main__":
    main()

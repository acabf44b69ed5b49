"""Shared helpers of the verdict tests: a body through the library and through the CLI."""

from __future__ import annotations

import json
from typing import Any

import ssescope
from tests.cli.cli_helpers import run

__all__ = ["anthropic_sse", "chat_sse", "cli_report", "codes", "library_report"]


def library_report(body: bytes, **kwargs: Any) -> dict[str, Any]:
    """The Report of ``body`` through :func:`ssescope.inspect`, as JSON."""
    return ssescope.inspect(body, **kwargs).to_dict()


def cli_report(body: bytes, *args: str) -> tuple[int, dict[str, Any]]:
    """The exit code and the Report of ``ssescope inspect --json ARGS -`` fed ``body``."""
    result = run("inspect", "--json", *args, "-", stdin=body)
    return result.code, json.loads(result.out)


def codes(report: dict[str, Any]) -> list[str]:
    """The codes of a Report's diagnostics, in order."""
    return [d["code"] for d in report["diagnostics"]]


def chat_sse(*chunks: dict[str, Any] | str) -> bytes:
    """OpenAI Chat chunks (or the literal ``[DONE]``) as an SSE body."""
    out = []
    for chunk in chunks:
        data = chunk if isinstance(chunk, str) else json.dumps(chunk)
        out.append(f"data: {data}\n\n")
    return "".join(out).encode()


def anthropic_sse(*events: dict[str, Any]) -> bytes:
    """Anthropic Messages events as an SSE body (``event:`` names from their type)."""
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()

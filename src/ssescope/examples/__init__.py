"""Bundled example streams: one per provider, and a few broken ones.

Used by ``ssescope inspect --example NAME``, ``ssescope examples`` and the web page.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..errors import UsageError

__all__ = ["Example", "example_path", "list_examples", "read_example"]

_DESCRIPTIONS: dict[str, str] = {
    "openai-chat-tool-call.sse": "OpenAI Chat Completions: one streamed tool call, then usage",
    "openai-responses-reasoning.sse": "OpenAI Responses: a reasoning summary, then the answer",
    "anthropic-thinking-tool-use.sse": "Anthropic Messages: thinking, text, then a tool_use",
    "gemini-crlf.sse": "Gemini streamGenerateContent?alt=sse, CRLF line endings",
    "ollama-chat.ndjson": "Ollama /api/chat, NDJSON",
    "cohere-chat.sse": "Cohere v2 chat stream",
    "bedrock-converse.jsonl": "Bedrock ConverseStream, event payloads decoded to JSON lines",
    "vercel-ui.sse": "Vercel AI SDK UI-message stream",
    "broken-openai-cut-mid-tool-call.sse": "OpenAI chat cut in the middle of a tool call",
    "broken-bad-json-record.sse": "OpenAI chat with one invalid JSON record in the middle",
    "broken-crlf-keepalive.sse": "OpenAI chat with CRLF endings and ': keep-alive' comments",
    "broken-anthropic-overloaded.sse": "Anthropic stream ending in event: error overloaded_error",
}


@dataclass(frozen=True, slots=True)
class Example:
    """One bundled example.

    Attributes:
        name: the name without its extension (what ``--example`` takes).
        filename: the file name, with its extension.
        description: one line saying what it shows.
    """

    name: str
    filename: str
    description: str


def _dir() -> Path:
    return Path(str(resources.files(__name__)))


def list_examples() -> list[Example]:
    """Return every bundled example, sorted by name."""
    return [
        Example(path.name.rsplit(".", 1)[0], path.name, _DESCRIPTIONS[path.name])
        for path in sorted(_dir().iterdir())
        if path.name in _DESCRIPTIONS
    ]


def example_path(name: str) -> Path:
    """Return the path of the example ``name`` (with or without its extension).

    Raises:
        UsageError: if there is no such example.
    """
    for example in list_examples():
        if name in (example.name, example.filename):
            return _dir() / example.filename
    names = ", ".join(e.name for e in list_examples())
    raise UsageError(f"no example named {name!r}; known examples: {names}")


def read_example(name: str) -> bytes:
    """Return the bytes of the example ``name``.

    Raises:
        UsageError: if there is no such example.
    """
    return example_path(name).read_bytes()

"""No secret survives redaction, however it quotes, in any provider or surface.

Secrets with apostrophes, double quotes, backslashes and non-ASCII characters are put in
every field that carries content (text, reasoning, refusal, tool arguments, citations, an
invalid record, the provider's error message, a disagreeing snapshot) of a stream of
every provider; then ``inspect --json --redact``, the terminal view of ``inspect --redact``,
``frames --redact``, ``frames --jsonl --redact`` and the web page's redacted export must
not show any of it. The CLI runs in-process through click's runner.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ssescope.cli.app import cli
from ssescope.pipeline import Pipeline
from tests.redaction.streams import BUILDERS

# Two markers no redaction marker can contain (the hash is lowercase hex): a leak of any
# part of a secret that reaches one of its ends shows one of them.
HEAD, TAIL = "Zq7", "K9x"
TRICKY = [
    "'",
    '"',
    "\\",
    "\\'",
    '\\"',
    "é",
    "ß",
    "€",
    "😀",
    "\u2028",
    "\t",
    "`",
    "{",
    "}",
    "%",
    " ",
]
cores = st.lists(
    st.one_of(
        st.sampled_from(TRICKY), st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"))
    ),
    max_size=8,
).map("".join)

# The fields each stream is built to carry (checked below, so a leak test cannot pass
# because a field never reached the Report).
CARRIED = {
    "openai-chat": {"text", "reasoning", "refusal", "arguments", "citation", "invalid", "error"},
    "openai-responses": {
        "text", "reasoning", "refusal", "arguments", "citation", "invalid", "error", "snapshot"
    },
    "anthropic": {"text", "reasoning", "arguments", "citation", "cited", "invalid", "error"},
    "gemini": {"text", "reasoning", "arguments", "citation", "invalid", "error"},
    "ollama": {"text", "reasoning", "arguments", "invalid", "error"},
    "cohere": {"text", "reasoning", "plan", "arguments", "citation", "invalid", "error"},
    "bedrock": {"text", "reasoning", "arguments", "citation", "invalid", "error"},
    "vercel-ui": {"text", "reasoning", "arguments", "citation", "invalid", "error"},
    "a2a": {"text", "data", "file", "part", "message", "ask", "invalid", "error"},
    "mcp": {"progress", "log", "request", "invalid", "text"},
}  # fmt: skip


def _secret(core: str):
    return lambda tag: f"{HEAD}{tag}{core}{TAIL}"


def _surfaces(provider: str, body: bytes) -> dict[str, str]:
    runner = CliRunner()
    base = ["--provider", provider, "-"]
    out = {}
    for name, args in {
        "inspect --json --redact": ["inspect", "--json", "--redact", *base],
        "inspect --pretty --redact": ["inspect", "--pretty", "--redact", *base],
        "frames --redact": ["frames", "--redact", *base],
        "frames --jsonl --redact": ["frames", "--jsonl", "--redact", *base],
    }.items():
        result = runner.invoke(cli, args, input=body, env={"COLUMNS": "2000"})
        assert result.exception is None or isinstance(result.exception, SystemExit), name
        out[name] = result.output
    return out


def _web_export(client, provider: str, body: bytes) -> str:
    res = client.post(f"/api/report?redact=1&provider={provider}", content=body)
    assert res.status_code == 200
    return res.text


@pytest.fixture(scope="module")
def client():
    from starlette import testclient

    from ssescope.web import create_app

    return testclient.TestClient(create_app(), base_url="http://127.0.0.1:8765")


@pytest.mark.parametrize("provider", sorted(BUILDERS))
def test_every_content_field_reaches_the_report(provider: str) -> None:
    pipeline = Pipeline(provider=provider)
    pipeline.feed(BUILDERS[provider](_secret('It\'s "q" \\ é')))
    pipeline.close()
    text = json.dumps(pipeline.report().to_dict(), ensure_ascii=False)
    assert set(re.findall(rf"{HEAD}(\w+?)It", text)) == CARRIED[provider]


@pytest.mark.parametrize("provider", sorted(BUILDERS))
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(core=cores)
def test_no_secret_appears_in_any_redacted_surface(client, provider: str, core: str) -> None:
    body = BUILDERS[provider](_secret(core))
    surfaces = _surfaces(provider, body)
    surfaces["web redacted export"] = _web_export(client, provider, body)
    for name, text in surfaces.items():
        assert text, name
        for marker in (HEAD, TAIL):
            assert marker not in text, f"{provider}: {name} shows a secret:\n{text}"

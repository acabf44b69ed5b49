"""conform against a real gateway: LiteLLM's proxy in front of ``ssescope serve``.

The replay server answers as a conforming OpenAI-compatible server would
(:mod:`tests.conform.replies`, ``--by-request``); every failed check is then LiteLLM's
own, as a translator. Chat Completions pass straight through its OpenAI route; its
Anthropic-compatible ``/v1/messages`` translates each Messages request into a chat request
upstream and the chat stream back into Messages events. The failures are pinned here and
listed in docs/conform.md ("LiteLLM").
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from ssescope.serve.app import ReplayOptions, ServerThread, load_captures, make_app
from tests.cli.cli_helpers import run

from .litellm_proxy import LITELLM_ENV, MODEL_NAME, litellm_proxy
from .replies import MODEL, write_chat_replies

_STREAMED = ["after-hangup", "max-tokens", "plain", "tool-forced", "tools-parallel"]

# what LiteLLM 1.80.17 fails, by protocol: check id -> the cases whose answers failed it
EXPECTED_FAILURES: dict[str, dict[str, list[str]]] = {
    "openai-chat": {
        # the stream headers of the upstream are not passed on
        "http.cache-control": sorted([*_STREAMED, "n2", "usage"]),
        "http.accel-buffering": sorted([*_STREAMED, "n2", "usage"]),
        # n=2: the upstream streams choices 0 and 1; only choice 0 reaches the client
        "request.n-choices": ["n2"],
        # the client hung up; the proxy read the upstream stream to its end
        "hangup.upstream-closed": ["hangup"],
    },
    "anthropic": {
        # an invalid Messages request is answered HTTP 500 with a body that is not an
        # Anthropic error object (no "type")
        "request.invalid-rejected": ["reject"],
        "events.typed": ["reject"],
        "http.cache-control": _STREAMED,
        "http.accel-buffering": _STREAMED,
        "hangup.upstream-closed": ["hangup"],
    },
}


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    executable = os.environ.get(LITELLM_ENV)
    if not executable:
        if os.environ.get("CI"):
            pytest.fail(f"{LITELLM_ENV} is not set: .ci/run builds LiteLLM's venv and sets it")
        pytest.skip(f"{LITELLM_ENV} is not set (.ci/run builds LiteLLM's venv and sets it)")
    replies = write_chat_replies(tmp_path_factory.mktemp("replies"))
    options = ReplayOptions(delay="original", by_request=True)
    with (
        ServerThread(make_app(load_captures(replies), options)) as upstream,
        litellm_proxy(executable, upstream.url, MODEL, tmp_path_factory.mktemp("litellm")) as url,
    ):
        yield url, upstream.url


@pytest.mark.parametrize("protocol", ["openai-chat", "anthropic"])
def test_litellm_fails_the_checks_it_is_known_to_fail(
    gateway: tuple[str, str], protocol: str, tmp_path: Path
) -> None:
    url, upstream = gateway
    junit = tmp_path / "litellm.xml"
    result = run(
        "conform",
        url + "/v1",
        "--protocol",
        protocol,
        "--model",
        MODEL_NAME,
        "--upstream",
        upstream,
        "--timeout",
        "30",
        "--json",
        "--junit",
        str(junit),
    )
    doc = json.loads(result.out)
    failed = {
        c["id"]: sorted({e["exchange"] for e in c["evidence"]})
        for c in doc["checks"]
        if c["verdict"] == "fail"
    }
    answered = next(c for c in doc["checks"] if c["id"] == "request.answered")
    assert answered["judged"] >= 4
    assert failed == EXPECTED_FAILURES[protocol]

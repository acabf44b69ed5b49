"""A user's suite, run as a user runs it: the plugin installed through its entry point
(no ``-p`` flag), the example suites of docs/testing.md (HTTP and WebSocket), and a suite checking how the
plugin was loaded. One pytest subprocess runs them all."""

from __future__ import annotations

import re
import subprocess

import pytest

from ssescope.testing import CHUNKINGS

from .helpers import ROOT, declared_entry_point, installed_site, run_pytest

pytestmark = pytest.mark.network

BLOCK = re.compile(r"```python\n# file: (?P<name>[\w.]+)\n(?P<code>.*?)```", re.S)

LOADING_SUITE = """
import openai
import pytest
from ssescope.testing import assert_assembled


def test_plugin_registered_by_its_entry_point(pytestconfig):
    import ssescope.testing.plugin as plugin
    # an entry point plugin is registered under the entry point's name
    assert pytestconfig.pluginmanager.get_plugin("ssescope") is plugin


def test_chunked(ssescope_server, ssescope_chunking):
    url = ssescope_server.url("openai-chat-tool-call", chunk=ssescope_chunking)
    client = openai.OpenAI(base_url=url, api_key="test", max_retries=0)
    with client.chat.completions.stream(model="m", messages=[]) as stream:
        for _ in stream:
            pass
        assert_assembled(url, stream.get_final_completion())


@pytest.mark.ssescope_chunkings("whole", "random:5")
def test_marked(ssescope_chunking):
    assert ssescope_chunking in ("whole", "random:5")
"""


def doc_files() -> dict[str, str]:
    text = (ROOT / "docs" / "testing.md").read_text()
    return {m["name"]: m["code"] for m in BLOCK.finditer(text)}


@pytest.fixture(scope="module")
def user_run(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    tmp = tmp_path_factory.mktemp("user")
    suite = tmp / "suite"
    suite.mkdir()
    for name, code in doc_files().items():
        (suite / name).write_text(code)
    (suite / "test_loading.py").write_text(LOADING_SUITE)
    return run_pytest(suite, installed_site(tmp), "-v")


def test_the_docs_hold_both_example_suites() -> None:
    assert sorted(doc_files()) == [
        "chat_client.py",
        "claude_client.py",
        "test_chat_client.py",
        "test_claude_client.py",
        "test_ws_client.py",
    ]


def test_the_example_suites_of_the_docs_pass(user_run: subprocess.CompletedProcess[str]) -> None:
    out = user_run.stdout
    assert user_run.returncode == 0, out + user_run.stderr
    assert "warning" not in out.splitlines()[-1], out
    counts = (("test_chat_client.py", 18), ("test_claude_client.py", 13), ("test_ws_client.py", 2))
    for module, count in counts:
        passed = re.findall(rf"^{re.escape(module)}::\S+ PASSED", out, re.M)
        assert len(passed) == count, out


def test_the_declared_entry_point_loads_the_plugin_with_no_flag(
    user_run: subprocess.CompletedProcess[str],
) -> None:
    assert declared_entry_point() == ("ssescope", "ssescope.testing.plugin")
    out = user_run.stdout
    assert "test_loading.py::test_plugin_registered_by_its_entry_point PASSED" in out, out
    for chunking in CHUNKINGS:
        assert f"test_loading.py::test_chunked[{chunking}] PASSED" in out
    assert "test_loading.py::test_marked[whole] PASSED" in out
    assert "test_loading.py::test_marked[random:5] PASSED" in out

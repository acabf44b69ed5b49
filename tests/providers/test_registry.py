"""The provider registry: one package per provider, and nothing else names one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import ssescope
from ssescope.framing.records import SSEEvent
from ssescope.providers import registry
from ssescope.providers._knowledge import ABSENT, PRESENT, Knowledge, Probe, member_rule, type_rule
from ssescope.providers.detect import detect_provider
from ssescope.serve.quirks import PRESETS

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "ssescope"
PROVIDERS_DIR = SRC / "providers"
PACKAGES = sorted(p.name for p in PROVIDERS_DIR.iterdir() if (p / "__init__.py").is_file())


def _named_packages(path: Path) -> set[str]:
    """The provider packages a module imports or names as a module path."""
    tree = ast.parse(path.read_text())
    named: set[str] = set()
    for node in ast.walk(tree):
        parts: list[str] = []
        if isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".")
            if node.module in (None, "providers", "ssescope.providers") or (
                node.level and node.module is None
            ):
                parts += [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            parts = [p for alias in node.names for p in alias.name.split(".")]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            # a module path given to importlib (prose that quotes one is not an import)
            if re.fullmatch(r"[\w.:]+", node.value):
                parts = re.split(r"[.:]", node.value)
        elif isinstance(node, ast.JoinedStr):
            # an f-string module path built at run time: "ssescope.providers.{name}"
            text = "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
            if re.search(r"(^|\.)providers\.$", text):
                named.add("<a provider package chosen at run time>")
        for i, part in enumerate(parts[:-1]):
            if part == "providers" and parts[i + 1] in PACKAGES:
                named.add(parts[i + 1])
    return named


def test_every_provider_is_a_package_listed_once_in_the_registry() -> None:
    assert sorted(registry._PACKAGES.values()) == PACKAGES
    assert tuple(registry._PACKAGES) == registry.PROVIDERS


def test_nothing_outside_the_provider_packages_names_one() -> None:
    offenders = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        if rel.parts[0] == "providers" and (len(rel.parts) > 2 or rel.name == "registry.py"):
            continue  # a provider package itself, or the registry
        named = _named_packages(path)
        if named:
            offenders[str(rel)] = sorted(named)
    assert offenders == {}


def test_the_scan_sees_an_import_of_a_provider_package(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from ..providers.openai_chat import OpenAIChatAdapter\n"
        "from ssescope.providers import gemini\n"
        "import importlib\n"
        "importlib.import_module('ssescope.providers.vercel_ui.quirks')\n"
        "importlib.import_module(f'ssescope.providers.{name}')\n"
        "PROSE = 'the adapter (`ssescope.providers.cohere`) is not an import'\n"
    )
    assert _named_packages(module) == {
        "openai_chat",
        "gemini",
        "vercel_ui",
        "<a provider package chosen at run time>",
    }


@pytest.mark.parametrize("provider", registry.PROVIDERS)
def test_each_package_knows_its_name_and_its_adapter(provider: str) -> None:
    knowledge = registry.knowledge(provider)
    assert isinstance(knowledge, Knowledge)
    assert knowledge.name == provider
    adapter = registry.make_adapter(provider, "sse")
    assert type(adapter).name == provider


def test_rules_run_in_one_order_without_ties() -> None:
    orders = [rule.order for _, rule in registry.detect_rules()]
    assert orders == sorted(orders)
    assert len(set(orders)) == len(orders)
    assert {p for p, _ in registry.detect_rules()} == set(registry.PROVIDERS) - {"unknown"}


def test_a_wire_rule_decides_before_the_data_is_read() -> None:
    record = SSEEvent(0, "event:chunk", "not json", "", None, 0, 10)
    assert detect_provider(record) == (
        "bedrock",
        "AWS event-stream message type 'event:chunk'",
    )


def test_terminal_events_are_the_union_of_the_packages() -> None:
    assert registry.terminal_events() == frozenset(
        {
            "message_stop",
            "response.completed",
            "response.incomplete",
            "response.failed",
            "response.done",
            "message-end",
            "finish",
            "stream-end",
            "interaction.completed",
            "interaction.complete",
        }
    )


def test_a_provider_without_templates_gets_the_default_error_frame_and_body() -> None:
    default_frame = registry.error_frame("openai-chat", "sse")
    default_body = registry.error_body("openai-chat", 500)
    assert registry.error_frame("unknown", "sse") == default_frame
    assert registry.error_frame("no-such-provider", "sse") == default_frame
    assert registry.error_body("ollama", 500) == default_body
    assert registry.error_body("no-such-provider", 500) == default_body
    assert registry.error_body("anthropic", 529) != default_body


def test_the_binary_framing_uses_its_own_provider_error_frame() -> None:
    frame = registry.error_frame("unknown", "aws-eventstream")
    assert frame == registry.error_frame("bedrock", "aws-eventstream")
    report = ssescope.inspect(frame)
    assert report.provider == "bedrock"
    assert report.status == "failed"


def test_quirk_presets_agree_with_the_packages_quirk_modules() -> None:
    for preset in PRESETS:
        if preset.applies_to[0].startswith("any"):
            assert all(preset.name not in registry.quirk_transforms(p) for p in registry.PROVIDERS)
            continue
        implementing = {
            p for p in registry.PROVIDERS if preset.name in registry.quirk_transforms(p)
        }
        assert implementing == set(preset.applies_to), preset.name


def test_an_unknown_provider_is_a_usage_error() -> None:
    with pytest.raises(ssescope.UsageError, match="unknown provider 'nope'"):
        registry.make_adapter("nope", "sse")
    assert registry.quirk_transforms("nope") == {}


def test_the_readme_lists_every_provider_and_the_guide_names_the_registry() -> None:
    readme = (ROOT / "README.md").read_text()
    for provider in registry.PROVIDERS:
        if provider != "unknown":
            assert f"| `{provider}` |" in readme
    guide = (ROOT / "docs" / "adding-a-provider.md").read_text()
    assert "src/ssescope/providers/registry.py" in guide
    for field in Knowledge.__dataclass_fields__:
        assert f"`{field}`" in guide


def _probe(obj: dict[str, object]) -> Probe:
    kind = obj.get("type")
    return Probe(None, obj, kind if isinstance(kind, str) else None)


def test_a_member_rule_matches_values_types_and_presence() -> None:
    rule = member_rule(
        1, "it", {"type": "error", "error": dict, "id": PRESENT, "extra": ABSENT, "x": None}
    )
    assert rule.test(_probe({"type": "error", "error": {}, "id": 0})) == "it"
    assert rule.test(_probe({"type": "error", "error": {}, "id": 0, "x": None})) == "it"
    misses: list[dict[str, object]] = [
        {"type": "done", "error": {}, "id": 0},
        {"type": "error", "error": "text", "id": 0},
        {"type": "error", "error": {}},
        {"type": "error", "error": {}, "id": 0, "extra": 1},
        {"type": "error", "error": {}, "id": 0, "x": 1},
    ]
    for miss in misses:
        assert rule.test(_probe(miss)) is None, miss
    assert rule.test(Probe("error", None, None)) is None


def test_a_type_rule_may_read_another_member() -> None:
    rule = type_rule(1, "an event", frozenset({"step.start"}), key="event_type")
    assert (
        rule.test(_probe({"event_type": "step.start"}))
        == "JSON event_type 'step.start' is an event"
    )
    assert rule.test(_probe({"event_type": ["step.start"]})) is None
    assert rule.test(_probe({"type": "step.start"})) is None

"""The type check of the tests stays a gate: in `.ci/run`, in the README's everyday loop,
and configured to check every test module with nothing switched off wholesale."""

from __future__ import annotations

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "python -m mypy --config-file tests/mypy.ini"


def _config() -> configparser.ConfigParser:
    config = configparser.ConfigParser()
    config.read(ROOT / "tests" / "mypy.ini", encoding="utf-8")
    return config


def test_ci_runs_the_type_check_of_the_tests() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    steps = [line.strip() for line in lines if not line.lstrip().startswith("#")]
    assert '"$PY" -m mypy --config-file tests/mypy.ini' in steps


def test_the_readme_everyday_loop_runs_it() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    loop = readme.split("the everyday loop is", 1)[1].split("```", 2)[1]
    assert COMMAND in loop
    assert loop.index(COMMAND) < loop.index("python -m pytest")


def test_the_config_checks_the_whole_test_tree() -> None:
    main = _config()["mypy"]
    assert main["files"].strip() == "tests"
    assert main["exclude"].strip() == "^tests/fixtures/"  # data, not code
    assert main.getboolean("check_untyped_defs")
    assert main.getboolean("warn_unused_ignores")


def test_no_test_module_has_its_errors_switched_off() -> None:
    config = _config()
    switched_off = [
        name
        for name in config.sections()
        if config[name].getboolean("ignore_errors", fallback=False)
        or config[name].get("disable_error_code", "").strip()
    ]
    assert switched_off == []
    third_party = [name for name in config.sections() if name.startswith("mypy-")]
    assert not [name for name in third_party if name.startswith("mypy-tests")]

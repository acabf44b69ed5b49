"""Helpers: run the command line as a subprocess of this worktree's code."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "src" / "ssescope" / "examples"
_DEFAULT = ROOT.parent / "shared" / "real_streams"
if not _DEFAULT.is_dir() and (ROOT / ".git").is_file():  # a git worktree: use the main checkout's
    _DEFAULT = ROOT.parents[1] / "shared" / "real_streams"
STREAMS = Path(os.environ.get("SSESCOPE_REAL_STREAMS", _DEFAULT))


@dataclass
class Result:
    """What a run of ``ssescope`` gave."""

    code: int
    out: str
    err: str


def run(
    *args: str,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    module: bool = True,
    dash_m: bool = False,
    process: bool = False,
) -> Result:
    """Run ``ssescope ARGS`` with this tree's code and return what it gave.

    By default the command line runs in this process (``ssescope.cli.main`` with stdin,
    stdout, stderr and the environment swapped), which is what almost every test needs and
    costs no interpreter start. ``process=True`` runs the installed console script (or
    ``python -m ssescope`` where it is not installed) as a user does; ``dash_m=True`` runs
    ``python -m ssescope``; ``module=False`` runs the ``main`` entry point through ``-c``.
    Those are for the tests about the console script itself.
    """
    if not (process or dash_m or not module):
        return _run_in_process(args, stdin, env)
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    full_env["PYTHONPATH"] = str(ROOT / "src")
    full_env.update(env or {})
    # the installed console script, as a user runs it (PYTHONPATH makes it run this tree)
    script = None if dash_m else shutil.which("ssescope")
    cmd = [script, *args] if script else [sys.executable, "-m", "ssescope", *args]
    if not module:
        cmd = [sys.executable, "-c", "import sys; from ssescope.cli import main; sys.exit(main())"]
        cmd += list(args)
    proc = subprocess.run(
        cmd, input=stdin or b"", capture_output=True, env=full_env, timeout=120, check=False
    )
    return Result(
        proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8")
    )


# Variables that steer colour, width and terminal detection: a test sees none of the
# developer's own, as in a fresh process started with the environment cleaned.
_CLEARED = ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES", "TERM")


def _run_in_process(
    args: tuple[str, ...], stdin: bytes | None, env: dict[str, str] | None
) -> Result:
    from click.testing import CliRunner

    from ssescope.cli import main

    overrides: dict[str, str | None] = dict.fromkeys(_CLEARED)
    overrides.update(env or {})
    runner = CliRunner()
    with runner.isolation(input=stdin or b"", env=overrides) as streams:
        code = main(list(args))
        sys.stdout.flush()
        sys.stderr.flush()
        out = streams[0].getvalue()
        err = streams[1].getvalue()
    return Result(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))

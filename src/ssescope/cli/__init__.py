"""The ``ssescope`` command line (click + rich).

Exit codes are stable; see :mod:`ssescope.cli.exitcodes` and docs/cli.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from ..errors import SSEScopeError
from ..visible import visible
from . import exitcodes
from ._pipe import quiet_stdout
from .app import COMMANDS, cli

__all__ = ["cli", "main", "main_module"]


# optional dependencies of the commands, and the extra that brings each
_EXTRAS = {
    "httpx": "http",
    "aiohttp": "aiohttp",
    "starlette": "serve",
    "uvicorn": "serve",
    "duckdb": "scan",
    "pyarrow": "scan",
    "ray": "ray",
}


def _error(message: str) -> None:
    sys.stderr.write(f"ssescope: error: {visible(message)}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code (the console script's entry point)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        result = cli.main(args=args, prog_name="ssescope", standalone_mode=False)
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "ssescope"
        _error(f"{exc.format_message()} (see `{where} --help`)")
        return exitcodes.USAGE
    except click.exceptions.Abort:
        sys.stderr.write("ssescope: interrupted\n")
        return exitcodes.INTERRUPTED
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("ssescope: interrupted\n")
        return exitcodes.INTERRUPTED
    except SSEScopeError as exc:
        _error(str(exc))
        return exitcodes.USAGE
    except BrokenPipeError:
        # the reader went away (`| head`): nothing more to say, and nothing left to flush
        quiet_stdout()
        return exitcodes.COMPLETED
    except ModuleNotFoundError as exc:
        extra = _EXTRAS.get((exc.name or "").split(".")[0])
        if extra is None:
            _error(f"internal error: {type(exc).__name__}: {exc}")
            return exitcodes.INTERNAL
        _error(
            f"this command needs {exc.name}, which is not installed: pip install 'ssescope[{extra}]'"
        )
        return exitcodes.INTERNAL
    except OSError as exc:
        _error(f"{exc.strerror or exc}{f': {exc.filename!r}' if exc.filename else ''}")
        return exitcodes.INTERNAL
    except Exception as exc:
        _error(f"internal error: {type(exc).__name__}: {exc}")
        return exitcodes.INTERNAL
    return result if isinstance(result, int) else exitcodes.COMPLETED


def main_module(argv: Sequence[str] | None = None) -> int:
    """``python -m ssescope [FILE]``: ``inspect`` unless the first word is a command."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or (args[0] not in COMMANDS and args[0] not in ("--help", "-h", "--version")):
        args = ["inspect", *args]
    return main(args)

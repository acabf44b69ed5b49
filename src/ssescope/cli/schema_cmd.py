"""``ssescope schema``: print the JSON Schema of the Report."""

from __future__ import annotations

import sys

import click

from ..output.schema import report_schema_text
from . import exitcodes

__all__ = ["schema_command"]


@click.command("schema", context_settings={"help_option_names": ["-h", "--help"]})
def schema_command() -> int:
    """Print the JSON Schema (draft 2020-12) of the Report that `inspect --json` prints."""
    sys.stdout.write(report_schema_text())
    return exitcodes.COMPLETED

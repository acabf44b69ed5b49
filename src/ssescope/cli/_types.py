"""Option types with their ranges, so a bad value is a usage error (exit 2), never a crash."""

from __future__ import annotations

import math

import click

__all__ = ["PORT", "positive"]

PORT = click.IntRange(0, 65535)
"""A TCP port; 0 asks the system for a free one."""


def positive(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """Option callback: a finite number greater than 0 (seconds, a speed factor), or None."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"{value} is not a finite number greater than 0", ctx, param)
    return value

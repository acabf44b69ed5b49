"""Option types with their ranges, so a bad value is a usage error (exit 2), never a crash."""

from __future__ import annotations

import math
from typing import Any

import click

__all__ = ["PORT", "SECONDS", "positive"]

PORT = click.IntRange(0, 65535)
"""A TCP port; 0 asks the system for a free one."""


def positive(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """Option callback: a finite number greater than 0 (seconds, a speed factor), or None."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"{value} is not a finite number greater than 0", ctx, param)
    return value


class _Seconds(click.FloatRange):
    """A number of seconds, more than 0 and finite: ``nan`` passes every comparison of a
    range and ``inf`` its lower bound, and either would switch a time-out off unseen."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds.", param, ctx)
        return seconds


SECONDS = _Seconds(min=0.0, min_open=True)
"""An option's value that is a number of seconds, more than 0 (and finite)."""

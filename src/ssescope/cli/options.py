"""Options shared by several commands, so each takes the same values everywhere."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..aggregate.timing import TimingOptions
from ..framing.framer import FRAMINGS
from ..providers.registry import PROVIDERS
from . import exitcodes
from ._feed import CONTAINER_CHOICES
from ._types import SECONDS

__all__ = [
    "FAIL_ON_HELP",
    "FOLDER",
    "PROVIDER_CHOICE",
    "allow_host_option",
    "connection_limit_options",
    "container_option",
    "framing_option",
    "host_option",
    "idle_threshold_option",
    "parse_fail_on",
    "provider_option",
    "seconds_option",
    "timing_options",
]

_F = TypeVar("_F", bound=Callable[..., Any])

PROVIDER_CHOICE = click.Choice(["auto", *PROVIDERS])
"""``--provider``: auto or one of the provider adapters."""


def seconds_option(name: str, default: float, help: str) -> Callable[[_F], _F]:
    """An option of a number of seconds (more than 0), its default shown."""
    return click.option(name, type=SECONDS, default=default, show_default=True, help=help)


def provider_option(func: _F) -> _F:
    """Add the ``--provider`` option, with the same choices in every command."""
    return click.option("--provider", type=PROVIDER_CHOICE, default="auto", show_default=True)(func)


def idle_threshold_option(func: _F) -> _F:
    """Add ``--idle-threshold SECONDS``: a fixed stall threshold (see docs/timing.md)."""
    return click.option(
        "--idle-threshold",
        type=SECONDS,
        default=None,
        metavar="SECONDS",
        help="A silence this long is a timing.stall: a fixed threshold instead of the "
        "default from the stream's own pace (max(2 s, 20 x its median gap), at most 10 s).",
    )(func)


def timing_options(idle_threshold: float | None) -> TimingOptions | None:
    """The TimingOptions of ``--idle-threshold`` (``None``: the defaults)."""
    if idle_threshold is None:
        return None
    return TimingOptions(stall_s=idle_threshold, stall_pace=None)


def framing_option(func: _F) -> _F:
    """Add the ``--framing`` option, with the same choices in every command."""
    return click.option(
        "--framing", type=click.Choice(["auto", *FRAMINGS]), default="auto", show_default=True
    )(func)


def container_option(func: _F) -> _F:
    """Add the ``--container`` option, with the same choices in every command."""
    return click.option(
        "--container",
        type=click.Choice(CONTAINER_CHOICES),
        default="auto",
        show_default=True,
        help="What wraps the body: a bare body (raw), curl -i, a curl trace, HAR, .ssecap.",
    )(func)


def host_option(func: _F) -> _F:
    """Add the ``--host`` option of the commands that serve (``serve``, ``web``, ``proxy``)."""
    return click.option(
        "--host",
        default=None,
        help="Address to bind (default 127.0.0.1; anything else is a warning).",
    )(func)


def connection_limit_options(func: _F) -> _F:
    """``--header-timeout`` and ``--max-connections``: how long a connection may take to
    send its request head, and how many may be open at once (``proxy``, ``web``,
    ``serve``)."""
    func = click.option(
        "--max-connections",
        type=click.IntRange(min=1),
        default=None,
        help="Connections open at once; more get 503 (default: what the open-file limit "
        "allows, a third of it).",
    )(func)
    return seconds_option(
        "--header-timeout",
        10.0,
        "Seconds a connection has to send a whole request head (then 408 and closed).",
    )(func)


def allow_host_option(func: _F) -> _F:
    """Add ``--allow-host`` (the ``extra_hosts`` argument) to ``serve`` and ``proxy``."""
    return click.option(
        "--allow-host",
        "extra_hosts",
        multiple=True,
        metavar="NAME",
        help="Also answer requests whose Host header names NAME (repeatable; e.g. the name a "
        "container uses to reach this machine). Others get 421.",
    )(func)


FOLDER = click.Path(file_okay=False, path_type=Path)
"""An option's value that names a folder (made when first written to)."""

FAIL_ON_HELP = "Comma-separated: incomplete (exit 6), warning or error (exit 5)."


def parse_fail_on(value: str | None) -> list[str]:
    """Split a ``--fail-on`` value into its levels (``incomplete``, ``warning``, ``error``).

    Raises:
        click.BadParameter: for a level that is not one of them.
    """
    if not value:
        return []
    items = [v.strip() for v in value.split(",") if v.strip()]
    bad = [v for v in items if v not in exitcodes.FAIL_ON_CHOICES]
    if bad:
        raise click.BadParameter(
            f"{bad[0]!r} is not one of {', '.join(exitcodes.FAIL_ON_CHOICES)}",
            param_hint="--fail-on",
        )
    return items

"""Which core runs: the library and the command line say it, and CI can pin it."""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES

import ssescope
from ssescope.framing import sse
from ssescope.pipeline import Pipeline


def test_the_core_is_named_after_how_its_modules_were_loaded() -> None:
    compiled = (sse.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))
    assert ("mypyc" if compiled else "pure") == ssescope.CORE
    assert ssescope.core_label() == ("compiled core (mypyc)" if compiled else "pure-Python core")


def test_the_core_is_compiled_or_pure_as_one() -> None:
    # Pipeline stands at the other end of the core from the SSE framer.
    import ssescope.pipeline as pipeline_module

    compiled = (pipeline_module.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))
    assert compiled == (ssescope.CORE == "mypyc")
    assert Pipeline.__doc__


def test_the_core_ci_asked_for_is_the_one_running() -> None:
    # .ci/run sets SSESCOPE_EXPECT_CORE for each run, so that a build that silently fell
    # back to pure Python cannot pass as the compiled core (or the reverse).
    expected = os.environ.get("SSESCOPE_EXPECT_CORE")
    assert expected in (None, "mypyc", "pure")
    if expected is not None:
        assert expected == ssescope.CORE

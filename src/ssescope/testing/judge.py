"""``assert_assembled``: did the client build what the stream it was served says?"""

from __future__ import annotations

import os
from pathlib import Path

from ..aggregate.report import Report
from ..api import inspect
from ..compare import Difference, compare_result, normalise_result, shape_name
from .server import ServedURL, source_bytes

__all__ = ["assert_assembled"]


def _describe(source: ServedURL | bytes | str | os.PathLike[str]) -> str:
    if isinstance(source, ServedURL):
        return f"the stream served at {source!s}"
    if isinstance(source, bytes):
        return f"the stream ({len(source)} bytes)"
    return f"the stream {Path(source).name if Path(source).exists() else str(source)!r}"


def _message(shape: str, where: str, diffs: list[Difference]) -> str:
    lines = [f"the client's result ({shape_name(shape)}) differs from {where}:"]
    for diff in diffs:
        lines.append(f"  {diff.path}: {diff.message}")
        lines.extend(f"      {line}" for line in diff.detail)
    return "\n".join(lines)


def assert_assembled(source: ServedURL | bytes | str | os.PathLike[str], result: object) -> Report:
    """Fail unless ``result`` states what the right assembly of ``source`` holds.

    The comparison is ``ssescope check --against``'s (:func:`ssescope.compare.compare_result`):
    only what the result states is compared, tool arguments as parsed JSON.

    Args:
        source: what the client was served: the URL ``ssescope_server.url(...)`` returned
            (its faults and quirks included), the body's bytes, a path or a bundled
            example name.
        result: what the client built: an SDK object (openai ``ChatCompletion`` or
            ``Response``, anthropic ``Message``, Gemini ``GenerateContentResponse``), its
            JSON, a dict of the Report's field names, or a text.

    Returns:
        The Report of the stream, for further assertions.

    Raises:
        AssertionError: the result differs; the message lists each differing field.
        ssescope.compare.ResultError: the result has no known shape.
    """
    report = inspect(iter([source_bytes(source)]))
    expected = normalise_result(result)
    diffs = compare_result(expected, report)
    if diffs:
        raise AssertionError(_message(expected.shape, _describe(source), diffs))
    return report

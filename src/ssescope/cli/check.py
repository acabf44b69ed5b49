"""``check STREAM --against RESULT``: did a client assemble STREAM the way ssescope did?

The comparison is the library's (:mod:`ssescope.compare`); this module prints it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from .. import strictjson
from ..aggregate.report import Report
from ..compare import Difference, ExpectedReply, shape_name
from ..visible import visible
from . import exitcodes

__all__ = ["print_differences", "stream_exit"]

_BROKEN = {
    "truncated": exitcodes.TRUNCATED,
    "failed": exitcodes.FAILED,
    "cancelled": exitcodes.INTERRUPTED,
}


def stream_exit(report: Report) -> int | None:
    """The exit code of a stream that was itself cut, failed or cancelled (``None`` when it
    ended on purpose): it wins over the comparison's."""
    return _BROKEN.get(report.status)


def print_differences(
    console: Console,
    expected: ExpectedReply,
    diffs: Sequence[Difference],
    as_json: bool,
    report: Report | None = None,
) -> None:
    """Print the outcome of a comparison: one line when the result agrees, else each
    differing field and its differences (or the JSON form with ``as_json``). With the
    stream's ``report``, a stream that was cut or failed is said first."""
    shape = shape_name(expected.shape)
    broken = report is not None and stream_exit(report) is not None
    if as_json:
        data: dict[str, object] = {
            "shape": expected.shape,
            "compared": expected.stated(),
            "same": not diffs,
            "differences": [d.to_dict() for d in diffs],
        }
        if report is not None:
            data["stream"] = {
                "status": report.status,
                "status_reason": report.response.status_reason,
            }
        strictjson.write(data, console.file, indent=2)
        return
    if broken and report is not None:
        reason = report.response.status_reason
        console.print(
            Text(
                f"the stream itself is {report.status}: {visible(reason or '')}; the client's "
                "result cannot be a whole reply",
                style="bold red",
            ),
            soft_wrap=True,
        )
    if not diffs:
        stated = ", ".join(expected.stated()) or "nothing"
        console.print(Text(f"same: {stated} (read as {shape})", style="green"), soft_wrap=True)
        return
    console.print(
        Text(f"the result ({shape}) differs from the stream", style="bold"), soft_wrap=True
    )
    fields: dict[str, list[Difference]] = {}
    for diff in diffs:
        fields.setdefault(diff.field, []).append(diff)
    for name, group in fields.items():
        console.print(Text(f"{visible(name)} differs", style="bold red"), soft_wrap=True)
        for diff in group:
            console.print(Text(f"  {visible(diff.path)}: {visible(diff.message)}"), soft_wrap=True)
            for line in diff.detail:
                style = "green" if line.startswith("+") else "red" if line.startswith("-") else ""
                console.print(Text("    " + visible(line), style=style), soft_wrap=True)

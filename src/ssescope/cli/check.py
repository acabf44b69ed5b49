"""``check STREAM --against RESULT``: did a client assemble STREAM the way ssescope did?

The comparison is the library's (:mod:`ssescope.compare`); this module prints it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from .. import strictjson
from ..compare import Difference, ExpectedReply, shape_name
from ..visible import visible

__all__ = ["print_differences"]


def print_differences(
    console: Console, expected: ExpectedReply, diffs: Sequence[Difference], as_json: bool
) -> None:
    """Print the outcome of a comparison: one line when the result agrees, else each
    differing field and its differences (or the JSON form with ``as_json``)."""
    shape = shape_name(expected.shape)
    if as_json:
        data = {
            "shape": expected.shape,
            "compared": expected.stated(),
            "same": not diffs,
            "differences": [d.to_dict() for d in diffs],
        }
        strictjson.write(data, console.file, indent=2)
        return
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

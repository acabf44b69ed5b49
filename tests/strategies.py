"""Hypothesis strategies: generated bodies for every framing, and random chunkings."""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from hypothesis import strategies as st

from ssescope.framing.eventstream import encode_message

__all__ = [
    "GeneratedEvent",
    "chunked",
    "encode_sse",
    "eventstream_bodies",
    "json_array_bodies",
    "json_values",
    "ndjson_bodies",
    "sse_bodies",
    "sse_events",
    "sse_soup",
]

_SURROGATES: tuple[Literal["Cs"]] = ("Cs",)

# Text that is safe inside one SSE line: anything but CR and LF (NUL, U+2028, emoji ok).
line_text = st.text(
    alphabet=st.characters(blacklist_characters="\r\n", blacklist_categories=_SURROGATES),
    max_size=12,
)
TERMINATORS = ("\n", "\r", "\r\n")


@dataclass(frozen=True)
class GeneratedEvent:
    """An event to encode: what a spec-exact parser must give back."""

    event: str
    data: str
    id: str | None


@st.composite
def sse_events(draw: st.DrawFn) -> GeneratedEvent:
    """An event with a type, data of zero or more lines, and maybe an id."""
    data_lines = draw(st.lists(line_text, min_size=1, max_size=3))
    kind = draw(st.one_of(st.just("message"), line_text.filter(lambda t: t != "")))
    ident = draw(st.one_of(st.none(), line_text.filter(lambda t: "\x00" not in t)))
    return GeneratedEvent(kind, "\n".join(data_lines), ident)


def encode_sse(events: list[GeneratedEvent], newline: str, comments: bool = False) -> bytes:
    """Encode events the way a server would, with one line terminator throughout."""
    out = []
    for k, ev in enumerate(events):
        if comments and k % 2:
            out.append(f": ping {k}{newline}")
        if ev.event != "message":
            out.append(f"event: {ev.event}{newline}")
        if ev.id is not None:
            out.append(f"id: {ev.id}{newline}")
        out.extend(f"data: {line}{newline}" for line in ev.data.split("\n"))
        out.append(newline)
    return "".join(out).encode()


@st.composite
def sse_bodies(draw: st.DrawFn) -> tuple[bytes, list[GeneratedEvent]]:
    """A well-formed SSE body and the events it encodes (maybe with a BOM and comments)."""
    events = draw(st.lists(sse_events(), max_size=6))
    newline = draw(st.sampled_from(TERMINATORS))
    body = encode_sse(events, newline, comments=draw(st.booleans()))
    if draw(st.booleans()):
        body = b"\xef\xbb\xbf" + body
    return body, events


# Any mixture of SSE-ish lines and terminators, including broken UTF-8 and bare CRs.
_pieces = st.sampled_from(
    [
        b"data:",
        b"data: ",
        b"data",
        b"event: ",
        b"id: ",
        b"id",
        b"retry: ",
        b"retry:12",
        b":",
        b": c",
        b"x",
        b"\x00",
        b"\xef\xbb\xbf",
        b"\xe6\x97\xa5",
        b"\xff",
        b"\xe6",
        b" ",
        b"{",
        b"\n",
        b"\r",
        b"\r\n",
        b"\n\n",
    ]
)
sse_soup = st.lists(_pieces, max_size=30).map(b"".join)
"""Random bodies made of SSE fragments: valid and invalid in every combination."""


def json_values(max_leaves: int = 8) -> st.SearchStrategy[object]:
    """JSON values, with strings that hold brackets, quotes, backslashes and non-ASCII."""
    strings = st.text(alphabet=st.sampled_from(list('ab{}[],:"\\ é日😀\n\t/')), max_size=10)
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**6), 10**6),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
        strings,
    )
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(strings, children, max_size=3),
        ),
        max_leaves=max_leaves,
    )


def json_objects() -> st.SearchStrategy[object]:
    """A JSON object or array (what NDJSON lines and JSON-array elements usually are)."""
    return st.one_of(
        st.dictionaries(st.text(max_size=5), json_values(4), max_size=3),
        st.lists(json_values(4), max_size=3),
    )


@st.composite
def ndjson_bodies(draw: st.DrawFn) -> tuple[bytes, list[object]]:
    """NDJSON: one compact object per line, LF or CRLF, maybe blank lines."""
    values = draw(st.lists(json_objects(), max_size=5))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines = []
    for v in values:
        if draw(st.booleans()):
            lines.append("")
        lines.append(json.dumps(v, ensure_ascii=draw(st.booleans())))
    body = newline.join(lines) + (newline if draw(st.booleans()) else "")
    return body.encode(), values


@st.composite
def json_array_bodies(draw: st.DrawFn) -> tuple[bytes, list[object]]:
    """A streamed JSON array: compact or pretty-printed like Gemini's, any values."""
    values = draw(st.lists(json_values(), max_size=5))
    indent = draw(st.sampled_from([None, 2]))
    text = json.dumps(values, indent=indent, ensure_ascii=draw(st.booleans()))
    if indent is not None:
        text = text.replace("\n", draw(st.sampled_from(["\n", "\r\n"])))
    return text.encode(), values


@st.composite
def eventstream_bodies(draw: st.DrawFn) -> tuple[bytes, list[tuple[str, bytes]]]:
    """AWS event-stream messages with an event type and a JSON payload."""
    messages = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["contentBlockDelta", "messageStart", "metadata"]))
        payload = json.dumps(draw(json_objects())).encode()
        messages.append((kind, payload))
    body = b"".join(
        encode_message(
            {":message-type": "event", ":event-type": k, ":content-type": "application/json"}, p
        )
        for k, p in messages
    )
    return body, messages


@st.composite
def chunked(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """``data`` cut at random positions (possibly into single bytes, possibly whole)."""
    if not data:
        return [data]
    cuts = draw(st.lists(st.integers(1, max(1, len(data) - 1)), max_size=12))
    points = sorted(set(cuts))
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in pairwise(bounds) if a < b]

"""One Chat Completions choice: its delta, or its whole message, and its finish."""

from __future__ import annotations

from typing import Any

from ...events import Audio, Citation, Finish, RefusalDelta, TextDelta, ToolCallDelta, ToolCallsEnd
from ...framing.records import DataRecord
from .._base import AdapterOutput, diag, nonempty_str, str_or_none
from . import codes
from .maps import map_finish_reason
from .parts import filtered, map_content, map_message, map_reasoning
from .state import (
    _NO_TOOL_END,
    _PARALLEL_WRAPPER,
    _Choice,
    _invalid,
    _Response,
    plain_choice,
    plain_delta,
)
from .tools import map_tool_calls, parallel_wrapper, tool_arguments, tool_name


def map_choice(
    resp: _Response, ch: dict[str, Any], pos: int, record: DataRecord, out: list[AdapterOutput]
) -> bool:
    """Map one entry of ``choices``; return whether it carried a finish reason."""
    ri = record.index
    o = ch.get("index")
    if type(o) is not int:
        if o is None:
            if resp.once(codes.MISSING_CHOICE_INDEX):
                out.append(diag(codes.MISSING_CHOICE_INDEX, record, pos=pos))
        else:
            _invalid(out, record, "choice-index", o, pos=pos)
        o = pos
    st = resp.choice(o)

    delta = ch.get("delta")
    if type(delta) is dict:
        if plain_delta(delta):
            content = delta.get("content")
            if content is not None:
                if type(content) is str:
                    if content:
                        out.append(TextDelta(ri, o, content))
                else:
                    map_content(resp, content, o, record, out)
        else:
            map_delta(resp, delta, o, st, record, out)
    elif delta is not None:
        _invalid(out, record, "delta", delta, pos=pos)
    if not plain_choice(ch):
        choice_rest(resp, ch, o, st, delta is None, record, out)

    fr = ch.get("finish_reason")
    if fr is None or fr == "":
        return False
    if not isinstance(fr, str):
        _invalid(out, record, "finish-reason", fr, pos=pos)
        return False
    reason = map_finish_reason(fr)
    if reason == "other" and resp.once(codes.UNKNOWN_FINISH_REASON, fr):
        out.append(diag(codes.UNKNOWN_FINISH_REASON, record, fr=fr, choice=o))
    st.finish = reason
    st.raw_finish = fr
    out.append(Finish(ri, o, reason, fr))
    if st.tools and reason == "stop":
        out.append(diag(codes.TOOL_CALLS_UNDER_STOP, record, choice=o, fr=fr))
    if st.tools and reason not in _NO_TOOL_END:
        out.append(ToolCallsEnd(ri, o))
    return True


def choice_rest(
    resp: _Response,
    ch: dict[str, Any],
    o: int,
    st: _Choice,
    no_delta: bool,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """Legacy ``text``, ``message`` snapshots, choice errors and filter results."""
    if no_delta and (text := nonempty_str(ch.get("text"))):
        out.append(TextDelta(record.index, o, text))
    message = ch.get("message")
    if isinstance(message, dict):
        map_message(message, o, st, no_delta, record, out)
    cerr = ch.get("error")
    if cerr:
        resp.provider_error(cerr, record, out)
    cfr = ch.get("content_filter_results")
    if cfr and isinstance(cfr, dict):
        filtered(resp, cfr, f"choice {o}", record, out)


def map_delta(
    resp: _Response,
    delta: dict[str, Any],
    o: int,
    st: _Choice,
    record: DataRecord,
    out: list[AdapterOutput],
) -> None:
    """A choice's ``delta`` with more than plain text: reasoning, refusal, audio, tool
    calls, legacy function calls, annotations."""
    ri = record.index
    get = delta.get
    rc = get("reasoning_content")
    rs = get("reasoning")
    rd = get("reasoning_details")
    if rc is not None or rs is not None or rd is not None:
        map_reasoning(resp, rc, rs, rd, o, record, out)

    content = get("content")
    if content is not None:
        map_content(resp, content, o, record, out)
    refusal = get("refusal")
    if refusal and isinstance(refusal, str):
        st.refused = True
        out.append(RefusalDelta(ri, o, refusal))
    audio = get("audio")
    if audio and isinstance(audio, dict):
        out.append(
            Audio(
                ri,
                o,
                str_or_none(audio.get("data")),
                str_or_none(audio.get("transcript")),
                str_or_none(audio.get("format")),
                str_or_none(audio.get("id")),
            )
        )
    tool_calls = get("tool_calls")
    if tool_calls:
        map_tool_calls(tool_calls, o, st, resp, record, out)
    fc = get("function_call")
    if fc:
        if isinstance(fc, dict):
            st.tools = True
            name = tool_name(fc.get("name"), o, record, out)
            args = tool_arguments(fc.get("arguments"), o, record, out)
            if name == _PARALLEL_WRAPPER:
                parallel_wrapper(resp, o, None, record, out)
            out.append(ToolCallDelta(ri, o, None, None, name, args, None))
        else:
            _invalid(out, record, "function-call", fc, choice=o)
    annotations = get("annotations")
    if annotations and isinstance(annotations, list):
        out.extend(Citation(ri, o, ann) for ann in annotations)

"""One Chat Completions choice: its delta, or its whole message, and its finish."""

from __future__ import annotations

from typing import Any

from ...diagnostics import quote
from ...events import Audio, Citation, Finish, RefusalDelta, TextDelta, ToolCallDelta, ToolCallsEnd
from ...framing.records import DataRecord
from .._base import AdapterOutput, diag, str_or_none
from .maps import map_finish_reason
from .parts import _ChatParts
from .state import _CHOICE_RARE, _DELTA_RARE, _NO_TOOL_END, _PARALLEL_WRAPPER, _Choice, _invalid


class _ChatChoices(_ChatParts):
    """One choice of a chunk (see the package docstring)."""

    def _choice(
        self, ch: dict[str, Any], pos: int, record: DataRecord, out: list[AdapterOutput]
    ) -> bool:
        """Map one entry of ``choices``; return whether it carried a finish reason."""
        ri = record.index
        o = ch.get("index")
        if type(o) is not int:
            if o is None:
                if self._once("openai-chat.missing-choice-index"):
                    out.append(diag("openai-chat.missing-choice-index", record, pos=pos))
            else:
                _invalid(
                    out,
                    record,
                    f"choices[{pos}].index is not an integer: {quote(o)}; position {pos} is used.",
                )
            o = pos
        st = self._choices.get(o)
        if st is None:
            st = self._choices[o] = _Choice()

        delta = ch.get("delta")
        if type(delta) is dict:
            if _DELTA_RARE.isdisjoint(delta):
                content = delta.get("content")
                if content is not None:
                    if type(content) is str:
                        if content:
                            out.append(TextDelta(ri, o, content))
                    else:
                        self._content(content, o, record, out)
            else:
                self._delta(delta, o, st, record, out)
        elif delta is not None:
            _invalid(
                out,
                record,
                f"choices[{pos}].delta is not an object: {quote(delta)}; it is ignored.",
            )
        if not _CHOICE_RARE.isdisjoint(ch):
            self._choice_rest(ch, o, st, delta is None, record, out)

        fr = ch.get("finish_reason")
        if fr is None or fr == "":
            return False
        if not isinstance(fr, str):
            _invalid(
                out,
                record,
                f"choices[{pos}].finish_reason is not a string: {quote(fr)}; it is ignored.",
            )
            return False
        reason = map_finish_reason(fr)
        if reason == "other" and self._once("openai-chat.unknown-finish-reason", fr):
            out.append(diag("openai-chat.unknown-finish-reason", record, fr=fr, choice=o))
        st.finish = reason
        st.raw_finish = fr
        out.append(Finish(ri, o, reason, fr))
        if st.tools and reason == "stop":
            out.append(diag("tool.calls-under-stop", record, form="openai-chat", choice=o, fr=fr))
        if st.tools and reason not in _NO_TOOL_END:
            out.append(ToolCallsEnd(ri, o))
        return True

    def _choice_rest(
        self,
        ch: dict[str, Any],
        o: int,
        st: _Choice,
        no_delta: bool,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        """Legacy ``text``, ``message`` snapshots, choice errors and filter results."""
        if no_delta:
            text = ch.get("text")
            if isinstance(text, str) and text:
                out.append(TextDelta(record.index, o, text))
        message = ch.get("message")
        if isinstance(message, dict):
            self._message(message, o, st, no_delta, record, out)
        cerr = ch.get("error")
        if cerr:
            self._provider_error(cerr, record, out)
        cfr = ch.get("content_filter_results")
        if cfr and isinstance(cfr, dict):
            self._filtered(cfr, f"choice {o}", record, out)

    def _delta(
        self,
        delta: dict[str, Any],
        o: int,
        st: _Choice,
        record: DataRecord,
        out: list[AdapterOutput],
    ) -> None:
        ri = record.index
        get = delta.get
        rc = get("reasoning_content")
        rs = get("reasoning")
        rd = get("reasoning_details")
        if rc is not None or rs is not None or rd is not None:
            self._reasoning(rc, rs, rd, o, record, out)

        content = get("content")
        if content is not None:
            self._content(content, o, record, out)
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
            self._tool_calls(tool_calls, o, st, record, out)
        fc = get("function_call")
        if fc:
            if isinstance(fc, dict):
                st.tools = True
                name = self._name(fc.get("name"), o, record, out)
                args = self._arguments(fc.get("arguments"), o, record, out)
                if name == _PARALLEL_WRAPPER:
                    self._parallel_wrapper(o, None, record, out)
                out.append(ToolCallDelta(ri, o, None, None, name, args, None))
            else:
                _invalid(
                    out,
                    record,
                    f"delta.function_call of choice {o} is not an object: {quote(fc)}; it is ignored.",
                )
        annotations = get("annotations")
        if annotations and isinstance(annotations, list):
            out.extend(Citation(ri, o, ann) for ann in annotations)

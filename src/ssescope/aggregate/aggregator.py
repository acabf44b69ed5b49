"""The aggregator: unified events → responses (ARCHITECTURE §4, the heart of correctness).

Rules it implements, each one a bug some SDK accumulator has:

* Outputs are separate: one per ``output`` key, never merged. Within an output, text,
  reasoning and refusal are separate strings, each built from its parts in the order the
  parts first appeared, pieces appended in arrival order.
* Tool calls are matched by id, then index, then the open call (see ``events``); ``id``,
  ``name`` and ``type`` keep their first non-empty value and a different repeat is
  reported; arguments are concatenated as a string and parsed once, at the end, only for
  calls the protocol ended. Nothing is repaired silently.
* Usage keeps the latest non-null value per field: never summed, never estimated.
* Snapshots are compared with what the deltas built, never appended.
* A later non-null finish reason replaces an earlier one; it never edits text.
* The status comes only from explicit markers; the default is ``truncated``.
* A ``ResponseStart`` after a terminal marker starts a new response.

Per event the work is a type lookup and an append; everything else happens once, in
:meth:`Aggregator.close`. Given a :class:`~ssescope.aggregate.timeline.Timeline`, the
aggregator also records each change it makes, as data (the web page's scrubber replays
them); without one, that costs a test of a local variable per event.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from typing import Any

from .. import codes
from ..codes.spec import Code
from ..diagnostics import Diagnostic, build
from ..events import (
    JSON,
    AgentMessage,
    ArtifactChunk,
    Audio,
    Citation,
    Compaction,
    Finish,
    Notification,
    ProviderError,
    ReasoningDelta,
    ReasoningMeta,
    RefusalDelta,
    ResponseStart,
    ServerToolResult,
    Snapshot,
    StateChange,
    TaskUpdate,
    Terminal,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallsEnd,
    UnifiedEvent,
    Unknown,
    Usage,
)
from ..incremental import close_once, refuse_feed_after_close
from ..toolschema.check import ToolChecker
from .agent import AgentSections
from .build import ReportBuilder
from .capped import DiagnosticCap
from .content import GENERATED_TYPES, content_kind_code, is_generated_content
from .report import AudioReport, ResponseReport, StateReport
from .state import (
    _FOLD,
    ToolCallState,
    _add,
    _b64_len,
    _bad_token_counts,
    _compactions,
    _Output,
    _Pieces,
    _Response,
)
from .timeline import Timeline

__all__ = ["Aggregator", "ToolCallState"]

_CONTENT_TYPES = (TextDelta, ReasoningDelta, RefusalDelta, ToolCallDelta, ToolCall, Citation)
_OUTPUT_EVENTS = (
    TextDelta,
    ReasoningDelta,
    RefusalDelta,
    ReasoningMeta,
    Citation,
    Compaction,
    ServerToolResult,
    Audio,
    ToolCallDelta,
    ToolCall,
    ToolCallEnd,
    ToolCallsEnd,
    Snapshot,
    Finish,
)
"""The events that name an output (recorded as it begins, with a timeline)."""
_PARTED: dict[type, str] = {TextDelta: "text", ReasoningDelta: "reasoning", RefusalDelta: "refusal"}
_IDLE_MARKS = (*GENERATED_TYPES, Terminal)
"""The events whose record may be a content record (for the content-idle time)."""


def _is_content_mark(ev: object) -> bool:
    """Whether the event makes its record a content record: generated content
    (:func:`~ssescope.aggregate.content.is_generated_content`, the same rule as the first
    content) or the terminal event; keep-alives, pings and lifecycle events are not."""
    return isinstance(ev, Terminal) or is_generated_content(ev)


_UNKNOWN_TYPES = 1000  # unknown event types told apart; the others are counted together
_OTHER_TYPES = "(any other type)"


class Aggregator:
    """Folds unified events into responses. Sans-I/O; feed events, then :meth:`close`.

    Attributes:
        diagnostics: every diagnostic so far (from the adapter and from aggregation).
        first_content_record: index of the record of the first generated content
            (:func:`~ssescope.aggregate.content.is_generated_content`), for timing.
        content_records: the index of each content record, in order (text, reasoning or
            refusal that is not empty, tool-call arguments, a whole tool call, the terminal
            event), for the content-idle time; a bounded pipeline empties it as it goes
            (and ``content_kinds`` with it).
        content_marks: how many content records there have been (never emptied).
        timeline: where each change is recorded as data, if set before the first event
            (see :mod:`ssescope.aggregate.timeline`); ``None`` (the default) records nothing.
    """

    def __init__(self) -> None:
        self._current = _Response()
        self._done: list[_Response] = []
        self.cap = DiagnosticCap()
        """Where diagnostics are collected: the first of each code kept, the rest counted."""
        self.diagnostics: list[Diagnostic] = self.cap.kept
        self._unknown: dict[str, array[int]] = {}
        self.unknown_records = 0
        self.first_content_record: int | None = None
        self.content_records = array("q")
        self.content_kinds = bytearray()
        """What each of ``content_records`` carried (an index in
        :data:`~ssescope.aggregate.content.CONTENT_KINDS`)."""
        self.content_marks = 0
        self._last_content: int | None = None
        self.content_cut = 0
        """Characters of content left out by :meth:`trim_content`."""
        self._closed = False
        self._offsets: Callable[[int], int | None] = lambda _record: None
        self.end_offset: int | None = None
        """Where the body ended (set by the pipeline before :meth:`close`), if known."""
        self.timeline: Timeline | None = None
        self.state: StateReport | None = None
        """The shared state the stream kept with its client, once a state event arrived."""
        self.agent = AgentSections()
        """The task, artifacts and notifications of an agent stream, as they arrived."""
        self.reports_usage = True
        """Whether the protocol carries token usage (set by the pipeline from the
        provider's knowledge); without it, no response is told its usage is missing."""
        self.usage_request: str | None = None
        """The request field that asks for usage, when the protocol sends it only if asked
        (set by the pipeline from the provider's knowledge)."""
        self.tool_checker = ToolChecker(())
        """The request's tools, when known: each call is checked against its tool's
        input schema (and a call of a tool the request did not offer is reported)."""
        self._handlers: dict[type, Callable[[Any], object]] = {
            TextDelta: self._text,
            ReasoningDelta: self._reasoning,
            RefusalDelta: self._refusal,
            ToolCallDelta: self._tool_delta,
            ToolCall: self._tool_call,
            ToolCallEnd: self._tool_end,
            ToolCallsEnd: self._tools_end,
            ReasoningMeta: self._reasoning_meta,
            Citation: self._citation,
            Compaction: self._compaction,
            Snapshot: self._snapshot,
            Usage: self._usage,
            Finish: self._finish,
            Terminal: self._terminal,
            ProviderError: self._error,
            ResponseStart: self._start,
            ServerToolResult: self._server_result,
            Audio: self._audio,
            StateChange: self._state,
            Unknown: self._unknown_event,
        }
        self._sections: dict[type, Callable[[Any], None]] = {
            TaskUpdate: self.agent.task_update,
            AgentMessage: self.agent.message,
            ArtifactChunk: self.agent.artifact,
            Notification: self.agent.notification,
        }
        self._handlers.update(self._sections)

    @property
    def terminal_seen(self) -> bool:
        """Whether the current response got its protocol's terminal marker."""
        return self._current.terminal_seen

    def set_offset_lookup(self, lookup: Callable[[int], int | None]) -> None:
        """Give the aggregator a way to turn record indexes into byte offsets."""
        self._offsets = lookup

    # -- feeding ----------------------------------------------------------------------

    def feed(self, events: Iterable[UnifiedEvent | Diagnostic]) -> list[ResponseReport]:
        """Fold events (and pass through diagnostics) in order.

        Returns:
            Always an empty list: responses are built by :meth:`close` (the
            :class:`~ssescope.incremental.Incremental` shape).

        Raises:
            UsageError: if called after :meth:`close`.
        """
        if self._closed:
            refuse_feed_after_close()
        handlers = self._handlers
        resp = self._current
        record: int | None = None
        timeline = self.timeline
        # with a timeline, every text delta takes the handler (and is recorded)
        fast: type | None = TextDelta if timeline is None else None
        sections = self._sections if timeline is None else {}
        for ev in events:
            cls = type(ev)
            if cls is fast and not resp.terminal_seen and resp.first_record is not None:
                # The hot path (most events of most streams), inlined: _text without the
                # dispatch.
                tev: TextDelta = ev  # type: ignore[assignment]
                record = tev.record
                out = resp.outputs.get(tev.output)
                if out is None:
                    out = self._output(tev.output)
                text = tev.text
                pieces = out.text.get(tev.part)
                if pieces is None:
                    out.text[tev.part] = _Pieces(text)
                else:
                    pieces.items.append(text)
                    if len(pieces.items) - pieces.blocks > _FOLD:
                        pieces.fold()
                if text and record != self._last_content:
                    self._last_content = record
                    self.content_records.append(record)
                    self.content_kinds.append(0)  # (CONTENT_KINDS: text)
                    self.content_marks += 1
                if self.first_content_record is None and is_generated_content(tev):
                    self.first_content_record = record
                resp.last_record = record
                continue
            section = sections.get(cls)
            if section is not None and resp.first_record is not None:
                # An agent section's event: no output, no content, nothing after a
                # terminal to report; what the general path would do comes down to this.
                record = ev.record
                resp.last_record = record
                section(ev)
                continue
            handler = handlers.get(cls)
            if handler is None:
                if isinstance(ev, Diagnostic):
                    self.cap.add(ev)
                    continue
                raise TypeError(f"not a unified event: {ev!r}")
            record = ev.record
            if resp.first_record is None:
                resp.first_record = record
                if timeline is not None:
                    timeline.begin(0 if record is None else record, resp)
            if resp.terminal_seen and isinstance(ev, _CONTENT_TYPES):
                self._after_terminal(ev.record)
            if not (cls is ResponseStart and resp.terminal_seen):
                resp.last_record = record  # (a new response begins with this event)
            if timeline is None:
                handler(ev)
            else:
                self._recorded(timeline, ev, handler)
            if self.first_content_record is None and is_generated_content(ev):
                self.first_content_record = record
            if (
                isinstance(ev, _IDLE_MARKS)
                and record is not None
                and record != self._last_content
                and _is_content_mark(ev)
            ):
                self._last_content = record
                self.content_records.append(record)
                self.content_kinds.append(content_kind_code(ev))
                self.content_marks += 1
            resp = self._current  # a ResponseStart may have begun a new response
        return []

    def _diag(
        self,
        code: Code,
        record: int | None,
        *,
        form: str | None = None,
        offset: int | None = None,
        **args: object,
    ) -> None:
        """Report ``code`` for ``record``, at ``offset`` (by default where the record starts)."""
        if offset is None and record is not None:
            offset = self._offsets(record)
        self.cap.add(build(code, args, offset, record, None, form))

    def _after_terminal(self, record: int) -> None:
        resp = self._current
        if not resp.after_terminal_reported:
            resp.after_terminal_reported = True
            self._diag(
                codes.STREAM_EVENTS_AFTER_TERMINAL,
                record,
                status=resp.status,
                status_reason=resp.status_reason,
            )

    def _output(self, index: int) -> _Output:
        out = self._current.outputs.get(index)
        if out is None:
            out = self._current.outputs[index] = _Output(index)
        return out

    def _recorded(
        self, timeline: Timeline, ev: UnifiedEvent | Diagnostic, handler: Callable[[Any], object]
    ) -> None:
        """Run ``handler`` on ``ev``, recording the changes the event itself spells out.

        (The other changes are recorded where the handlers make them.)
        """
        if isinstance(ev, _OUTPUT_EVENTS) and ev.output not in self._current.outputs:
            timeline.output(ev.record, ev.output)
        changed = handler(ev)
        if isinstance(ev, TextDelta | ReasoningDelta | RefusalDelta):
            field = _PARTED[type(ev)]
            timeline.part(ev.record, ev.output, field, ev.part, "append", ev.text)
        elif isinstance(ev, ToolCallDelta) and isinstance(changed, ToolCallState):
            timeline.kind(ev.record, changed)
            if ev.arguments:
                timeline.arguments(ev.record, changed, ev.arguments)

    def _state(self, ev: StateChange) -> None:
        state = self.state
        if state is None:
            state = self.state = StateReport()
        if ev.kind == "snapshot":
            state.snapshots += 1
        else:
            state.deltas += 1
            if not ev.applied:
                state.failed_patches += 1
        state.value = ev.value

    def _text(self, ev: TextDelta) -> None:
        out = self._current.outputs.get(ev.output) or self._output(ev.output)
        _add(out.text, ev.part, ev.text)

    def _reasoning(self, ev: ReasoningDelta) -> None:
        out = self._output(ev.output)
        _add(out.reasoning, ev.part, ev.text)

    def _refusal(self, ev: RefusalDelta) -> None:
        out = self._output(ev.output)
        _add(out.refusal, ev.part, ev.text)

    def _reasoning_meta(self, ev: ReasoningMeta) -> None:
        out = self._output(ev.output)
        if ev.signature is not None:
            out.signature = ev.signature  # a signature replaces, never appends
        if ev.redacted is not None:
            out.redacted += 1
        if ev.encrypted is not None:
            out.encrypted += 1
        if self.timeline is not None:
            self.timeline.reasoning_meta(ev.record, out)

    def _citation(self, ev: Citation) -> None:
        self._output(ev.output).citations.append(ev.citation)
        if self.timeline is not None:
            self.timeline.add(ev.record, ev.output, "citations", None, None, "add", ev.citation)

    def _compaction(self, ev: Compaction) -> None:
        out = self._output(ev.output)
        block = out.compactions.get(ev.part)
        if block is None:
            block = out.compactions[ev.part] = ([], [])
        if ev.summary:
            block[0].append(ev.summary)
        if ev.encrypted is not None:
            block[1][:] = [ev.encrypted]  # the latest replaces: it is what is sent back
        if self.timeline is not None:
            compactions: JSON = _compactions(out)  # type: ignore[assignment]
            self.timeline.add(ev.record, ev.output, "compactions", None, None, "set", compactions)

    def _server_result(self, ev: ServerToolResult) -> None:
        result: JSON = {
            "tool_use_id": ev.tool_use_id,
            "type": ev.result_type,
            "content": ev.content,
        }
        self._output(ev.output).server_results.append(result)
        if self.timeline is not None:
            self.timeline.add(
                ev.record, ev.output, "server_tool_results", None, None, "add", result
            )

    def _audio(self, ev: Audio) -> None:
        out = self._output(ev.output)
        audio = out.audio
        created = audio is None
        if audio is None:
            audio = out.audio = AudioReport()
        if ev.data:
            audio.chunks += 1
            audio.bytes += _b64_len(ev.data)
        if ev.transcript:
            audio.transcript += ev.transcript
        if ev.format and audio.format is None:
            audio.format = ev.format
        if ev.id and audio.id is None:
            audio.id = ev.id
        if self.timeline is not None:
            self.timeline.audio(ev.record, ev.output, audio, ev, created)

    # -- tool calls -------------------------------------------------------------------

    def _match(
        self, out: _Output, index: int | None, call_id: str | None, record: int
    ) -> ToolCallState:
        if call_id:
            call = out.by_id.get(call_id)
            if call is not None:
                return call
            if index is not None:
                at = out.by_index.get(index)
                if at is not None and not at.id:
                    at.id = call_id
                    out.by_id[call_id] = at
                    if self.timeline is not None:
                        self.timeline.call_change(record, at, "id", "set", call_id)
                    return at
            return self._new_call(out, index, call_id, record)
        if index is not None:
            at = out.by_index.get(index)
            if at is not None:
                return at
            return self._new_call(out, index, None, record)
        if out.open_call is not None and not out.open_call.ended:
            return out.open_call
        return self._new_call(out, None, None, record)

    def _new_call(
        self, out: _Output, index: int | None, call_id: str | None, record: int
    ) -> ToolCallState:
        call = ToolCallState(index, call_id, record)
        call.output = out.index
        call.position = len(out.calls)
        out.calls.append(call)
        if index is not None:
            out.by_index[index] = call
        if call_id:
            out.by_id[call_id] = call
        out.open_call = call
        if self.timeline is not None:
            self.timeline.call(record, call)
        return call

    def _identity(
        self, call: ToolCallState, name: object, call_type: str | None, record: int
    ) -> None:
        if name is not None and name != "":
            if not isinstance(name, str):
                self._diag(
                    codes.TOOL_CONFLICTING_NAME,
                    record,
                    form="not-a-string",
                    call=call.id or call.index,
                    name=name,
                )
            elif call.name is None:
                call.name = name
                if self.timeline is not None:
                    self.timeline.call_change(record, call, "name", "set", name)
            elif name != call.name:
                self._diag(
                    codes.TOOL_CONFLICTING_NAME,
                    record,
                    form="renamed",
                    call=call.id or call.index,
                    name=call.name,
                    name2=name,
                )
        if call_type and call.call_type is None:
            call.call_type = call_type

    def _tool_delta(self, ev: ToolCallDelta) -> ToolCallState:
        out = self._output(ev.output)
        call = self._match(out, ev.index, ev.id, ev.record)
        self._identity(call, ev.name, ev.call_type, ev.record)
        call.last_record = ev.record
        call.kind = ev.kind
        call.format = ev.format
        if ev.arguments:
            call.pieces.append(ev.arguments)
        return call  # (for the timeline: the hot tool event is recorded by _recorded)

    def _tool_call(self, ev: ToolCall) -> None:
        out = self._output(ev.output)
        call = self._match(out, ev.index, ev.id, ev.record)
        self._identity(call, ev.name, None, ev.record)
        call.last_record = ev.record
        call.kind = ev.kind
        if self.timeline is not None:
            self.timeline.kind(ev.record, call)
        call.format = ev.format
        if ev.arguments:
            if call.pieces:
                call.snapshot = ev.arguments
            else:
                call.pieces.append(ev.arguments)
            if self.timeline is not None:
                self.timeline.arguments(ev.record, call, ev.arguments)
        self._ended(call, ev.complete, ev.record)
        if out.open_call is call and ev.complete:
            out.open_call = None

    def _tool_end(self, ev: ToolCallEnd) -> None:
        out = self._output(ev.output)
        call = self._match(out, ev.index, ev.id, ev.record)
        self._identity(call, ev.name, None, ev.record)
        call.last_record = ev.record
        self._ended(call, True, ev.record)
        if ev.arguments is not None:
            call.snapshot = ev.arguments
            if self.timeline is not None:
                self.timeline.arguments(ev.record, call, ev.arguments)

    def _tools_end(self, ev: ToolCallsEnd) -> None:
        out = self._output(ev.output)
        for call in out.calls:
            self._ended(call, True, ev.record)

    def _ended(self, call: ToolCallState, ended: bool, record: int) -> None:
        if self.timeline is not None and ended != call.ended:
            self.timeline.call_change(record, call, "complete", "set", ended)
        call.ended = ended

    # -- snapshots, usage, finish, status -----------------------------------------------

    def _snapshot(self, ev: Snapshot) -> None:
        out = self._output(ev.output)
        parts = getattr(out, ev.field)
        pieces = parts.get(ev.part)
        if pieces is None:
            if ev.value:
                parts[ev.part] = _Pieces(ev.value)
                if self.timeline is not None:
                    self.timeline.part(ev.record, ev.output, ev.field, ev.part, "set", ev.value)
            return
        if pieces.cut:  # a bounded pipeline kept only the start: nothing to compare
            return
        built = pieces.text()
        if built == ev.value:
            return
        keep = "snapshot" if len(ev.value) >= len(built) else "deltas"
        self._diag(
            codes.SNAPSHOT_MISMATCH,
            ev.record,
            form="text",
            field=ev.field,
            snapshot=ev.value,
            n_snapshot=len(ev.value),
            built=built,
            n_built=len(built),
            keep=keep,
            verb="are" if keep == "deltas" else "is",
        )
        if keep == "snapshot":
            parts[ev.part] = _Pieces(ev.value)
            if self.timeline is not None:
                self.timeline.part(ev.record, ev.output, ev.field, ev.part, "set", ev.value)

    def _usage(self, ev: Usage) -> None:
        resp = self._current
        usage = resp.usage
        for key, value in ev.values.items():
            if value is not None and value >= 0:
                usage[key] = value
        if isinstance(ev.raw, dict):
            for name, bad in _bad_token_counts(ev.raw):
                self._diag(codes.USAGE_INVALID_VALUE, ev.record, name=name, value=bad)
        resp.usage_raw = ev.raw
        resp.usage_source = ev.source
        if self.timeline is not None:
            self.timeline.usage(ev.record, resp)

    def _finish(self, ev: Finish) -> None:
        out = self._output(ev.output)
        if ev.reason is not None or out.finish is None:
            out.finish = ev.reason
        if ev.raw is not None or out.raw_finish is None:
            out.raw_finish = ev.raw
        if self.timeline is not None:
            self.timeline.finish(ev.record, out)

    def _terminal(self, ev: Terminal) -> None:
        resp = self._current
        resp.status = ev.status
        resp.status_reason = ev.reason
        resp.terminal_seen = True
        if self.timeline is not None:
            self.timeline.status(ev.record, resp)

    def _error(self, ev: ProviderError) -> None:
        resp = self._current
        resp.error = {
            "type": ev.error_type,
            "message": ev.message,
            "code": ev.code,
            "record": ev.record,
        }
        resp.status = "failed"
        resp.status_reason = f"the provider reported an error: {ev.message}"
        if self.timeline is not None:
            self.timeline.add(ev.record, None, "error", None, None, "set", dict(resp.error))
            self.timeline.status(ev.record, resp)

    def _start(self, ev: ResponseStart) -> None:
        resp = self._current
        if resp.terminal_seen:
            self._done.append(resp)
            resp = self._current = _Response()
            resp.first_record = resp.last_record = ev.record
            if self.timeline is not None:
                self.timeline.begin(ev.record, resp)
        if resp.id is None and ev.id is not None:
            resp.id = ev.id
            if self.timeline is not None:
                self.timeline.add(ev.record, None, "id", None, None, "set", ev.id)
        if resp.model is None and ev.model is not None:
            resp.model = ev.model
            if self.timeline is not None:
                self.timeline.add(ev.record, None, "model", None, None, "set", ev.model)

    def _unknown_event(self, ev: Unknown) -> None:
        self.unknown_records += 1
        kind = ev.event_type
        records = self._unknown.get(kind)
        if records is None:
            if len(self._unknown) >= _UNKNOWN_TYPES:  # (a stream of made-up types)
                kind = _OTHER_TYPES
                records = self._unknown.setdefault(kind, array("q"))
            else:
                records = self._unknown[kind] = array("q")
        records.append(ev.record)

    # -- the end ----------------------------------------------------------------------

    def unknown_record_indexes(self) -> set[int]:
        """Indexes of the records reported as :class:`Unknown`."""
        return {i for records in self._unknown.values() for i in records}

    def cancel(self, reason: str) -> None:
        """Mark the current response cancelled by the client (Ctrl-C, an abort)."""
        resp = self._current
        if not resp.terminal_seen:
            resp.status = "cancelled"
            resp.status_reason = reason
            if self.timeline is not None:
                self.timeline.status(resp.last_record or 0, resp)

    def cancel_open(self, reason: str) -> None:
        """Mark the current response cancelled if it is still open: no terminal marker and
        no error said it failed (a client that left a response it was still reading)."""
        if self._current.status == "truncated":
            self.cancel(reason)

    def cut(self, reason: str) -> None:
        """Say why the current response, still without its terminal marker, was cut."""
        resp = self._current
        if not resp.terminal_seen and resp.status == "truncated":
            resp.status_reason = reason
            if self.timeline is not None:
                self.timeline.status(resp.last_record or 0, resp)

    @property
    def last_content_record(self) -> int | None:
        """The index of the latest content record (the last of :attr:`content_records`,
        which a bounded pipeline empties as it goes); ``None`` before the first."""
        return self._last_content

    def trim_content(self, limit: int) -> None:
        """Keep at most ``limit`` characters of each text, reasoning and refusal part, of
        each tool call's arguments and of each audio transcript (the first ones), counting
        the rest in :attr:`content_cut`: what a bounded pipeline calls now and then."""
        cut = 0
        for resp in (*self._done, self._current):
            for out in resp.outputs.values():
                for parts in (out.text, out.reasoning, out.refusal):
                    for pieces in parts.values():
                        cut += pieces.trim(limit)
                for call in out.calls:
                    cut += call.trim(limit)
                audio = out.audio
                if audio is not None and len(audio.transcript) > limit:
                    cut += len(audio.transcript) - limit
                    audio.transcript = audio.transcript[:limit]
        cut += self.agent.trim(limit)
        self.content_cut += cut

    def tool_calls(self, output: int = 0) -> list[ToolCallState]:
        """The tool calls of ``output`` of the current response, as assembled so far."""
        out = self._current.outputs.get(output)
        return [] if out is None else list(out.calls)

    def close(self) -> list[ResponseReport]:
        """End of stream: build every response and add the end-of-stream diagnostics.

        Returns:
            The responses, oldest first (at least one).

        Raises:
            UsageError: if called twice.
        """
        close_once(self)
        responses = [*self._done, self._current]
        builder = ReportBuilder(
            self._diag,
            self.end_offset,
            self.tool_checker,
            reports_usage=self.reports_usage,
            usage_request=self.usage_request,
        )
        reports = [builder.response(r) for r in responses]
        if self.timeline is not None:
            for number, (resp, report) in enumerate(zip(responses, reports, strict=True)):
                self.timeline.parsed(number, resp, report)
        if len(reports) > 1:
            self._diag(
                codes.STREAM_MULTIPLE_RESPONSES, responses[1].first_record, n_reports=len(reports)
            )
        for event_type, records in self._unknown.items():
            self._diag(
                codes.PROVIDER_UNKNOWN_EVENT,
                records[0],
                n_records=len(records),
                event_type=event_type,
            )
        return reports

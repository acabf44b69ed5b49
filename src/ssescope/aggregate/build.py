"""Building the Report's responses from the aggregation state: once, at the end.

:class:`~ssescope.aggregate.aggregator.Aggregator` folds events into state
(:mod:`ssescope.aggregate.state`); at :meth:`~ssescope.aggregate.aggregator.Aggregator.close`
a :class:`ReportBuilder` turns each response's state into its report. This is where text
parts are joined, usage is chosen, a tool call's arguments are resolved against its
snapshot and parsed, and the end-of-stream diagnostics of each are made (through the
aggregator's own ``diag``, so that they are capped and located like every other).
"""

from __future__ import annotations

from collections.abc import Callable

import orjson

from .. import codes
from ..events import JSON
from ..limits import MAX_DEPTH, decoded_may_be_too_deep, loads_finite, too_deep
from ..toolschema.check import Finding, ToolChecker
from .leaks import find_leak
from .report import OutputReport, ResponseReport, ToolCallReport
from .state import (
    ToolCallState,
    _compactions,
    _deduplicated,
    _join,
    _Output,
    _resolve,
    _Response,
    _usage_report,
)

__all__ = ["ReportBuilder"]


class ReportBuilder:
    """Builds responses' reports, reporting through ``diag``.

    Args:
        diag: where diagnostics go: the aggregator's ``_diag`` (a code, a record, then
            ``form``, ``offset`` and the code's arguments by keyword).
        end_offset: where the body ended, if known (an unfinished tool call is located
            there).
        tools: the request's tools, when known: each call is checked against its
            tool's input schema.
        reports_usage: whether the protocol carries token usage (``usage.missing`` only
            when it does).
        usage_request: the request field that asks for usage, named in ``usage.missing``
            (``None`` when the protocol sends usage unasked).
    """

    def __init__(
        self,
        diag: Callable[..., None],
        end_offset: int | None,
        tools: ToolChecker | None = None,
        *,
        reports_usage: bool = True,
        usage_request: str | None = None,
    ) -> None:
        self._diag = diag
        self.end_offset = end_offset
        self.tools = tools if tools is not None else ToolChecker(())
        self.reports_usage = reports_usage
        self.usage_request = usage_request

    def response(self, resp: _Response) -> ResponseReport:
        """The report of one response (its outputs, usage, status), with its diagnostics."""
        outputs = [self.output(resp.outputs[k]) for k in sorted(resp.outputs)]
        usage = _usage_report(resp)
        if (
            usage is None
            and self.reports_usage
            and resp.terminal_seen
            and resp.status in ("completed", "incomplete")
        ):
            if self.usage_request is None:
                self._diag(codes.USAGE_MISSING, resp.last_record, form="unasked")
            else:
                self._diag(
                    codes.USAGE_MISSING, resp.last_record, form="ask", field=self.usage_request
                )
        return ResponseReport(
            status=resp.status,
            status_reason=resp.status_reason,
            id=resp.id,
            model=resp.model,
            outputs=outputs,
            usage=usage,
            error=resp.error,
            first_record=resp.first_record,
            last_record=resp.last_record,
        )

    def output(self, out: _Output) -> OutputReport:
        """The report of one output: its parts joined, its tool calls built."""
        text = _join(out.text)
        leak = find_leak(text)
        if leak is not None:
            self._diag(
                codes.CONTENT_THINK_TAG_IN_TEXT, None, form=leak[1], index=out.index, tag=leak[0]
            )
        return OutputReport(
            index=out.index,
            text=text,
            reasoning=_join(out.reasoning),
            refusal=_join(out.refusal),
            tool_calls=[self.call(c) for c in out.calls],
            citations=out.citations,
            finish_reason=out.finish,
            raw_finish_reason=out.raw_finish,
            reasoning_signature=out.signature,
            redacted_reasoning=out.redacted,
            encrypted_reasoning=out.encrypted,
            server_tool_results=out.server_results,
            audio=out.audio,
            compactions=_compactions(out),
            deduplicated_text=self._deduplicated(out, text),
        )

    def _deduplicated(self, out: _Output, text: str) -> str | None:
        """The text without repeats when the deltas were cumulative, with its warning."""
        found = _deduplicated(out.text)
        if found is None:
            return None
        deduplicated, steps = found
        self._diag(
            codes.CONTENT_CUMULATIVE_DELTAS,
            None,
            index=out.index,
            n_pieces=steps + 1,
            text=text,
            deduplicated=deduplicated,
        )
        return deduplicated

    def _empty_arguments(self, call: ToolCallState, label: str, arguments: str) -> None:
        """Say that empty arguments are read as ``{}``; a warning when the request's schema
        of the tool requires properties."""
        tools = self.tools
        tool = tools.tools.get(call.name) if call.name is not None else None
        required = tool.required if tool is not None else ()
        if required:
            self._diag(
                codes.TOOL_EMPTY_ARGUMENTS_REQUIRED,
                call.last_record,
                label=label,
                name=call.name,
                required=", ".join(required),
            )
            return
        self._diag(
            codes.TOOL_EMPTY_ARGUMENTS,
            call.last_record,
            form="no-request" if not tools else "not-required",
            label=label,
            name=call.name,
            arguments=arguments,
        )

    def call(self, call: ToolCallState) -> ToolCallReport:
        """The report of one tool call: its arguments resolved against a snapshot and, for
        a call the protocol ended, parsed once."""
        fragments = call.arguments
        label = call.id or (f"#{call.index}" if call.index is not None else "(no id)")
        report = ToolCallReport(
            id=call.id,
            name=call.name,
            arguments=fragments,
            input=None,
            complete=call.ended,
            kind=call.kind,
            index=call.index,
            record=call.first_record,
        )
        self._offered(call, label)
        if call.cut:  # a bounded pipeline kept only the start: not parsed, not compared
            return report
        arguments, mismatch = _resolve(fragments, call.snapshot)
        report.arguments = arguments
        if mismatch:
            self._diag(
                codes.SNAPSHOT_MISMATCH,
                call.last_record,
                form="tool-arguments",
                label=label,
                snapshot=call.snapshot,
                arguments=fragments,
                kept="snapshot" if arguments == call.snapshot else "fragments",
            )
        if not call.ended:
            self._diag(
                codes.TOOL_INCOMPLETE,
                call.last_record,
                form="parses" if _parses_as_object(call.format, arguments) else "unparsed",
                offset=self.end_offset,
                label=label,
                name=call.name,
                n_arguments=len(arguments),
                arguments=arguments,
            )
            if call.format == "json":
                self._check_cut(call, label, arguments)
            return report
        if call.format != "json":
            return report
        if not arguments.strip():
            report.input = {}  # (as most clients read it)
            self._empty_arguments(call, label, arguments)
            return report
        try:
            value = orjson.loads(arguments)
        except orjson.JSONDecodeError:
            try:
                value = loads_finite(arguments)
            except ValueError as exc:
                pos = getattr(exc, "pos", None)
                msg = getattr(exc, "msg", str(exc))
                report.error = f"{msg} at character {pos}" if pos is not None else msg
                self._diag(
                    codes.TOOL_INVALID_ARGUMENTS,
                    call.last_record,
                    label=label,
                    name=call.name,
                    error=report.error,
                    arguments=arguments,
                )
                self._fine_grained(call, label, "not valid JSON")
                return report
        if decoded_may_be_too_deep(arguments) and too_deep(value):
            report.error = f"nested more than {MAX_DEPTH} levels deep"
            self._diag(
                codes.TOOL_ARGUMENTS_TOO_DEEP,
                call.last_record,
                label=label,
                name=call.name,
                depth=MAX_DEPTH,
                arguments=arguments,
            )
            return report
        report.input = value
        self._check(call, label, value)
        return report

    # -- against the request's tools -------------------------------------------------------

    def _emit(self, finding: Finding, call: ToolCallState, label: str, **extra: object) -> None:
        self._diag(
            finding.code,
            call.last_record,
            form=finding.form,
            label=label,
            name=call.name,
            **finding.args,
            **extra,
        )

    def _offered(self, call: ToolCallState, label: str) -> None:
        """Report a call of a function tool the request did not offer."""
        if call.kind in ("function", "custom"):
            finding = self.tools.offered(call.name)
            if finding is not None:
                self._emit(finding, call, label)

    def _check(self, call: ToolCallState, label: str, value: JSON) -> None:
        """Check an ended call's parsed arguments against its tool's schema."""
        if self.tools:
            for finding in self.tools.check(call.name, value):
                self._emit(finding, call, label)

    def _check_cut(self, call: ToolCallState, label: str, arguments: str) -> None:
        """Check what arrived of a cut call's arguments, read as partial JSON."""
        if self.tools:
            for finding in self.tools.cut(call.name, arguments):
                self._emit(finding, call, label)

    def _fine_grained(self, call: ToolCallState, label: str, what: str) -> None:
        """Say that fine-grained tool streaming allows invalid or partial arguments."""
        note = self.tools.fine_grained(call.name, what)
        if note is not None:
            self._emit(note, call, label)


def _parses_as_object(kind: str | None, arguments: str) -> bool:
    """Whether the arguments of a cut call already parse as a whole JSON object."""
    if kind != "json" or not arguments.lstrip().startswith("{"):
        return False
    try:
        return isinstance(orjson.loads(arguments), dict)
    except orjson.JSONDecodeError:
        return False

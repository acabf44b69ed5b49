"""What a diagnostic code is: one :class:`Code` object per code, owned by the layer that
raises it (``ssescope.codes.<layer>`` for the shared layers, ``providers/<p>/codes.py`` for
a provider), and the :class:`Form` objects by which a layer adds its message to a shared
code."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from types import ModuleType
from typing import Literal, TypeAlias

__all__ = [
    "LAYERS",
    "Code",
    "Form",
    "Layer",
    "Page",
    "Piece",
    "Severity",
    "code_block",
    "compile_template",
    "declared",
    "example_doc",
]

Severity: TypeAlias = Literal["info", "warning", "error"]
Layer: TypeAlias = Literal["container", "framing", "provider", "aggregate", "timing", "live"]
LAYERS: tuple[Layer, ...] = ("container", "framing", "provider", "aggregate", "timing", "live")

Piece: TypeAlias = tuple[str, str | None, str | None, str]
"""``(literal text, argument name or None, conversion or None, format spec)``."""


def compile_template(template: str) -> tuple[Piece, ...]:
    """Split a message template into pieces once, so rendering is a plain loop.

    Fields are ``{name}``, ``{name!r}``, ``{name:.3f}`` as in :meth:`str.format`, plus the
    conversion ``!q``: the value's ``repr`` shortened like :func:`ssescope.diagnostics.quote`
    (its format spec, if any, is the length limit). ``{record}`` is the diagnostic's record.
    """
    pieces: list[Piece] = []
    for literal, name, spec, conversion in Formatter().parse(template):
        pieces.append((literal, name, conversion, spec or ""))
    return tuple(pieces)


def example_doc(means: str, example: str, todo: str) -> str:
    """A code's docs section in the paragraph form: what it means, **Example:** (Markdown,
    see :func:`code_block`) and **What to do:**."""
    return f"{means}\n\n**Example:**\n\n{example}\n\n**What to do:** {todo}\n"


def code_block(text: str) -> str:
    """``text`` (input lines, each ending in a newline) as a Markdown code block."""
    return f"```\n{text}```"


@dataclass(frozen=True, slots=True)
class Page:
    """One page of ``docs/diagnostics/``: the area of the pipeline its codes belong to."""

    name: str
    """File stem, e.g. ``"framing"`` for ``docs/diagnostics/framing.md``."""
    intro: str
    """The page's Markdown before its first code (title and introduction)."""


@dataclass(frozen=True, slots=True, eq=False)
class Code:
    """Everything known about one diagnostic code, in one place.

    Emitters pass the object and its arguments; the severity and the message come from
    here, the docs pages are generated from here, and ``--redact`` knows from ``content``
    which arguments carry stream content. Two codes are equal when their names are (a
    code that crossed a process boundary is still the same code).
    """

    name: str
    """The stable dotted code, e.g. ``"sse.invalid-retry"``."""
    severity: Severity
    """The one severity every diagnostic of this code has."""
    layer: Layer
    """The layer of the pipeline whose finding it is."""
    page: Page
    """The docs page that documents it."""
    message: str | Mapping[str, str]
    """The message template, or ``{form: template}`` when the code is reported in several
    situations that need different sentences (the emitter names the form)."""
    doc: str
    """Its section on the docs page, in Markdown, after the heading and the severity."""
    content: tuple[str, ...] = ()
    """The arguments that carry stream content (text, arguments, record data, error
    messages): ``--redact`` replaces them by their length and hash."""
    invalidates: bool = False
    """Whether the record it names counts as invalid (the Report's ``records.invalid``)."""
    _compiled: dict[str | None, tuple[Piece, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Code) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def anchor(self) -> str:
        """The Markdown anchor of its section."""
        return "".join(c for c in self.name.lower() if c.isalnum() or c in " -").replace(" ", "-")

    @property
    def link(self) -> str:
        """Its docs section, relative to ``docs/``."""
        return f"diagnostics/{self.page.name}.md#{self.anchor}"

    @property
    def forms(self) -> tuple[str, ...]:
        """The names of its message forms (empty for a single template)."""
        return () if isinstance(self.message, str) else tuple(self.message)

    def template(self, form: str | None = None) -> tuple[Piece, ...]:
        """The compiled template of ``form`` (``None`` for a code with one template).

        Raises:
            KeyError: for a form the code does not have (a bug in the emitter).
        """
        compiled = self._compiled.get(form)
        if compiled is None:
            if isinstance(self.message, str):
                if form is not None:
                    raise KeyError(f"{self.name} has no form {form!r}")
                text = self.message
            else:
                if form is None:
                    raise KeyError(f"{self.name} needs a form, one of {list(self.message)}")
                text = self.message[form]
            compiled = self._compiled[form] = compile_template(text)
        return compiled

    def arguments(self) -> frozenset[str]:
        """The names its templates use (besides ``record``)."""
        texts = [self.message] if isinstance(self.message, str) else list(self.message.values())
        return frozenset(
            name
            for text in texts
            for _, name, _, _ in compile_template(text)
            if name is not None and name != "record"
        )


@dataclass(frozen=True, slots=True, eq=False)
class Form:
    """A message form that a layer adds to a shared code it raises (a provider's sentence
    for ``provider.error``): the shared code keeps its severity, layer and docs, and the
    form is documented with it."""

    code: Code
    """The shared code."""
    name: str
    """The form's name, the Report's ``form`` (``"anthropic"``)."""
    message: str
    """Its message template (see :func:`compile_template`)."""
    _compiled: list[tuple[Piece, ...]] = field(default_factory=list, compare=False, repr=False)

    def template(self) -> tuple[Piece, ...]:
        """Its compiled template."""
        if not self._compiled:
            self._compiled.append(compile_template(self.message))
        return self._compiled[0]


def declared(module: ModuleType) -> tuple[tuple[Code, ...], tuple[Form, ...]]:
    """The codes of ``module.PAGE`` and the forms that ``module`` defines, in the order it
    defines them (the order its page documents them).

    Codes it imports from other pages are not its own. The code index collects every
    owner's codes with it, so a provider's codes module only defines them: a code is
    written once and is listed by being defined.
    """
    values = list(vars(module).values())
    page = module.PAGE
    codes = tuple(v for v in values if isinstance(v, Code) and v.page is page)
    return codes, tuple(v for v in values if isinstance(v, Form))

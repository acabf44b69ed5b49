"""Factories for the codes that several providers declare, each under its own name and on
its own page: the finding is the same, the protocol's words for it differ.

A provider's ``codes.py`` calls the factory with its page, and the code it gets back is
its own (``<page>.unexpected-json``), listed and documented like any code it writes out;
likewise the form of a shared code named after the page (:func:`provider_error`).
"""

from __future__ import annotations

from .aggregate import PROVIDER_ERROR
from .spec import Code, Form, Page

__all__ = ["invalid_usage", "provider_error", "unexpected_json"]


def unexpected_json(
    page: Page,
    expected: str,
    example: str,
    stream: str,
    *,
    unit: str = "record",
    body: str = "body",
) -> Code:
    """The ``<page>.unexpected-json`` code: a record that is valid JSON but not an object,
    which the adapter skips (``obj`` is the decoded value).

    Args:
        page: the provider's page; the code is named after it.
        expected: what the record should have been, for the message (``"an event object"``).
        example: such a record, for the docs (``"[1]"``).
        stream: what the input should be, for the docs (``"an AG-UI stream"``).
        unit: what one record of the protocol is, for the docs (``"line"``, ``"server
            message"``).
        body: what holds the records, for the docs (``"capture"``).
    """
    return Code(
        f"{page.name}.unexpected-json",
        "warning",
        "provider",
        page,
        f"Record {{record}} is JSON but not {expected}: {{obj!q}}; it is skipped.",
        (
            f"- **Means:** a {unit} is valid JSON but not an object; it is skipped.\n"
            f"- **Example:** `{example}`\n"
            f"- **What to do:** check that the {body} really is {stream} (`--provider`).\n"
        ),
        content=("obj",),
    )


def invalid_usage(page: Page, doc: str) -> Code:
    """The ``<page>.invalid-usage`` code that ``providers._base.usage_event`` raises: a usage
    that is not an object (form ``not-an-object``), or a token count in it that is not an
    integer (form ``not-an-integer``); the value is ignored.

    Args:
        page: the provider's page; the code is named after it.
        doc: its docs section (which usage the protocol sends, an example, what to do).
    """
    return Code(
        f"{page.name}.invalid-usage",
        "warning",
        "provider",
        page,
        {
            "not-an-object": "The usage of record {record} is not an object: {usage!q}.",
            "not-an-integer": "{source}.{field} of record {record} is not an integer: {value!q}; it is ignored.",
        },
        doc,
        content=("usage", "value"),
    )


def provider_error(page: Page, message: str) -> Form:
    """The provider's form of ``provider.error``, named after its page (the Report's
    ``form``): its sentence for an error the provider reported inside the stream.

    Args:
        page: the provider's page; the form is named after it.
        message: the form's message template (see :func:`~.spec.compile_template`).
    """
    return Form(PROVIDER_ERROR, page.name, message)

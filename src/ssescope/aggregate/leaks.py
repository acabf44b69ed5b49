"""Reasoning that leaked into the reply text: the tags reasoning models wrap it in.

A server that serves a reasoning model without its reasoning parser leaves the model's
reasoning in the text, between tags: ``<think>…</think>`` (DeepSeek-R1, Qwen3),
``<thinking>…</thinking>``, ``<reasoning>…</reasoning>``, Cohere's
``<|START_THINKING|>…<|END_THINKING|>``. A chat template that writes the opening tag into
the prompt leaves only the closing one in the reply. The assembled text is searched
once, at the end, so a tag split across records is found like any other.
"""

from __future__ import annotations

__all__ = ["TAGS", "find_leak"]

TAGS: tuple[tuple[str, str], ...] = (
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("<reasoning>", "</reasoning>"),
    ("<|START_THINKING|>", "<|END_THINKING|>"),
)
"""Each pair of opening and closing tags, in the order they are looked for."""


def find_leak(text: str) -> tuple[str, str] | None:
    """The first reasoning tag found in ``text``, and how it was found.

    Returns:
        ``(tag, "tag")`` for an opening tag (or a closing tag after it), ``(tag,
        "closing-only")`` for a closing tag with no opening one before it, or ``None``.
    """
    if "<" not in text:
        return None
    for opening, closing in TAGS:
        start = text.find(opening)
        end = text.find(closing)
        if start >= 0:
            return opening, "tag"
        if end >= 0:
            return closing, "closing-only"
    return None

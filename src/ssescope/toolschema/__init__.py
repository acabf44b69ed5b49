"""Tool calls checked against the JSON Schema their request declared.

:mod:`.request` reads the tools a request body offers (every provider's shape),
:mod:`.dialect` turns Gemini's OpenAPI-style schemas into JSON Schema and spells out strict
mode's rules, :mod:`.check` checks a call's arguments with the ``jsonschema`` library (the
``schema`` extra, imported lazily), and :mod:`.calls` is the library's
:func:`validate_tool_call`, which takes ssescope's own calls and the openai / anthropic SDK
objects (imported from ``ssescope``; not re-exported here, since it reads Reports).
"""

from __future__ import annotations

from .check import Finding, Mismatch, ToolChecker
from .request import DeclaredTool, ToolSchemas, request_tools

__all__ = [
    "DeclaredTool",
    "Finding",
    "Mismatch",
    "ToolChecker",
    "ToolSchemas",
    "request_tools",
]

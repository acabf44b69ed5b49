"""The tools a request declared, read from its body (see :mod:`ssescope.toolschema.request`).

The containers that keep a request's body (an ``.ssecap`` header, a HAR entry's
``postData``) and the proxy's recorder read it with :func:`request_tools`; the aggregator
then checks each tool call against the tool's input schema.
"""

from __future__ import annotations

from ..toolschema.request import DeclaredTool, ToolSchemas, request_tools

__all__ = ["DeclaredTool", "ToolSchemas", "request_tools"]

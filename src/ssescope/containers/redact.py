"""Redaction of secrets in headers and URLs, applied wherever a request is recorded.

Captures are shared: pasted into bug reports, attached to support tickets. Whatever ssescope
writes or shows of a request therefore goes through :func:`redact_headers` and
:func:`redact_url` first. Values are replaced whole by ``"[redacted]"``; names, order
and everything else stay as they were, so the record still says *which* credential
was sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from urllib.parse import unquote_plus

__all__ = ["REDACTED", "SECRET_HEADERS", "SECRET_QUERY_KEYS", "redact_headers", "redact_url"]

REDACTED = "[redacted]"
"""What a secret value is replaced with."""

SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "x-api-key",
        "api-key",
        "x-goog-api-key",
        "cookie",
        "set-cookie",
        "x-amz-security-token",
        "ocp-apim-subscription-key",
    }
)
"""Header names (lower case) whose values are secrets."""

SECRET_QUERY_KEYS = frozenset({"key", "api_key", "api-key", "apikey", "access_token"})
"""URL query parameter names (lower case) whose values are secrets."""

_MARKER = re.compile(r"^\[redacted(?: sha256:[0-9a-f]{8})?\]$")
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)([^/?#@]*):([^/?#@]*)@")


def redact_headers(
    headers: Iterable[tuple[str, str]] | Mapping[str, str],
) -> list[tuple[str, str]]:
    """Return the headers as ``(name, value)`` pairs with secret values redacted.

    Names in :data:`SECRET_HEADERS` (compared case-insensitively) get the value
    ``"[redacted]"``; order and duplicates are kept. A value that is already a redaction
    marker (``[redacted sha256:1a2b3c4d]``, as the proxy writes) is kept as it is.
    """
    items = headers.items() if isinstance(headers, Mapping) else headers
    return [
        (name, REDACTED if name.lower() in SECRET_HEADERS and not _MARKER.match(value) else value)
        for name, value in items
    ]


def redact_url(url: str) -> str:
    """Return ``url`` with secret query values and any userinfo password redacted.

    Query parameters named in :data:`SECRET_QUERY_KEYS` (``key=``, ``api_key=``, …) get
    the value ``[redacted]``; ``https://user:pw@host`` becomes
    ``https://user:[redacted]@host``. Nothing else is re-encoded or reordered.
    """
    url = _USERINFO.sub(lambda m: f"{m[1]}{m[2]}:{REDACTED}@", url, count=1)
    base, hash_, fragment = url.partition("#")
    path, q, query = base.partition("?")
    if not q:
        return url
    parts = query.split("&")
    for i, part in enumerate(parts):
        name, eq, _value = part.partition("=")
        if eq and unquote_plus(name).strip().lower() in SECRET_QUERY_KEYS:
            parts[i] = f"{name}={REDACTED}"
    return f"{path}?{'&'.join(parts)}{hash_}{fragment}"

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

__all__ = [
    "REDACTED",
    "SECRET_HEADERS",
    "SECRET_QUERY_KEYS",
    "redact_headers",
    "redact_url",
    "scrub",
    "secret_values",
]

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

SECRET_QUERY_KEYS = frozenset(
    {
        "key",
        "api_key",
        "api-key",
        "apikey",
        "access_token",
        "id_token",
        "refresh_token",
        "token",
        "sig",
        "signature",
        "client_secret",
        "password",
        "x-amz-security-token",
        "x-amz-signature",
        "x-amz-credential",
        "x-goog-signature",
        "x-goog-credential",
    }
)
"""URL query (and fragment) parameter names (lower case) whose values are secrets."""

_MIN_SECRET = 6  # shorter values are not searched for in text (too many false matches)

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
        (name, REDACTED if _secret_name(name) and not _MARKER.match(value) else value)
        for name, value in items
    ]


def _secret_name(name: str) -> bool:
    # " Authorization" or "Authorization\t" still names the credential
    return name.strip(" \t\r\n\x00").lower() in SECRET_HEADERS


def _redact_params(params: str) -> str:
    parts = params.split("&")
    for i, part in enumerate(parts):
        name, eq, _value = part.partition("=")
        if eq and unquote_plus(name).strip().lower() in SECRET_QUERY_KEYS:
            parts[i] = f"{name}={REDACTED}"
    return "&".join(parts)


def redact_url(url: str) -> str:
    """Return ``url`` with secret query values and any userinfo password redacted.

    Query parameters named in :data:`SECRET_QUERY_KEYS` (``key=``, ``api_key=``,
    ``X-Amz-Signature=``, ``sig=``, ``token=``, …) get the value ``[redacted]``, and so do
    the same names in a ``#access_token=…`` fragment; ``https://user:pw@host`` becomes
    ``https://user:[redacted]@host``. Nothing else is re-encoded or reordered.
    """
    url = _USERINFO.sub(lambda m: f"{m[1]}{m[2]}:{REDACTED}@", url, count=1)
    base, hash_, fragment = url.partition("#")
    path, q, query = base.partition("?")
    if q:
        base = f"{path}?{_redact_params(query)}"
    if "=" in fragment:
        fragment = _redact_params(fragment)
    return f"{base}{hash_}{fragment}"


def secret_values(
    headers: Iterable[tuple[str, str]] | Mapping[str, str] = (), url: str = ""
) -> list[str]:
    """The secrets a request carries, as they could appear in an error message or a body.

    The values of :data:`SECRET_HEADERS` and :data:`SECRET_QUERY_KEYS`, the password of a
    URL, and each word of a multi-word value (the token of ``Bearer TOKEN``), longest
    first; values shorter than 6 characters are left out.
    """
    found: set[str] = set()

    def add(value: str) -> None:
        value = value.strip()
        if len(value) >= _MIN_SECRET:
            found.add(value)
        for word in re.split(r"[\s\x00-\x1f]+", value):
            if len(word) >= _MIN_SECRET:
                found.add(word)

    items = headers.items() if isinstance(headers, Mapping) else headers
    for name, value in items:
        if _secret_name(name):
            add(value)
    match = _USERINFO.match(url)
    if match:
        add(unquote_plus(match[3]))
        add(match[3])
    base, _hash, fragment = url.partition("#")
    for params in (base.partition("?")[2], fragment):
        for part in params.split("&"):
            name, eq, value = part.partition("=")
            if eq and unquote_plus(name).strip().lower() in SECRET_QUERY_KEYS:
                add(value)
                add(unquote_plus(value))
    return sorted(found, key=len, reverse=True)


def scrub(text: str, secrets: Iterable[str]) -> str:
    """Replace each secret in ``text`` (also as ``repr`` would write it) by ``[redacted]``.

    For error messages and bodies that may repeat a credential: an exception quoting the
    header it refused, a server echoing the key it rejected.
    """
    for secret in secrets:
        for form in (secret, repr(secret)[1:-1]):
            if form and form in text:
                text = text.replace(form, REDACTED)
    return text

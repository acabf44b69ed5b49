"""Redaction of secrets in headers and URLs, applied wherever a request is recorded.

Captures are shared: pasted into bug reports, attached to support tickets. Whatever ssescope
writes or shows of a request therefore goes through :func:`redact_headers` and
:func:`redact_url` first. Values are replaced whole by ``"[redacted]"``; names, order
and everything else stay as they were, so the record still says *which* credential
was sent.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from urllib.parse import unquote_plus

__all__ = [
    "ACCOUNT_HEADERS",
    "REDACTED",
    "SECRET_HEADERS",
    "SECRET_HEADER_WORDS",
    "SECRET_QUERY_KEYS",
    "WS_HIDDEN_HEADERS",
    "EchoScrubber",
    "is_hidden_header",
    "is_secret_header",
    "redact_header_bytes",
    "redact_header_text",
    "redact_headers",
    "redact_pairs",
    "redact_url",
    "redact_ws_pairs",
    "scrub",
    "secret_marker",
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
        "set-cookie2",
        "x-amz-security-token",
        "ocp-apim-subscription-key",
    }
)
"""Header names (lower case) whose values are secrets: the providers' own key headers.

Besides these, any name holding one of :data:`SECRET_HEADER_WORDS` as a word is a secret
(``helicone-auth``, ``x-portkey-api-key``, ``cf-aig-authorization``,
``x-goog-iam-authorization-token``): see :func:`is_secret_header`.
"""

SECRET_HEADER_WORDS = frozenset(
    {
        "key",
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "auth",
        "authorization",
        "credential",
        "credentials",
        "cookie",
        "signature",
    }
)
"""Words (between ``-``, ``_`` or ``.``) that make a header name a secret's: gateways and
proxies in front of the providers carry keys in headers of their own. ``tokens`` (the
rate-limit headers) and ``authenticate`` (a challenge, not a credential) are not among them."""

_NOT_SECRET = frozenset({"idempotency-key"})  # a client's random retry id, useful to keep

ACCOUNT_HEADERS = frozenset({"openai-organization", "openai-project", "anthropic-organization-id"})
"""Header names (lower case) that name the account a request was made for. They grant
nothing, but they say whose a capture is; they are hidden like secrets wherever headers
are recorded or shown (:func:`is_hidden_header`), and are not searched for in bodies."""

SECRET_QUERY_KEYS = frozenset(
    {
        "key",
        "api_key",
        "api-key",
        "apikey",
        "x-api-key",
        "api_token",
        "api-token",
        "subscription-key",
        "access_token",
        "access-token",
        "id_token",
        "refresh_token",
        "token",
        "auth",
        "auth_token",
        "authorization",
        "sig",
        "signature",
        "client_secret",
        "secret",
        "password",
        "x-amz-security-token",
        "x-amz-signature",
        "x-amz-credential",
        "x-goog-signature",
        "x-goog-credential",
    }
)
"""URL parameter names (lower case) whose values are secrets: in the query (``&`` or ``;``
between parameters), in a ``#fragment``, and as a path segment's ``;name=value``."""

_MIN_SECRET = 6  # shorter values are not searched for in text (too many false matches)

_MARKER = re.compile(r"^\[redacted(?: sha256:[0-9a-f]{8})?\]$")
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)([^/?#@]*):([^/?#@]*)@")
_WORDS = re.compile(r"[-_.]+")
_PARAM_SEP = re.compile(r"([&;])")
# a header name written out, and what separates it from its value: `Name: value` /
# `Name value` (a line), `"name": "value"` and `["name", "value"]` (JSON), `'name': 'value'`
_NAMED = re.compile(
    r"""(?P<q>["']?)(?P<name>[!#$%&*+.^_`|~0-9A-Za-z-]+)(?P=q)(?P<sep>[ \t]*[:,=][ \t]*|[ \t]+)"""
)
_QUOTED = {'"': re.compile(r'"(?:[^"\\]|\\.)*"?'), "'": re.compile(r"'(?:[^'\\]|\\.)*'?")}
_TO_EOL = re.compile(r"[^\r\n]*")


def is_secret_header(name: str) -> bool:
    """Whether the header ``name`` (any case, spaces around it) carries a credential.

    The names of :data:`SECRET_HEADERS`, and any name holding a word of
    :data:`SECRET_HEADER_WORDS` (``x-portkey-api-key``, ``helicone-auth``).
    """
    low = name.strip(" \t\r\n\x00").lower()
    if low in SECRET_HEADERS:
        return True
    if low in _NOT_SECRET:
        return False
    return any(word in SECRET_HEADER_WORDS for word in _WORDS.split(low))


def is_hidden_header(name: str) -> bool:
    """Whether a recorded or shown value of the header ``name`` is replaced: a credential
    (:func:`is_secret_header`) or an account id (:data:`ACCOUNT_HEADERS`)."""
    return is_secret_header(name) or name.strip(" \t\r\n\x00").lower() in ACCOUNT_HEADERS


def redact_headers(
    headers: Iterable[tuple[str, str]] | Mapping[str, str],
) -> list[tuple[str, str]]:
    """Return the headers as ``(name, value)`` pairs with secret values redacted.

    Secret names (:func:`is_hidden_header`: credentials and account ids, compared
    case-insensitively) get the value ``"[redacted]"``; order and duplicates are kept. A
    value that is already a redaction marker (``[redacted sha256:1a2b3c4d]``, as the proxy
    writes) is kept as it is.
    """
    items = headers.items() if isinstance(headers, Mapping) else headers
    return [
        (name, REDACTED if is_hidden_header(name) and not _MARKER.match(value) else value)
        for name, value in items
    ]


def redact_header_text(text: str) -> str:
    """``text`` (a head line, a trace line, an excerpt quoted in a diagnostic) with the
    value of every secret header it writes out replaced by ``[redacted]``.

    ``Set-Cookie: id=…``, ``Set-Cookie id=…`` (a line missing its colon),
    ``"authorization": "Bearer …"`` and ``["x-api-key", "…"]`` all lose their value; the
    rest of the text is kept.
    """

    if not text:
        return text
    out: list[str] = []
    pos = 0
    for match in _NAMED.finditer(text):
        if match.start() < pos or not is_hidden_header(match["name"]):
            continue
        at = match.end()
        quoted = _QUOTED.get(text[at : at + 1])
        value = (quoted or _TO_EOL).match(text, at)
        assert value is not None  # (both patterns match the empty string or a quote)
        shown = value[0]
        if not shown.strip() or _MARKER.match(shown.strip("\"'")):
            continue
        quote = text[at] if quoted is not None else ""
        closing = quote if quoted is not None and len(shown) > 1 and shown.endswith(quote) else ""
        out.append(text[pos:at] + quote + REDACTED + closing)
        pos = value.end()
    return "".join(out) + text[pos:] if out else text


def redact_header_bytes(data: bytes) -> bytes:
    """:func:`redact_header_text` for raw bytes (a line of a dump), other bytes kept as they are."""
    text = data.decode("utf-8", "surrogateescape")
    redacted = redact_header_text(text)
    return data if redacted is text else redacted.encode("utf-8", "surrogateescape")


def _secret_param(part: str) -> bool:
    name, eq, _value = part.partition("=")
    return bool(eq) and unquote_plus(name).strip().lower() in SECRET_QUERY_KEYS


def _redact_params(params: str) -> str:
    parts = _PARAM_SEP.split(params)  # separators at the odd positions
    for i in range(0, len(parts), 2):
        if _secret_param(parts[i]):
            parts[i] = f"{parts[i].partition('=')[0]}={REDACTED}"
    return "".join(parts)


def _redact_path(path: str) -> str:
    # `;name=value` parameters of a path segment (`/v1/models;key=…/generate`)
    if ";" not in path:
        return path
    segments = path.split("/")
    for i, segment in enumerate(segments):
        if ";" in segment:
            head, _sep, params = segment.partition(";")
            segments[i] = f"{head};{_redact_params(params)}"
    return "/".join(segments)


def _url_params(url: str) -> list[str]:
    """Every ``name=value`` parameter of ``url``: path segments, query, fragment."""
    base, _hash, fragment = url.partition("#")
    path, _q, query = base.partition("?")
    found: list[str] = []
    for segment in path.split("/"):
        found.extend(segment.split(";")[1:])
    for params in (query, fragment):
        found.extend(_PARAM_SEP.split(params)[::2])
    return found


def redact_url(url: str) -> str:
    """Return ``url`` with secret query values and any userinfo password redacted.

    Parameters named in :data:`SECRET_QUERY_KEYS` (``key=``, ``api_key=``,
    ``X-Amz-Signature=``, ``sig=``, ``token=``, …) get the value ``[redacted]``: in the
    query (separated by ``&`` or ``;``), in a ``#access_token=…`` fragment, and in a path
    segment's ``;key=…``; ``https://user:pw@host`` becomes ``https://user:[redacted]@host``.
    Nothing else is re-encoded or reordered.
    """
    url = _USERINFO.sub(lambda m: f"{m[1]}{m[2]}:{REDACTED}@", url, count=1)
    base, hash_, fragment = url.partition("#")
    path, q, query = base.partition("?")
    base = _redact_path(path)
    if q:
        base = f"{base}?{_redact_params(query)}"
    if "=" in fragment:
        fragment = _redact_params(fragment)
    return f"{base}{hash_}{fragment}"


def secret_values(
    headers: Iterable[tuple[str, str]] | Mapping[str, str] = (), url: str = ""
) -> list[str]:
    """The secrets a request carries, as they could appear in an error message or a body.

    The values of secret headers (:func:`is_secret_header`) and of the URL parameters of
    :data:`SECRET_QUERY_KEYS`, the password of a URL, and each word of a multi-word value
    (the token of ``Bearer TOKEN``), longest first; values shorter than 6 characters are
    left out. Account ids (:data:`ACCOUNT_HEADERS`) are not credentials and are not listed.
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
        if is_secret_header(name):
            add(value)
    match = _USERINFO.match(url)
    if match:
        add(unquote_plus(match[3]))
        add(match[3])
    for part in _url_params(url):
        if _secret_param(part):
            value = part.partition("=")[2]
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


class EchoScrubber:
    """Replace the request's credentials in a body as it streams, chunk by chunk.

    A server that refuses a key may repeat it in its answer (``Incorrect API key provided:
    sk-…``). Each secret is searched for as written, as JSON writes it and with ``/``
    escaped; a chunk that ends with the start of one keeps that end back until the next
    chunk (or :meth:`close`) says whether the secret follows, so a key split across two
    chunks is found too.

    Args:
        secrets: the credentials (:func:`secret_values`).

    Attributes:
        found: how many were replaced so far.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        forms: set[bytes] = set()
        for secret in secrets:
            for form in (secret, json.dumps(secret)[1:-1], secret.replace("/", "\\/")):
                forms.add(form.encode("utf-8", "surrogatepass"))
        self._forms = sorted((f for f in forms if f), key=len, reverse=True)
        self._marker = REDACTED.encode()
        self._held = b""
        self.found = 0

    def feed(self, data: bytes) -> bytes:
        """``data`` (after what was held back) with every secret replaced, but for an end
        that may be the start of one."""
        if not self._forms:
            return data
        buf = self._held + data if self._held else data
        for form in self._forms:
            if form in buf:
                self.found += buf.count(form)
                buf = buf.replace(form, self._marker)
        cut = self._partial(buf)
        self._held = buf[cut:]
        return buf[:cut]

    @property
    def held(self) -> int:
        """How many bytes are held back (the end of the last chunk, which may start a
        secret); they come first in the next :meth:`feed`."""
        return len(self._held)

    def close(self) -> bytes:
        """What was held back at the end of the body: kept, unless it is most of a secret
        (a body cut in the middle of the key it repeats)."""
        held, self._held = self._held, b""
        if len(held) >= _MIN_SECRET:
            self.found += 1
            return self._marker
        return held

    def _partial(self, buf: bytes) -> int:
        """Where the longest end of ``buf`` that starts some secret begins (``len(buf)``:
        none does)."""
        cut = len(buf)
        for form in self._forms:
            lo = max(0, len(buf) - len(form) + 1)
            at = buf.rfind(form[:1], lo)
            while at >= 0:
                if at < cut and form.startswith(buf[at:]):
                    cut = at
                at = buf.rfind(form[:1], lo, at)
        return cut


def secret_marker(value: str) -> str:
    """What a secret value becomes: ``[redacted sha256:xxxxxxxx]``.

    The eight hex digits of its SHA-256 tell two keys apart (which key did this request
    use?) without revealing either.
    """
    digest = hashlib.sha256(value.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return f"{REDACTED[:-1]} sha256:{digest}]"


WS_HIDDEN_HEADERS = frozenset({"openai-beta"})
"""What a WebSocket upgrade's recorded headers hide beyond what an HTTP capture hides:
``OpenAI-Beta`` (a Realtime session's events tell which generation it speaks)."""


def redact_ws_pairs(headers: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """:func:`redact_pairs` for a WebSocket upgrade request: :data:`WS_HIDDEN_HEADERS`
    are replaced by :func:`secret_marker` too."""
    return [
        (k, secret_marker(v) if k.strip().lower() in WS_HIDDEN_HEADERS else v)
        for k, v in redact_pairs(headers)
    ]


def redact_pairs(headers: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The headers with every secret value (a credential or an account id, see
    :func:`ssescope.containers.redact.is_hidden_header`) replaced by :func:`secret_marker`."""
    return [(k, secret_marker(v) if is_hidden_header(k) else v) for k, v in headers]

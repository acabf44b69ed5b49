from __future__ import annotations

import pytest

from ssescope.containers import redact_headers, redact_url


def test_secret_headers_are_redacted_in_any_case_and_order_is_kept():
    headers = [
        ("Authorization", "Bearer placeholder"),
        ("Accept", "text/event-stream"),
        ("X-Api-Key", "placeholder"),
        ("api-key", "placeholder"),
        ("x-goog-api-key", "placeholder"),
        ("Proxy-Authorization", "Basic placeholder"),
        ("Cookie", "a=b"),
        ("set-cookie", "c=d"),
        ("set-cookie", "e=f"),
    ]
    out = redact_headers(headers)
    assert [n for n, _ in out] == [n for n, _ in headers]
    assert [v for _, v in out] == ["[redacted]", "text/event-stream"] + ["[redacted]"] * 7


def test_a_header_mapping_is_accepted():
    assert redact_headers({"authorization": "x", "a": "b"}) == [
        ("authorization", "[redacted]"),
        ("a", "b"),
    ]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://h/v1/m?alt=sse&key=abc", "https://h/v1/m?alt=sse&key=[redacted]"),
        ("https://h/p?api_key=abc#frag", "https://h/p?api_key=[redacted]#frag"),
        ("https://h/p?API_KEY=abc&monkey=1", "https://h/p?API_KEY=[redacted]&monkey=1"),
        ("https://u:pw@h/p", "https://u:[redacted]@h/p"),
        ("https://h/p?keys=1&key", "https://h/p?keys=1&key"),
        ("https://h/p", "https://h/p"),
        ("/relative?key=1", "/relative?key=[redacted]"),
    ],
)
def test_secret_query_values_and_passwords_are_redacted_in_urls(url, expected):
    assert redact_url(url) == expected

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


@pytest.mark.parametrize("name", [" Authorization", "Authorization ", "\tx-api-key", "Cookie\t"])
def test_header_names_with_surrounding_spaces_are_still_secret(name: str) -> None:
    assert redact_headers([(name, "sk-secret-value")]) == [(name, "[redacted]")]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "https://b.s3.amazonaws.com/o?X-Amz-Credential=AKIA/x&X-Amz-Security-Token=FwoG"
            "&X-Amz-Signature=abc123&X-Amz-Expires=60",
            "https://b.s3.amazonaws.com/o?X-Amz-Credential=[redacted]"
            "&X-Amz-Security-Token=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Expires=60",
        ),
        ("https://a.blob/x?sv=2020&sig=abc%2Bdef", "https://a.blob/x?sv=2020&sig=[redacted]"),
        ("https://h/stream?token=t0k3n&n=1", "https://h/stream?token=[redacted]&n=1"),
        (
            "https://h/cb#access_token=ya29.secret&token_type=Bearer",
            "https://h/cb#access_token=[redacted]&token_type=Bearer",
        ),
        ("https://h/page#section-2", "https://h/page#section-2"),
    ],
)
def test_signed_url_and_fragment_tokens_are_redacted(url: str, expected: str) -> None:
    assert redact_url(url) == expected


def test_secret_values_and_scrub_find_a_key_in_any_error_text() -> None:
    from ssescope.containers.redact import scrub, secret_values

    secrets = secret_values(
        [("Authorization", "Bearer sk-abcdef123456\r"), ("Accept", "text/event-stream")],
        "https://u:p4ssw0rd!@h/x?key=AIzaSyKEY123&n=1",
    )
    assert "sk-abcdef123456" in secrets and "AIzaSyKEY123" in secrets
    assert "p4ssw0rd!" in secrets and "text/event-stream" not in secrets
    message = "Illegal header value b'Bearer sk-abcdef123456\\r' for https://h/x?key=AIzaSyKEY123"
    cleaned = scrub(message, secrets)
    assert "sk-abcdef123456" not in cleaned and "AIzaSyKEY123" not in cleaned
    assert cleaned.count("[redacted]") == 2

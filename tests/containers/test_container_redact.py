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


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://h/p?alt=sse;key=abc123", "https://h/p?alt=sse;key=[redacted]"),
        ("https://h/p?a=1;api_key=abc&b=2", "https://h/p?a=1;api_key=[redacted]&b=2"),
        ("https://h/v1/models;key=abc123/x", "https://h/v1/models;key=[redacted]/x"),
        ("https://h/x;jsessionid=1;token=t0k3n", "https://h/x;jsessionid=1;token=[redacted]"),
        ("https://h/p?subscription-key=abc", "https://h/p?subscription-key=[redacted]"),
        ("https://h/p;v=2?q=1", "https://h/p;v=2?q=1"),
    ],
)
def test_semicolon_parameters_are_redacted_in_the_query_and_the_path(
    url: str, expected: str
) -> None:
    from ssescope.containers.redact import secret_values

    assert redact_url(url) == expected
    if "key=abc123" in url:  # (values of 6 characters or more are searched for in texts)
        assert secret_values([], url) == ["abc123"]


@pytest.mark.parametrize(
    "name",
    [
        "helicone-auth",
        "x-portkey-api-key",
        "x-portkey-virtual-key",
        "cf-aig-authorization",
        "x-litellm-api-key",
        "x-goog-iam-authorization-token",
        "x-functions-key",
        "X-Auth-Token",
        "x-client-secret",
        "set-cookie2",
        "apikey",
    ],
)
def test_the_key_headers_of_gateways_in_front_of_the_providers_are_secrets(name: str) -> None:
    from ssescope.containers.redact import is_secret_header, secret_values

    assert is_secret_header(name)
    assert redact_headers([(name, "sk-gateway-key")]) == [(name, "[redacted]")]
    assert secret_values([(name, "sk-gateway-key")]) == ["sk-gateway-key"]


@pytest.mark.parametrize(
    "name",
    [
        "x-ratelimit-remaining-tokens",
        "anthropic-ratelimit-input-tokens-limit",
        "www-authenticate",
        "idempotency-key",
        "x-goog-api-client",
        "anthropic-dangerous-direct-browser-access",
        "x-request-id",
        "content-type",
    ],
)
def test_useful_headers_that_only_look_like_keys_are_kept(name: str) -> None:
    assert redact_headers([(name, "value")]) == [(name, "value")]


def test_account_ids_are_hidden_in_headers_but_not_hunted_in_bodies() -> None:
    from ssescope.containers.redact import secret_values

    headers = [("OpenAI-Organization", "org-abc123"), ("anthropic-organization-id", "uuid-1234")]
    assert [v for _, v in redact_headers(headers)] == ["[redacted]", "[redacted]"]
    assert secret_values(headers) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (" Set-Cookie: session=abc123", " Set-Cookie: [redacted]"),
        ("Set-Cookie session=abc123", "Set-Cookie [redacted]"),
        ("xx set-cookie: a=1; Secure", "xx set-cookie: [redacted]"),
        (
            '[["authorization","Bearer sk-1"],["a","b"]]',
            '[["authorization","[redacted]"],["a","b"]]',
        ),
        ("{'x-api-key': 'sk-1', 'a': 'b'}", "{'x-api-key': '[redacted]', 'a': 'b'}"),
        ('{"cookie":"cut-in-the-midd', '{"cookie":"[redacted]'),
        ("x-ratelimit-limit-tokens: 100", "x-ratelimit-limit-tokens: 100"),
        ("Authorization: [redacted sha256:0123abcd]", "Authorization: [redacted sha256:0123abcd]"),
    ],
)
def test_a_header_written_out_in_text_loses_its_value(text: str, expected: str) -> None:
    from ssescope.containers.redact import redact_header_text

    assert redact_header_text(text) == expected


@pytest.mark.parametrize(
    "data",
    [
        b"HTTP/1.1 200 OK\n Set-Cookie: session=SECRETCOOKIE1\nContent-Type: text/event-stream"
        b"\n\ndata: {}\n\n",
        b"HTTP/1.1 200 OK\nSet-Cookie session=SECRETCOOKIE1\n\ndata: {}\n\n",
        b"<= Recv header, 17 bytes (0x11)\n0000: HTTP/1.1 200 OK\nxx Set-Cookie: id=SECRETCOOKIE1\n"
        b"<= Recv data, 10 bytes (0xa)\n0000: data: {}..\n",
        b'{"ssescope":"capture","version":1,"request":{"headers":[["cookie","SECRETCOOKIE1"]]\n'
        b'{"t":0,"data":"data: {}\\n\\n"}\n',
    ],
)
def test_a_cookie_quoted_in_a_diagnostic_is_redacted(data: bytes) -> None:
    import json

    import ssescope

    report = ssescope.inspect(data).to_dict()
    assert report["diagnostics"], "the malformed line is reported"
    assert "SECRETCOOKIE1" not in json.dumps(report)


@pytest.mark.parametrize("step", [1, 2, 5, 64])
def test_the_echo_scrubber_finds_a_key_split_across_chunks_or_cut_at_the_end(step: int) -> None:
    from ssescope.containers.redact import EchoScrubber

    key = "sk-ant-api03-a/b+c"
    body = f'{{"error":"bad key {key}; escaped {key.replace("/", chr(92) + "/")}","cut":"{key}'
    body = body[:-4]  # the body ends in the middle of the key it repeats
    scrubber = EchoScrubber([key])
    data = body.encode()
    out = b"".join(scrubber.feed(data[i : i + step]) for i in range(0, len(data), step))
    out += scrubber.close()
    assert out == b'{"error":"bad key [redacted]; escaped [redacted]","cut":"[redacted]'
    assert scrubber.found == 3
    plain = EchoScrubber([key])
    assert plain.feed(b"data: nothing to see s") + plain.close() == b"data: nothing to see s"

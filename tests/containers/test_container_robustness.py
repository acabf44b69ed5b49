from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssescope.containers import CONTAINERS, detect_container, read_all, read_container
from ssescope.errors import UsageError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "containers"
NAMES = sorted(p.name for p in FIXTURES.iterdir() if p.suffix != ".py")


def _check(data: bytes, container: str = "auto") -> None:
    body = read_container(data, container=container)
    assert body.container in CONTAINERS
    assert all(isinstance(c.data, bytes) for c in body.chunks)
    assert "container.read-failed" not in [d.code for d in body.diagnostics]
    for d in body.diagnostics:
        assert d.severity in ("info", "warning", "error")
        assert d.message.endswith((".", ")"))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_raise_and_read_as_something(data):
    assert detect_container(data)[0] in CONTAINERS
    _check(data)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200), st.sampled_from(CONTAINERS))
def test_random_bytes_forced_into_any_container_never_raise(data, container):
    _check(data, container)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(
        [
            b"HTTP/1.1 200 OK\r\n",
            b"== Info: x\n",
            b'{"ssescope":"capture"}\n',
            b'{"log":{"entries":[',
            b'{"ts":1,"chunk":',
        ]
    ),
    st.binary(max_size=200),
)
def test_a_real_container_start_followed_by_garbage_never_raises(prefix, rest):
    _check(prefix + rest)


@pytest.mark.parametrize("name", NAMES)
def test_every_truncation_of_every_fixture_is_read_without_raising(name):
    data = (FIXTURES / name).read_bytes()
    container = detect_container(data)[0]
    step = max(1, len(data) // 150)
    for cut in range(0, len(data), step):
        _check(data[:cut], container)


@pytest.mark.parametrize("name", NAMES)
def test_every_fixture_reads_without_error_diagnostics(name):
    for body in read_all((FIXTURES / name).read_bytes()):
        assert not [d for d in body.diagnostics if d.severity == "error"]
        assert body.chunks


def test_an_unknown_container_name_is_a_usage_error():
    with pytest.raises(UsageError):
        read_container(b"", container="pcap")

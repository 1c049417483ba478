"""Bulk generation, parsing and formatting."""

import uuid

import pytest

import uuidkit


@pytest.mark.parametrize("n", [0, 1, 2, 1000, 100_000])
def test_bulk_shapes(n):
    for f, v in [(uuidkit.uuid4_list, 4), (uuidkit.uuid7_list, 7)]:
        xs = f(n)
        assert len(xs) == n and all(type(x) is uuidkit.UUID and x.version == v for x in xs)
        assert len(set(xs)) == n
        if v == 7:
            assert all(a < b for a, b in zip(xs, xs[1:]))
    for f, v in [(uuidkit.uuid4_bytes, 4), (uuidkit.uuid7_bytes, 7)]:
        b = f(n)
        assert type(b) is bytes and len(b) == 16 * n
        xs = [uuid.UUID(bytes=b[i:i + 16]) for i in range(0, len(b), 16)]
        assert all(x.version == v and x.variant == uuid.RFC_4122 for x in xs)
        assert len(set(xs)) == n
        if v == 7:
            assert xs == sorted(xs)


def test_bulk_v7_follows_single_calls():
    a = uuidkit.uuid7()
    xs = uuidkit.uuid7_list(1000)
    b = uuidkit.uuid7()
    c = uuid.UUID(bytes=uuidkit.uuid7_bytes(1)[:16])
    assert a < xs[0] and xs[-1] < b < c


@pytest.mark.parametrize("bad,exc", [(-1, ValueError), (1 << 80, OverflowError), ("3", TypeError),
                                     (1.5, TypeError), (None, TypeError)])
def test_bulk_bad_counts(bad, exc):
    for f in (uuidkit.uuid4_list, uuidkit.uuid7_list, uuidkit.uuid4_bytes, uuidkit.uuid7_bytes):
        with pytest.raises(exc):
            f(bad)


def test_parse_and_format_lists():
    xs = uuidkit.uuid4_list(1000) + [uuid.uuid4()]
    strings = uuidkit.format_list(xs)
    assert strings == [str(x) for x in xs]
    assert uuidkit.parse_list(strings) == xs
    assert uuidkit.parse_list(iter(strings)) == xs
    odd = ["{%s}" % strings[0], "urn:uuid:" + strings[1], strings[2].upper(), strings[3].replace("-", "")]
    assert uuidkit.parse_list(odd) == xs[:4]
    assert uuidkit.parse_list([]) == [] and uuidkit.format_list([]) == []
    assert all(type(x) is uuidkit.UUID for x in uuidkit.parse_list(strings))


def test_parse_list_errors_name_the_item():
    good = str(uuidkit.uuid4())
    with pytest.raises(ValueError, match="item 2"):
        uuidkit.parse_list([good, good, "nope", good])
    with pytest.raises(AttributeError, match="item 1"):
        uuidkit.parse_list([good, 5])
    with pytest.raises(TypeError):
        uuidkit.parse_list(5)


def test_format_list_errors():
    with pytest.raises(TypeError, match="uuid.UUID"):
        uuidkit.format_list([uuidkit.uuid4(), "x"])
    with pytest.raises(TypeError):
        uuidkit.format_list(None)


def test_service_switch_without_a_service():
    with pytest.raises(ConnectionError):
        try:
            uuidkit.use_system_service(socket="/nonexistent/uuidkit.sock", timeout=0.5)
            uuidkit.uuid7()
        finally:
            uuidkit.use_system_service(False)
    # With fallback on, the in-process generators answer and order is kept.
    try:
        uuidkit.use_system_service(socket="/nonexistent/uuidkit.sock", fallback=True, timeout=0.5)
        assert uuidkit.system_service_enabled()
        xs = [uuidkit.uuid7() for _ in range(100)] + uuidkit.uuid7_list(10)
        assert all(a < b for a, b in zip(xs, xs[1:])) and xs[0].version == 7
        assert uuidkit.uuid6().version == 6 and uuidkit.uuid1().version == 1
    finally:
        uuidkit.use_system_service(False)
    assert not uuidkit.system_service_enabled()
    with pytest.raises(ValueError):
        uuidkit.use_system_service(timeout=-1)
    with pytest.raises(ValueError):
        uuidkit.use_system_service(block=0)

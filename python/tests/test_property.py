"""Property tests: every attribute and every constructor outcome against the standard module."""

import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

import uuidkit
from conftest import STD_HAS_314, outcome
from test_api import all_attributes

N = 2000
u128 = st.integers(min_value=0, max_value=(1 << 128) - 1)


@settings(max_examples=N, deadline=None)
@given(u128)
def test_every_attribute_matches(value):
    a, b = uuidkit.UUID(int=value), uuid.UUID(int=value)
    assert all_attributes(a) == all_attributes(b)
    if STD_HAS_314 or b.version not in (6, 7):
        assert a.time == b.time
    for form in (str(b), b.hex, b.urn, "{%s}" % b, str(b).upper()):
        assert uuidkit.UUID(form) == b and type(uuidkit.UUID(form)) is uuidkit.UUID
    assert uuidkit.UUID(bytes=b.bytes) == b
    assert uuidkit.UUID(bytes_le=b.bytes_le) == b
    assert uuidkit.UUID(fields=b.fields) == b
    assert (a < uuidkit.MAX) == (b < uuid.UUID(int=(1 << 128) - 1)) and (a == b) and hash(a) == hash(b)


@settings(max_examples=N, deadline=None)
@given(u128, st.integers(min_value=1, max_value=8))
def test_version_override_matches(value, version):
    got = uuidkit.UUID(int=value, version=version)
    if version <= 5 or STD_HAS_314:
        assert got == uuid.UUID(int=value, version=version)
    assert got.version == version and got.variant == uuid.RFC_4122


hexish = st.text(alphabet="0123456789abcdefABCDEF-{}urnid:_ +\u0661\ud800é", max_size=48)


@settings(max_examples=N, deadline=None)
@given(st.one_of(hexish, st.text(max_size=48)))
def test_any_string_gives_the_standard_outcome(s):
    assert outcome(uuidkit.UUID, s) == outcome(uuid.UUID, s)


@settings(max_examples=N, deadline=None)
@given(st.one_of(st.binary(max_size=20), st.binary(min_size=16, max_size=16)))
def test_any_bytes_gives_the_standard_outcome(b):
    assert outcome(uuidkit.UUID, bytes=b) == outcome(uuid.UUID, bytes=b)
    assert outcome(uuidkit.UUID, bytes_le=b) == outcome(uuid.UUID, bytes_le=b)


@settings(max_examples=N, deadline=None)
@given(st.integers(min_value=-(1 << 200), max_value=1 << 200))
def test_any_int_gives_the_standard_outcome(i):
    assert outcome(uuidkit.UUID, int=i) == outcome(uuid.UUID, int=i)


@settings(max_examples=N, deadline=None)
@given(st.tuples(*[st.integers(min_value=-2, max_value=(1 << 49))] * 6))
def test_any_fields_give_the_standard_outcome(f):
    assert outcome(uuidkit.UUID, fields=f) == outcome(uuid.UUID, fields=f)


@settings(max_examples=N, deadline=None)
@given(u128, st.one_of(st.text(max_size=64), st.binary(max_size=64)))
def test_name_based_match(ns, name):
    nsu = uuid.UUID(int=ns)
    if isinstance(name, bytes):
        import hashlib
        want3 = uuid.UUID(bytes=hashlib.md5(nsu.bytes + name).digest(), version=3)
        want5 = uuid.UUID(bytes=hashlib.sha1(nsu.bytes + name).digest()[:16], version=5)
    else:
        want3, want5 = outcome(uuid.uuid3, nsu, name), outcome(uuid.uuid5, nsu, name)
        assert outcome(uuidkit.uuid3, nsu, name) == want3
        assert outcome(uuidkit.uuid5, nsu, name) == want5
        return
    assert uuidkit.uuid3(nsu, name) == want3 and uuidkit.uuid5(nsu, name) == want5

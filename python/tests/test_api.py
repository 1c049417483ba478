"""API parity with the standard uuid module (3.14's), on every supported Python."""

import copy
import json
import os
import pickle
import subprocess
import sys
import uuid
import weakref

import pytest

import uuidkit
from conftest import STD_HAS_314, outcome

S = "a8098c1a-f86e-11da-bd1a-00112444be1e"


def test_every_standard_name_is_there():
    names = [
        "UUID", "SafeUUID", "getnode", "uuid1", "uuid3", "uuid4", "uuid5", "uuid6", "uuid7",
        "uuid8", "NAMESPACE_DNS", "NAMESPACE_URL", "NAMESPACE_OID", "NAMESPACE_X500", "NIL",
        "MAX", "RESERVED_NCS", "RFC_4122", "RESERVED_MICROSOFT", "RESERVED_FUTURE",
    ]
    for n in names:
        assert hasattr(uuidkit, n), n
    for n in ["SafeUUID", "RESERVED_NCS", "RFC_4122", "RESERVED_MICROSOFT", "RESERVED_FUTURE"]:
        assert getattr(uuidkit, n) is getattr(uuid, n)
    for n in ["NAMESPACE_DNS", "NAMESPACE_URL", "NAMESPACE_OID", "NAMESPACE_X500"]:
        assert getattr(uuidkit, n) == getattr(uuid, n)
        assert type(getattr(uuidkit, n)) is uuidkit.UUID
    assert uuidkit.NIL.int == 0 and str(uuidkit.NIL) == "00000000-0000-0000-0000-000000000000"
    assert uuidkit.MAX.int == (1 << 128) - 1
    assert str(uuidkit.MAX) == "ffffffff-ffff-ffff-ffff-ffffffffffff"
    assert uuidkit.NIL.variant == uuid.RESERVED_NCS and uuidkit.NIL.version is None
    assert uuidkit.MAX.variant == uuid.RESERVED_FUTURE and uuidkit.MAX.version is None


def test_is_a_standard_uuid():
    for u in [uuidkit.uuid1(), uuidkit.uuid3(uuidkit.NAMESPACE_DNS, "a"), uuidkit.uuid4(),
              uuidkit.uuid5(uuidkit.NAMESPACE_DNS, "a"), uuidkit.uuid6(), uuidkit.uuid7(),
              uuidkit.uuid8(), uuidkit.UUID(S), uuidkit.UUID(int=5), uuidkit.NIL]:
        assert isinstance(u, uuid.UUID)
        assert type(u) is uuidkit.UUID
    assert issubclass(uuidkit.UUID, uuid.UUID)


@pytest.mark.parametrize("kwargs", [
    {"hex": S}, {"hex": S.upper()}, {"hex": "{" + S + "}"}, {"hex": "urn:uuid:" + S},
    {"hex": S.replace("-", "")}, {"hex": "{{" + S}, {"hex": "uuid:urn:" + S},
    {"hex": S.replace("-", "")[:4] + "_" + S.replace("-", "")[5:]},
    {"hex": "-" * 10 + S.replace("-", "")}, {"hex": " " + S.replace("-", "")[1:]},
    {"hex": "+" + S.replace("-", "")[1:]}, {"hex": "\u0661" * 32},
    {"bytes": bytes(range(16))}, {"bytes_le": bytes(range(16))},
    {"fields": (1, 2, 3, 4, 5, 6)}, {"fields": (2**32 - 1, 2**16 - 1, 2**16 - 1, 255, 255, 2**48 - 1)},
    {"int": 0}, {"int": (1 << 128) - 1}, {"int": 12345}, {"int": True},
    {"hex": S, "version": 1}, {"hex": S, "version": 4}, {"int": 0, "version": 5},
    {"bytes": b"\xff" * 16, "version": 3}, {"hex": S, "is_safe": uuid.SafeUUID.safe},
])
def test_constructor_values_match(kwargs):
    assert outcome(uuidkit.UUID, **kwargs) == outcome(uuid.UUID, **kwargs)
    u = uuidkit.UUID(**kwargs)
    assert u == uuid.UUID(**kwargs)
    assert u.int is not None


BAD = [
    ((12345,), {}), ((b"a8098c1af86e11dabd1a00112444be1e",), {}), ((None,), {}),
    (("",), {}), (("x" * 32,), {}), ((S[:-1],), {}), ((S + "0",), {}), (("\ud800" * 32,), {}),
    (("é" * 32,), {}), ((S.replace("a", "g", 1),), {}), ((S,), {"bytes": b"x" * 16}),
    ((), {}), ((), {"bytes": b"x" * 15}), ((), {"bytes": b"x" * 17}), ((), {"bytes": "x" * 16}),
    ((), {"bytes": bytearray(16)}), ((), {"bytes": 5}), ((), {"bytes_le": b"x"}),
    ((), {"bytes_le": bytearray(16)}), ((), {"fields": (1, 2, 3)}), ((), {"fields": 5}),
    ((), {"fields": (2**32, 0, 0, 0, 0, 0)}), ((), {"fields": (0, 2**16, 0, 0, 0, 0)}),
    ((), {"fields": (0, 0, -1, 0, 0, 0)}), ((), {"fields": (0, 0, 0, 256, 0, 0)}),
    ((), {"fields": (0, 0, 0, 0, 256, 0)}), ((), {"fields": (0, 0, 0, 0, 0, 2**48)}),
    ((), {"fields": ("a", 0, 0, 0, 0, 0)}), ((), {"int": -1}), ((), {"int": 1 << 128}),
    ((), {"int": 10**100}), ((), {"int": -(10**100)}), ((), {"int": "5"}), ((), {"int": 1.5j}),
    ((), {"int": 0, "version": 0}), ((), {"int": 0, "version": 9}), ((), {"int": 0, "version": "4"}),
    ((), {"int": 0, "version": -1}), ((), {"nonsense": 1}), ((S, None, None, None, None, None, None), {}),
    ((), {"hex": S, "int": 5}),
]


@pytest.mark.parametrize("args,kwargs", BAD)
def test_bad_input_raises_the_standard_exception(args, kwargs):
    got = outcome(uuidkit.UUID, *args, **kwargs)
    want = outcome(uuid.UUID, *args, **kwargs)
    assert got[0] == "err", (args, kwargs, got)
    assert got == want, (args, kwargs)


@pytest.mark.parametrize("version", [6, 7, 8])
def test_versions_6_to_8_accepted_as_in_314(version):
    u = uuidkit.UUID(int=0, version=version)
    assert u.version == version and u.variant == uuid.RFC_4122
    if STD_HAS_314:
        assert u == uuid.UUID(int=0, version=version)
    else:
        with pytest.raises(ValueError):
            uuid.UUID(int=0, version=version)


def all_attributes(u):
    return (u.int, u.bytes, u.bytes_le, u.fields, u.time_low, u.time_mid, u.time_hi_version,
            u.clock_seq_hi_variant, u.clock_seq_low, u.node, u.clock_seq, u.hex, u.urn,
            u.variant, u.version, str(u), repr(u), hash(u), int(u), u.is_safe)


@pytest.mark.parametrize("value", [0, 1, (1 << 128) - 1, int(S.replace("-", ""), 16), 1 << 64,
                                   (1 << 64) - 1, 1 << 127, 0x8000 << 48, 0xC000 << 48, 0xE000 << 48])
def test_attributes_match(value):
    a, b = uuidkit.UUID(int=value), uuid.UUID(int=value)
    assert all_attributes(a) == all_attributes(b)
    if b.version not in (6, 7):
        assert a.time == b.time


def test_time_of_v6_and_v7_as_in_314():
    u7 = uuidkit.uuid7()
    assert u7.time == u7.int >> 80  # Unix milliseconds
    import time
    assert abs(u7.time - time.time() * 1000) < 60_000
    u6 = uuidkit.uuid6()
    ticks = ((u6.int >> 96) << 28) | (((u6.int >> 80) & 0xFFFF) << 12) | ((u6.int >> 64) & 0xFFF)
    assert u6.time == ticks
    # Gregorian 100-ns ticks: now.
    assert abs((u6.time - 0x01B21DD213814000) / 1e7 - time.time()) < 60
    u1 = uuidkit.uuid1()
    assert abs((u1.time - 0x01B21DD213814000) / 1e7 - time.time()) < 60


def test_comparisons_and_hash_with_standard_instances():
    a, b = uuidkit.UUID(int=1), uuidkit.UUID(int=2)
    sa, sb = uuid.UUID(int=1), uuid.UUID(int=2)
    assert a == sa and sa == a and a != sb and sb != a
    assert a < b and a < sb and sa < b and b > sa and a <= sa and a >= sa
    assert not (a > b) and not (a >= sb)
    assert hash(a) == hash(sa) and len({a, sa, b, sb}) == 2
    assert a != 1 and (a == "x") is False
    with pytest.raises(TypeError):
        a < 1  # noqa: B015
    with pytest.raises(TypeError):
        a < "00000000-0000-0000-0000-000000000001"  # noqa: B015
    assert sorted([b, sa, a, sb]) == [a, a, b, b]


def test_immutable():
    u = uuidkit.uuid4()
    with pytest.raises(TypeError):
        u.int = 5
    with pytest.raises(TypeError):
        u.foo = 5
    with pytest.raises(AttributeError):
        u.__dict__  # noqa: B018


def test_repr_and_str():
    u = uuidkit.UUID(S)
    assert repr(u) == "UUID('%s')" % S and str(u) == S
    assert eval(repr(u), {"UUID": uuidkit.UUID}) == u


def test_subclass_of_uuidkit_uuid():
    class My(uuidkit.UUID):
        __slots__ = ()

    m = My(S)
    assert type(m) is My and m == uuidkit.UUID(S) and repr(m) == "My('%s')" % S
    assert m.bytes == uuid.UUID(S).bytes and hash(m) == hash(uuid.UUID(S))
    with pytest.raises(ValueError):
        My("bad")


def test_pickle_loads_as_standard_uuid_without_uuidkit(tmp_path):
    u = uuidkit.UUID(S, is_safe=uuid.SafeUUID.safe)
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        data = pickle.dumps(u, proto)
        assert b"uuidkit" not in data
        v = pickle.loads(data)
        assert type(v) is uuid.UUID and v == u and v.is_safe is uuid.SafeUUID.safe
    p = tmp_path / "u.pickle"
    p.write_bytes(pickle.dumps([u, uuidkit.uuid7()]))
    code = (
        "import sys, pickle, uuid; sys.modules['uuidkit'] = None\n"
        "v = pickle.load(open(sys.argv[1], 'rb'))\n"
        "assert type(v[0]) is uuid.UUID and str(v[0]) == %r, v\n"
        "assert v[0].is_safe is uuid.SafeUUID.safe\n"
        "print('loaded', v[0])\n" % S
    )
    r = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True,
                       cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "loaded " + S


def test_copy_deepcopy_weakref():
    u = uuidkit.uuid4()
    assert copy.copy(u) is u and copy.deepcopy(u) is u
    assert copy.deepcopy([u])[0] == u
    r = weakref.ref(u)
    assert r() is u
    d = weakref.WeakValueDictionary()
    d["a"] = u
    assert d["a"] is u


def test_dealloc_clears_weakrefs_and_releases_what_the_slots_hold():
    import gc
    fired = []
    u = uuidkit.uuid4()
    held = object()  # an object in a slot (what object.__setattr__ can put there)
    object.__setattr__(u, "is_safe", held)
    assert u.is_safe is held
    r = weakref.ref(u, lambda _: fired.append(1))
    before = sys.getrefcount(held)
    del u
    gc.collect()
    assert r() is None and fired == [1]
    assert sys.getrefcount(held) == before - 1
    for _ in range(3):  # many short-lived instances, all kinds of construction
        xs = uuidkit.uuid7_list(10000) + [uuidkit.UUID(str(uuid.uuid4())) for _ in range(100)]
        xs += [uuidkit.UUID(fields=(1, 2, 3, 4, 5, 6)) for _ in range(100)]
        del xs


def test_uuid3_uuid5_values():
    for ns in [uuidkit.NAMESPACE_DNS, uuidkit.NAMESPACE_URL, uuid.NAMESPACE_OID, uuid.NAMESPACE_X500]:
        for name in ["python.org", "", "é", "x" * 1000, b"bytes-name", b""]:
            if isinstance(name, bytes) and sys.version_info < (3, 12):
                # The standard module took only str names before 3.12.
                ref3 = uuid.UUID(bytes=__import__("hashlib").md5(ns.bytes + name).digest(), version=3)
            else:
                ref3 = uuid.uuid3(ns, name)
            assert uuidkit.uuid3(ns, name) == ref3
            assert uuidkit.uuid3(ns, name).version == 3
            if not (isinstance(name, bytes) and sys.version_info < (3, 12)):
                assert uuidkit.uuid5(ns, name) == uuid.uuid5(ns, name)
    assert str(uuidkit.uuid3(uuidkit.NAMESPACE_DNS, "python.org")) == "6fa459ea-ee8a-3ca4-894e-db77e160355e"
    assert str(uuidkit.uuid5(uuidkit.NAMESPACE_DNS, "python.org")) == "886313e1-3b8a-5372-9b90-0c9aee199e5d"


@pytest.mark.parametrize("f", ["uuid3", "uuid5"])
@pytest.mark.parametrize("ns,name", [
    (None, "a"), ("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "a"), (5, "a"),
    (uuid.NAMESPACE_DNS, 5), (uuid.NAMESPACE_DNS, None), (uuid.NAMESPACE_DNS, "\ud800"),
    (uuid.NAMESPACE_DNS, ["a"]),
])
def test_name_based_bad_input(f, ns, name):
    got = outcome(getattr(uuidkit, f), ns, name)
    assert got[0] == "err"
    assert got == outcome(getattr(uuid, f), ns, name)


def test_generated_versions_and_variants():
    for f, v in [(uuidkit.uuid1, 1), (uuidkit.uuid4, 4), (uuidkit.uuid6, 6), (uuidkit.uuid7, 7), (uuidkit.uuid8, 8)]:
        for _ in range(100):
            u = f()
            assert u.version == v and u.variant == uuid.RFC_4122
            assert u.is_safe is uuid.SafeUUID.unknown


def test_uuid1_uuid6_with_node_and_clock_seq():
    u = uuidkit.uuid1(node=0x123456789ABC, clock_seq=0x1234)
    assert u.node == 0x123456789ABC and u.clock_seq == 0x1234 and u.version == 1
    u = uuidkit.uuid6(node=0x123456789ABC, clock_seq=0x1234)
    assert u.node == 0x123456789ABC and u.clock_seq == 0x1234 and u.version == 6
    assert uuidkit.uuid6(node=1 << 50).node == 0  # masked to 48 bits, as in 3.14
    with pytest.raises(ValueError):
        uuidkit.uuid1(node=1 << 48)  # field 6 out of range, as the standard module
    with pytest.raises(TypeError):
        uuidkit.uuid1(clock_seq="x")
    with pytest.raises(TypeError):
        uuidkit.uuid6(node="x")


def test_uuid8():
    u = uuidkit.uuid8(0x123456789ABC, 0xDEF, 0x0123456789ABCDEF)
    assert u.version == 8 and u.variant == uuid.RFC_4122
    assert u.int >> 80 == 0x123456789ABC and (u.int >> 64) & 0xFFF == 0xDEF
    assert u.int & ((1 << 62) - 1) == 0x0123456789ABCDEF & ((1 << 62) - 1)
    if STD_HAS_314:
        assert u == uuid.uuid8(0x123456789ABC, 0xDEF, 0x0123456789ABCDEF)
    assert len({uuidkit.uuid8() for _ in range(1000)}) == 1000
    with pytest.raises(TypeError):
        uuidkit.uuid8("a")


def test_time_based_strictly_increasing():
    for f in (uuidkit.uuid6, uuidkit.uuid7):
        xs = [f() for _ in range(10000)]
        assert all(a < b for a, b in zip(xs, xs[1:]))
    xs = [uuidkit.uuid1().time for _ in range(10000)]
    assert all(a < b for a, b in zip(xs, xs[1:]))


def test_json_encoding():
    u = uuidkit.uuid4()
    assert json.dumps({"id": u}, default=str) == '{"id": "%s"}' % u
    assert uuid.UUID(json.loads(json.dumps(str(u)))) == u


def run_cli(*args):
    # Run outside the source tree, so that the installed package is the one imported.
    return subprocess.run([sys.executable, "-m", "uuidkit", *args], capture_output=True,
                          text=True, cwd=os.path.dirname(os.path.abspath(sys.executable)))


def test_cli():
    r = run_cli()
    assert r.returncode == 0 and uuid.UUID(r.stdout.strip()).version == 4
    for v in ["uuid1", "uuid4", "uuid6", "uuid7", "uuid8"]:
        r = run_cli("-u", v)
        assert r.returncode == 0, r.stderr
        assert uuid.UUID(r.stdout.strip()).version == int(v[-1])
    r = run_cli("-u", "uuid5", "-n", "@dns", "-N", "python.org")
    assert r.stdout.strip() == "886313e1-3b8a-5372-9b90-0c9aee199e5d"
    r = run_cli("--uuid", "uuid3", "--namespace", str(uuid.NAMESPACE_DNS), "--name", "python.org")
    assert r.stdout.strip() == "6fa459ea-ee8a-3ca4-894e-db77e160355e"
    r = run_cli("-u", "uuid7", "-C", "5")
    lines = r.stdout.split()
    assert len(lines) == 5 and lines == sorted(lines) and len(set(lines)) == 5
    r = run_cli("--count", "3")
    assert len(set(r.stdout.split())) == 3
    for bad in (["-u", "uuid5"], ["-u", "uuid5", "-n", "@dns"], ["-u", "uuid2"], ["-C", "x"],
                ["-u", "uuid3", "-n", "not-a-uuid", "-N", "a"]):
        r = run_cli(*bad)
        assert r.returncode != 0 and r.stderr, bad
        assert "Traceback" not in r.stderr, bad


def test_getnode_is_the_standard_one():
    assert uuidkit.getnode is uuid.getnode
    assert 0 <= uuidkit.getnode() < (1 << 48)


def test_uuid1_uuid6_without_node_use_getnode():
    # As the standard module (uuid1) and 3.14 (uuid6): the node is getnode(), the hardware
    # address or, where there is none, the standard module's random multicast node.
    node = uuid.getnode()
    for u in (uuidkit.uuid1(), uuidkit.uuid6(), uuidkit.uuid1(clock_seq=0x155),
              uuidkit.uuid6(clock_seq=0x155)):
        assert u.node == node, (u, hex(node))
    assert uuidkit.uuid1(clock_seq=0x155).clock_seq == 0x155
    # A node given without clock_seq: still the process-wide order.
    xs = [uuidkit.uuid6(node=0xABC) for _ in range(2000)]
    assert all(u.node == 0xABC for u in xs)
    assert all(a < b for a, b in zip(xs, xs[1:]))
    # The order guarantee with the getnode() node: v6 strictly increasing as values, v1 by
    # timestamp, across interleaved calls.
    v1, v6 = [], []
    for _ in range(5000):
        v1.append(uuidkit.uuid1())
        v6.append(uuidkit.uuid6())
    assert all(a < b for a, b in zip(v6, v6[1:]))
    assert all(a.time < b.time for a, b in zip(v1, v1[1:]))


@pytest.mark.filterwarnings("ignore:__int__ returned non-int:DeprecationWarning")
def test_pure_python_fallback_attributes_of_odd_int():
    # The standard constructor stores what int= was given (here True); every attribute then
    # behaves as the standard class's code does.
    a, b = uuidkit.UUID(int=True), uuid.UUID(int=True)
    assert a.int is True and all_attributes(a) == all_attributes(b)
    assert a == b and hash(a) == hash(b) and a < uuidkit.UUID(int=2)


def test_service_switch_is_off_by_default():
    assert uuidkit.system_service_enabled() is False

"""No input crashes the interpreter: each finding of the hardening issue, pinned.

The ones that used to abort or segfault run in a child interpreter, so that a regression
fails this test instead of ending the test run.
"""

import gc
import math
import os
import subprocess
import sys
import tempfile
import tracemalloc
import uuid
import weakref

import pytest

import uuidkit

HERE = os.path.dirname(os.path.abspath(__file__))


def run_child(code, timeout=300):
    """Runs `code` in a fresh interpreter; returns (exit status, stdout, stderr)."""
    p = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", code],
        capture_output=True, text=True, timeout=timeout, cwd=tempfile.gettempdir(),
    )
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("call", [
    "uuidkit.uuid7_list(2**31)",
    "uuidkit.uuid4_list(2**40)",
    "uuidkit.uuid7_bytes(2**40)",
    "uuidkit.uuid4_bytes(2**40)",
    "uuidkit.uuid4_list(2**62)",
    "uuidkit.uuid7_bytes(2**59)",
])
def test_huge_counts_are_memory_errors_not_aborts(call):
    # Once an abort ("memory allocation of 34359738368 bytes failed", exit 134).
    code = ("import uuidkit\ntry:\n    %s\nexcept MemoryError as e:\n    print('MemoryError', e)\n"
            % call)
    rc, out, err = run_child(code)
    assert rc == 0, err
    assert out.startswith("MemoryError ") and "bytes" in out, out


def test_counts_beyond_ssize_t_and_negative():
    for f in (uuidkit.uuid4_list, uuidkit.uuid7_list, uuidkit.uuid4_bytes, uuidkit.uuid7_bytes):
        with pytest.raises(OverflowError):
            f(2**64)
        with pytest.raises(ValueError, match="n must be >= 0"):
            f(-1)
        with pytest.raises(TypeError):
            f(1.5)
        assert f(0) in ([], b"")


def test_a_million_instances_linked_through_their_slots_are_freed():
    # Once a segfault (exit 139): the deallocator recursed once per link.
    code = """
import uuidkit, weakref
u = uuidkit.uuid4()
first = weakref.ref(u)
for _ in range(10**6):
    n = uuidkit.uuid4()
    object.__setattr__(n, "int", u)
    u = n
last = weakref.ref(u)
del u, n
print(first() is None and last() is None)
chain = uuidkit.uuid4()
for _ in range(10**6):
    n = uuidkit.uuid7()
    object.__setattr__(n, "is_safe", chain)
    chain = n
del chain, n
print("freed")
"""
    rc, out, err = run_child(code)
    assert rc == 0, err[-2000:]
    assert out.split() == ["True", "freed"], out


@pytest.mark.parametrize("timeout", [1e20, float("inf"), float("nan"), -1.0, 0.0, 1e6])
def test_use_system_service_timeout_out_of_range_is_a_value_error(timeout):
    # Once pyo3_runtime.PanicException, which `except Exception` does not catch.
    try:
        with pytest.raises(ValueError, match="timeout must be"):
            uuidkit.use_system_service(timeout=timeout)
    finally:
        uuidkit.use_system_service(False)
    assert not uuidkit.system_service_enabled()


def test_use_system_service_bad_arguments_are_ordinary_errors():
    try:
        for kwargs, exc in (({"block": 0}, ValueError), ({"block": -1}, OverflowError),
                            ({"block": 2**40}, OverflowError), ({"timeout": "1"}, TypeError),
                            ({"socket": 3}, TypeError)):
            with pytest.raises(exc):
                uuidkit.use_system_service(**kwargs)
    finally:
        uuidkit.use_system_service(False)


def test_cycles_through_the_slots_are_collected():
    # Once +235 MiB per 200k: the instances were not tracked by the collector.
    gc.collect()
    refs = []
    for i in range(1000):
        u = uuidkit.uuid4()
        box = [u]
        object.__setattr__(u, "int" if i % 2 else "is_safe", box)
        assert gc.is_tracked(u)
        refs.append(weakref.ref(u))
    del u, box
    gc.collect()
    assert all(r() is None for r in refs)


def test_cycles_leave_no_memory_behind():
    gc.collect()
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        for _ in range(200_000):
            u = uuidkit.uuid7()
            d = {"u": u}
            object.__setattr__(u, "is_safe", d)
        del u, d
        gc.collect()
        now, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert now - base < 1 << 20, now - base


def test_instances_with_only_their_value_need_no_tracking():
    # Like a tuple of atoms: nothing in them can lead back to them.
    for u in (uuidkit.uuid4(), uuidkit.uuid7(), uuidkit.UUID(int=5), uuidkit.NIL):
        assert not gc.is_tracked(u)
        assert gc.get_referents(u) == [type(u)] or gc.get_referents(u) == []


def test_slots_hold_what_is_stored_and_the_standard_code_reads_it():
    from conftest import outcome

    for stored in (True, 2**200, -1, 7, 2**128 - 1, 1.5, "x", None):
        ours, theirs = uuidkit.UUID(int=1), uuid.UUID(int=1)
        object.__setattr__(ours, "int", stored)
        object.__setattr__(theirs, "int", stored)
        for attr in ("int", "hex", "bytes", "version", "variant", "urn"):
            assert outcome(getattr, ours, attr) == outcome(getattr, theirs, attr), (stored, attr)
        for f in (str, hash, int):
            assert outcome(f, ours) == outcome(f, theirs), (stored, f)
    assert uuidkit.UUID(int=True).int is True
    u = uuidkit.UUID(int=1)
    object.__setattr__(u, "int", 7)
    assert str(u) == "00000000-0000-0000-0000-000000000007" and u.int == 7
    with pytest.raises(TypeError):
        u.int = 3
    with pytest.raises(TypeError):
        object.__delattr__(u, "int")
    with pytest.raises(TypeError):
        object.__delattr__(u, "is_safe")


def test_hash_is_the_ints_on_every_value():
    for v in (0, 1, 2**61 - 2, 2**61 - 1, 2**61, 2**64 - 1, 2**64, 2**127, 2**128 - 1):
        assert hash(uuidkit.UUID(int=v)) == hash(v)


def test_subclasses_keep_the_fast_paths_and_the_standard_layout():
    class Sub(uuidkit.UUID):
        pass

    s = Sub("a8098c1a-f86e-11da-bd1a-00112444be1e")
    assert s == uuidkit.UUID("a8098c1a-f86e-11da-bd1a-00112444be1e")
    assert repr(s) == "Sub('a8098c1a-f86e-11da-bd1a-00112444be1e')"
    object.__setattr__(s, "extra", [s])  # a subclass's own __dict__, in a cycle
    r = weakref.ref(s)
    del s
    gc.collect()
    assert r() is None


def test_floats_and_odd_counts_never_reach_a_panic():
    for bad in (math.nan, math.inf, -math.inf, 1e300):
        with pytest.raises(TypeError):
            uuidkit.uuid4_list(bad)
    with pytest.raises(TypeError):
        uuidkit.parse_list(5)
    with pytest.raises(TypeError):
        uuidkit.format_list([object()])


def test_the_fuzz_run_calls_every_public_function_and_exits_normally():
    n = os.environ.get("UUIDKIT_FUZZ_EXAMPLES", "200")
    p = subprocess.run(
        [sys.executable, "-X", "faulthandler", os.path.join(HERE, "fuzz_calls.py"), n],
        capture_output=True, text=True, timeout=900, cwd=tempfile.gettempdir(),
    )
    assert p.returncode == 0, (p.stdout[-2000:], p.stderr[-4000:])
    last = p.stdout.strip().splitlines()[-1]
    print(last)
    assert last.startswith("fuzz: ") and "0 failures" in last, last
    calls = int(last.split()[1])
    assert calls >= 20 * int(n), last

"""Calls every public function and method of uuidkit with random argument types and values
(hypothesis), and fails on anything but an ordinary exception: a `SystemError`, a
`BaseException` that is not an `Exception` (pyo3's `PanicException` is one), or a crash of
this process, which the test that runs this script in a child sees in its exit status.

    python tests/fuzz_calls.py [EXAMPLES]     # per function; prints "fuzz: N calls, ..."
"""

import contextlib
import io
import pickle
import sys
import uuid as std

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyarrow as pa

import uuidkit
import uuidkit.arrow as ua

EXAMPLES = int(sys.argv[1]) if len(sys.argv) > 1 else 200
calls = 0
failures = []

GOOD = "a8098c1a-f86e-11da-bd1a-00112444be1e"
# Counts small enough to run, or so large that they must be refused before any allocation.
ints = st.one_of(
    st.integers(-1000, 1000),
    st.integers(min_value=2**40),
    st.integers(max_value=-2**40),
    st.sampled_from([2**31, 2**48, 2**63 - 1, 2**63, 2**64, 2**127, 2**128 - 1, 2**128]),
)
texts = st.one_of(
    st.text(st.characters(blacklist_categories=()), max_size=60),
    st.sampled_from([GOOD, GOOD.upper(), "{%s}" % GOOD, "urn:uuid:" + GOOD, GOOD[:-1],
                     GOOD + "0", "user_01h455vb4pex5vsknk084sn02q", "01H455VB4PEX5VSKNK084SN02Q",
                     "\ud800" * 36, "ａ" * 32, "0x" + "0" * 30, "_" * 32, "", "@dns", "ulid",
                     "base58", "typeid", "-" * 36]),
)
atoms = st.one_of(
    st.none(), st.booleans(), ints, st.floats(allow_nan=True, allow_infinity=True), texts,
    st.binary(max_size=40), st.builds(bytearray, st.binary(max_size=20)),
    st.builds(memoryview, st.binary(min_size=16, max_size=16)),
    st.sampled_from([std.UUID(GOOD), uuidkit.UUID(GOOD), uuidkit.NIL, uuidkit.MAX,
                     std.SafeUUID.safe, object(), type, uuidkit.UUID, len, ...]),
    # Arrow columns: the module's own, and pyarrow's of every kind it takes or refuses.
    st.sampled_from([ua.uuid4(3), ua.uuid7(0), ua.format(ua.uuid7(4)),
                     pa.array([GOOD, None, "x", "\u00e9" * 36]), pa.array([GOOD], pa.large_string()),
                     pa.array([GOOD, None], pa.string_view()), pa.array([1, 2]),
                     pa.array([b"0" * 16, None], pa.binary(16)), pa.array([b"0" * 8], pa.binary(8)),
                     pa.array([b"x" * 16, b"y"], pa.binary()), pa.chunked_array([[GOOD], [None]]),
                     pa.array([], pa.string()), pa.array([None, None], pa.string()),
                     pa.array([GOOD] * 5).slice(2, 2), pa.table({"u": [GOOD]})]),
)
values = st.recursive(atoms, lambda c: st.one_of(st.lists(c, max_size=4),
                                                 st.tuples(c, c), st.tuples(c, c, c, c, c, c),
                                                 st.dictionaries(st.text(max_size=5), c,
                                                                 max_size=3)),
                      max_leaves=8)
kwnames = st.sampled_from(["hex", "bytes", "bytes_le", "fields", "int", "version", "is_safe",
                           "node", "clock_seq", "n", "namespace", "name", "form", "prefix",
                           "socket", "fallback", "block", "timeout", "enabled", "a", "b", "c",
                           "argv", "u", "s", "strings", "uuids", "bogus"])
arguments = st.tuples(st.lists(values, max_size=4),
                      st.dictionaries(kwnames, values, max_size=3))


def check(what, f, args, kwargs):
    global calls
    calls += 1
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            f(*args, **kwargs)
    except SystemExit:
        if what != "main":
            failures.append((what, args, kwargs, "SystemExit"))
    except SystemError as e:
        failures.append((what, args, kwargs, repr(e)))
    except Exception:
        pass
    except BaseException as e:  # PanicException, KeyboardInterrupt from inside, ...
        failures.append((what, args, kwargs, "%s: %s" % (type(e).__name__, e)))
    finally:
        if what == "use_system_service":
            uuidkit.use_system_service(False)


FUNCTIONS = sorted(name for name in uuidkit.__all__ if callable(getattr(uuidkit, name))
                   and not isinstance(getattr(uuidkit, name), type(std.SafeUUID)))
assert "uuid4" in FUNCTIONS and "UUID" in FUNCTIONS and "parse_list" in FUNCTIONS
PRIVATE = ["_from_int", "_uuid1", "_uuid6", "_random_u128"]
# uuidkit.arrow's functions (set_max_threads is called with fixed values below: a random
# thread count would only slow the run).
ARROW = ["parse", "format", "uuid4", "uuid7", "timestamp", "version", "validate", "table",
         "max_threads"]


def fuzz_function(name, f):
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(arguments)
    def run(a):
        check(name, f, a[0], a[1])

    run()


ATTRS = ["int", "hex", "bytes", "bytes_le", "fields", "time_low", "time_mid",
         "time_hi_version", "clock_seq_hi_variant", "clock_seq_low", "time", "clock_seq",
         "node", "urn", "variant", "version", "is_safe"]


def poke(u, other):
    """Every attribute, operator and protocol of an instance."""
    for a in ATTRS:
        check("UUID." + a, getattr, (u, a), {})
    for f in (str, repr, hash, int, bytes, pickle.dumps, lambda x: pickle.loads(pickle.dumps(x)),
              lambda x: x.__reduce__(), lambda x: x.__getstate__(), lambda x: x.__copy__(),
              lambda x: x.__deepcopy__({}), uuidkit.format_list, lambda x: uuidkit.to_short(x, "ulid"),
              lambda x: uuidkit.to_typeid(x, "user"), lambda x: uuidkit.uuid5(x, "n")):
        check("UUID.op", f, (u,), {})
    for op in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
        check("UUID." + op, lambda x, y: getattr(x, op)(y), (u, other), {})
        check("UUID." + op, lambda x, y: getattr(x, op)(y), (other, u), {})
    check("format_list", uuidkit.format_list, ([u, other],), {})


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(values, values, st.sampled_from(["int", "is_safe"]))
def fuzz_instances(stored, other, slot):
    """Instances whose slots hold anything (object.__setattr__, as the constructor writes)."""
    for u in (uuidkit.uuid4(), uuidkit.UUID(GOOD)):
        check("object.__setattr__", object.__setattr__, (u, slot, stored), {})
        poke(u, other)
        check("__setstate__", u.__setstate__, (stored,), {})
        poke(u, stored)


def main():
    for name in FUNCTIONS:
        fuzz_function(name, getattr(uuidkit, name))
    for name in PRIVATE:
        fuzz_function(name, getattr(uuidkit._uuidkit, name))
    for name in ARROW:
        fuzz_function("arrow." + name, getattr(ua, name))
    for n in (0, -1, 2**70, 1.5, "2", None):
        check("arrow.set_max_threads", ua.set_max_threads, (n,), {})
    ua.set_max_threads(0)
    fuzz_instances()
    for f in failures[:20]:
        print("FAILURE", f)
    print("fuzz: %d calls, %d functions, %d failures" % (
        calls, len(FUNCTIONS) + len(PRIVATE) + len(ARROW) + 1, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

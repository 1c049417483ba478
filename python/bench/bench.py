"""uuidkit against the standard uuid module, uuid-utils (native and compat) and fastuuid.

One process, interleaved: each round times every (row, package) pair once, in turn, so
that a slower or faster moment of the machine falls on every package alike; the figure
reported is the median over the rounds, in nanoseconds per operation (for the sort and bulk
rows: per UUID). Every figure includes the timing loop's own cost (the "loop" row). Bulk
rows: uuidkit's bulk calls and fastuuid's `uuidN_bulk` make 10^6; packages without a bulk
call are timed on a Python loop over 10^5 (the cost per UUID is the same).

    pip install uuid-utils fastuuid   # the peers; a missing one is left out
    python bench/bench.py [--rounds 7] [--markdown]
"""

import argparse
import platform
import statistics
import sys
import timeit
import uuid as std

import uuidkit

PEERS = {"uuidkit": uuidkit, "stdlib": std}
try:
    import uuid_utils
    import uuid_utils.compat

    PEERS["uuid_utils"] = uuid_utils
    PEERS["uu_compat"] = uuid_utils.compat
except ImportError:
    pass
try:
    import fastuuid

    PEERS["fastuuid"] = fastuuid
except ImportError:
    pass

S = "a8098c1a-f86e-11da-bd1a-00112444be1e"
B = bytes.fromhex(S.replace("-", ""))
SORT_N = 100_000
BULK_N = 1_000_000
# Packages without a bulk call are timed on a Python loop of 10^5 (per UUID, the same cost as
# 10^6 would give, in a tenth of the time).
LOOP_N = 100_000


def ctor(mod):
    return mod.UUID


def sample(mod):
    return mod.UUID(S)


def namespace(mod):
    if mod is PEERS.get("fastuuid"):
        return mod.UUID(str(std.NAMESPACE_DNS))
    return mod.NAMESPACE_DNS


def rows():
    """(name, per-op divisor, {package: (stmt, globals, number)})."""
    out = []

    def single(name, stmt, make, number=2000, only=None):
        d = {}
        for pname, mod in PEERS.items():
            if only is not None and pname not in only:
                continue
            g = make(mod)
            if g is None:
                continue
            d[pname] = (stmt, g, number)
        out.append((name, 1, d))

    single("loop (empty)", "pass", lambda m: {}, only=("uuidkit",))
    single("floor: new uuid.UUID subclass instance", "f()",
           lambda m: {"f": uuidkit._uuidkit._floor}, only=("uuidkit",))
    single("uuid4()", "f()", lambda m: {"f": m.uuid4})
    single("uuid7()", "f()", lambda m: {"f": m.uuid7} if hasattr(m, "uuid7") else None)
    # fastuuid's uuid5 takes the name as bytes only.
    single("uuid5(NAMESPACE_DNS, name)", "f(ns, name)",
           lambda m: {"f": m.uuid5, "ns": namespace(m),
                      "name": b"python.org" if m is PEERS.get("fastuuid") else "python.org"})
    single("UUID(str)", "C(s)", lambda m: {"C": ctor(m), "s": S})
    single("UUID(bytes=...)", "C(bytes=b)", lambda m: {"C": ctor(m), "b": B})
    single("str(u)", "str(u)", lambda m: {"u": sample(m)})
    single("u.bytes", "u.bytes", lambda m: {"u": sample(m)})
    single("u.int", "u.int", lambda m: {"u": sample(m)})
    single("hash(u)", "hash(u)", lambda m: {"u": sample(m)})

    # Kept alive: the instances stay in the list until the timing ends (the list is freed after
    # it, untimed), so each costs its allocation and its memory, none is reused.
    for n, label in ((SORT_N, "10^5"), (BULK_N, "10^6")):
        d = {}
        for pname, mod in PEERS.items():
            d[pname] = ("l = [f() for _ in r]", {"f": mod.uuid4, "r": range(n)}, 1, n)
        out.append(("kept alive: %s uuid4() in a list (per UUID)" % label, n, d))
    out.append(("time.time_ns check of uuid1/6/7 (per call)", 1000,
                {"uuidkit": ("f(1000)", {"f": uuidkit._uuidkit._clock_check}, 200)}))

    d = {}
    for pname, mod in PEERS.items():
        lst = [mod.UUID(str(std.uuid4())) for _ in range(SORT_N)]
        d[pname] = ("sorted(lst)", {"lst": lst}, 1)
    out.append(("sort 10^5 (per UUID)", SORT_N, d))

    for v in (4, 7):
        d = {}
        for pname, mod in PEERS.items():
            gen = getattr(mod, "uuid%d" % v, None)
            if gen is None:
                continue
            if pname == "uuidkit":
                d[pname] = ("f(n)", {"f": getattr(mod, "uuid%d_list" % v), "n": BULK_N}, 1)
            elif pname == "fastuuid":
                d[pname] = ("f(n)", {"f": getattr(mod, "uuid%d_bulk" % v), "n": BULK_N}, 1)
            else:
                d[pname] = ("[f() for _ in r]", {"f": gen, "r": range(LOOP_N)}, 1, LOOP_N)
        out.append(("bulk v%d 10^6 -> list (per UUID)" % v, BULK_N, d))
        d = {}
        for pname, mod in PEERS.items():
            gen = getattr(mod, "uuid%d" % v, None)
            if gen is None:
                continue
            if pname == "uuidkit":
                d[pname] = ("f(n)", {"f": getattr(mod, "uuid%d_bytes" % v), "n": BULK_N}, 1)
            else:
                d[pname] = ("b''.join([f().bytes for _ in r])", {"f": gen, "r": range(LOOP_N)}, 1,
                            LOOP_N)
        out.append(("bulk v%d 10^6 -> bytes (per UUID)" % v, BULK_N, d))
    # The floor of the bytes rows: a fresh 16 MB bytes object, written once (`bytes(k)`
    # zero-fills it), so that its page faults are paid, with no UUID in it.
    out.append(("floor: bytes(16 * 10^6) alone (per UUID)", BULK_N,
                {"uuidkit": ("bytes(k)", {"k": 16 * BULK_N}, 1)}))

    strings = [str(std.uuid4()) for _ in range(SORT_N)]
    d = {"uuidkit": ("f(l)", {"f": uuidkit.parse_list, "l": strings}, 1)}
    for pname, mod in PEERS.items():
        if pname != "uuidkit":
            d[pname] = ("[C(s) for s in l]", {"C": mod.UUID, "l": strings}, 1)
    out.append(("parse 10^5 strings (per UUID)", SORT_N, d))
    d = {}
    for pname, mod in PEERS.items():
        objs = [mod.UUID(s) for s in strings]
        if pname == "uuidkit":
            d[pname] = ("f(l)", {"f": uuidkit.format_list, "l": objs}, 1)
        else:
            d[pname] = ("[str(u) for u in l]", {"l": objs}, 1)
    out.append(("format 10^5 UUIDs (per UUID)", SORT_N, d))
    return out


def memory_per_instance(n=100_000):
    """Bytes each of `n` uuid4() instances holds while alive (tracemalloc), with its list slot."""
    import gc
    import tracemalloc

    out = {}
    for pname, mod in PEERS.items():
        gc.collect()
        tracemalloc.start()
        lst = [mod.uuid4() for _ in range(n)]
        cur, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out[pname] = cur / n
        del lst
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    table = rows()
    timers = {}
    for name, div, d in table:
        for pname, spec in d.items():
            stmt, g, number = spec[:3]
            per = spec[3] if len(spec) > 3 else div  # a row's own count of UUIDs per run
            timers[(name, pname)] = (timeit.Timer(stmt, globals=dict(g)), number, per)
    results = {k: [] for k in timers}
    for _ in range(args.rounds):
        for key, (t, number, div) in timers.items():
            results[key].append(t.timeit(number) / number / div * 1e9)
    med = {k: statistics.median(v) for k, v in results.items()}

    names = list(PEERS)
    others = [p for p in ("uuid_utils", "uu_compat", "fastuuid", "stdlib") if p in PEERS]
    head = ["row"] + ["%s ns" % p for p in names] + ["uuidkit / %s" % p for p in others]
    try:
        from importlib.metadata import version
    except ImportError:  # pragma: no cover
        version = None
    vers = []
    for dist in ("uuidkit", "uuid-utils", "fastuuid"):
        try:
            vers.append("%s %s" % (dist, version(dist) if version else "?"))
        except Exception:  # noqa: BLE001 - not installed
            pass
    print("Python %s, %s, %s; %d rounds, median ns per op" % (
        platform.python_version(), platform.machine(), ", ".join(vers), args.rounds))
    lines = []
    for name, _, d in table:
        cells = [name]
        for p in names:
            v = med.get((name, p))
            cells.append("%.1f" % v if v is not None else "-")
        for p in others:
            a, b = med.get((name, "uuidkit")), med.get((name, p))
            cells.append("%.2fx" % (a / b) if a is not None and b is not None else "-")
        lines.append(cells)
    mem = memory_per_instance()
    lines.append(["memory per kept uuid4(), bytes (with its list slot)"]
                 + ["%.0f" % mem[p] for p in names]
                 + ["%.2fx" % (mem["uuidkit"] / mem[p]) for p in others])
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for c in lines:
            print("| " + " | ".join(c) + " |")
    else:
        w = [max(len(r[i]) for r in [head] + lines) for i in range(len(head))]
        for r in [head] + lines:
            print("  ".join(c.rjust(w[i]) if i else c.ljust(w[i]) for i, c in enumerate(r)))


if __name__ == "__main__":
    sys.exit(main())

"""uuidkit.arrow beside DuckDB and the per-row Python way, in one process.

Operations (per row, in nanoseconds): parse hyphenated text into UUIDs, format UUIDs as
hyphenated text, make n v7 and n v4 UUIDs, read v7 timestamps. Implementations:

- uuidkit: `uuidkit.arrow` on Arrow arrays, result imported by `pyarrow.array` (zero copy),
  on the machine's cores (`set_max_threads(0)`) and on one (`set_max_threads(1)`); with the
  output cache at its default, or at `--cache-limit` bytes (0: every result in fresh memory
  that the system zeroes, as when the earlier results are all still alive);
- DuckDB: `CAST(s AS UUID)`, `CAST(u AS VARCHAR)`, `uuid_extract_timestamp(u)` over an Arrow
  table it scans, `uuidv7()` and `gen_random_uuid()` over `range(n)`, each inside `min(...)`
  so that nothing is optimised away (DuckDB's own threads: all cores);
- Python: what a pyarrow or Polars user writes today, per row: `[uuid.UUID(s) for s in ...]`,
  `pl.Series.map_elements(uuid.UUID)`, `[str(u) ...]`, `[uuid.uuid4() ...]`,
  `[uuidkit.uuid7() ...]` (3.11 has no uuid7), `datetime.fromtimestamp` per row, timed on
  10^5 rows (the per-row cost does not depend on the column's length).

One warm-up round, then `--rounds` rounds, each timing every (operation, implementation)
once in turn, so that a slow moment of the shared machine falls on all alike; the table
shows the median and the range (min-max) over the rounds, and ratios of the medians.

    pip install ./python pyarrow polars duckdb
    python bench/bench_arrow.py [--sizes 1000000 10000000] [--rounds 5] [--cache-limit BYTES]
"""

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
import uuid

import duckdb
import polars as pl
import pyarrow as pa

import uuidkit
import uuidkit.arrow as ua

PY_ROWS = 100_000
TARGETS = {"parse": 4.0, "format": 4.0, "uuid7": 3.0, "uuid4": 4.0, "timestamp": None}


def timed(f):
    t = time.perf_counter_ns()
    r = f()
    dt = time.perf_counter_ns() - t
    del r
    return dt


def cases(n):
    """(operation, implementation, rows, callable) for columns of n rows."""
    ids = pa.array(ua.uuid4(n))
    text = pa.array(ua.format(ids))
    v7 = pa.array(ua.uuid7(n))
    con = duckdb.connect()
    con.register("t_text", pa.table({"s": text}))
    con.register("t_ids", pa.table({"u": ids}))
    con.register("t_v7", pa.table({"u": v7}))
    py_text = text.slice(0, PY_ROWS).to_pylist()
    py_ids = [uuid.UUID(s) for s in py_text]
    py_v7 = [uuid.UUID(bytes=b.bytes) for b in v7.slice(0, PY_ROWS).to_pylist()]
    pl_text = pl.Series("s", py_text)
    utc = datetime.timezone.utc

    def duck(sql):
        return lambda: con.sql(sql).fetchall()

    out = []
    for threads, name in ((0, "uuidkit"), (1, "uuidkit, 1 thread")):
        def k(f, threads=threads):
            def run():
                ua.set_max_threads(threads)
                return pa.array(f())
            return run
        out += [
            ("parse", name, n, k(lambda: ua.parse(text))),
            ("format", name, n, k(lambda: ua.format(ids))),
            ("uuid7", name, n, k(lambda: ua.uuid7(n))),
            ("uuid4", name, n, k(lambda: ua.uuid4(n))),
            ("timestamp", name, n, k(lambda: ua.timestamp(v7))),
        ]
    out += [
        ("parse", "DuckDB", n, duck("SELECT min(CAST(s AS UUID)) FROM t_text")),
        ("format", "DuckDB", n, duck("SELECT min(CAST(u AS VARCHAR)) FROM t_ids")),
        ("uuid7", "DuckDB", n, duck(f"SELECT min(uuidv7()) FROM range({n})")),
        ("uuid4", "DuckDB", n, duck(f"SELECT min(gen_random_uuid()) FROM range({n})")),
        ("timestamp", "DuckDB", n, duck("SELECT min(uuid_extract_timestamp(u)) FROM t_v7")),
        ("parse", "Python per row", PY_ROWS, lambda: [uuid.UUID(s) for s in py_text]),
        ("parse", "Polars map_elements", PY_ROWS,
         lambda: pl_text.map_elements(lambda s: uuid.UUID(s).bytes, return_dtype=pl.Binary)),
        ("format", "Python per row", PY_ROWS, lambda: [str(u) for u in py_ids]),
        ("uuid7", "Python per row", PY_ROWS, lambda: [uuidkit.uuid7() for _ in range(PY_ROWS)]),
        ("uuid4", "Python per row", PY_ROWS, lambda: [uuid.uuid4() for _ in range(PY_ROWS)]),
        ("timestamp", "Python per row", PY_ROWS,
         lambda: [datetime.datetime.fromtimestamp((u.int >> 80) / 1000, utc) for u in py_v7]),
    ]
    return out, con


def run(n, rounds):
    cs, con = cases(n)
    samples = {(op, impl): [] for op, impl, _, _ in cs}
    for r in range(rounds + 1):
        for op, impl, rows, f in cs:
            dt = timed(f) / rows
            if r > 0:
                samples[(op, impl)].append(dt)
    ua.set_max_threads(0)
    con.close()
    return samples


def fmt(xs):
    return f"{statistics.median(xs):.2f} ({min(xs):.2f}–{max(xs):.2f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cache-limit", type=int, default=None,
                    help="uuidkit.arrow.set_cache_limit for the whole run (default: the library's)")
    args = ap.parse_args()
    if args.cache_limit is not None:
        ua.set_cache_limit(args.cache_limit)
    print(f"Python {platform.python_version()}, pyarrow {pa.__version__}, polars {pl.__version__}, "
          f"duckdb {duckdb.__version__}, {os.cpu_count()} CPUs ({platform.machine()}), "
          f"uuidkit.arrow max_threads() = {ua.max_threads()}, cache_limit() = {ua.cache_limit()}; "
          f"{args.rounds} rounds after a warm-up; "
          f"ns per row, median (min–max)")
    print()
    print("| operation | rows | uuidkit | uuidkit, 1 thread | DuckDB | uuidkit / DuckDB | per-row Python (10^5 rows) | uuidkit / Python | target (ns/row) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        s = run(n, args.rounds)
        for op in ("parse", "format", "uuid7", "uuid4", "timestamp"):
            k = s[(op, "uuidkit")]
            k1 = s[(op, "uuidkit, 1 thread")]
            d = s[(op, "DuckDB")]
            pys = [(impl, xs) for (o, impl), xs in s.items() if o == op and impl not in
                   ("uuidkit", "uuidkit, 1 thread", "DuckDB")]
            py_cells = "; ".join(f"{impl}: {fmt(xs)}" for impl, xs in pys)
            py_ratio = "; ".join(f"{statistics.median(k) / statistics.median(xs):.4f}" for _, xs in pys)
            t = TARGETS[op]
            if t is None:
                verdict = "–"
            else:
                verdict = f"≤ {t:g}: " + ("met" if statistics.median(k) <= t else "**missed**")
            print(f"| {op} | {n:.0e} | {fmt(k)} | {fmt(k1)} | {fmt(d)} | "
                  f"{statistics.median(k) / statistics.median(d):.3f} | {py_cells} | {py_ratio} | {verdict} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

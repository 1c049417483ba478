#!/usr/bin/env python3
"""Benchmark of the uuidkit extension against the server's own generators (not a timed test).

    bench.py PG_CONFIG [PG_CONFIG ...]

For each installation: a server in a temporary directory (as the postgres user when root) with
shared_preload_libraries = 'uuidkit' (so the extension's uuidv7() has order scope 'server'),
then, side by side in one run, REPEAT runs each (median reported):
- `SELECT count(f()) FROM generate_series(1, 1000000)` for the extension's uuidv7(), uuidv4()
  and uuid_generate_v4(), gen_random_uuid() and, on 18, the core's uuidv7() and uuidv4();
- `INSERT INTO t SELECT f() FROM generate_series(1, 1000000)` into a table with a uuid primary
  key (after a CHECKPOINT): time, WAL bytes (pg_current_wal_lsn() before and after) and the
  primary key's size, for the extension's uuidv7(), the core's uuidv7() (18) and gen_random_uuid().
Prints Markdown tables of medians and of ratios to gen_random_uuid() (and to the core's uuidv7()).
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import psycopg

REPEAT = int(os.environ.get("UUIDKIT_PGBENCH_REPEAT", "5"))
INSERT_REPEAT = int(os.environ.get("UUIDKIT_PGBENCH_INSERT_REPEAT", "3"))
N = 1_000_000
AS_ROOT = os.geteuid() == 0


def runas(cmd):
    return (["runuser", "-u", "postgres", "--"] + cmd) if AS_ROOT else cmd


def bench(pg_config, tmp, port):
    bindir = subprocess.check_output([pg_config, "--bindir"], text=True).strip()
    major = int(re.match(r"PostgreSQL (\d+)", subprocess.check_output([pg_config, "--version"], text=True)).group(1))
    data = os.path.join(tmp, f"pg{major}")
    subprocess.run(runas([f"{bindir}/initdb", "-D", data, "-U", "uuidkit", "--auth=trust", "-E", "UTF8",
                          "--locale=C.UTF-8"]), check=True, capture_output=True)
    opts = (f"-k {tmp} -p {port} -c listen_addresses= -c shared_preload_libraries=uuidkit "
            "-c shared_buffers=512MB -c max_wal_size=4GB -c fsync=off -c synchronous_commit=off")
    subprocess.run(runas([f"{bindir}/pg_ctl", "-D", data, "-l", data + ".log", "-w", "-o", opts, "start"]),
                   check=True, capture_output=True)
    try:
        c = psycopg.connect(host=tmp, port=port, user="uuidkit", dbname="postgres", autocommit=True)
        c.execute("CREATE SCHEMA uuidkit")
        c.execute("CREATE EXTENSION uuidkit SCHEMA uuidkit")
        scope = c.execute("SELECT uuidkit.uuidkit_order_scope()").fetchone()[0]
        assert scope == "server", scope
        funcs = [("extension uuidkit.uuidv7() (scope server)", "uuidkit.uuidv7()"),
                 ("extension uuidkit.uuidv4()", "uuidkit.uuidv4()"),
                 ("extension uuidkit.uuid_generate_v4()", "uuidkit.uuid_generate_v4()"),
                 ("gen_random_uuid()", "pg_catalog.gen_random_uuid()")]
        if major >= 18:
            funcs += [("core pg_catalog.uuidv7()", "pg_catalog.uuidv7()"),
                      ("core pg_catalog.uuidv4()", "pg_catalog.uuidv4()")]
        calls = {}
        for _ in range(REPEAT):  # interleaved, so that drift hits every function alike
            for label, f in funcs:
                t = time.perf_counter()
                n = c.execute(f"SELECT count({f}) FROM generate_series(1, {N})").fetchone()[0]
                calls.setdefault(label, []).append(time.perf_counter() - t)
                assert n == N
        inserts = [("extension uuidkit.uuidv7()", "uuidkit.uuidv7()"), ("gen_random_uuid()", "pg_catalog.gen_random_uuid()")]
        if major >= 18:
            inserts.insert(1, ("core pg_catalog.uuidv7()", "pg_catalog.uuidv7()"))
        ins = {}
        for _ in range(INSERT_REPEAT):
            for label, f in inserts:
                c.execute("DROP TABLE IF EXISTS bench_keys")
                c.execute("CREATE TABLE bench_keys (id uuid PRIMARY KEY)")
                c.execute("CHECKPOINT")
                lsn = c.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
                t = time.perf_counter()
                c.execute(f"INSERT INTO bench_keys SELECT {f} FROM generate_series(1, {N})")
                dt = time.perf_counter() - t
                wal, idx = c.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s), "
                                     "pg_relation_size('bench_keys_pkey')", (lsn,)).fetchone()
                ins.setdefault(label, []).append((dt, int(wal), int(idx)))
        c.execute("DROP TABLE bench_keys")
        version = c.execute("SHOW server_version").fetchone()[0]
        c.close()
        return major, version, calls, ins
    finally:
        subprocess.run(runas([f"{bindir}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"]), capture_output=True)


def main():
    tmp = tempfile.mkdtemp(prefix="uuidkit-pgbench.")
    os.chmod(tmp, 0o755)
    if AS_ROOT:
        shutil.chown(tmp, "postgres", "postgres")
    results = []
    try:
        for i, pg_config in enumerate(sys.argv[1:]):
            results.append(bench(pg_config, tmp, 54400 + i))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"\n### `SELECT count(f()) FROM generate_series(1, 1000000)`, median of {REPEAT}\n")
    print("| PostgreSQL | f() | median ms | ns per call | × gen_random_uuid() | × core uuidv7() |")
    print("|---|---|---:|---:|---:|---:|")
    for major, version, calls, _ in results:
        base = statistics.median(calls["gen_random_uuid()"])
        core = statistics.median(calls["core pg_catalog.uuidv7()"]) if "core pg_catalog.uuidv7()" in calls else None
        for label, ts in calls.items():
            m = statistics.median(ts)
            print(f"| {version} | {label} | {m * 1000:.0f} | {m * 1e9 / N:.0f} | {m / base:.2f} | "
                  f"{f'{m / core:.2f}' if core else '–'} |")
    print(f"\n### `INSERT` of 10^6 rows into a table with a uuid primary key, median of {INSERT_REPEAT}\n")
    print("| PostgreSQL | key | median s | × gen_random_uuid() | WAL MiB | index MiB |")
    print("|---|---|---:|---:|---:|---:|")
    for major, version, _, ins in results:
        base = statistics.median(t for t, _, _ in ins["gen_random_uuid()"])
        for label, rs in ins.items():
            t = statistics.median(r[0] for r in rs)
            wal = statistics.median(r[1] for r in rs) / 2**20
            idx = statistics.median(r[2] for r in rs) / 2**20
            print(f"| {version} | {label} | {t:.2f} | {t / base:.2f} | {wal:.0f} | {idx:.0f} |")
    print("\n(fsync=off, synchronous_commit=off, shared_buffers=512MB; "
          f"{os.cpu_count()} CPUs shared with other work: compare rows of one run, not runs)")


if __name__ == "__main__":
    main()

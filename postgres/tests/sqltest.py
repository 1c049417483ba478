#!/usr/bin/env python3
"""SQL tests of the uuidkit extension, against real servers (no mocks).

    sqltest.py PG_CONFIG

Starts servers of the installation PG_CONFIG describes, each in a temporary directory with its
socket there (no TCP), as the postgres user when run as root, with libfaketime preloaded so that
a test can step the server's clock at run time (FAKETIME_TIMESTAMP_FILE, re-read at every call),
and stops them at the end. A server that cannot start, a missing extension or a lost connection
is a failure, never a skip. Prints one line per check and closes with "N passed, M failed";
exits 1 when anything failed.

Run by scripts/pg-extension test PG_CONFIG, which installs the extension first.
"""

import base64
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid as pyuuid

import psycopg

PG_CONFIG = sys.argv[1]
BINDIR = subprocess.check_output([PG_CONFIG, "--bindir"], text=True).strip()
SHAREDIR = subprocess.check_output([PG_CONFIG, "--sharedir"], text=True).strip()
MAJOR = int(re.match(r"PostgreSQL (\d+)", subprocess.check_output([PG_CONFIG, "--version"], text=True)).group(1))
AS_ROOT = os.geteuid() == 0
FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
TURNS = int(os.environ.get("UUIDKIT_PGTEST_TURNS", "5000"))
SEED = int(os.environ.get("UUIDKIT_PGTEST_SEED", str(random.randrange(1 << 32))))
rng = random.Random(SEED)

passed = 0
failed = 0


def ok(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}" + (f": {detail}" if detail else ""), flush=True)
    else:
        failed += 1
        print(f"FAIL {name}" + (f": {detail}" if detail else ""), flush=True)
    return cond


def info(name, detail):
    print(f"info {name}: {detail}", flush=True)


def runas(cmd):
    return (["runuser", "-u", "postgres", "--"] + cmd) if AS_ROOT else cmd


TMP = tempfile.mkdtemp(prefix="uuidkit-pgtest.")
os.chmod(TMP, 0o755)
if AS_ROOT:
    shutil.chown(TMP, "postgres", "postgres")
FAKETIME_FILE = os.path.join(TMP, "faketime")


def set_clock_offset(seconds):
    """Steps the clock of every server started with faketime (read again at each call)."""
    with open(FAKETIME_FILE + ".new", "w") as f:
        f.write(f"{seconds:+d}\n")
    os.chmod(FAKETIME_FILE + ".new", 0o644)
    os.replace(FAKETIME_FILE + ".new", FAKETIME_FILE)


set_clock_offset(0)


class Server:
    port_base = 54300

    def __init__(self, name):
        Server.port_base += 1
        self.port = Server.port_base
        self.data = os.path.join(TMP, name)
        self.log = os.path.join(TMP, name + ".log")
        out = subprocess.run(
            runas([f"{BINDIR}/initdb", "-D", self.data, "-U", "uuidkit", "--auth=trust", "-E", "UTF8",
                   "--locale=C.UTF-8"]), capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"initdb failed: {out.stdout}{out.stderr}")
        self.running = False

    def start(self, preload=True, faketime=True):
        opts = f"-k {TMP} -p {self.port} -c listen_addresses= -c fsync=off -c max_connections=40"
        if preload:
            opts += " -c shared_preload_libraries=uuidkit"
        env = []
        if faketime:
            env = ["env", f"LD_PRELOAD={FAKETIME_LIB}", f"FAKETIME_TIMESTAMP_FILE={FAKETIME_FILE}",
                   "FAKETIME_NO_CACHE=1", "DONT_FAKE_MONOTONIC=1"]
        out = subprocess.run(runas(env + [f"{BINDIR}/pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", "60",
                                          "-o", opts, "start"]), capture_output=True, text=True)
        if out.returncode != 0:
            log = open(self.log).read() if os.path.exists(self.log) else ""
            raise RuntimeError(f"the server did not start: {out.stdout}{out.stderr}{log[-3000:]}")
        self.running = True

    def stop(self, mode="fast"):
        subprocess.run(runas([f"{BINDIR}/pg_ctl", "-D", self.data, "-m", mode, "-w", "stop"]),
                       capture_output=True, text=True)
        self.running = False

    def connect(self, dbname="postgres", search_path="uuidkit, pg_catalog, public"):
        opts = f"-c search_path={search_path.replace(' ', '')}" if search_path else ""
        return psycopg.connect(host=TMP, port=self.port, user="uuidkit", dbname=dbname, autocommit=True,
                               options=opts)

    def crashes(self):
        log = open(self.log).read() if os.path.exists(self.log) else ""
        return len(re.findall(r"terminated by signal|server process .* was terminated", log))


def one(conn, sql, params=()):
    return conn.execute(sql, params).fetchone()[0]


def error_of(conn, sql, params=()):
    """(sqlstate, message) of the error that `sql` raises, or None when it succeeds."""
    try:
        conn.execute(sql, params).fetchall()
        return None
    except psycopg.OperationalError:
        raise  # a lost connection is never an expected outcome
    except psycopg.Error as e:
        return (e.sqlstate, e.diag.message_primary or str(e))


# ---- reference encoders (Python, written from the specifications) -----------------------------

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
TYPEID = "0123456789abcdefghjkmnpqrstvwxyz"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base32_right(n, alphabet):
    return "".join(alphabet[(n >> (5 * (25 - i))) & 31] for i in range(26))


def base58(n):
    s = ""
    while n:
        n, r = divmod(n, 58)
        s = B58[r] + s
    return s.rjust(22, "1")


def b64url(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def v7_floor_hex(ms):
    return str(pyuuid.UUID(int=(ms << 80) | (0x7 << 76) | (0x2 << 62)))


def v1_ticks(u):
    return ((u.int >> 64) & 0x0FFF) << 48 | ((u.int >> 80) & 0xFFFF) << 32 | (u.int >> 96)


def v6_ticks(u):
    return (u.int >> 80) << 12 | (u.int >> 64) & 0x0FFF


# ---- the tests ----------------------------------------------------------------------------------

FUNCTIONS = [
    # (name, identity arguments, return type, volatility)
    ("uuidv1", "", "uuid", "v"), ("uuidv4", "", "uuid", "v"), ("uuidv6", "", "uuid", "v"),
    ("uuidv7", "", "uuid", "v"), ("uuidv7", "shift interval", "uuid", "v"),
    ("uuidv8_hash", "namespace uuid, name text", "uuid", "i"), ("uuid_max", "", "uuid", "i"),
    ("uuid_v1_to_v6", "id uuid", "uuid", "i"), ("uuid_v6_to_v1", "id uuid", "uuid", "i"),
    ("uuid_v7_floor", "t timestamp with time zone", "uuid", "i"),
    ("uuidkit_order_scope", "", "text", "s"),
    ("uuid_generate_v1", "", "uuid", "v"), ("uuid_generate_v1mc", "", "uuid", "v"),
    ("uuid_generate_v3", "namespace uuid, name text", "uuid", "i"), ("uuid_generate_v4", "", "uuid", "v"),
    ("uuid_generate_v5", "namespace uuid, name text", "uuid", "i"), ("uuid_nil", "", "uuid", "i"),
    ("uuid_ns_dns", "", "uuid", "i"), ("uuid_ns_url", "", "uuid", "i"), ("uuid_ns_oid", "", "uuid", "i"),
    ("uuid_ns_x500", "", "uuid", "i"), ("uuid_generate_v7", "", "uuid", "v"),
    ("uuid_v7_to_timestamptz", "id uuid", "timestamp with time zone", "i"),
    ("uuid_timestamptz_to_v7", "t timestamp with time zone, zero boolean", "uuid", "v"),
    ("uuid_extract_timestamp", "id uuid", "timestamp with time zone", "i"),
    ("uuid_extract_version", "id uuid", "smallint", "i"),
    ("uuid_to_typeid", "prefix_text text, id uuid", "text", "i"),
    ("uuid_from_typeid", "typeid text", "uuid", "i"),
    ("uuid_from_typeid", "typeid text, expected text", "uuid", "i"),
    ("uuid_to_ulid", "id uuid", "text", "i"), ("uuid_from_ulid", "ulid text", "uuid", "i"),
    ("uuid_to_base58", "id uuid", "text", "i"), ("uuid_from_base58", "text text", "uuid", "i"),
    ("uuid_to_base64url", "id uuid", "text", "i"), ("uuid_from_base64url", "text text", "uuid", "i"),
]


def t_catalog(c):
    rows = c.execute(
        """SELECT p.proname, pg_get_function_identity_arguments(p.oid), p.prorettype::regtype::text,
                  p.provolatile, p.proisstrict, p.proparallel
           FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'uuidkit'""").fetchall()
    have = {(r[0], r[1]): r[2:] for r in rows}
    for name, args, ret, vol in FUNCTIONS:
        got = have.get((name, args))
        ok(f"catalog {name}({args})", got == (ret, vol, True, "s"),
           f"returns {ret}, volatility {vol}, STRICT, PARALLEL SAFE; got {got}")
    ok("catalog: no unexpected function", len(have) == len(FUNCTIONS), f"{len(have)} functions: {sorted(have)}")


def t_generators(c):
    for f, v in [("uuidv1", 1), ("uuidv4", 4), ("uuidv6", 6), ("uuidv7", 7), ("uuid_generate_v1", 1),
                 ("uuid_generate_v1mc", 1), ("uuid_generate_v4", 4), ("uuid_generate_v7", 7)]:
        us = [u for (u,) in c.execute(f"SELECT {f}() FROM generate_series(1, 1000)")]
        ok(f"{f}(): version {v}, RFC variant, 1000 distinct",
           all(u.version == v and u.variant == pyuuid.RFC_4122 for u in us) and len(set(us)) == 1000)
    mc = [u for (u,) in c.execute("SELECT uuid_generate_v1mc() FROM generate_series(1, 200)")]
    ok("uuid_generate_v1mc(): multicast bit set, random node", all(u.node >> 40 & 1 for u in mc)
       and len({u.node for u in mc}) == 200)
    v1 = one(c, "SELECT uuidv1()")
    ok("uuidv1(): random node with the multicast bit", v1.node >> 40 & 1 == 1)
    now_ms = time.time() * 1000
    for f in ["uuidv7()", "uuid_generate_v7()"]:
        ms = one(c, f"SELECT {f}").int >> 80
        ok(f"{f}: time is now", abs(ms - now_ms) < 10_000, f"{ms} vs {now_ms:.0f}")
    for f in ["uuidv1()", "uuidv6()"]:
        ts = one(c, f"SELECT extract(epoch FROM uuid_extract_timestamp({f}))")
        ok(f"{f}: time is now", abs(float(ts) * 1000 - now_ms) < 10_000)
    for shift, secs in [("1 hour", 3600), ("-1 day", -86400), ("-10 years", None), ("2 months", None)]:
        ms = one(c, "SELECT uuidv7(%s::interval)", (shift,)).int >> 80
        want = one(c, "SELECT (extract(epoch FROM clock_timestamp() + %s::interval) * 1000)::bigint", (shift,))
        ok(f"uuidv7('{shift}'): version 7, time now + shift", abs(ms - want) < 10_000, f"{ms} vs {want}")
    for shift in ["-100 years", "-60 years", "9000 years", "100000000 years"]:
        e = error_of(c, "SELECT uuidv7(%s::interval)", (shift,))
        ok(f"uuidv7('{shift}'): 22008 or 22003", e is not None and e[0] in ("22008", "22003"), str(e))
    ok("uuid_max()", str(one(c, "SELECT uuid_max()")) == "ffffffff-ffff-ffff-ffff-ffffffffffff")
    ok("uuid_nil()", str(one(c, "SELECT uuid_nil()")) == "00000000-0000-0000-0000-000000000000")
    for f, u in [("dns", pyuuid.NAMESPACE_DNS), ("url", pyuuid.NAMESPACE_URL), ("oid", pyuuid.NAMESPACE_OID),
                 ("x500", pyuuid.NAMESPACE_X500)]:
        ok(f"uuid_ns_{f}()", one(c, f"SELECT uuid_ns_{f}()") == u)
    # RFC 9562 Appendix A.2, A.4 and B.2.
    ok("uuid_generate_v3: RFC 9562 A.2", str(one(c, "SELECT uuid_generate_v3(uuid_ns_dns(), 'www.example.com')"))
       == "5df41881-3aed-3515-88a7-2f4a814cf09e")
    ok("uuid_generate_v5: RFC 9562 A.4", str(one(c, "SELECT uuid_generate_v5(uuid_ns_dns(), 'www.example.com')"))
       == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
    ok("uuidv8_hash: RFC 9562 B.2 (SHA-256)", str(one(c, "SELECT uuidv8_hash(uuid_ns_dns(), 'www.example.com')"))
       == "5c146b14-3c52-8afd-938a-375d0df1fbf6")
    names = ["".join(rng.choice("abcxyz019-./é字 ") for _ in range(rng.randrange(0, 40))) for _ in range(200)]
    same = all(one(c, "SELECT uuid_generate_v3(uuid_ns_url(), %s)", (n,)) == pyuuid.uuid3(pyuuid.NAMESPACE_URL, n)
               and one(c, "SELECT uuid_generate_v5(uuid_ns_url(), %s)", (n,)) == pyuuid.uuid5(pyuuid.NAMESPACE_URL, n)
               for n in names)
    ok("uuid_generate_v3/v5: 200 random names as Python's uuid3/uuid5", same)


def t_uuid_ossp(c):
    have = one(c, "SELECT count(*) FROM pg_available_extensions WHERE name = 'uuid-ossp'")
    if MAJOR == 15 or have:
        ok("uuid-ossp available (postgresql-contrib)", have == 1)
        c.execute("CREATE SCHEMA IF NOT EXISTS ossp")
        c.execute('CREATE EXTENSION IF NOT EXISTS "uuid-ossp" SCHEMA ossp')
        rows = c.execute(
            """SELECT count(*) FILTER (WHERE uuidkit.uuid_generate_v3(ns, n) <> ossp.uuid_generate_v3(ns, n)),
                      count(*) FILTER (WHERE uuidkit.uuid_generate_v5(ns, n) <> ossp.uuid_generate_v5(ns, n)),
                      count(*)
               FROM (SELECT ns, md5(i::text) || repeat('x', i % 50) AS n
                     FROM generate_series(1, 5000) i,
                          unnest(ARRAY[ossp.uuid_ns_dns(), ossp.uuid_ns_url(), ossp.uuid_ns_oid(),
                                       ossp.uuid_ns_x500(), gen_random_uuid()]) ns) t""").fetchone()
        ok("uuid_generate_v3/v5 equal uuid-ossp's (5000 names x 5 namespaces)", rows[0] == 0 and rows[1] == 0,
           f"{rows[2]} pairs, {rows[0]} v3 and {rows[1]} v5 differ")
        for f in ["nil", "ns_dns", "ns_url", "ns_oid", "ns_x500"]:
            ok(f"uuid_{f}() equals uuid-ossp's", one(c, f"SELECT uuidkit.uuid_{f}() = ossp.uuid_{f}()"))
    else:
        info("uuid-ossp", f"not shipped with this PostgreSQL {MAJOR}: compared against the RFC's vectors only")


RFC_V1 = "c232ab00-9414-11ec-b3c8-9f6bdeced846"
RFC_V6 = "1ec9414c-232a-6b00-b3c8-9f6bdeced846"
RFC_V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"


def t_times(c):
    c.execute("SET TIME ZONE 'UTC'")
    for u, want in [(RFC_V1, "2022-02-22 19:22:22+00"), (RFC_V6, "2022-02-22 19:22:22+00"),
                    (RFC_V7, "2022-02-22 19:22:22+00")]:
        got = one(c, "SELECT uuid_extract_timestamp(%s::uuid)::text", (u,))
        ok(f"uuid_extract_timestamp({u})", got == want, got)
    ok("uuid_v1_to_v6: RFC 9562 A.1 to A.5", str(one(c, "SELECT uuid_v1_to_v6(%s)", (RFC_V1,))) == RFC_V6)
    ok("uuid_v6_to_v1: RFC 9562 A.5 to A.1", str(one(c, "SELECT uuid_v6_to_v1(%s)", (RFC_V6,))) == RFC_V1)
    ok("uuid_v1_to_v6(v6_to_v1(uuidv6())) round trip",
       one(c, "SELECT u = uuid_v1_to_v6(uuid_v6_to_v1(u)) FROM (SELECT uuidv6() u) t"))
    for f, arg in [("uuid_v1_to_v6", RFC_V7), ("uuid_v6_to_v1", RFC_V1)]:
        e = error_of(c, f"SELECT {f}(%s)", (arg,))
        ok(f"{f}(wrong version): 22023", e is not None and e[0] == "22023", str(e))
    ok("uuid_extract_timestamp(v4) is NULL", one(c, "SELECT uuid_extract_timestamp(uuidv4()) IS NULL"))
    ok("uuid_extract_timestamp(nil), (max) are NULL",
       one(c, "SELECT uuid_extract_timestamp(uuid_nil()) IS NULL AND uuid_extract_timestamp(uuid_max()) IS NULL"))
    ok("uuid_extract_version(v4) = 4, (v7) = 7", one(c, "SELECT uuid_extract_version(uuidv4()) = 4 AND "
                                                     "uuid_extract_version(uuidv7()) = 7"))
    ok("uuid_extract_version(nil), (max) are NULL (not the RFC variant)",
       one(c, "SELECT uuid_extract_version(uuid_nil()) IS NULL AND uuid_extract_version(uuid_max()) IS NULL"))
    if MAJOR >= 18:
        r = c.execute("""SELECT count(*) FILTER (WHERE uuidkit.uuid_extract_version(u) IS DISTINCT FROM
                                                   pg_catalog.uuid_extract_version(u)),
                                count(*) FILTER (WHERE uuid_extract_version(u) IN (1, 7) AND
                                                 uuidkit.uuid_extract_timestamp(u) IS DISTINCT FROM
                                                 pg_catalog.uuid_extract_timestamp(u)),
                                count(*) FILTER (WHERE uuid_extract_version(u) NOT IN (1, 6, 7) AND
                                                 pg_catalog.uuid_extract_timestamp(u) IS DISTINCT FROM
                                                 uuidkit.uuid_extract_timestamp(u))
                         FROM (SELECT overlay(uuid_send(gen_random_uuid()) PLACING
                                  decode(lpad(to_hex((random() * 255)::int), 2, '0'), 'hex') FROM 7)
                                  AS b FROM generate_series(1, 20000)) r,
                              LATERAL (SELECT encode(b, 'hex')::uuid AS u) x""").fetchone()
        ok("PostgreSQL 18 parity: uuid_extract_version/timestamp equal the core's on 20000 random UUIDs",
           r == (0, 0, 0), str(r))
        ok("PostgreSQL 18 parity: v1 and v7 times", one(c, """
            SELECT bool_and(uuidkit.uuid_extract_timestamp(u) = pg_catalog.uuid_extract_timestamp(u))
            FROM (SELECT uuidv1() u UNION ALL SELECT pg_catalog.uuidv7() UNION ALL SELECT %s::uuid
                  UNION ALL SELECT %s::uuid) t""", (RFC_V1, RFC_V7)))
        ok("PostgreSQL 18: uuid_extract_timestamp(v6) is NULL in the core, a time here",
           one(c, "SELECT pg_catalog.uuid_extract_timestamp(%s::uuid) IS NULL AND "
                  "uuidkit.uuid_extract_timestamp(%s::uuid) IS NOT NULL", (RFC_V6, RFC_V6)))
    # uuid_v7_floor and pg_uuidv7's functions
    ms = 1645557742123
    ok("uuid_v7_floor: the millisecond, random bits 0",
       str(one(c, "SELECT uuid_v7_floor('2022-02-22 19:22:22.123456+00')")) == v7_floor_hex(ms))
    ok("uuid_v7_floor: rounds down before the epoch's millisecond too",
       str(one(c, "SELECT uuid_v7_floor('1970-01-01 00:00:00.000999+00')")) == v7_floor_hex(0))
    ok("uuid_v7_floor: the last millisecond of 48 bits",
       str(one(c, "SELECT uuid_v7_floor('10889-08-02 05:31:50.655+00')")) == v7_floor_hex((1 << 48) - 1))
    for t in ["1969-12-31 23:59:59.999+00", "infinity", "-infinity", "10889-08-02 05:31:50.656+00",
              "294276-01-01 00:00+00", "4713-01-01 00:00+00 BC"]:
        for f in ["uuid_v7_floor(%s)", "uuid_timestamptz_to_v7(%s)", "uuid_timestamptz_to_v7(%s, true)"]:
            e = error_of(c, f"SELECT {f}", (t,))
            ok(f"{f % repr(t)}: 22008", e is not None and e[0] == "22008", str(e))
    ok("uuid_timestamptz_to_v7(t, true) = uuid_v7_floor(t)",
       one(c, "SELECT bool_and(uuid_timestamptz_to_v7(t, true) = uuid_v7_floor(t)) FROM "
              "(SELECT clock_timestamp() - i * interval '17 minutes' t FROM generate_series(1, 1000) i) x"))
    r = c.execute("""SELECT bool_and(uuid_extract_version(u) = 7 AND u > uuid_v7_floor(t)
                              AND u < uuid_v7_floor(t + interval '1 millisecond')), count(DISTINCT u)
                     FROM (SELECT t, uuid_timestamptz_to_v7(t) u FROM
                           (SELECT timestamptz '2024-05-06 07:08:09.010+00' t FROM generate_series(1, 1000)) a) b"""
                  ).fetchone()
    ok("uuid_timestamptz_to_v7(t): v7 of that millisecond with random bits", r == (True, 1000), str(r))
    ok("uuid_v7_to_timestamptz: RFC 9562 A.6",
       one(c, "SELECT uuid_v7_to_timestamptz(%s)::text", (RFC_V7,)) == "2022-02-22 19:22:22+00")
    ok("uuid_v7_to_timestamptz(uuid_timestamptz_to_v7(t)) = t to the millisecond",
       one(c, "SELECT bool_and(uuid_v7_to_timestamptz(uuid_timestamptz_to_v7(t)) = date_trunc('milliseconds', t))"
              " FROM (SELECT clock_timestamp() - i * interval '1.234567 seconds' t FROM generate_series(1, 1000) i) x"))
    # random timestamps: a result or 22008, nothing else
    bad = []
    for _ in range(300):
        us = rng.randrange(-211813488000000000, 9223371331200000000)
        for f in ["uuid_v7_floor", "uuid_timestamptz_to_v7"]:
            e = error_of(c, f"SELECT {f}(to_timestamp(%s::float8 / 1e6))", (us,))
            if e is not None and e[0] not in ("22008",):
                bad.append((f, us, e))
    ok("300 random times at uuid_v7_floor and uuid_timestamptz_to_v7: a UUID or 22008", not bad, str(bad[:3]))
    bad = []
    for _ in range(300):
        iv = f"{rng.randrange(-300000, 300000)} years {rng.randrange(-10**6, 10**6)} days {rng.random() * 1e6:.6f} seconds"
        e = error_of(c, "SELECT uuidv7(%s::interval)", (iv,))
        if e is not None and e[0] not in ("22008", "22003"):
            bad.append((iv, e))
    ok("300 random shifts at uuidv7(interval): a UUID, 22008 or 22003", not bad, str(bad[:3]))


def t_short_forms(c):
    ok("TypeID spec vector", one(c, "SELECT uuid_to_typeid('prefix', '01890a5d-ac96-774b-bcce-b302099a8057')")
       == "prefix_01h455vb4pex5vsknk084sn02q")
    ok("TypeID spec vector, decoded", str(one(c, "SELECT uuid_from_typeid('prefix_01h455vb4pex5vsknk084sn02q')"))
       == "01890a5d-ac96-774b-bcce-b302099a8057")
    ok("TypeID with the expected prefix",
       str(one(c, "SELECT uuid_from_typeid('prefix_01h455vb4pex5vsknk084sn02q', 'prefix')"))
       == "01890a5d-ac96-774b-bcce-b302099a8057")
    ok("TypeID with an empty prefix", one(c, "SELECT uuid_to_typeid('', uuid_nil())") == "0" * 26)
    e = error_of(c, "SELECT uuid_from_typeid('prefix_01h455vb4pex5vsknk084sn02q', 'user')")
    ok("TypeID with another prefix: 22P02", e is not None and e[0] == "22P02" and "expected \"user\"" in e[1], str(e))
    e = error_of(c, "SELECT uuid_to_typeid('User', uuid_nil())")
    ok("uuid_to_typeid with a bad prefix: 22P02 with the library's message",
       e is not None and e[0] == "22P02" and "at byte 0" in e[1], str(e))
    e = error_of(c, "SELECT uuid_from_base58(repeat('!', 22))")
    ok("uuid_from_base58('!!…'): 22P02 naming the character and its byte",
       e is not None and e[0] == "22P02" and "'!'" in e[1] and "at byte 0" in e[1], str(e))
    e = error_of(c, "SELECT uuid_from_ulid('0123')")
    ok("uuid_from_ulid(too short): 22P02, invalid length", e is not None and e[0] == "22P02" and "length" in e[1],
       str(e))
    e = error_of(c, "SELECT uuid_from_ulid('8ZZZZZZZZZZZZZZZZZZZZZZZZZ')")
    ok("uuid_from_ulid(over 128 bits): 22P02", e is not None and e[0] == "22P02", str(e))
    us = [pyuuid.UUID(int=rng.getrandbits(128)) for _ in range(300)] + [pyuuid.UUID(int=0),
                                                                      pyuuid.UUID(int=(1 << 128) - 1)]
    bad = []
    for u in us:
        row = c.execute("""SELECT uuid_to_ulid(%(u)s), uuid_to_base58(%(u)s), uuid_to_base64url(%(u)s),
                                  uuid_to_typeid('user', %(u)s),
                                  uuid_from_ulid(uuid_to_ulid(%(u)s)), uuid_from_ulid(lower(uuid_to_ulid(%(u)s))),
                                  uuid_from_base58(uuid_to_base58(%(u)s)),
                                  uuid_from_base64url(uuid_to_base64url(%(u)s)),
                                  uuid_from_typeid(uuid_to_typeid('user', %(u)s), 'user')""", {"u": u}).fetchone()
        want = (base32_right(u.int, CROCKFORD), base58(u.int), b64url(u.bytes), "user_" + base32_right(u.int, TYPEID),
                u, u, u, u, u)
        if row != want:
            bad.append((u, row, want))
    ok("short forms of 302 UUIDs: as the specifications' encodings, and back", not bad, str(bad[:2]))


DECODERS = [
    ("uuid_from_typeid(%s)", 1), ("uuid_from_typeid(%s, 'user')", 1), ("uuid_from_typeid('user_01h455vb4pex5vsknk084sn02q', %s)", 1),
    ("uuid_to_typeid(%s, uuid_nil())", 1), ("uuid_from_ulid(%s)", 1), ("uuid_from_base58(%s)", 1),
    ("uuid_from_base64url(%s)", 1),
]


def random_text():
    kind = rng.randrange(4)
    n = rng.choice([0, 1, 5, 21, 22, 23, 25, 26, 27, 31, 32, 36, rng.randrange(0, 90)])
    if kind == 0:  # random bytes (1-255; PostgreSQL text holds no NUL), read as Latin-1 characters
        return bytes(rng.randrange(1, 256) for _ in range(n)).decode("latin-1")
    if kind == 1:  # the forms' own alphabets, plus a few others
        return "".join(rng.choice(CROCKFORD + TYPEID + B58 + "-_=+/ ") for _ in range(n))
    if kind == 2:  # near-valid: a valid form with one character changed
        s = rng.choice([base58(rng.getrandbits(128)), b64url(rng.randbytes(16)),
                        base32_right(rng.getrandbits(128), CROCKFORD),
                        "user_" + base32_right(rng.getrandbits(128), TYPEID)])
        i = rng.randrange(len(s))
        return s[:i] + chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x800), 0x1F600])) + s[i + 1:]
    return "".join(chr(rng.choice([rng.randrange(1, 0x80), rng.randrange(0x80, 0xD800), rng.randrange(0xE000, 0x110000)]))
                   for _ in range(n))


def t_fuzz(srv, c):
    before = srv.crashes()
    per = int(os.environ.get("UUIDKIT_PGTEST_FUZZ", "400"))
    for sql, _ in DECODERS:
        outcomes = {"ok": 0, "22P02": 0}
        other = []
        for _ in range(per):
            s = random_text()
            e = error_of(c, "SELECT " + sql, (s,))
            if e is None:
                outcomes["ok"] += 1
            elif e[0] == "22P02":
                outcomes["22P02"] += 1
            elif e[0] == "22021" and "\x00" in s:
                outcomes["ok"] += 1
            else:
                other.append((s, e))
        ok(f"{per} random strings and bytes at {sql % 'TEXT'}: a UUID or 22P02", not other,
           f"{outcomes}" + (f"; other: {other[:3]}" if other else ""))
    # Bytes that are not UTF-8 reach the functions in a SQL_ASCII database (text there holds any
    # byte but NUL): still a UUID or 22P02, never an internal error.
    a = srv.connect(search_path="")
    a.execute("DROP DATABASE IF EXISTS fuzz_ascii")
    a.execute("CREATE DATABASE fuzz_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
    a.close()
    a = srv.connect("fuzz_ascii", search_path="")
    a.execute("CREATE SCHEMA uuidkit")
    a.execute("CREATE EXTENSION uuidkit SCHEMA uuidkit")
    a.execute("SET search_path = uuidkit, pg_catalog")
    for sql, _ in DECODERS:
        outcomes = {"ok": 0, "22P02": 0}
        other = []
        for _ in range(per // 2):
            b = bytes(rng.randrange(1, 256) for _ in range(rng.choice([22, 26, 31, rng.randrange(0, 60)])))
            e = error_of(a, "SELECT " + sql.replace("%s", "convert_from(%s::bytea, 'SQL_ASCII')"), (b,))
            if e is None:
                outcomes["ok"] += 1
            elif e[0] == "22P02":
                outcomes["22P02"] += 1
            else:
                other.append((b, e))
        ok(f"SQL_ASCII database: {per // 2} random byte strings (not UTF-8) at {sql % 'TEXT'}: a UUID or 22P02",
           not other, f"{outcomes}" + (f"; other: {other[:3]}" if other else ""))
    e = error_of(a, "SELECT uuid_from_base58(convert_from(%s::bytea, 'SQL_ASCII'))", (b"1" * 5 + b"\xff" + b"1" * 16,))
    ok("SQL_ASCII database: a byte 0xff gets the library's message", e is not None and e[0] == "22P02"
       and "invalid byte 0xff at byte 5" in e[1], str(e))
    a.close()
    ok("the fuzzing crashed no backend", srv.crashes() == before and one(c, "SELECT 1") == 1)


def t_explain(c):
    c.execute("DROP TABLE IF EXISTS events")
    c.execute("CREATE TABLE events (id uuid PRIMARY KEY, n int)")
    c.execute("""INSERT INTO events SELECT uuid_timestamptz_to_v7(timestamptz '2026-01-01 00:00+00' + n * interval '1 second'), n
                 FROM generate_series(1, 200000) n""")
    c.execute("ANALYZE events")
    q = ("SELECT * FROM events WHERE id >= uuid_v7_floor('2026-01-02 00:00+00') "
         "AND id < uuid_v7_floor('2026-01-02 00:01+00')")
    plan = "\n".join(r[0] for r in c.execute("EXPLAIN " + q))
    print("     " + plan.replace("\n", "\n     "))
    ok("EXPLAIN of the uuid_v7_floor range: an index range scan on the primary key, bounds folded to constants",
       re.search(r"Index (Only )?Scan using events_pkey", plan) is not None and "Index Cond" in plan
       and "uuid_v7_floor" not in plan and plan.count("::uuid") == 2, plan)
    ok("the range holds that minute's 60 rows", one(c, f"SELECT count(*) FROM ({q}) t") == 60)
    c.execute("DROP TABLE events")


def t_upgrade(srv):
    c = srv.connect(search_path="")
    c.execute("DROP DATABASE IF EXISTS upgrade_test")
    c.execute("CREATE DATABASE upgrade_test")
    c.close()
    c = srv.connect("upgrade_test", search_path="")
    c.execute("CREATE EXTENSION uuidkit")
    ok("CREATE EXTENSION uuidkit: version 0.1.0", one(c, "SELECT extversion FROM pg_extension WHERE extname = 'uuidkit'") == "0.1.0")
    paths = c.execute("SELECT source, target FROM pg_extension_update_paths('uuidkit') WHERE path IS NOT NULL").fetchall()
    ok("ALTER EXTENSION uuidkit UPDATE has a path from 0.1.0", ("0.1.0", "0.1.1") in paths, str(paths))
    c.execute("ALTER EXTENSION uuidkit UPDATE TO '0.1.1'")
    ok("ALTER EXTENSION uuidkit UPDATE TO '0.1.1'", one(c, "SELECT extversion FROM pg_extension WHERE extname = 'uuidkit'") == "0.1.1"
       and one(c, "SELECT public.uuid_extract_version(public.uuidv7())") == 7)
    if MAJOR < 18:
        ok(f"PostgreSQL {MAJOR}: the bare names work (uuidv7() is the extension's)",
           one(c, "SELECT 'uuidv7()'::regprocedure::oid = 'public.uuidv7()'::regprocedure::oid") is True)
    else:
        ok("PostgreSQL 18: a bare uuidv7() is the core's unless the extension's schema comes first",
           one(c, "SELECT 'uuidv7()'::regprocedure = 'pg_catalog.uuidv7()'::regprocedure"))
        c.execute("SET search_path = public, pg_catalog")
        ok("PostgreSQL 18: search_path = public, pg_catalog picks the extension's uuidv7() and uuid_extract_timestamp()",
           one(c, "SELECT 'uuidv7()'::regprocedure = 'public.uuidv7()'::regprocedure AND "
                  "'uuid_extract_timestamp(uuid)'::regprocedure = 'public.uuid_extract_timestamp(uuid)'::regprocedure"))
    c.close()


# ---- order ----------------------------------------------------------------------------------------

def turns(c1, c2, sql, n):
    """Two connections taking turns: each call made after the other's returned."""
    out = []
    for i in range(n):
        out.append(one(c1 if i % 2 == 0 else c2, sql))
    return out


def increasing(xs):
    return all(a < b for a, b in zip(xs, xs[1:]))


def inversions(xs):
    return sum(1 for a, b in zip(xs, xs[1:]) if not a < b)


def t_two_connections(srv, label, f="uuidv7()", key=lambda u: u.int, n=TURNS, expect=True):
    c1, c2 = srv.connect(), srv.connect()
    vals = turns(c1, c2, f"SELECT {f}", n)
    keys = [key(u) for u in vals]
    c1.close(), c2.close()
    if expect:
        ok(f"{label}: two connections taking turns, {n} turns of {f}: one strictly increasing sequence",
           increasing(keys), f"{inversions(keys)} inversions")
    else:
        info(f"{label}: two connections taking turns, {n} turns of {f}",
             f"strictly increasing: {increasing(keys)}; {inversions(keys)} inversions of {n - 1} pairs")
    return vals


def t_four_connections(srv, label, f="uuidv7()", calls=25, rows=400):
    conns = [srv.connect() for _ in range(4)]
    got = [[] for _ in conns]
    errs = []

    def run(i):
        try:
            for _ in range(calls):
                got[i].extend(u for (u,) in conns[i].execute(f"SELECT {f} FROM generate_series(1, {rows})"))
        except Exception as e:  # noqa: BLE001
            errs.append(e)

    ths = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    for c in conns:
        c.close()
    allv = [u for g in got for u in g]
    ok(f"{label}: four connections at once, {len(allv)} x {f}: no duplicate, each connection strictly increasing",
       not errs and len(allv) == 4 * calls * rows and len(set(allv)) == len(allv) and all(increasing(g) for g in got),
       f"errors {errs}; {len(allv) - len(set(allv))} duplicates")
    return allv


def t_order(srv, c):
    ok("uuidkit_order_scope() = 'server' with shared_preload_libraries = 'uuidkit'",
       one(c, "SELECT uuidkit_order_scope()") == "server")
    seen7 = []
    seen6 = []
    seen7 += t_two_connections(srv, "server scope")
    seen6 += t_two_connections(srv, "server scope", "uuidv6()", n=TURNS // 2)
    t_two_connections(srv, "server scope", "uuidv1()", key=v1_ticks, n=TURNS // 2)
    seen7 += t_four_connections(srv, "server scope")
    seen6 += t_four_connections(srv, "server scope", "uuidv6()", calls=10)
    core_before = []
    if MAJOR >= 18:
        core_before = t_two_connections(srv, "PostgreSQL 18's own pg_catalog.uuidv7()", "pg_catalog.uuidv7()",
                                        expect=False)
    if MAJOR >= 18:  # two backends of the core's that live through the step
        k1, k2 = srv.connect(), srv.connect()
        kept_before = turns(k1, k2, "SELECT pg_catalog.uuidv7()", 200)
    # The clock one hour back, while the server runs.
    ms_before = one(c, "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")
    set_clock_offset(-3600)
    ms_after = one(c, "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")
    ok("the server's clock stepped back an hour (libfaketime)", 3_590_000 < ms_before - ms_after < 3_610_000,
       f"{ms_before - ms_after} ms")
    top7, top6 = max(seen7), max(seen6)
    new7 = t_two_connections(srv, "clock one hour back", n=TURNS // 5)
    new6 = t_two_connections(srv, "clock one hour back", "uuidv6()", n=TURNS // 5)
    ok("clock one hour back: every new v7 sorts after every earlier one", min(new7) > top7)
    ok("clock one hour back: every new v6 sorts after every earlier one", min(new6) > top6)
    seen7 += new7
    seen6 += new6
    if MAJOR >= 18:
        core_after = t_two_connections(srv, "PostgreSQL 18's own uuidv7(), clock one hour back",
                                       "pg_catalog.uuidv7()", n=TURNS // 5, expect=False)
        info("PostgreSQL 18's own uuidv7() after the clock went back an hour, new backends",
             f"{sum(1 for u in core_after if u < max(core_before))} of {len(core_after)} new values sort before "
             f"earlier ones")
        kept_after = turns(k1, k2, "SELECT pg_catalog.uuidv7()", 200)
        info("PostgreSQL 18's own uuidv7() after the clock went back an hour, the same two backends",
             f"{sum(1 for u in kept_after if u < max(kept_before))} of {len(kept_after)} new values sort before "
             f"the earlier ones of those backends; taking turns: {inversions(kept_after)} inversions")
        k1.close(), k2.close()
    # Restarts with the clock set back: a crash (immediate stop), then a clean one further back.
    for mode, offset in [("immediate", -3600), ("fast", -7200)]:
        top7, top6 = max(seen7), max(seen6)
        srv.stop(mode)
        set_clock_offset(offset)
        srv.start()
        c2 = srv.connect()
        n7 = t_two_connections(srv, f"after a restart ({mode} stop) with the clock {-offset // 3600} h back", n=TURNS // 5)
        n6 = [one(c2, "SELECT uuidv6()") for _ in range(200)]
        ok(f"after a restart ({mode} stop), clock {-offset // 3600} h back: every new v7 sorts after every earlier one",
           min(n7) > top7, f"{min(n7)} vs {top7}")
        ok(f"after a restart ({mode} stop), clock {-offset // 3600} h back: every new v6 sorts after every earlier one",
           min(n6) > top6 and increasing(n6))
        seen7 += n7
        seen6 += n6
        c2.close()
    set_clock_offset(0)
    ok("the state file is in the data directory", os.path.exists(os.path.join(srv.data, "uuidkit.state")))


def t_backend_scope(srv):
    srv.stop()
    srv.start(preload=False)
    c = srv.connect()
    ok("uuidkit_order_scope() = 'backend' without preloading", one(c, "SELECT uuidkit_order_scope()") == "backend")
    vals = [u for (u,) in c.execute("SELECT uuidv7() FROM generate_series(1, 20000)")]
    ok("backend scope: 20000 uuidv7() of one connection strictly increasing", increasing(vals))
    t_four_connections(srv, "backend scope")
    t_two_connections(srv, "backend scope (informational)", expect=False)
    c.close()


def main():
    print(f"sqltest: PostgreSQL {MAJOR} ({PG_CONFIG}), seed {SEED}, {TURNS} turns", flush=True)
    if not ok("libfaketime installed", os.path.exists(FAKETIME_LIB), FAKETIME_LIB):
        return
    srv = Server("pg")
    try:
        srv.start()
        c = srv.connect(search_path="")
        c.execute("CREATE SCHEMA uuidkit")
        c.execute("CREATE EXTENSION uuidkit SCHEMA uuidkit")
        c.close()
        c = srv.connect()
        for t in [t_catalog, t_generators, t_uuid_ossp, t_times, t_short_forms, t_explain]:
            _run(t, c)
        _run(t_fuzz, srv, c)
        _run(t_upgrade, srv)
        c.close()
        _run(t_order, srv, srv.connect())
        _run(t_backend_scope, srv)
    finally:
        srv.stop()
        shutil.rmtree(TMP, ignore_errors=True)


def _run(t, *args):
    try:
        t(*args)
    except Exception as e:  # noqa: BLE001 - every error is a failure, reported
        ok(t.__name__, False, f"{type(e).__name__}: {e}\n{traceback.format_exc()}")


if __name__ == "__main__":
    start = time.time()
    try:
        main()
    except Exception as e:  # noqa: BLE001
        ok("setup", False, f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
    print(f"sqltest: PostgreSQL {MAJOR}, {time.time() - start:.0f} s")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)

"""uuidkit.arrow against the standard uuid module, through pyarrow, Polars and DuckDB.

pyarrow, polars and duckdb are test dependencies: imported unconditionally, so that a run
without them fails instead of skipping (the module itself needs none of them).
"""

import datetime
import random
import re
import sys
import uuid
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import uuidkit
import uuidkit.arrow as ua

RNG = random.Random(41)


def random_uuids(n):
    return [uuid.UUID(int=RNG.getrandbits(128)) for _ in range(n)]


def with_nulls(xs):
    return [None if i % 7 == 3 else x for i, x in enumerate(xs)]


def as_uuids(result):
    """A result (or a pyarrow UUID array) as a list of uuid.UUID / None."""
    if isinstance(result, ua.ChunkedArray):
        a = pa.chunked_array(result)
    elif isinstance(result, ua.Array):
        a = pa.array(result)
    else:
        a = result
    if isinstance(a, pa.ChunkedArray):
        a = a.combine_chunks()
    if isinstance(a.type, pa.ExtensionType):
        a = a.storage
    # pyarrow's arrow.uuid scalars are uuid.UUID already; binary ones are bytes.
    return [b if b is None or isinstance(b, uuid.UUID) else uuid.UUID(bytes=b) for b in a.to_pylist()]


def uuid_column(xs):
    storage = pa.array([None if x is None else x.bytes for x in xs], pa.binary(16))
    return pa.ExtensionArray.from_storage(pa.uuid(), storage)


# ---- parse -----------------------------------------------------------------------------------

FORMS = {
    "hyphenated": str,
    "simple": lambda u: u.hex,
    "braced": lambda u: "{%s}" % u,
    "urn": lambda u: u.urn,
}


@pytest.mark.parametrize("text_type", [pa.string(), pa.large_string(), pa.string_view()])
def test_parse_round_trips_against_the_standard_module(text_type):
    xs = with_nulls(random_uuids(5000))
    for name, write in FORMS.items():
        for case in (str.lower, str.upper):
            text = pa.array([None if x is None else case(write(x)) for x in xs], text_type)
            for form in (None, name):
                r = ua.parse(text, form)
                assert isinstance(r, ua.Array)
                assert as_uuids(r) == xs
                a = pa.array(r)
                assert a.type == pa.uuid() and a.null_count == text.null_count
    # Mixed forms in one column, read as uuid.UUID reads them.
    mixed = [FORMS[list(FORMS)[i % 4]](x) for i, x in enumerate(random_uuids(400))]
    assert as_uuids(ua.parse(pa.array(mixed, text_type))) == [uuid.UUID(s) for s in mixed]


def test_parse_agrees_with_the_standard_module_on_mutations():
    rows = []
    for x in random_uuids(2000):
        s = list(str(x) if RNG.random() < 0.5 else x.hex)
        s[RNG.randrange(len(s))] = RNG.choice("0aZg-{}:\u00e9")
        rows.append("".join(s))
    # One character replaced in a 32- or 36-character form: here the standard module is as
    # strict as the RFC forms (its leniency, braces and hyphens anywhere, and the spaces and
    # underscores int() takes, needs more).
    want = []
    for s in rows:
        try:
            want.append(uuid.UUID(s))
        except ValueError:
            want.append(None)
    got = as_uuids(ua.parse(pa.array(rows), errors="null"))
    ok = pa.array(ua.validate(pa.array(rows))).to_pylist()
    assert got == want
    assert ok == [u is not None for u in want]


def test_errors_raise_names_row_and_character():
    text = pa.array(["6ba7b810-9dad-11d1-80b4-00c04fd430c8", None, "6ba7b810-9dad-11d1-80b4-00c04fd430cX"])
    with pytest.raises(ValueError, match=r"^row 2: invalid character 'X' at byte 35: expected a hexadecimal digit$"):
        ua.parse(text)
    # Rows are counted across chunks.
    chunked = pa.chunked_array([text[:2], text[:2], text[2:]])
    with pytest.raises(ValueError, match=r"^row 4: invalid character 'X' at byte 35"):
        ua.parse(chunked)
    r = pa.array(ua.parse(text, errors="null"))
    assert r.is_null().to_pylist() == [False, True, True]
    with pytest.raises(ValueError, match="errors must be 'raise' or 'null'"):
        ua.parse(text, errors="ignore")
    with pytest.raises(ValueError, match="unknown form 'nope'"):
        ua.parse(text, "nope")
    with pytest.raises(ValueError, match=r"^row 0: invalid length: expected 26 bytes, found 36$"):
        ua.parse(text, "ulid")


def test_short_forms_and_typeid_round_trip():
    xs = with_nulls(random_uuids(2000))
    col = uuid_column(xs)
    for form, single in [("ulid", uuidkit.to_ulid), ("base32hex", uuidkit.to_base32hex),
                         ("base58", uuidkit.to_base58), ("base64url", uuidkit.to_base64url)]:
        text = pa.array(ua.format(col, form))
        assert text.to_pylist() == [None if x is None else single(x) for x in xs]
        assert as_uuids(ua.parse(text, form)) == xs
    for prefix in (None, "user", "a_b"):
        text = pa.array(ua.format(col, "typeid", prefix=prefix))
        assert text.to_pylist() == [None if x is None else uuidkit.to_typeid(x, prefix or "") for x in xs]
        assert as_uuids(ua.parse(text, "typeid")) == xs
    with pytest.raises(ValueError, match="invalid TypeID prefix"):
        ua.format(col, "typeid", prefix="Bad")
    with pytest.raises(ValueError, match="prefix= is for form='typeid'"):
        ua.format(col, "ulid", prefix="user")


# ---- format ----------------------------------------------------------------------------------

def test_format_every_rfc_form_and_case():
    xs = with_nulls(random_uuids(3000))
    col = uuid_column(xs)
    for name, write in FORMS.items():
        for suffix, case in (("", str.lower), ("-upper", str.upper)):
            r = ua.format(col, name + suffix)
            a = pa.array(r)
            assert a.type == pa.string()
            want = [None if x is None else write(x) for x in xs]
            if case is str.upper:
                want = [None if w is None else w.upper().replace("URN:UUID:", "urn:uuid:") for w in want]
            assert a.to_pylist() == want


@pytest.mark.parametrize("kind", ["binary", "large_binary", "binary_view"])
def test_binary_columns_of_16_bytes_are_uuid_columns(kind):
    xs = with_nulls(random_uuids(500))
    typ = getattr(pa, kind)()
    col = pa.array([None if x is None else x.bytes for x in xs], typ)
    assert pa.array(ua.format(col)).to_pylist() == [None if x is None else str(x) for x in xs]
    bad = pa.array([b"\0" * 16, None, b"\1" * 8], typ)
    for f in (ua.format, ua.timestamp, ua.version):
        with pytest.raises(ValueError, match=r"^row 2: a UUID is 16 bytes, found 8$"):
            f(bad)


def test_wrong_types_raise_type_error_naming_them():
    cases = [
        (ua.parse, pa.array([1, 2]), "Int64"),
        (ua.validate, pa.array([1.5]), "Float64"),
        (ua.format, pa.array([b"12345678"], pa.binary(8)), "FixedSizeBinary(8)"),
        (ua.timestamp, pa.array(["x"]), "Utf8"),
        (ua.version, pa.array([True]), "Boolean"),
        (ua.format, pl.Series([1, 2]), "Int64"),
    ]
    for f, col, name in cases:
        with pytest.raises(TypeError, match=re.escape(name)):
            f(col)
    for f in (ua.parse, ua.format, ua.timestamp, ua.version, ua.validate):
        with pytest.raises(TypeError, match="got list"):
            f(["6ba7b810-9dad-11d1-80b4-00c04fd430c8"])
    with pytest.raises(TypeError, match="2 columns"):
        ua.parse(pa.table({"a": ["x"], "b": ["y"]}))


# ---- shapes: slices, chunks, empty, all null --------------------------------------------------

def test_slices_chunks_empty_and_all_null():
    xs = with_nulls(random_uuids(1000))
    text = pa.array([None if x is None else str(x) for x in xs])
    col = uuid_column(xs)
    for start, length in [(0, 1000), (1, 998), (333, 100), (999, 1), (500, 0)]:
        want = xs[start:start + length]
        assert as_uuids(ua.parse(text.slice(start, length))) == want
        assert pa.array(ua.format(col.slice(start, length))).to_pylist() == [
            None if x is None else str(x) for x in want]
        assert len(ua.timestamp(col.slice(start, length))) == length
    chunked = pa.chunked_array([text[:10], text[10:10], text[10:600], text[600:]])
    r = ua.parse(chunked)
    assert isinstance(r, ua.ChunkedArray) and r.num_chunks == 4
    back = pa.chunked_array(r)
    assert back.num_chunks == 4 and as_uuids(back) == xs
    assert pa.chunked_array(ua.format(back)).to_pylist() == text.to_pylist()
    # Empty and all-null columns.
    for t in (pa.array([], pa.string()), pa.array([None] * 5, pa.string())):
        r = pa.array(ua.parse(t))
        assert r.type == pa.uuid() and len(r) == len(t) and r.null_count == len(t)
        assert pa.array(ua.format(r)).null_count == len(t)
        assert pa.array(ua.timestamp(r)).null_count == len(t)
        assert pa.array(ua.version(r)).null_count == len(t)
        assert pa.array(ua.validate(t)).null_count == len(t)
    empty_chunked = pa.chunked_array([], pa.string())
    r = ua.parse(empty_chunked)
    assert len(r) == 0 and pa.chunked_array(r).type == pa.uuid()


def test_ten_million_rows():
    keys = ua.uuid7(10_000_000)
    assert len(keys) == 10_000_000
    text = ua.format(keys)
    back = ua.parse(text)
    a, b = pa.array(keys), pa.array(back)
    assert a.equals(b)
    assert pa.array(ua.timestamp(keys)).null_count == 0


# ---- generators, timestamp, version -----------------------------------------------------------

def test_uuid7_continues_the_process_wide_sequence():
    before = uuidkit.uuid7()
    a = as_uuids(ua.uuid7(100_000))
    b = as_uuids(ua.uuid7(10))
    after = uuidkit.uuid7()
    seq = [before] + a + b + [after]
    assert all(x < y for x, y in zip(seq, seq[1:]))
    assert all(x.version == 7 and x.variant == uuid.RFC_4122 for x in a)
    assert pa.array(ua.uuid7(0)).type == pa.uuid()


def test_uuid4_columns():
    xs = as_uuids(ua.uuid4(100_000))
    assert len(set(xs)) == 100_000
    assert all(x.version == 4 and x.variant == uuid.RFC_4122 for x in xs)
    assert len(ua.uuid4(0)) == 0


@pytest.mark.parametrize("n,exc", [(-1, ValueError), (1 << 62, ValueError), (sys.maxsize, ValueError),
                                   (1 << 80, OverflowError), ("3", TypeError), (None, TypeError)])
def test_bad_counts(n, exc):
    for f in (ua.uuid4, ua.uuid7):
        with pytest.raises(exc):
            f(n)


def test_a_count_too_large_to_allocate_is_memory_error():
    # 2^58 UUIDs: 4 EiB, more than any address space; refused without an abort.
    for f in (ua.uuid4, ua.uuid7):
        with pytest.raises((MemoryError, ValueError)):
            f(1 << 58)


def test_timestamp_and_version_against_the_standard_module():
    v1 = uuid.UUID("C232AB00-9414-11EC-B3C8-9F6BDECED846")
    v6 = uuidkit.uuid6()
    v7 = uuid.UUID("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")
    xs = [v1, v6, v7, uuid.uuid4(), uuid.uuid5(uuid.NAMESPACE_DNS, "x"), uuidkit.NIL, uuidkit.MAX,
          None, uuidkit.uuid1(), uuid.UUID(int=1 << 76 | 1 << 63)]  # a v1 at tick 1, 1582
    ts = pa.array(ua.timestamp(uuid_column(xs)))
    assert ts.type == pa.timestamp("ms", tz="UTC")
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)

    def want_ms(x):
        if x is None or x.variant != uuid.RFC_4122:
            return None
        if x.version == 7:
            return x.int >> 80
        if x.version == 1:
            return (x.time - 0x01B21DD213814000) // 10_000
        if x.version == 6:
            t = (x.int >> 80) << 12 | (x.int >> 64) & 0xFFF
            return (t - 0x01B21DD213814000) // 10_000
        return None

    got = ts.cast(pa.int64()).to_pylist()
    assert got == [want_ms(x) for x in xs]
    assert ts[2].as_py() == epoch + datetime.timedelta(milliseconds=1645557742000)
    vs = pa.array(ua.version(uuid_column(xs)))
    assert vs.type == pa.uint8()
    assert vs.to_pylist() == [None if x is None or x.variant != uuid.RFC_4122 else x.version for x in xs]


# ---- the three libraries, zero copy -----------------------------------------------------------

def test_pyarrow_reads_the_buffers_written_here():
    keys = ua.uuid7(1_000_000)
    a = pa.array(keys)
    assert [b.address if b is not None else 0 for b in a.buffers()] == keys.buffer_addresses()
    text = ua.format(keys)
    t = pa.array(text)
    assert [b.address if b is not None else 0 for b in t.buffers()] == text.buffer_addresses()
    # And the other way: a pyarrow column in, parse's result out, format's values back.
    parsed = ua.parse(t)
    assert pa.array(parsed).buffers()[1].address == parsed.buffer_addresses()[1]


def test_freed_results_are_reused_without_their_old_bytes():
    # A result of 4 MiB and more, once pyarrow releases it, is kept and handed to the next call
    # that fits; that call's null and bad rows are zero, never the freed column's random bytes.
    n = 1 << 18
    ids = random_uuids(n)
    rows = [None if i % 5 == 3 else ("bad" if i % 7 == 1 else str(u)) for i, u in enumerate(ids)]
    text = pa.array(rows, pa.string())
    reused = 0
    for _ in range(10):
        a = pa.array(ua.uuid4(n))
        freed = a.buffers()[1].address
        del a
        got = pa.array(ua.parse(text, errors="null"))
        if got.buffers()[1].address == freed:
            reused += 1
        values = got.storage.buffers()[1].to_pybytes() if isinstance(got.type, pa.ExtensionType) \
            else got.buffers()[1].to_pybytes()
        for i, r in enumerate(rows):
            if r is None or r == "bad":
                assert got[i].as_py() is None
                assert values[16 * i:16 * i + 16] == bytes(16), f"row {i}"
            else:
                assert values[16 * i:16 * i + 16] == ids[i].bytes, f"row {i}"
    assert reused > 0, ua.cache_held()


def test_the_cache_limit():
    limit = ua.cache_limit()
    assert limit > 0
    try:
        ua.set_cache_limit(0)
        del_me = pa.array(ua.uuid7(1 << 19))
        del del_me
        assert ua.cache_held() == 0
        with pytest.raises(OverflowError):
            ua.set_cache_limit(-1)
    finally:
        ua.set_cache_limit(limit)
    assert ua.cache_limit() == limit


def test_polars_series_in_and_out():
    s = pl.Series("s", ["6ba7b810-9dad-11d1-80b4-00c04fd430c8", None, "6ba7b811-9dad-11d1-80b4-00c04fd430c8"])
    ids = pl.Series(ua.parse(s))
    assert ids.dtype == pl.Binary and ids.null_count() == 1
    assert ids[0] == uuid.NAMESPACE_DNS.bytes
    text = pl.Series(ua.format(ids))
    assert text.to_list() == s.to_list()
    assert pl.Series(ua.validate(s)).to_list() == [True, None, True]
    assert pl.Series(ua.version(ids)).to_list() == [1, None, 1]
    # A chunked Series: one result chunk per chunk.
    two = pl.concat([s, s], rechunk=False)
    assert len(pl.Series(ua.parse(two))) == 6


def test_duckdb_in_and_out():
    keys = ua.uuid7(10_000)
    t = ua.table(value=keys)
    # DuckDB before 2.0 reads a relation over a stream once: a query names the variable.
    assert duckdb.from_arrow(ua.table(value=keys)).types == ["UUID"]
    got = duckdb.sql("SELECT value FROM t ORDER BY value").fetchall()
    assert [r[0] for r in got] == as_uuids(keys)
    if int(duckdb.__version__.split(".")[0]) >= 2:
        # DuckDB 2 also takes a bare column (named "value").
        assert duckdb.from_arrow(keys).types == ["UUID"]
    text = duckdb.sql("SELECT CAST(value AS VARCHAR) FROM t").arrow()
    assert as_uuids(ua.parse(text)) == as_uuids(keys)
    tbl = duckdb.sql("SELECT gen_random_uuid()::VARCHAR AS s FROM range(1000)").arrow()
    tbl = tbl.read_all() if hasattr(tbl, "read_all") else tbl  # a reader from DuckDB 1.4 on
    assert pa.chunked_array(ua.validate(tbl)).to_pylist() == [True] * 1000


def readme_examples():
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = text[text.index("## Arrow columns"):]
    section = section[:section.index("\n## ", 4)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 3, "the README's Arrow section has a pyarrow, a Polars and a DuckDB example"
    return blocks


@pytest.mark.parametrize("i", range(3))
def test_readme_examples(i):
    exec(compile(readme_examples()[i], f"README.md Arrow example {i + 1}", "exec"), {})


def test_table_of_named_columns():
    keys = ua.uuid7(1000)
    created = ua.timestamp(keys)
    chunked = ua.parse(pa.chunked_array([pa.array(ua.format(keys))[:300], pa.array(ua.format(keys))[300:]]))
    t = ua.table(id=keys, created=created, again=chunked)
    assert t.column_names == ["id", "created", "again"] and len(t) == 1000
    tbl = pa.table(t)
    assert tbl.schema.field("id").type == pa.uuid()
    assert tbl.schema.field("created").type == pa.timestamp("ms", tz="UTC")
    assert tbl.column("id").equals(tbl.column("again"))
    assert tbl.column("id").num_chunks == 2  # cut where any column has a chunk boundary
    assert pl.DataFrame(t).shape == (1000, 3)
    with pytest.raises(ValueError, match="has 5 rows"):
        ua.table(a=keys, b=ua.uuid4(5))
    assert len(pa.table(ua.table(a=ua.uuid4(0)))) == 0

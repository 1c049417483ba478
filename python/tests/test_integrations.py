"""What a user plugs a uuid.UUID into: pydantic, sqlite3, json, dataclasses, dict keys."""

import dataclasses
import json
import sqlite3
import uuid

import pydantic
import pytest

import uuidkit


class Item(pydantic.BaseModel):
    id: uuid.UUID
    name: str


def test_pydantic_accepts_uuidkit_uuid_as_uuid_field():
    u = uuidkit.uuid7()
    item = Item(id=u, name="x")
    assert item.id == u and isinstance(item.id, uuid.UUID)
    assert json.loads(item.model_dump_json()) == {"id": str(u), "name": "x"}
    back = Item.model_validate_json(item.model_dump_json())
    assert back.id == u


def test_pydantic_strict_mode_accepts_it_too():
    class Strict(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(strict=True)
        id: uuid.UUID

    u = uuidkit.uuid4()
    assert Strict(id=u).id == u
    with pytest.raises(pydantic.ValidationError):
        Strict(id=str(u))


def test_pydantic_versioned_uuid_types():
    class V(pydantic.BaseModel):
        a: pydantic.UUID4
        b: pydantic.UUID5

    v = V(a=uuidkit.uuid4(), b=uuidkit.uuid5(uuidkit.NAMESPACE_DNS, "x"))
    assert v.a.version == 4 and v.b.version == 5


def test_sqlite3_with_the_documented_registration():
    # sqlite3's adapters match the exact type: the one line the README documents.
    sqlite3.register_adapter(uuidkit.UUID, str)
    sqlite3.register_adapter(uuid.UUID, str)
    sqlite3.register_converter("UUID", lambda b: uuidkit.UUID(b.decode()))
    db = sqlite3.connect(":memory:", detect_types=sqlite3.PARSE_DECLTYPES)
    db.execute("create table t (id UUID primary key, n int)")
    ids = uuidkit.uuid7_list(100)
    db.executemany("insert into t values (?, ?)", [(u, i) for i, u in enumerate(ids)])
    db.execute("insert into t values (?, ?)", (uuid.uuid4(), -1))
    rows = db.execute("select id, n from t where n >= 0 order by id").fetchall()
    assert [r[0] for r in rows] == ids and [r[1] for r in rows] == list(range(100))
    assert all(type(r[0]) is uuidkit.UUID for r in rows)


def test_sqlite3_registry_matches_the_exact_type():
    saved = dict(sqlite3.adapters)
    try:
        sqlite3.adapters.clear()
        sqlite3.register_adapter(uuid.UUID, str)
        db = sqlite3.connect(":memory:")
        assert db.execute("select ?", (uuid.UUID(int=1),)).fetchone()[0] == str(uuid.UUID(int=1))
        # A registration for uuid.UUID does not cover a subclass: sqlite3 looks up type(x).
        with pytest.raises((sqlite3.ProgrammingError, sqlite3.InterfaceError)):
            db.execute("select ?", (uuidkit.UUID(int=1),))
        sqlite3.register_adapter(uuidkit.UUID, str)  # the documented one line
        assert db.execute("select ?", (uuidkit.UUID(int=1),)).fetchone()[0] == str(uuid.UUID(int=1))
    finally:
        sqlite3.adapters.clear()
        sqlite3.adapters.update(saved)


def test_json_dataclass_dict():
    @dataclasses.dataclass(frozen=True)
    class Rec:
        id: uuid.UUID

    u = uuidkit.uuid4()
    assert Rec(u) == Rec(uuid.UUID(str(u)))
    d = {uuid.UUID(str(u)): 1}
    assert d[u] == 1
    assert json.dumps([u], default=str) == '["%s"]' % u


def test_psycopg_postgresql_uuid_column():
    # A real server: scripts/python-test starts one (scripts/db-servers.sh) and exports its
    # address. Without it this test fails (it never skips): run it through that script.
    import os

    import psycopg

    url = os.environ.get("UUIDKIT_TEST_PG_URL")
    assert url, "UUIDKIT_TEST_PG_URL is not set: run scripts/python-test, which starts PostgreSQL"
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TEMP TABLE items (id uuid PRIMARY KEY, n int)")
        us = [uuidkit.uuid7(), uuidkit.uuid4(), uuidkit.uuid5(uuidkit.NAMESPACE_DNS, "a")]
        # No registration: psycopg's adapters follow the class's MRO to uuid.UUID's. Text
        # and binary parameters both.
        conn.execute("INSERT INTO items VALUES (%s, 0)", (us[0],))
        conn.execute("INSERT INTO items VALUES (%b, 1)", (us[1],))
        conn.execute("INSERT INTO items VALUES (%t, 2)", (us[2],))
        for binary in (False, True):
            rows = conn.cursor(binary=binary).execute("SELECT id FROM items ORDER BY n").fetchall()
            got = [r[0] for r in rows]
            assert got == us
            assert all(type(g) is uuid.UUID for g in got)
        # The server's own text of it, and a lookup by it.
        (text,) = conn.execute("SELECT id::text FROM items WHERE id = %s", (us[0],)).fetchone()
        assert text == str(us[0])
        (arr,) = conn.execute("SELECT %s::uuid[]", (us,)).fetchone()
        assert arr == us

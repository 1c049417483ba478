//! The `rusqlite` feature against SQLite (bundled, so the same SQLite everywhere): every version,
//! Nil, Max and NULL round trip as 16-byte BLOBs; `ORDER BY` on the BLOB column is `Uuid`'s
//! `Ord`; TEXT is read in every form `Uuid::parse_str` takes; a BLOB of the wrong length, bad
//! text, an integer or a real is an error, not a panic.

use uuidkit_test_support::db_cases;

use rusqlite::types::{FromSqlError, Type};
use rusqlite::{params, Connection};
use uuidkit::Uuid;

fn db() -> Connection {
    let db = Connection::open_in_memory().expect("an in-memory database");
    db.execute_batch("CREATE TABLE t (n INTEGER PRIMARY KEY, label TEXT, id BLOB)")
        .expect("create table");
    db
}

#[test]
fn sqlite_version_is_reported() {
    let db = db();
    let v: String = db
        .query_row("SELECT sqlite_version()", [], |r| r.get(0))
        .expect("sqlite_version()");
    println!("SQLite {v}");
    assert!(v.starts_with("3."), "{v}");
}

#[test]
fn every_version_round_trips_as_a_16_byte_blob() {
    let db = db();
    let cases = db_cases::versions();
    for (n, (label, u)) in cases.iter().enumerate() {
        db.execute(
            "INSERT INTO t VALUES (?1, ?2, ?3)",
            params![n as i64, label, u],
        )
        .expect("insert");
    }
    let mut q = db
        .prepare("SELECT label, id, typeof(id), length(id), hex(id) FROM t ORDER BY n")
        .expect("prepare");
    let back: Vec<(String, Uuid, String, i64, String)> = q
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(back.len(), cases.len());
    for ((label, u), (l, b, ty, len, hex)) in cases.iter().zip(&back) {
        assert_eq!((label, u), (&l.as_str(), b));
        assert_eq!((ty.as_str(), *len), ("blob", 16), "{label}");
        assert_eq!(hex, &u.simple().to_string().to_uppercase(), "{label}");
    }
    println!("{} cases round-tripped", cases.len());
}

#[test]
fn null_is_none_and_some_round_trips() {
    let db = db();
    let some: Option<Uuid> = Some(Uuid::MAX);
    db.execute(
        "INSERT INTO t VALUES (1, 'none', ?1)",
        params![None::<Uuid>],
    )
    .expect("insert NULL");
    db.execute("INSERT INTO t VALUES (2, 'some', ?1)", params![some])
        .expect("insert Some");
    let got: Vec<Option<Uuid>> = db
        .prepare("SELECT id FROM t ORDER BY n")
        .expect("prepare")
        .query_map([], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(got, vec![None, some]);
    let ty: String = db
        .query_row("SELECT typeof(id) FROM t WHERE n = 1", [], |r| r.get(0))
        .expect("typeof");
    assert_eq!(ty, "null");
    // NULL into a plain Uuid is the driver's error, not a made-up value.
    let err = db
        .query_row("SELECT id FROM t WHERE n = 1", [], |r| r.get::<_, Uuid>(0))
        .unwrap_err();
    assert!(
        matches!(err, rusqlite::Error::InvalidColumnType(0, _, Type::Null)),
        "{err:?}"
    );
}

#[test]
fn order_by_equals_ord() {
    let db = db();
    let all = db_cases::for_ordering();
    for (n, u) in all.iter().enumerate() {
        db.execute(
            "INSERT INTO t (n, id) VALUES (?1, ?2)",
            params![n as i64, u],
        )
        .expect("insert");
    }
    let sorted_by_db: Vec<Uuid> = db
        .prepare("SELECT id FROM t ORDER BY id")
        .expect("prepare")
        .query_map([], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let mut sorted = all.clone();
    sorted.sort();
    assert_ne!(
        all, sorted,
        "the insertion order must not already be sorted"
    );
    assert_eq!(sorted_by_db, sorted);
    // Comparisons in SQL agree too: a range query by key.
    let mid = sorted[sorted.len() / 2];
    let below: i64 = db
        .query_row("SELECT count(*) FROM t WHERE id < ?1", [mid], |r| r.get(0))
        .expect("count");
    assert_eq!(below as usize, sorted.len() / 2);
    println!("{} keys: ORDER BY id equals Ord", all.len());
}

#[test]
fn text_is_read_in_every_form() {
    let db = db();
    for (label, u) in db_cases::versions() {
        for text in [
            u.to_string(),
            u.to_string().to_uppercase(),
            u.simple().to_string(),
            u.braced().to_string(),
            u.urn().to_string(),
        ] {
            let got: Uuid = db
                .query_row("SELECT ?1", [&text], |r| r.get(0))
                .expect("TEXT read");
            assert_eq!(got, u, "{label}: {text}");
        }
    }
}

#[test]
fn wrong_length_bad_text_and_numbers_are_errors() {
    let db = db();
    let get = |sql: &str| db.query_row(sql, [], |r| r.get::<_, Uuid>(0)).unwrap_err();
    for (blob, len) in [("x''", 0), ("zeroblob(15)", 15), ("zeroblob(17)", 17)] {
        match get(&format!("SELECT {blob}")) {
            rusqlite::Error::FromSqlConversionFailure(0, Type::Blob, e) => {
                let e = e.downcast::<FromSqlError>().expect("a FromSqlError");
                assert!(
                    matches!(*e, FromSqlError::InvalidBlobSize { expected_size: 16, blob_size } if blob_size == len),
                    "{e:?}"
                );
            }
            other => panic!("{blob}: {other:?}"),
        }
    }
    match get("SELECT '017f22e2-79b0-7cc3-98c4-dc0c0c07398g'") {
        rusqlite::Error::FromSqlConversionFailure(0, Type::Text, e) => assert_eq!(
            e.to_string(),
            "TEXT is not a UUID: invalid character 'g' at byte 35: expected a hexadecimal digit"
        ),
        other => panic!("{other:?}"),
    }
    for sql in ["SELECT 42", "SELECT 4.2"] {
        let err = get(sql);
        assert!(
            matches!(err, rusqlite::Error::InvalidColumnType(..)),
            "{sql}: {err:?}"
        );
    }
}

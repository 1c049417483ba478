//! The `diesel` and `diesel-postgres` features against real servers through diesel's own
//! connections: `PgConnection` at `UUIDKIT_TEST_PG_URL`, `MysqlConnection` at
//! `UUIDKIT_TEST_MYSQL_URL` (both set by scripts/db-test; missing or unreachable, the test
//! fails), and an in-memory `SqliteConnection`.
//!
//! `Uuid` is the field type of `Queryable`/`Insertable` models of `table!`s whose `id` column is
//! `Nullable<Uuid>` (PostgreSQL `uuid`) or `Nullable<Binary>` (PostgreSQL `bytea`, SQLite BLOB,
//! MariaDB `BINARY(16)`). Each runs the shared checks (`uuidkit_db_tests::check`, the same as
//! sqlx's): every version 1–8, Nil, Max and NULL round trip; the server's text of each
//! (PostgreSQL's `uuid` output equals `Display`; elsewhere `hex()` shows the 16 bytes);
//! `ORDER BY` equals `Uuid`'s `Ord`; a value of the wrong length, bad text or NULL into a plain
//! `Uuid` is an error; UUID text is read from a `Binary` value.

use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{Binary, Nullable, Text};
use uuidkit::Uuid;
use uuidkit_db_tests::{check, error, server_url, text_reads, Expect, ServerText, Store};

/// `id` as PostgreSQL `uuid`.
mod pg_uuid {
    diesel::table! {
        t (n) {
            n -> Integer,
            id -> Nullable<Uuid>,
        }
    }
}

/// `id` as binary: PostgreSQL `bytea`, SQLite BLOB, MariaDB `BINARY(16)`.
mod binary {
    diesel::table! {
        t (n) {
            n -> Integer,
            id -> Nullable<Binary>,
        }
    }
}

#[derive(Queryable, Insertable)]
#[diesel(table_name = pg_uuid::t)]
struct UuidRow {
    n: i32,
    id: Option<Uuid>,
}

#[derive(Queryable, Insertable)]
#[diesel(table_name = binary::t)]
struct BinaryRow {
    n: i32,
    id: Option<Uuid>,
}

/// A [`Store`] on a diesel connection: `$table::t` with rows `$row`, `id` of SQL type `$st`;
/// `$version` and `$text` are the SQL of the server's version and of its text of `id`.
macro_rules! diesel_store {
    ($store:ident, $conn:ty, $table:ident, $row:ident, $st:ty, $version:expr, $text:expr) => {
        struct $store($conn);

        impl Store for $store {
            fn version(&mut self) -> String {
                diesel::select(sql::<Text>($version))
                    .get_result(&mut self.0)
                    .expect("version")
            }

            fn clear(&mut self) {
                diesel::delete($table::t::table)
                    .execute(&mut self.0)
                    .expect("delete");
            }

            fn insert(&mut self, n: i32, id: Option<Uuid>) {
                diesel::insert_into($table::t::table)
                    .values(&$row { n, id })
                    .execute(&mut self.0)
                    .expect("insert");
            }

            fn ids_by_n(&mut self) -> Vec<Option<Uuid>> {
                let rows: Vec<$row> = $table::t::table
                    .order($table::t::n)
                    .load(&mut self.0)
                    .expect("select");
                assert!(rows.windows(2).all(|w| w[0].n < w[1].n));
                rows.into_iter().map(|r| r.id).collect()
            }

            fn server_text_by_n(&mut self) -> Vec<Option<String>> {
                $table::t::table
                    .select(sql::<Nullable<Text>>($text))
                    .order($table::t::n)
                    .load(&mut self.0)
                    .expect("select")
            }

            fn ids_by_id(&mut self) -> Vec<Uuid> {
                $table::t::table
                    .filter($table::t::id.is_not_null())
                    .select($table::t::id.assume_not_null())
                    .order($table::t::id)
                    .load(&mut self.0)
                    .expect("select")
            }

            fn read(&mut self, expr: &str) -> Result<Uuid, String> {
                diesel::select(sql::<$st>(expr))
                    .get_result::<Uuid>(&mut self.0)
                    .map_err(|e| with_sources(&e))
            }
        }
    };
}

diesel_store!(
    PgUuid,
    PgConnection,
    pg_uuid,
    UuidRow,
    diesel::sql_types::Uuid,
    "version()",
    "id::text"
);
diesel_store!(
    PgBytea,
    PgConnection,
    binary,
    BinaryRow,
    Binary,
    "version()",
    "upper(encode(id, 'hex'))"
);
diesel_store!(
    Sqlite,
    SqliteConnection,
    binary,
    BinaryRow,
    Binary,
    "'SQLite ' || sqlite_version()",
    "CASE WHEN id IS NULL THEN NULL ELSE hex(id) END"
);
diesel_store!(
    Mysql,
    MysqlConnection,
    binary,
    BinaryRow,
    Binary,
    "version()",
    "HEX(id)"
);

fn connect<C: Connection>(what: &str, url: &str, create: &str) -> C {
    let mut c =
        C::establish(url).unwrap_or_else(|e| panic!("cannot connect to {what} at {url:?}: {e}"));
    c.batch_execute(create).expect("create table");
    c
}

#[test]
fn postgres_uuid() {
    let url = server_url("UUIDKIT_TEST_PG_URL");
    let mut s = PgUuid(connect(
        "PostgreSQL",
        &url,
        "CREATE TEMPORARY TABLE t (n int PRIMARY KEY, id uuid)",
    ));
    // The server parses its text input; uuidkit reads the binary result.
    let mut reads: Vec<(String, Expect)> = uuidkit_db_tests::db_cases::versions()
        .iter()
        .map(|(_, u)| (format!("'{u}'::uuid"), Expect::Value(*u)))
        .collect();
    reads.extend([
        error(
            r"'\x0102'::bytea",
            "a PostgreSQL uuid value of 2 bytes is not a UUID",
        ),
        error(
            "decode(repeat('ab', 17), 'hex')",
            "a PostgreSQL uuid value of 17 bytes is not a UUID",
        ),
        error("NULL::uuid", "Unexpected null"),
    ]);
    check(
        "diesel PgConnection uuid",
        &mut s,
        ServerText::Display,
        &reads,
    );
}

#[test]
fn postgres_bytea() {
    let url = server_url("UUIDKIT_TEST_PG_URL");
    let mut s = PgBytea(connect(
        "PostgreSQL",
        &url,
        "CREATE TEMPORARY TABLE t (n int PRIMARY KEY, id bytea)",
    ));
    let quote = |t: &str| format!("convert_to('{t}', 'UTF8')");
    let mut reads = text_reads(quote);
    reads.extend(binary_errors(
        r"'\x0102'::bytea",
        "decode(repeat('ab', 17), 'hex')",
        quote,
    ));
    reads.push(error("NULL::bytea", "Unexpected null"));
    check(
        "diesel PgConnection bytea",
        &mut s,
        ServerText::UpperHex,
        &reads,
    );
}

#[test]
fn sqlite() {
    let mut s = Sqlite(connect(
        "SQLite",
        ":memory:",
        "CREATE TABLE t (n INTEGER PRIMARY KEY, id BLOB)",
    ));
    let quote = |t: &str| format!("'{t}'");
    let mut reads = text_reads(quote);
    reads.extend(binary_errors("x'0102'", "zeroblob(17)", quote));
    reads.extend([
        error("x''", "a Binary value of 0 bytes is not a UUID"),
        error("NULL", "Unexpected null"),
    ]);
    check(
        "diesel SqliteConnection",
        &mut s,
        ServerText::UpperHex,
        &reads,
    );
}

#[test]
fn mysql() {
    // diesel names the socket `unix_socket` where sqlx (and the exported URL) says `socket`.
    let url = server_url("UUIDKIT_TEST_MYSQL_URL").replace("?socket=", "?unix_socket=");
    let mut s = Mysql(connect(
        "MySQL/MariaDB",
        &url,
        "CREATE TEMPORARY TABLE t (n INT PRIMARY KEY, id BINARY(16) NULL)",
    ));
    let quote = |t: &str| format!("'{t}'");
    let mut reads = text_reads(quote);
    reads.extend(binary_errors(
        "CAST(x'0102' AS BINARY(2))",
        "CAST(REPEAT('a', 17) AS BINARY(17))",
        quote,
    ));
    reads.push(error("CAST(NULL AS BINARY(16))", "Unexpected null"));
    check(
        "diesel MysqlConnection",
        &mut s,
        ServerText::UpperHex,
        &reads,
    );
}

/// Reads of `Binary` values that are not UUIDs: 2 bytes (`two`), 17 bytes (`seventeen`), and
/// 36 bytes of text with a bad digit (the text as `quote` makes it a value).
fn binary_errors(
    two: &str,
    seventeen: &str,
    quote: impl Fn(&str) -> String,
) -> Vec<(String, Expect)> {
    vec![
        error(two, "a Binary value of 2 bytes is not a UUID"),
        error(seventeen, "a Binary value of 17 bytes is not a UUID"),
        error(
            &quote("017f22e2-79b0-7cc3-98c4-dc0c0c07398g"),
            "a Binary value is not a UUID: invalid character 'g' at byte 35",
        ),
    ]
}

/// `e` and its sources, `: `-separated (diesel's field error names the field, its source what
/// was wrong).
fn with_sources(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut source = e.source();
    while let Some(e) = source {
        s.push_str(": ");
        s.push_str(&e.to_string());
        source = e.source();
    }
    s
}

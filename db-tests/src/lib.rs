//! Helpers for the database tests (tests/): the cases shared with the library's SQLite test,
//! and the server addresses scripts/db-test exports.

pub use uuidkit_test_support::db_cases;

/// The value of the environment variable `name`, which scripts/db-test sets to a running
/// server's address. Missing or empty, the test fails here: a driver test never passes
/// because there was no server to run it against.
pub fn server_url(name: &str) -> String {
    match std::env::var(name) {
        Ok(v) if !v.is_empty() => v,
        _ => panic!(
            "{name} is not set: these tests need a running server; run scripts/db-test, which \
             starts one and sets {name}"
        ),
    }
}

use uuidkit::Uuid;

/// One database through one driver, as the shared checks ([`check`]) use it: a table
/// `t (n integer primary key, id <the driver's UUID column type> NULL)`.
pub trait Store {
    /// The server's version string (`SELECT version()`, `sqlite_version()`).
    fn version(&mut self) -> String;
    /// Empties `t`.
    fn clear(&mut self);
    /// Inserts the row `(n, id)`; `None` is NULL.
    fn insert(&mut self, n: i32, id: Option<Uuid>);
    /// `id` of every row, `ORDER BY n`.
    fn ids_by_n(&mut self) -> Vec<Option<Uuid>>;
    /// The server's own text of `id` (PostgreSQL `id::text`, `hex(id)` elsewhere), `ORDER BY n`.
    fn server_text_by_n(&mut self) -> Vec<Option<String>>;
    /// The non-NULL `id`s, `ORDER BY id`.
    fn ids_by_id(&mut self) -> Vec<Uuid>;
    /// `SELECT <expr>` read as a `Uuid`: the value, or the driver's error as text.
    fn read(&mut self, expr: &str) -> Result<Uuid, String>;
}

/// How the server writes a stored UUID ([`Store::server_text_by_n`]).
#[derive(Clone, Copy, Debug)]
pub enum ServerText {
    /// PostgreSQL's `uuid` output: must equal uuidkit's `Display`.
    Display,
    /// `hex()` of a 16-byte BLOB/BINARY: the 16 bytes in network order.
    UpperHex,
}

/// What a [`Store::read`] must give: this value, or an error containing this text.
#[derive(Clone, Copy, Debug)]
pub enum Expect {
    /// The value read.
    Value(Uuid),
    /// A part of the error message.
    Error(&'static str),
}

/// The checks every driver and database share, printed as `label: ...`: the server version;
/// every version 1–8, Nil, Max and NULL round trip, and the server's text of each is
/// `text`'s; each of `reads` gives what it says (wrong lengths, bad text, NULL into a plain
/// `Uuid`, text read); `ORDER BY id` equals `Uuid`'s `Ord`. Panics (fails the test) on the first
/// difference.
pub fn check(label: &str, s: &mut dyn Store, text: ServerText, reads: &[(String, Expect)]) {
    println!("{label}: server {}", s.version());
    // Round trips, NULL first.
    s.clear();
    let cases = db_cases::versions();
    s.insert(-1, None);
    for (n, (_, u)) in cases.iter().enumerate() {
        s.insert(n as i32, Some(*u));
    }
    let mut want = vec![None];
    want.extend(cases.iter().map(|(_, u)| Some(*u)));
    assert_eq!(s.ids_by_n(), want, "{label}: round trips");
    let mut want_text = vec![None];
    want_text.extend(cases.iter().map(|(_, u)| {
        Some(match text {
            ServerText::Display => u.to_string(),
            ServerText::UpperHex => u.simple().to_string().to_uppercase(),
        })
    }));
    assert_eq!(
        s.server_text_by_n(),
        want_text,
        "{label}: the server's text"
    );
    // Reads: errors and text.
    for (expr, expect) in reads {
        match (s.read(expr), expect) {
            (Ok(got), Expect::Value(want)) => assert_eq!(got, *want, "{label}: {expr}"),
            (Err(e), Expect::Error(want)) => assert!(e.contains(want), "{label}: {expr}: {e}"),
            (got, want) => panic!("{label}: SELECT {expr}: {got:?}, expected {want:?}"),
        }
    }
    // Ordering.
    s.clear();
    let all = db_cases::for_ordering();
    for (n, u) in all.iter().enumerate() {
        s.insert(n as i32, Some(*u));
    }
    let mut sorted = all.clone();
    sorted.sort();
    assert_ne!(
        all, sorted,
        "the insertion order must not already be sorted"
    );
    assert_eq!(s.ids_by_id(), sorted, "{label}: ORDER BY id");
    println!(
        "{label}: {} cases and NULL round-tripped, server text {text:?}, {} reads checked, {} \
         keys ordered: passed",
        cases.len(),
        reads.len(),
        all.len()
    );
}

/// The reads of every UUID text form of every case: each must give the case's value.
pub fn text_reads(quote: impl Fn(&str) -> String) -> Vec<(String, Expect)> {
    let mut v = Vec::new();
    for (_, u) in db_cases::versions() {
        for text in [
            u.to_string(),
            u.simple().to_string(),
            u.braced().to_string(),
            u.urn().to_string(),
        ] {
            v.push((quote(&text), Expect::Value(u)));
        }
    }
    v
}

/// A read that must fail with an error containing `msg`.
pub fn error(expr: &str, msg: &'static str) -> (String, Expect) {
    (expr.to_owned(), Expect::Error(msg))
}

/// The server's `SELECT version()` through the `postgres` client, printed; fails unless it
/// names PostgreSQL.
#[cfg(feature = "postgres")]
pub fn pg_version(c: &mut postgres::Client) -> String {
    let v: String = c
        .query_one("SELECT version()", &[])
        .expect("version()")
        .get(0);
    println!("{v}");
    assert!(v.starts_with("PostgreSQL "), "{v}");
    v
}

/// Inserts the rows `(n, id)` into `t` through the `postgres` client, then reads the ids back
/// `ORDER BY id`: the server's order.
#[cfg(feature = "postgres")]
pub fn pg_insert_then_order_by_id<'a>(
    c: &mut postgres::Client,
    rows: impl IntoIterator<Item = (usize, &'a Uuid)>,
) -> Vec<Uuid> {
    for (n, u) in rows {
        c.execute("INSERT INTO t (n, id) VALUES ($1, $2)", &[&(n as i32), u])
            .expect("insert");
    }
    c.query("SELECT id FROM t ORDER BY id", &[])
        .expect("select")
        .iter()
        .map(|r| r.get(0))
        .collect()
}

/// `libpq` key=value (what scripts/db-test exports in `UUIDKIT_TEST_PG_URL`) to the URL form
/// sqlx takes.
pub fn pg_url() -> String {
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

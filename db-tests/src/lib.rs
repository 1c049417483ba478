//! Helpers for the database tests (tests/): the cases shared with the library's SQLite test,
//! and the server addresses scripts/db-test exports.

#[path = "../../crates/uuidkit/tests/common/db_cases.rs"]
pub mod db_cases;

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

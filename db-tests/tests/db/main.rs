//! The database driver tests, one binary: a module per driver, each built with its feature
//! (`--features postgres,sqlx,diesel` builds them all; scripts/db-test starts the servers and
//! runs them).

#[cfg(feature = "diesel")]
mod db_diesel;
#[cfg(feature = "postgres")]
mod db_pg18;
#[cfg(feature = "postgres")]
mod db_postgres;
#[cfg(feature = "sqlx")]
mod db_sqlx;

/// Built without any driver feature there is nothing to test: fail rather than pass a run of
/// no tests.
#[cfg(not(any(feature = "postgres", feature = "sqlx", feature = "diesel")))]
#[test]
fn a_driver_feature_is_on() {
    panic!("built without the postgres, sqlx or diesel feature: run scripts/db-test");
}

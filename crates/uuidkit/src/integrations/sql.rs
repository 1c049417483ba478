//! What the database drivers share (`diesel.rs`, `postgres.rs`, `rusqlite.rs`, `sqlx.rs`): std's
//! prelude for builds without the `std` feature. The drivers put [`Uuid`](crate::Uuid) itself,
//! each behind the feature of its name, into the database, so that keys cross the database
//! boundary without a conversion to another crate's type:
//!
//! | feature | crate | column type | written as | read from |
//! |---|---|---|---|---|
//! | `rusqlite` | `rusqlite` | any (SQLite) | BLOB of 16 bytes | BLOB of 16 bytes, or TEXT in any form [`Uuid::parse_str`](crate::Uuid::parse_str) takes |
//! | `postgres` | `postgres-types` (`postgres`, `tokio-postgres`) | `uuid` | 16 bytes (binary format) | 16 bytes |
//! | `sqlx-postgres` | `sqlx` 0.8 | `uuid` (and `uuid[]`) | 16 bytes (binary format) | 16 bytes, or text |
//! | `sqlx-sqlite` | `sqlx` 0.8 | any (SQLite) | BLOB of 16 bytes | BLOB of 16 bytes, or TEXT |
//! | `sqlx-mysql` | `sqlx` 0.8 | `BINARY(16)` | 16 bytes | 16 bytes, or UUID text (`CHAR(36)`, MariaDB `UUID`) |
//! | `diesel` | `diesel` 2.3 | `Binary` on any backend: SQLite BLOB, MySQL `BINARY(16)`, PostgreSQL `bytea` | 16 bytes | 16 bytes, or UUID text |
//! | `diesel-postgres` | `diesel` 2.3 (`postgres_backend`) | PostgreSQL `Uuid` (`uuid`) | 16 bytes (binary format) | 16 bytes |
//!
//! The 16 bytes are the value in network order, so a database that compares bytes unsigned
//! (SQLite BLOBs, PostgreSQL `uuid`) sorts keys in the order of `Uuid`'s `Ord`, which for v7 is
//! creation order. `NULL` is `Option<Uuid>`, through each driver's own `Option` support. A value
//! of the wrong length or unparsable text is the driver's error, never a panic.

/// What std's prelude gives, for builds without the `std` feature (where the crate is
/// `no_std` and links std for the drivers alone).
#[allow(unused_imports)]
pub(super) mod prelude {
    pub(crate) use std::borrow::ToOwned;
    pub(crate) use std::boxed::Box;
    pub(crate) use std::format;
    pub(crate) use std::string::{String, ToString};
    pub(crate) use std::vec::Vec;
}

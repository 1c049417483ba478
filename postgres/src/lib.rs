//! `CREATE EXTENSION uuidkit`: the uuidkit library's UUIDs in PostgreSQL (docs/postgres.md).
//!
//! Thin on purpose: this crate gives the SQL names, the volatility labels and the errors; every
//! UUID is made, hashed, encoded or decoded by the library (`crates/uuidkit`). One file per SQL
//! area:
//!
//! - `generators`: `uuidv1()`, `uuidv4()`, `uuidv6()`, `uuidv7()`, `uuidv7(interval)`,
//!   `uuidv8_hash()`, `uuid_max()`;
//! - `conversions`: v1 ⇄ v6 and the short forms (TypeID, ULID, base58, base64url);
//! - `timestamps`: `uuid_v7_floor()`, `uuid_extract_timestamp()`, `uuid_extract_version()` and
//!   pg_uuidv7's time functions;
//! - `compat`: uuid-ossp's and pg_uuidv7's names;
//! - `order`: the v1/v6/v7 order — server-wide in shared memory with a state file in the data
//!   directory when the library is in `shared_preload_libraries`, per backend otherwise.

#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::unwrap_used,
    clippy::expect_used
)]

use pgrx::prelude::*;

mod compat;
mod conversions;
mod errors;
mod generators;
mod order;
mod text;
mod timestamps;

::pgrx::pg_module_magic!();

/// Called when the library is loaded: in the postmaster when it is in
/// `shared_preload_libraries` (then the shared order state is requested), else in a backend on
/// first use.
#[pg_guard]
pub extern "C-unwind" fn _PG_init() {
    order::init();
}

/// The library's UUID as PostgreSQL's.
pub(crate) fn to_pg(u: uuidkit_lib::Uuid) -> pgrx::Uuid {
    pgrx::Uuid::from_bytes(u.into_bytes())
}

/// PostgreSQL's UUID as the library's.
pub(crate) fn from_pg(u: pgrx::Uuid) -> uuidkit_lib::Uuid {
    uuidkit_lib::Uuid::from_bytes(*u.as_bytes())
}

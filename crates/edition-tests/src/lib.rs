//! `uuidkit` as a user's crate uses it, compiled once per edition (the crates `e2021` and
//! `e2024` share this source): `tests/api.rs` names every public module and the main items, and
//! the Rust examples of the README and of each `docs/` page run here as doctests, so the pages
//! cannot drift from the code. The library cannot run them itself: a packaged crate cannot read
//! files outside its folder.
//!
//! A new page under `docs/` gets its own item below.

/// README.md's examples.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// docs/cli.md's examples.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/cli.md")]
pub struct CliDoctests;

/// docs/drop-in.md's examples.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/drop-in.md")]
pub struct DropInDoctests;

/// docs/migrating.md's examples: each row of the table from the `uuid` crate.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/migrating.md")]
pub struct MigratingDoctests;

/// docs/service.md's examples.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/service.md")]
pub struct ServiceDoctests;

/// docs/postgres.md's examples (SQL and shell: none runs here, the extension's tests run them).
#[cfg(doctest)]
#[doc = include_str!("../../../docs/postgres.md")]
pub struct PostgresDoctests;

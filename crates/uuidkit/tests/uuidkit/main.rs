//! uuidkit's integration tests, one binary: a module per area (the file of the same name).
//! Shared helpers come from `uuidkit-test-support` (crates/test-support).
//!
//! The tests that fork or use the process-wide generators run in threads next to the others;
//! see each module for why that is safe (DESIGN.md describes the fork handling).

// The `arrow` feature's column kernels (on in the tests through the crate's dev-dependency on
// itself).
#[cfg(feature = "arrow")]
mod arrow;
mod db_sqlite;
mod differential;
mod draft_v7;
// The ecosystem traits, each used for real. Their features come from the crate's dev-dependency
// on itself, so this module always builds with the tests (a build without them fails to compile
// rather than running none).
mod ecosystem;
mod fork;
mod forms;
mod fuzz_props;
mod gen_audit;
mod gen_model;
mod gen_monotonic;
mod gen_sources;
mod gen_threads;
mod gen_vectors;
mod ldap;
mod ldif;
mod name_based;
mod parse_errors;
mod randomness;
mod roundtrip;
mod send_sync;
mod serde;
mod short_forms;
mod stress;
mod uuid_crate;
mod vectors;

//! What the uuidkit crates' tests share, in one place instead of files included by path:
//!
//! - [`tempdir`]: a scratch directory per test (the service's and the CLI's tests);
//! - [`impostor`] (feature `service`): a server handing out repeats, for the credential tests
//!   of the service and the CLI;
//! - [`rng`]: the splitmix64 input stream of the differential and short-form tests;
//! - [`db_cases`]: the values every database test stores (uuidkit's SQLite test, `db-tests/`);
//! - [`stress`]: the stress runs (uuidkit's `examples/stress.rs` and its bounded test);
//! - [`reference`], [`checks`] and [`service_checks`] (feature `service`): the fuzz targets'
//!   naive reference grammar and properties, which the bounded property tests check too, so
//!   that the fuzzer (`fuzz/`, which depends on this crate) and the tests cannot drift apart;
//! - [`proptest_config`] (feature `proptest`): the property tests' case count;
//! - [`peers`] (feature `peers`): the crates uuidkit's tests and benchmarks compare it with.
//!
//! Not published (`publish = false`); the crates name it as a path-only dev-dependency.

pub mod checks;
pub mod db_cases;
#[cfg(all(unix, feature = "service"))]
pub mod impostor;
pub mod reference;
pub mod rng;
#[cfg(all(unix, feature = "service"))]
pub mod service_checks;
#[cfg(unix)]
pub mod stress;
pub mod tempdir;

/// The crates uuidkit's integration tests and benchmarks compare it with, re-exported (a test
/// names them `peers::ulid`, …): they are this crate's dependencies, not uuidkit's, so that the
/// published uuidkit does not list them.
#[cfg(feature = "peers")]
pub mod peers {
    pub use {base64, bs58, data_encoding, jsonschema, mti, ulid, uuid_simd};
}

pub use checks::{gen_case, Bytes};
pub use rng::Rng;
pub use tempdir::TempDir;

/// Cases per property: `UUIDKIT_PROPTEST_CASES`, 1000 when unset or not a number (the fuzz
/// properties, each case of which may make thousands of UUIDs).
pub fn proptest_cases() -> u32 {
    proptest_cases_or(1000)
}

/// Cases per property: `UUIDKIT_PROPTEST_CASES`, `default` when unset or not a number.
pub fn proptest_cases_or(default: u32) -> u32 {
    std::env::var("UUIDKIT_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A proptest configuration running `cases` cases, with no failure persistence (the seeds of a
/// failure are printed, not written next to the sources).
#[cfg(feature = "proptest")]
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

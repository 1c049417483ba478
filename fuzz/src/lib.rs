//! Support for the uuidkit fuzz targets: the naive reference grammar, the properties checked
//! and the decoding of libFuzzer's bytes into structured inputs. They live in
//! `uuidkit-test-support` (crates/test-support), shared with the bounded property tests of
//! `crates/uuidkit/tests/uuidkit/fuzz_props.rs` and the service's `fuzz_props`; re-exported
//! here under the names the targets use.

pub use uuidkit_test_support::{checks, gen_case, reference, service_checks, Bytes};

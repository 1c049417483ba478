//! Support for the uuidkit fuzz targets: the naive reference grammar, the properties checked
//! (shared with the bounded property tests in `crates/uuidkit/tests/fuzz_props.rs`), and the
//! decoding of libFuzzer's bytes into structured inputs.

pub mod checks;
pub mod reference;
pub mod service_checks;

pub use checks::{gen_case, Bytes};

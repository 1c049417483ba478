//! uuidkit-service's integration tests, one binary: a module per area (the file of the same
//! name). Shared helpers (the temp-dir helper, the impostor server, the fuzz properties) come
//! from `uuidkit-test-support` (crates/test-support).

mod defences;
mod durability_log;
mod faults;
mod fork_client;
mod fuzz_props;
mod ranges;
mod running;
mod service;
mod service_stress;
mod state;
mod timeline;

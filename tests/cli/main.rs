//! The `uuidkit` command's integration tests, one binary: a module per area (the file of the
//! same name), each running the real binary (`CARGO_BIN_EXE_uuidkit`). `common` runs it and
//! reads what it wrote; `root` checks the private `/run` of the tests that need root
//! (scripts/root-tests). The temp-dir helper and the impostor server come from
//! `uuidkit-test-support` (crates/test-support), shared with the service's tests.

mod common;
mod root;

mod cli;
mod cli_bad_input;
mod gen_rfc;
mod personalities;
mod serve;
mod serve_defences;
mod serve_discovery;
mod serve_state;
mod serve_systemd;
mod short_forms;
mod uuidd_dropin;
mod ux;

//! `uuidkit`: generate, inspect, validate, convert and sort UUIDs (RFC 9562), and the LDAP
//! entryUUID tools of RFC 4530.
//!
//! Flags are parsed by clap into [`args::Cli`], which mirrors them; each command then resolves
//! them into its own configuration and runs (src/cmd/). Shared input and output lives in
//! [`io`], the representations in [`form`], what a person at a terminal sees (colour, carets,
//! progress) in [`ui`].

mod args;
mod cmd;
mod form;
mod io;
mod sys;
mod ui;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap prints help and version on stdout with status 0, usage errors on stderr with 2.
    let cli = args::Cli::parse();
    cmd::run(cli)
}

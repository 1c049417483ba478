//! `uuidkit`: generate, inspect, validate, convert and sort UUIDs (RFC 9562), and the LDAP
//! entryUUID tools of RFC 4530.
//!
//! Flags are parsed by clap into [`args::Cli`], which mirrors them; each command then resolves
//! them into its own configuration and runs (src/cmd/). Shared input and output lives in
//! [`io`], the representations in [`form`], what a person at a terminal sees (colour, carets,
//! progress) in [`ui`]. Under the name `uuidgen` or `uuidparse` it is that util-linux tool
//! instead ([`compat`]).

mod args;
mod cmd;
mod compat;
mod form;
mod io;
mod sys;
mod ui;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Run as `uuidgen` or `uuidparse` (a link to this binary), be that tool (src/compat/).
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(tool) = argv.first().and_then(|a0| compat::personality(a0)) {
        return tool(argv);
    }
    // Usage errors go to stderr with status 2. Help and version go to stdout with status 0,
    // or, like every other output, 2 when stdout cannot be written (0 for a closed pipe).
    match args::Cli::try_parse_from(argv) {
        Ok(cli) => cmd::run(cli),
        Err(e) if e.use_stderr() => e.exit(),
        Err(e) => {
            let written = e
                .print()
                .and_then(|()| std::io::Write::flush(&mut std::io::stdout()));
            io::finish(written.map(|()| io::Status::Ok).map_err(io::Fatal::Write))
        }
    }
}

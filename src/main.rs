//! `uuidkit`: generate, inspect, validate, convert and sort UUIDs (RFC 9562), and the LDAP
//! entryUUID tools of RFC 4530.
//!
//! Flags are parsed by clap into [`args::Cli`], which mirrors them; each command then resolves
//! them into its own configuration and runs (src/cmd/). Shared input and output lives in
//! [`io`], the representations in [`representation`], what a person at a terminal sees
//! (colour, carets, progress) in [`ui`]. Under the name `uuidgen` or `uuidparse` it is that
//! util-linux tool instead ([`personality`]).

// On Linux the process starts at the C `main` below, which skips the Rust runtime's start-up;
// elsewhere, and in the unit tests' harness, at the Rust `main`.
#![cfg_attr(all(target_os = "linux", not(test)), no_main)]

mod args;
mod cmd;
mod io;
mod numerals;
mod personality;
mod representation;
mod scan;
mod sys;
mod ui;

use std::process::ExitCode;

#[cfg(any(not(target_os = "linux"), test))]
fn main() -> ExitCode {
    run()
}

/// The process's entry point on Linux, called by the C library as `main` (the crate is
/// `no_main` there): the program without the Rust runtime's start-up, keeping what of it the
/// program relies on (`sys::start`, `sys::finish`). A panic ends the process with status 101.
#[cfg(all(target_os = "linux", not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    sys::start();
    sys::finish(std::panic::catch_unwind(run))
}

/// The whole program: the entry point of the platform (one of the two `main`s above) calls it
/// and exits with its status.
fn run() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if one_random_uuid(&argv) {
        return print_one_v4();
    }
    // Run as `uuidgen` or `uuidparse` (a link to this binary), be that tool (src/personality/).
    if let Some(tool) = argv.first().and_then(|a0| personality::invoked_as(a0)) {
        return tool(argv);
    }
    // Usage errors go to stderr with status 2. Help and version go to stdout with status 0,
    // or, like every other output, 2 when stdout cannot be written (0 for a closed pipe).
    match args::parse(argv) {
        Ok(cli) => cmd::run(cli),
        Err(e) if e.use_stderr() => e.exit(),
        Err(e) => {
            let written = io::stdout_writable()
                .and_then(|()| e.print())
                .and_then(|()| std::io::Write::flush(&mut std::io::stdout()));
            io::finish(written.map(|()| io::Status::Ok).map_err(io::Fatal::Write))
        }
    }
}

/// Whether the command line asks for one random UUID and nothing else: `uuidkit gen`,
/// `uuidkit gen v4`, and `uuidgen`, `uuidgen -r`, `uuidgen --random` under that name, the
/// commonest use in scripts (one UUID per process).
fn one_random_uuid(argv: &[std::ffi::OsString]) -> bool {
    let Some((a0, rest)) = argv.split_first() else {
        return false;
    };
    let name = std::path::Path::new(a0)
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.strip_suffix(".exe").unwrap_or(n));
    let rest: Vec<&str> = rest.iter().map(|a| a.to_str().unwrap_or("\0")).collect();
    match name {
        Some("uuidgen") => matches!(rest[..], [] | ["-r"] | ["--random"]),
        Some("uuidparse") => false,
        _ => matches!(rest[..], ["gen"] | ["gen", "v4"]),
    }
}

/// Prints one random (v4) UUID, as `uuidkit gen` does, without building the command-line
/// parser (a third of such a run's instructions) and from 16 bytes of the operating system's
/// generator rather than the seeding of the thread's CSPRNG (which pays off only from a few
/// UUIDs on). Exit statuses as for any output: 0, also for a closed pipe; 2 when standard
/// output cannot be written.
fn print_one_v4() -> ExitCode {
    let u = uuidkit::generator::v4::v4_from(&mut uuidkit::generator::OsRandom);
    let mut line = [b'\n'; 37];
    line[..36].copy_from_slice(&u.encode_hyphenated(uuidkit::Case::Lower));
    let written = io::write_stdout(&line);
    io::finish(written.map(|()| io::Status::Ok).map_err(io::Fatal::Write))
}

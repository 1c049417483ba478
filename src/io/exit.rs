//! How a command ends: its result ([`Status`], [`Fatal`]), the exit statuses, and the
//! diagnostics on standard error that go with them.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status: everything went well.
pub const EXIT_OK: u8 = 0;
/// Exit status: some input was invalid (the rest was still processed).
pub const EXIT_INVALID: u8 = 1;
/// Exit status: bad usage, or a system error (reading or writing failed).
pub const EXIT_FAILURE: u8 = 2;

/// How a command ended when it ran to completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every input was valid.
    Ok,
    /// At least one input was invalid.
    Invalid,
}

/// Why a command stopped early.
#[derive(Debug)]
pub enum Fatal {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed (a closed pipe among others).
    Write(io::Error),
    /// Anything else that ends the run with status 2; the text is the whole message.
    Msg(String),
}

/// What every command returns.
pub type CmdResult = Result<Status, Fatal>;

/// Set by [`invalid`]: some input of this run was invalid (and reported).
static INVALID_SEEN: AtomicBool = AtomicBool::new(false);

/// Notes that an input was invalid and returns [`Status::Invalid`]: a command that then
/// stops early on a closed output pipe still exits with [`EXIT_INVALID`].
pub fn invalid() -> Status {
    INVALID_SEEN.store(true, Ordering::Relaxed);
    Status::Invalid
}

/// The exit code for a command's result. A closed standard output ends quietly with 0 (the
/// reader, `head` or a pager, has what it wanted), or with 1 when an invalid input was seen
/// before it closed (see [`invalid`]).
pub fn finish(result: CmdResult) -> ExitCode {
    let code = exit_code(result);
    // Buffered error reports (see `ui::buffer_stderr`) go out last, after the output.
    crate::ui::flush_stderr();
    code
}

fn exit_code(result: CmdResult) -> ExitCode {
    match result {
        Ok(Status::Ok) => ExitCode::from(EXIT_OK),
        Ok(Status::Invalid) => ExitCode::from(EXIT_INVALID),
        Err(Fatal::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::from(if INVALID_SEEN.load(Ordering::Relaxed) {
                EXIT_INVALID
            } else {
                EXIT_OK
            })
        }
        Err(Fatal::Write(e)) => {
            error(format_args!("writing standard output: {}", write_error(&e)));
            ExitCode::from(EXIT_FAILURE)
        }
        Err(Fatal::Read(e)) => {
            error(format_args!("reading standard input: {e}"));
            ExitCode::from(EXIT_FAILURE)
        }
        Err(Fatal::Msg(m)) => {
            error(format_args!("{m}"));
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// A write error in words: the operating system's text, and for EBADF what it means here.
pub fn write_error(e: &io::Error) -> String {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::EBADF) {
        return format!("{e}: standard output is closed, or not open for writing");
    }
    e.to_string()
}

/// Writes `error: MESSAGE` on standard error (see [`crate::ui::report_error`]).
pub fn error(msg: fmt::Arguments<'_>) {
    crate::ui::report_error(&msg);
}

/// Writes `warning: MESSAGE` on standard error.
// Only `gen --system` warns, and it exists on Unix only.
#[cfg_attr(not(unix), allow(dead_code))]
pub fn warning(msg: fmt::Arguments<'_>) {
    let line = format!("warning: {msg}\n");
    let _ = io::stderr().lock().write_all(line.as_bytes());
}

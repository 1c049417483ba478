//! `uuidkit validate`: which inputs are not UUIDs, and where. The report is the command's data,
//! so it goes to standard output (documented in `--help`); the exit status says whether all
//! inputs were valid.

use std::ffi::OsString;

use crate::args::{FromForm, ValidateArgs};
use crate::form;
use crate::io::{CmdResult, Lines, Out, Status};

/// What `validate` does.
pub struct Config {
    quiet: bool,
    from: FromForm,
    inputs: Vec<OsString>,
}

impl Config {
    /// From the flags.
    pub fn resolve(a: ValidateArgs) -> Config {
        Config {
            quiet: a.quiet,
            from: a.from,
            inputs: a.uuids,
        }
    }
}

/// Runs `validate`.
pub fn run(c: Config) -> CmdResult {
    let mut out = Out::stdout();
    let mut lines = Lines::new(c.inputs);
    let mut status = Status::Ok;
    while let Some(line) = lines.next_line()? {
        if let Err(e) = form::parse(c.from, &line) {
            status = Status::Invalid;
            if !c.quiet {
                out.fmt(format_args!("{}:{}: {}\n", line.no, e.column(), e))?;
            }
        }
    }
    out.flush()?;
    Ok(status)
}

//! `uuidkit convert`: read one representation, write another, line by line.

use std::ffi::OsString;

use uuidkit::Case;

use crate::args::{ConvertArgs, FromForm, ToForm};
use crate::form;
use crate::io::{diagnostic, CmdResult, Lines, Out, Status};

/// What `convert` does.
pub struct Config {
    from: FromForm,
    to: ToForm,
    case: Case,
    inputs: Vec<OsString>,
}

impl Config {
    /// From the flags.
    pub fn resolve(a: ConvertArgs) -> Config {
        Config {
            from: a.from,
            to: a.to,
            case: if a.upper { Case::Upper } else { Case::Lower },
            inputs: a.uuids,
        }
    }
}

/// Runs `convert`.
pub fn run(c: Config) -> CmdResult {
    let mut out = Out::stdout();
    let mut lines = Lines::new(c.inputs);
    let mut status = Status::Ok;
    while let Some(line) = lines.next_line()? {
        match form::parse(c.from, &line) {
            Ok(u) => form::write_line(&mut out, &u, c.to, c.case)?,
            Err(e) => {
                status = Status::Invalid;
                diagnostic(line.no, e.column(), &e);
            }
        }
    }
    out.flush()?;
    Ok(status)
}

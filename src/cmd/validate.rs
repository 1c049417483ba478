//! `uuidkit validate`: which inputs are not UUIDs, and where. The report is the command's data,
//! so it goes to standard output (documented in `--help`); the exit status says whether all
//! inputs were valid.

use std::ffi::OsString;

use crate::args::{FromForm, ValidateArgs};
use crate::form::{self, ParseError, Refused};
use crate::io::{CmdResult, Lines, Out, Status};
use crate::ui::{self, Progress, Stream};

/// What `validate` does.
pub struct Config {
    quiet: bool,
    json: bool,
    from: FromForm,
    tokens: bool,
    inputs: Vec<OsString>,
}

impl Config {
    /// From the flags.
    pub fn resolve(a: ValidateArgs) -> Config {
        Config {
            quiet: a.quiet,
            json: a.json,
            from: a.from,
            tokens: a.tokens,
            inputs: a.uuids,
        }
    }
}

/// Runs `validate`.
pub fn run(c: Config) -> CmdResult {
    let mut out = Out::stdout();
    let mut lines = Lines::new(c.inputs).tokenised(c.tokens);
    // On a terminal the report also shows each bad input with a caret under the problem; in a
    // pipe it stays one line per invalid input.
    let (excerpts, color) = if !c.quiet && !c.json && Stream::Stdout.is_terminal() {
        (true, ui::color(Stream::Stdout))
    } else {
        (false, false)
    };
    let stdin_used = lines.origin() == ui::Origin::Line;
    let mut progress = Progress::new("validated", None, !c.quiet, stdin_used);
    let mut status = Status::Ok;
    // The lengths of the last two valid lines of different lengths (hyphenated and simple
    // forms mixed): the lines that follow are tried at those lengths first (see
    // `Lines::take_run`), and only a line that does not fit takes the general path.
    let (mut guess, mut alt) = (36, 32);
    // The line the fast path refused, if it did, and why: the next line handed out, so that
    // its diagnosis is not made twice.
    let mut refused = None;
    let mut messages = form::Messages::with_column();
    loop {
        lines.take_run(&mut guess, &mut alt, |b| {
            match form::parse_bytes(c.from, b) {
                Ok(_) => true,
                Err(e) => Refused::note(&mut refused, b, e),
            }
        });
        progress.tick(lines.count());
        let Some(line) = lines.next_line()? else {
            break;
        };
        let parsed = match refused.take() {
            Some(r) if r.is(&line) => Err(ParseError::Uuid(r.error)),
            _ => form::parse(c.from, &line),
        };
        if parsed.is_ok() && line.bytes.len() != guess {
            alt = guess;
            guess = line.bytes.len();
        }
        if let Err(e) = parsed {
            status = crate::io::invalid();
            if c.quiet {
                continue;
            }
            if c.json {
                form::json_invalid(&mut out, line.no, &e, &line.lossy())?;
            } else {
                // `LINE:COLUMN: MESSAGE`, without the `fmt` machinery.
                out.decimal(line.no)?;
                out.bytes(messages.text(&e))?;
                if excerpts {
                    let text = ui::excerpt_lines(line.bytes, e.position(), line.is_cut(), color);
                    out.bytes(text.as_bytes())?;
                }
            }
        }
    }
    progress.finish();
    out.flush()?;
    Ok(status)
}

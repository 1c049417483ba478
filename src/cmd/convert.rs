//! `uuidkit convert`: read one representation, write another, line by line.

use std::ffi::OsString;

use uuidkit::{Case, Uuid};

use crate::args::{ConvertArgs, FromForm, ToForm};
use crate::form;
use crate::io::{CmdResult, Lines, Out, Status};
use crate::ui::Progress;

/// What `convert` does.
pub struct Config {
    from: FromForm,
    to: ToForm,
    case: Case,
    tokens: bool,
    inputs: Vec<OsString>,
}

impl Config {
    /// From the flags.
    pub fn resolve(a: ConvertArgs) -> Config {
        Config {
            from: a.from,
            to: a.to,
            case: form::case(a.upper),
            tokens: a.tokens,
            inputs: a.uuids,
        }
    }
}

/// UUIDs written per call of the batch encoder.
const BATCH: usize = 256;

/// Runs `convert`.
pub fn run(c: Config) -> CmdResult {
    let mut out = Out::stdout();
    let mut lines = Lines::new(c.inputs).tokenised(c.tokens);
    let origin = lines.origin();
    let stdin_used = origin == crate::ui::Origin::Line;
    let mut progress = Progress::new("converted", None, true, stdin_used);
    // Where nobody sees the order of the two streams, reports are buffered and the output is
    // not flushed before each one (2·10^6 bad lines were 4·10^6 system calls).
    let buffered = crate::ui::stderr_may_buffer();
    if buffered {
        crate::ui::buffer_stderr();
    }
    let mut status = Status::Ok;
    // Valid UUIDs wait in a batch and go out together (text forms through the library's batch
    // encoder); an invalid line hands the batch to the output buffer first, so that the
    // output's order is the input's.
    let mut batch = [Uuid::NIL; BATCH];
    let mut n = 0;
    // The lengths of the last two valid lines of different lengths: the lines that follow are
    // tried at those lengths first (see `Lines::take_run`), straight into the batch; only a
    // line that does not fit takes the general path.
    let (mut guess, mut alt) = (36, 32);
    // The line the fast path refused as invalid, if it did (see `validate`), the messages met
    // and the report being assembled.
    let mut refused: Option<form::Refused> = None;
    let mut messages = form::Messages::plain();
    let mut scratch = Vec::with_capacity(256);
    loop {
        lines.take_run(&mut guess, &mut alt, |b| {
            match form::parse_bytes(c.from, b) {
                Ok(u) => match batch.get_mut(n) {
                    Some(slot) => {
                        *slot = u;
                        n += 1;
                        true
                    }
                    None => false,
                },
                Err(e) => form::Refused::note(&mut refused, b, e),
            }
        });
        progress.tick(lines.count());
        if n == BATCH {
            form::write_lines(&mut out, &batch, c.to, c.case)?;
            n = 0;
            continue;
        }
        let Some(line) = lines.next_line()? else {
            break;
        };
        let parsed = match refused.take() {
            Some(r) if r.is(&line) => Err(form::ParseError::Uuid(r.error)),
            _ => form::parse(c.from, &line),
        };
        match parsed {
            Ok(u) => {
                if line.bytes.len() != guess {
                    alt = guess;
                    guess = line.bytes.len();
                }
                // A full batch goes out at the top of the loop.
                if let Some(slot) = batch.get_mut(n) {
                    *slot = u;
                    n += 1;
                }
            }
            Err(e) => {
                form::write_lines(&mut out, &batch[..n], c.to, c.case)?;
                n = 0;
                status = crate::io::invalid();
                if !buffered {
                    out.flush()?;
                }
                form::report_rendered(origin, &line, &e, &mut messages, &mut scratch);
            }
        }
    }
    form::write_lines(&mut out, &batch[..n], c.to, c.case)?;
    progress.finish();
    out.flush()?;
    Ok(status)
}

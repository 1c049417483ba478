//! `uuidkit convert`: read one representation, write another, line by line.

use std::ffi::OsString;

use uuidkit::{Case, Uuid};

use crate::args::{ConvertArgs, FromForm, ToForm};
use crate::io::{Candidate, CmdResult, Fatal, Line, Lines, Out, Status};
use crate::numerals;
use crate::representation;
use crate::ui::{self, Origin, Progress};

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
            case: representation::case(a.upper),
            tokens: a.tokens,
            inputs: a.uuids,
        }
    }
}

/// UUIDs written per call of the batch encoder.
const BATCH: usize = 256;

/// How bad lines are reported, and what has been.
struct Reports {
    origin: Origin,
    /// The form and case of the output.
    to: (ToForm, Case),
    /// Reports go into standard error's buffer (see `run`), so the output need not be flushed
    /// before each.
    buffered: bool,
    messages: representation::Messages,
    /// The report being assembled.
    scratch: Vec<u8>,
    /// Reports of plain lines are assembled here: when `buffered`, and without colour.
    fast: bool,
    pending: ui::LineReports,
    in_report: representation::Messages,
    /// The number of the last line reported, in decimal.
    no: numerals::Counter,
    status: Status,
    /// Why the output could not be written before a report (taken at once by `run`).
    failed: Option<Fatal>,
}

impl Reports {
    /// Reports that `line` is not a UUID, for `e`, after writing out the valid lines before
    /// it (`batch`), so that the output's order is the input's.
    #[inline(always)]
    fn bad(
        &mut self,
        out: &mut Out,
        batch: &[Uuid],
        line: &Line<'_>,
        e: &representation::ParseError,
    ) -> Result<(), Fatal> {
        if !batch.is_empty() {
            representation::write_lines(out, batch, self.to.0, self.to.1)?;
        }
        self.status = crate::io::invalid();
        if !self.buffered {
            out.flush()?;
        }
        if self.fast && self.origin == Origin::Line && !line.is_cut() {
            self.no.set(line.no);
            let msg = self.in_report.text(e);
            if self
                .pending
                .push(self.no.padded(), msg, line.bytes, e.position())
            {
                return Ok(());
            }
        }
        self.pending.write_out();
        representation::report_rendered(
            self.origin,
            line,
            e,
            &mut self.messages,
            &mut self.scratch,
        );
        Ok(())
    }
}

impl Drop for Reports {
    /// The reports assembled go out before anything else is written to standard error (an
    /// error that ends the run is reported after `run` returns).
    fn drop(&mut self) {
        self.pending.write_out();
    }
}

/// Runs `convert`.
pub fn run(c: Config) -> CmdResult {
    let mut out = Out::stdout();
    let mut lines = Lines::new(c.inputs).tokenised(c.tokens);
    let origin = lines.origin();
    let stdin_used = origin == Origin::Line;
    let mut progress = Progress::new("converted", None, true, stdin_used);
    // Where nobody sees the order of the two streams, reports are buffered and the output is
    // not flushed before each one (2·10^6 bad lines were 4·10^6 system calls).
    let buffered = ui::stderr_may_buffer();
    if buffered {
        ui::buffer_stderr();
    }
    let mut r = Reports {
        origin,
        to: (c.to, c.case),
        buffered,
        messages: representation::Messages::plain(),
        scratch: Vec::with_capacity(256),
        fast: buffered && !ui::color(ui::Stream::Stderr),
        pending: ui::LineReports::default(),
        in_report: representation::Messages::in_report(),
        no: numerals::Counter::default(),
        status: Status::Ok,
        failed: None,
    };
    // Valid UUIDs wait in a batch and go out together (text forms through the library's batch
    // encoder); an invalid line hands the batch to the output buffer first, so that the
    // output's order is the input's.
    let mut batch = [Uuid::NIL; BATCH];
    let mut n = 0;
    // The lengths of the last two valid lines of different lengths: the lines that follow are
    // tried at those lengths first (see `Lines::take_run`), straight into the batch; only a
    // line that does not fit takes the general path. A bad line that is whole is reported
    // there too.
    let (mut guess, mut alt) = (36, 32);
    // What an empty line is (the same every time).
    let empty = representation::parse_bytes(c.from, b"");
    loop {
        lines.take_run(&mut guess, &mut alt, |line| {
            let e = match representation::parse_in_run(c.from, &empty, &line) {
                Ok(u) => {
                    return match batch.get_mut(n) {
                        Some(slot) => {
                            *slot = u;
                            n += 1;
                            true
                        }
                        None => false,
                    }
                }
                Err(e) => e,
            };
            bad_in_run(&mut r, &mut out, &batch, &mut n, line.bytes, line.no(), e)
        });
        if let Some(f) = r.failed.take() {
            return Err(f);
        }
        progress.tick(lines.count());
        if n == BATCH {
            representation::write_lines(&mut out, &batch, c.to, c.case)?;
            n = 0;
            continue;
        }
        let Some(line) = lines.next_line()? else {
            break;
        };
        match representation::parse(c.from, &line) {
            Ok(u) => {
                representation::valid_length(line.bytes.len(), &mut guess, &mut alt);
                // A full batch goes out at the top of the loop.
                if let Some(slot) = batch.get_mut(n) {
                    *slot = u;
                    n += 1;
                }
            }
            Err(e) => {
                bad_line(
                    &mut r,
                    &mut out,
                    batch.get(..n).unwrap_or_default(),
                    &line,
                    &e,
                )?;
                n = 0;
            }
        }
    }
    representation::write_lines(&mut out, batch.get(..n).unwrap_or_default(), c.to, c.case)?;
    progress.finish();
    out.flush()?;
    Ok(r.status)
}

/// [`Reports::bad`] for a line of the general path.
#[cold]
#[inline(never)]
fn bad_line(
    r: &mut Reports,
    out: &mut Out,
    batch: &[Uuid],
    line: &Line<'_>,
    e: &representation::ParseError,
) -> Result<(), Fatal> {
    r.bad(out, batch, line, e)
}

/// [`Reports::bad`] for a line of a run, the batch being its first `n` UUIDs: true if it was
/// reported (so taken), false if it is not a whole line or the output failed (then noted in
/// `failed`).
#[cold]
#[inline(never)]
fn bad_in_run(
    r: &mut Reports,
    out: &mut Out,
    batch: &[Uuid],
    n: &mut usize,
    bytes: &[u8],
    no: u64,
    e: uuidkit::Error,
) -> bool {
    let c = Candidate::new(bytes, no);
    if r.failed.is_some() || !c.whole() {
        return false;
    }
    let done = batch.get(..*n).unwrap_or_default();
    match r.bad(out, done, &c.line(), &representation::ParseError::Uuid(e)) {
        Ok(()) => {
            *n = 0;
            true
        }
        Err(f) => {
            r.failed = Some(f);
            false
        }
    }
}

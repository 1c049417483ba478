//! `uuidkit validate`: which inputs are not UUIDs, and where. The report is the command's data,
//! so it goes to standard output (documented in `--help`); the exit status says whether all
//! inputs were valid.

use std::ffi::OsString;

use crate::args::{FromForm, ValidateArgs};
use crate::io::{Candidate, CmdResult, Fatal, Line, Lines, Out, Status};
use crate::numerals;
use crate::representation::{self, ParseError};
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

/// How bad inputs are reported, and what has been.
struct Reports {
    out: Out,
    quiet: bool,
    json: bool,
    /// An excerpt with a caret under each report (a terminal), in colour or not.
    excerpts: bool,
    color: bool,
    messages: representation::Messages,
    /// The number of the last line reported, in decimal.
    no: numerals::Counter,
    status: Status,
    /// Why the last report could not be written (taken at once by `run`).
    failed: Option<Fatal>,
}

impl Reports {
    /// Reports that `line` is not a UUID, for `e` (a line of the general path).
    #[cold]
    #[inline(never)]
    fn bad_line(&mut self, line: &Line<'_>, e: &ParseError) -> Result<(), Fatal> {
        self.bad(line, e)
    }

    /// Reports that `line` is not a UUID, for `e`.
    #[inline(always)]
    fn bad(&mut self, line: &Line<'_>, e: &ParseError) -> Result<(), Fatal> {
        self.status = crate::io::invalid();
        if self.quiet {
            return Ok(());
        }
        if self.json {
            return representation::json_invalid(&mut self.out, line.no, e, &line.lossy());
        }
        // `LINE:COLUMN: MESSAGE`, without the `fmt` machinery.
        self.no.set(line.no);
        let (digits, n) = self.no.padded();
        self.out.slot::<20>(|room| {
            *room = *digits;
            n
        })?;
        self.out.short_bytes(self.messages.text(e))?;
        if self.excerpts {
            let text = ui::excerpt_lines(line.bytes, e.position(), line.is_cut(), self.color);
            self.out.bytes(text.as_bytes())?;
        }
        Ok(())
    }

    /// [`bad`](Self::bad) for a line of a run: true if it was reported (so taken), false if
    /// it is not a whole line or the report failed (then noted in `failed`).
    #[cold]
    #[inline(never)]
    fn bad_in_run(&mut self, bytes: &[u8], no: u64, e: uuidkit::Error) -> bool {
        let c = Candidate::new(bytes, no);
        if self.failed.is_some() || !c.whole() {
            return false;
        }
        match self.bad(&c.line(), &ParseError::Uuid(e)) {
            Ok(()) => true,
            Err(f) => {
                self.failed = Some(f);
                false
            }
        }
    }
}

/// Runs `validate`.
pub fn run(c: Config) -> CmdResult {
    let mut lines = Lines::new(c.inputs).tokenised(c.tokens);
    // On a terminal the report also shows each bad input with a caret under the problem; in a
    // pipe it stays one line per invalid input.
    let (excerpts, color) = if !c.quiet && !c.json && Stream::Stdout.is_terminal() {
        (true, ui::color(Stream::Stdout))
    } else {
        (false, false)
    };
    let mut r = Reports {
        out: Out::stdout(),
        quiet: c.quiet,
        json: c.json,
        excerpts,
        color,
        messages: representation::Messages::with_column(),
        no: numerals::Counter::default(),
        status: Status::Ok,
        failed: None,
    };
    let stdin_used = lines.origin() == ui::Origin::Line;
    let mut progress = Progress::new("validated", None, !c.quiet, stdin_used);
    // The lengths of the last two valid lines of different lengths (hyphenated and simple
    // forms mixed): the lines that follow are tried at those lengths first (see
    // `Lines::take_run`), and only a line that does not fit takes the general path.
    let (mut guess, mut alt) = (36, 32);
    // What an empty line is (the same every time).
    let empty = representation::parse_bytes(c.from, b"");
    loop {
        lines.take_run(&mut guess, &mut alt, |line| {
            let e = match representation::parse_in_run(c.from, &empty, &line) {
                Ok(_) => return true,
                Err(e) => e,
            };
            r.bad_in_run(line.bytes, line.no(), e)
        });
        if let Some(f) = r.failed.take() {
            return Err(f);
        }
        progress.tick(lines.count());
        let Some(line) = lines.next_line()? else {
            break;
        };
        match representation::parse(c.from, &line) {
            Ok(_) => representation::valid_length(line.bytes.len(), &mut guess, &mut alt),
            Err(e) => r.bad_line(&line, &e)?,
        }
    }
    progress.finish();
    r.out.flush()?;
    Ok(r.status)
}

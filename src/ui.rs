//! What a person at a terminal sees: colour (only on a terminal, `NO_COLOR` respected), error
//! reports that show the offending input with a caret under the bad byte, and a progress line
//! for long runs.
//!
//! Nothing here changes what a program reading the output gets: colour and the progress line
//! appear only when the stream they go to is a terminal, and the report's first line is the
//! same whether colour is on or not.

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The two output streams, for the terminal checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

impl Stream {
    /// Whether the stream is a terminal.
    pub fn is_terminal(self) -> bool {
        match self {
            Stream::Stdout => io::stdout().is_terminal(),
            Stream::Stderr => io::stderr().is_terminal(),
        }
    }
}

fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// Whether the terminal understands ANSI escapes (`TERM=dumb` does not).
fn ansi_terminal() -> bool {
    std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// The colour rule, given the environment and whether the stream is a terminal: `NO_COLOR`
/// (any non-empty value) turns colour off; otherwise `CLICOLOR_FORCE` (non-empty, not `0`)
/// turns it on; otherwise colour is used on a terminal that is not `TERM=dumb`.
///
/// clap colours its own help and usage errors by a rule that is close but not the same, so in
/// some environments the two disagree: clap also turns colour off for `CLICOLOR=0` and when
/// `TERM` is unset; it turns it on for a terminal with `CLICOLOR` (not `0`) or `CI` set even
/// when `TERM=dumb`; and it takes any non-empty `CLICOLOR_FORCE`, `0` included, as forcing.
pub fn color_rule(no_color: bool, force: bool, terminal: bool, ansi: bool) -> bool {
    if no_color {
        false
    } else if force {
        true
    } else {
        terminal && ansi
    }
}

/// `--color`: 0 for `auto` (the environment and the terminal decide, see [`color_rule`]),
/// 1 for `always`, 2 for `never`.
static COLOR_FLAG: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Records `--color`: `Some(on)` for `always` or `never`, which win over `NO_COLOR`,
/// `CLICOLOR_FORCE` and the terminal check; `None` for `auto`. Called before anything is
/// written.
pub fn set_color_flag(forced: Option<bool>) {
    let v = match forced {
        None => 0,
        Some(true) => 1,
        Some(false) => 2,
    };
    COLOR_FLAG.store(v, Ordering::Relaxed);
}

/// Whether text written to `stream` is coloured (decided once per stream and process):
/// `--color always` or `never` when given, else [`color_rule`].
pub fn color(stream: Stream) -> bool {
    match COLOR_FLAG.load(Ordering::Relaxed) {
        1 => return true,
        2 => return false,
        _ => {}
    }
    static OUT: OnceLock<bool> = OnceLock::new();
    static ERR: OnceLock<bool> = OnceLock::new();
    let cell = match stream {
        Stream::Stdout => &OUT,
        Stream::Stderr => &ERR,
    };
    *cell.get_or_init(|| {
        let force = std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
        color_rule(
            env_set("NO_COLOR"),
            force,
            stream.is_terminal(),
            ansi_terminal(),
        )
    })
}

/// ANSI styles used; each is wrapped in a reset.
#[derive(Debug, Clone, Copy)]
pub enum Paint {
    /// The `error:` prefix and the caret.
    Error,
    /// Where the problem is (`line 2:`).
    Location,
}

/// `text` in `paint` when `on`, else as it is.
pub fn paint(on: bool, paint: Paint, text: &str) -> String {
    if !on {
        return text.to_string();
    }
    let code = match paint {
        Paint::Error => "\x1b[1;31m",
        Paint::Location => "\x1b[1m",
    };
    format!("{code}{text}\x1b[0m")
}

// ---- the error report with a caret ---------------------------------------------------------

/// Where an input item came from, for the report's location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A line of standard input.
    Line,
    /// A command-line argument (1-based among the inputs).
    Argument,
}

impl Origin {
    /// `line` or `argument`.
    pub fn word(self) -> &'static str {
        match self {
            Origin::Line => "line",
            Origin::Argument => "argument",
        }
    }
}

/// How many terminal columns of input the excerpt shows at most; a longer input is shown as a
/// window around the bad byte, with `...` where it was cut.
pub const EXCERPT_WIDTH: usize = 64;

/// One displayed piece of the input: a byte or a character, maybe escaped.
struct Unit {
    /// The first input byte it stands for.
    start: usize,
    /// How many input bytes it stands for.
    len: usize,
    /// What is displayed: printable ASCII, a narrow letter, or an escape like `\x1b`.
    text: String,
}

/// Whether a non-ASCII character can be shown as it is and takes exactly one column: Latin,
/// Greek and Cyrillic letters (no combining marks, no invisible characters). Anything else —
/// wide East Asian characters, combining marks, bidirectional controls, emoji — is escaped, so
/// the caret stays under the right character on any terminal.
fn narrow_printable(c: char) -> bool {
    matches!(c, '\u{a1}'..='\u{24f}' | '\u{370}'..='\u{3ff}' | '\u{400}'..='\u{482}' | '\u{48a}'..='\u{52f}')
        && c != '\u{ad}'
}

/// Splits `bytes` into display units: printable ASCII as it is, controls as `\t`, `\r`, `\n`,
/// `\x1b`, characters per [`narrow_printable`] as they are or `\u{…}`, and bytes that are not
/// UTF-8 as `\xff`.
fn units(bytes: &[u8]) -> Vec<Unit> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (len, text) = if b.is_ascii() {
            let text = match b {
                b'\t' => "\\t".to_string(),
                b'\r' => "\\r".to_string(),
                b'\n' => "\\n".to_string(),
                0x20..=0x7e => (b as char).to_string(),
                _ => format!("\\x{b:02x}"),
            };
            (1, text)
        } else {
            // The longest UTF-8 sequence is 4 bytes; decode at most that much.
            let end = (i + 4).min(bytes.len());
            let prefix = &bytes[i..end];
            let valid = match std::str::from_utf8(prefix) {
                Ok(s) => s,
                Err(e) => std::str::from_utf8(&prefix[..e.valid_up_to()]).unwrap_or(""),
            };
            match valid.chars().next() {
                Some(c) if narrow_printable(c) => (c.len_utf8(), c.to_string()),
                Some(c) => (c.len_utf8(), format!("\\u{{{:x}}}", c as u32)),
                None => (1, format!("\\x{b:02x}")),
            }
        };
        out.push(Unit {
            start: i,
            len,
            text,
        });
        i += len;
    }
    out
}

/// The excerpt of an input around byte `pos`: the text to show and where the caret goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The displayed input (escaped; `...` where cut). Only ASCII and narrow letters.
    pub text: String,
    /// The column (0-based, in displayed characters) where the caret starts.
    pub caret_col: usize,
    /// How many carets: the display width of the unit at `pos` (1 at the end of the input).
    pub caret_len: usize,
}

/// Builds the excerpt of `bytes` for a problem at byte `pos` (which may be `bytes.len()`: the
/// end of the input). `cut` says the input continued beyond `bytes`, so the excerpt ends in
/// `...`. At most [`EXCERPT_WIDTH`] columns of input are shown.
pub fn excerpt(bytes: &[u8], pos: usize, cut: bool) -> Excerpt {
    // Printable ASCII that fits (most bad input): one column per byte, shown whole; the same
    // as the general path below, without a string per byte.
    if bytes.len() <= EXCERPT_WIDTH && bytes.iter().all(|b| (0x20..=0x7e).contains(b)) {
        let mut text = String::with_capacity(bytes.len() + 3);
        text.push_str(std::str::from_utf8(bytes).unwrap_or_default());
        if cut {
            text.push_str("...");
        }
        return Excerpt {
            text,
            caret_col: pos.min(bytes.len()),
            caret_len: 1,
        };
    }
    excerpt_general(bytes, pos, cut)
}

/// [`excerpt`] for any bytes.
fn excerpt_general(bytes: &[u8], pos: usize, cut: bool) -> Excerpt {
    let units = units(bytes);
    // Column where each unit starts, plus the end.
    let mut cols = Vec::with_capacity(units.len() + 1);
    let mut col = 0;
    for u in &units {
        cols.push(col);
        col += u.text.chars().count();
    }
    let total = col;
    cols.push(total);
    // The unit that holds byte `pos`; past the end, a virtual unit after the last one.
    let at = units
        .iter()
        .position(|u| pos < u.start + u.len)
        .unwrap_or(units.len());
    let caret_len = units.get(at).map_or(1, |u| u.text.chars().count());

    // The window [first, last) of units to show: everything if it fits, else about a third of
    // the width before the caret and the rest after it.
    let (mut first, mut last) = (0, units.len());
    if total > EXCERPT_WIDTH {
        // A caret in the first two thirds is shown with the input from its start.
        let want_start = if cols[at] < EXCERPT_WIDTH * 2 / 3 {
            0
        } else {
            cols[at].saturating_sub(EXCERPT_WIDTH / 3)
        };
        first = cols.partition_point(|&c| c < want_start).min(at);
        last = first;
        while last < units.len() && cols[last + 1] - cols[first] <= EXCERPT_WIDTH {
            last += 1;
        }
        // The caret's own unit is always shown, even if it alone is wider than the window.
        last = last.max((at + 1).min(units.len()));
    }
    let mut text = String::new();
    if first > 0 {
        text.push_str("...");
    }
    let caret_col = text.chars().count() + (cols[at] - cols[first]);
    for u in &units[first..last] {
        text.push_str(&u.text);
    }
    if last < units.len() || cut {
        text.push_str("...");
    }
    Excerpt {
        text,
        caret_col,
        caret_len,
    }
}

/// The excerpt and caret lines, each indented by two spaces and ending in a newline.
pub fn excerpt_lines(bytes: &[u8], pos: usize, cut: bool, color: bool) -> String {
    let e = excerpt(bytes, pos, cut);
    let caret = "^".repeat(e.caret_len);
    let mut s = String::with_capacity(e.text.len() + e.caret_col + e.caret_len + 16);
    s.push_str("  ");
    s.push_str(&e.text);
    s.push_str("\n  ");
    const SPACES: &str = "                                                                ";
    match SPACES.get(..e.caret_col) {
        Some(sp) => s.push_str(sp),
        None => s.extend(std::iter::repeat_n(' ', e.caret_col)),
    }
    if color {
        s.push_str(&paint(color, Paint::Error, &caret));
    } else {
        s.push_str(&caret);
    }
    s.push('\n');
    s
}

/// Where an invalid input was met and what of it the report shows.
#[derive(Clone, Copy, Debug)]
pub struct BadInput<'a> {
    /// A command-line argument or a line of input.
    pub origin: Origin,
    /// Its number (1-based).
    pub no: u64,
    /// Its bytes (as read: at most the length limit).
    pub bytes: &'a [u8],
    /// Whether it was longer than `bytes` (the excerpt then ends in `...`).
    pub cut: bool,
    /// The byte offset the caret points at.
    pub pos: usize,
}

/// The whole report for an invalid input, as written to standard error:
///
/// ```text
/// error: line 2: invalid character 'x' at byte 9: expected a hexadecimal digit
///   67e55044-x0b1-426f-9247-bb680e5fe0c8
///            ^
/// ```
pub fn input_report(at: &BadInput<'_>, msg: &dyn fmt::Display, color: bool) -> String {
    let (origin, no) = (at.origin, at.no);
    let mut s = if color {
        format!(
            "{} {} {msg}\n",
            paint(color, Paint::Error, "error:"),
            paint(color, Paint::Location, &format!("{} {no}:", origin.word())),
        )
    } else {
        // The same text without the `fmt` machinery for its fixed parts.
        let mut s = String::with_capacity(160);
        s.push_str("error: ");
        s.push_str(origin.word());
        s.push(' ');
        let mut digits = [0u8; 20];
        let n = crate::numerals::decimal_u64(no, &mut digits);
        s.push_str(std::str::from_utf8(&digits[..n]).unwrap_or_default());
        s.push_str(": ");
        let _ = fmt::Write::write_fmt(&mut s, format_args!("{msg}\n"));
        s
    };
    s.push_str(&excerpt_lines(at.bytes, at.pos, at.cut, color));
    s
}

/// Writes [`input_report`] to standard error in one write (so that concurrent writers do not
/// interleave inside it), first clearing a progress line if one is shown.
pub fn report_input(at: &BadInput<'_>, msg: &dyn fmt::Display) {
    let text = input_report(at, msg, color(Stream::Stderr));
    write_stderr(&text);
}

/// [`report_input`] for a message already rendered (`msg`, from
/// [`crate::representation::Messages`]): for printable ASCII input that fits the excerpt,
/// without colour, the report is assembled in `scratch` byte by byte, the same bytes
/// [`input_report`] makes; anything else takes [`report_input`]. A file of bad lines costs
/// no more per line than the bytes it reports.
pub fn report_input_rendered(at: &BadInput<'_>, msg: &[u8], scratch: &mut Vec<u8>) {
    if color(Stream::Stderr) || !plain_report(at, msg, scratch) {
        return report_input(at, &String::from_utf8_lossy(msg));
    }
    write_stderr_bytes(scratch);
}

/// [`input_report`] without colour, assembled in `out`, for printable ASCII input that fits
/// the excerpt; false (and `out` unspecified) for any other input.
fn plain_report(at: &BadInput<'_>, msg: &[u8], out: &mut Vec<u8>) -> bool {
    let &BadInput {
        origin,
        no,
        bytes,
        cut,
        pos,
    } = at;
    if bytes.len() > EXCERPT_WIDTH || !bytes.iter().all(|b| (0x20..=0x7e).contains(b)) {
        return false;
    }
    const SPACES: &[u8; EXCERPT_WIDTH] = &[b' '; EXCERPT_WIDTH];
    let mut digits = [0u8; 20];
    let n = crate::numerals::decimal_u64(no, &mut digits);
    let dots: &[u8] = if cut { b"..." } else { b"" };
    out.clear();
    for part in [
        b"error: ".as_slice(),
        origin.word().as_bytes(),
        b" ",
        &digits[..n],
        b": ",
        msg,
        b"\n  ",
        bytes,
        dots,
        b"\n  ",
        &SPACES[..pos.min(bytes.len())],
        b"^\n",
    ] {
        out.extend_from_slice(part);
    }
    true
}

/// Whether every byte of `s` is printable ASCII (0x20 to 0x7e).
#[inline(always)]
fn printable(s: &[u8]) -> bool {
    !crate::scan::any_byte(s, |b| !(0x20..=0x7e).contains(&b))
}

/// Each caret line of a report: a newline, two spaces, `i` more spaces and the caret, for `i`
/// up to [`EXCERPT_WIDTH`] (row `i` is read up to `i + 5`).
const CARET_LINES: [[u8; EXCERPT_WIDTH + 5]; EXCERPT_WIDTH + 1] = {
    let mut rows = [[b' '; EXCERPT_WIDTH + 5]; EXCERPT_WIDTH + 1];
    let mut i = 0;
    while i <= EXCERPT_WIDTH {
        rows[i][0] = b'\n';
        rows[i][i + 3] = b'^';
        rows[i][i + 4] = b'\n';
        i += 1;
    }
    rows
};

/// Reports of lines of standard input, assembled in a buffer of their own and handed to
/// standard error's buffer by [`LineReports::SIZE`] bytes (only while [`buffer_stderr`] is
/// on): each is [`plain_report`]'s text, assembled from five pieces, three of them of a fixed
/// size, instead of twelve.
pub struct LineReports {
    buf: Box<[u8]>,
    len: usize,
}

impl Default for LineReports {
    /// Without a buffer yet: one is made for the first report (a run with no bad line pays
    /// nothing for it).
    fn default() -> LineReports {
        LineReports {
            buf: Box::default(),
            len: 0,
        }
    }
}

impl LineReports {
    /// How many bytes are handed on at a time (the size at which standard error's buffer
    /// writes itself out).
    pub const SIZE: usize = STDERR_BUF_SIZE;
    /// Room for a report besides its message: prefix, number, line and caret line.
    const MARGIN: usize = 16 + 20 + EXCERPT_WIDTH + EXCERPT_WIDTH + 5;
    /// The longest message a report assembled here has.
    const MESSAGE: usize = 1024;

    /// Appends the report of a line that was not cut, from its number's digits (`no`, the
    /// first `n` of them counting) and the message as
    /// [`crate::representation::Messages::in_report`] gives it. False (and nothing appended)
    /// when the line is not printable ASCII that fits the excerpt, or `pos` is past its end:
    /// the caller then takes the general path.
    pub fn push(&mut self, no: (&[u8; 20], usize), msg: &[u8], bytes: &[u8], pos: usize) -> bool {
        // Room is left for a message of up to MESSAGE bytes (a longer one takes the general
        // path), so that the reports go out only once SIZE bytes are assembled.
        let Some(caret) = CARET_LINES.get(pos) else {
            return false;
        };
        if pos > bytes.len()
            || bytes.len() > EXCERPT_WIDTH
            || msg.len() > Self::MESSAGE
            || !printable(bytes)
        {
            return false;
        }
        if self.buf.is_empty() {
            self.buf = vec![0; Self::SIZE + Self::MARGIN + Self::MESSAGE].into_boxed_slice();
        }
        // All of the report's room at once (there is while fewer than SIZE bytes wait): the
        // pieces of a fixed size are then copied whole, and only the bytes that count kept.
        let Some(room) = self
            .buf
            .get_mut(self.len..)
            .and_then(|r| r.first_chunk_mut::<{ Self::MARGIN + Self::MESSAGE }>())
        else {
            return false;
        };
        let mut at = 0;
        let mut put = |part: &[u8], keep: usize| {
            if let Some(r) = room.get_mut(at..) {
                crate::scan::copy_short(r, part);
            }
            at += keep;
        };
        put(b"error: line     ", 12);
        put(no.0, no.1.min(20));
        put(msg, msg.len());
        put(bytes, bytes.len());
        // The caret line's row whole, of which the first `pos + 5` bytes count.
        put(caret, pos + 5);
        self.len += at;
        if self.len >= Self::SIZE {
            self.write_out();
        }
        true
    }

    /// Hands the reports assembled to standard error (through its buffer, unless that is
    /// empty: then they are written at once, as the buffer would write them).
    pub fn write_out(&mut self) {
        let text = self.buf.get(..self.len).unwrap_or_default();
        self.len = 0;
        if text.is_empty() {
            return;
        }
        if STDERR_BUFFERED.load(Ordering::Relaxed) && text.len() >= STDERR_BUF_SIZE {
            let buf = STDERR_BUF.lock().unwrap_or_else(|p| p.into_inner());
            if buf.is_empty() {
                let _ = io::stderr().lock().write_all(text);
                return;
            }
        }
        write_stderr_bytes(text);
    }
}

/// `error: MESSAGE` on standard error (the prefix in red on a terminal).
pub fn report_error(msg: &dyn fmt::Display) {
    let text = format!(
        "{} {msg}\n",
        paint(color(Stream::Stderr), Paint::Error, "error:")
    );
    write_stderr(&text);
}

/// Writes to standard error, clearing a progress line first, or into the standard-error
/// buffer while [`buffer_stderr`] is on. Failures are ignored: there is nowhere left to report
/// them.
fn write_stderr(text: &str) {
    write_stderr_bytes(text.as_bytes());
}

/// [`write_stderr`] for bytes.
fn write_stderr_bytes(text: &[u8]) {
    if STDERR_BUFFERED.load(Ordering::Relaxed) {
        let mut buf = STDERR_BUF.lock().unwrap_or_else(|p| p.into_inner());
        buf.extend_from_slice(text);
        if buf.len() >= STDERR_BUF_SIZE {
            let _ = io::stderr().lock().write_all(&buf);
            buf.clear();
        }
        return;
    }
    let mut err = io::stderr().lock();
    if PROGRESS_SHOWN.swap(false, Ordering::Relaxed) {
        let _ = err.write_all(CLEAR_LINE.as_bytes());
    }
    let _ = err.write_all(text);
}

/// Standard error's buffer while [`buffer_stderr`] is on.
static STDERR_BUF: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());
static STDERR_BUFFERED: AtomicBool = AtomicBool::new(false);
const STDERR_BUF_SIZE: usize = 16 * 1024;

/// Whether error reports may be buffered instead of written one by one: when nobody can see
/// in what order the two streams' lines come, i.e. standard error is not a terminal and does
/// not go where standard output goes (or both go to `/dev/null`). Then a command need not
/// flush its output before each report either. Otherwise (a terminal, `2>&1`) every report is
/// written at once, after the output of the lines before it.
pub fn stderr_may_buffer() -> bool {
    !Stream::Stderr.is_terminal() && !crate::sys::stdout_and_stderr_meet()
}

/// Turns buffering of standard error on (see [`stderr_may_buffer`]); [`flush_stderr`] writes
/// the buffer out, as [`crate::io::finish`] does on every way out of a command.
pub fn buffer_stderr() {
    STDERR_BUFFERED.store(true, Ordering::Relaxed);
}

/// Writes out what standard error's buffer holds.
pub fn flush_stderr() {
    let mut buf = STDERR_BUF.lock().unwrap_or_else(|p| p.into_inner());
    if !buf.is_empty() {
        let _ = io::stderr().lock().write_all(&buf);
        buf.clear();
    }
}

// ---- progress --------------------------------------------------------------------------------

/// Whether a progress line is on the screen now (so that a report clears it first).
static PROGRESS_SHOWN: AtomicBool = AtomicBool::new(false);

/// Carriage return, then erase to the end of the line.
const CLEAR_LINE: &str = "\r\x1b[K";

/// A run shorter than this shows no progress at all (no flicker for quick commands).
const SHOW_AFTER: Duration = Duration::from_millis(400);
/// At most ten redraws a second.
const REDRAW_EVERY: Duration = Duration::from_millis(100);
/// Items between clock readings at the start; adapted to the measured rate afterwards so that
/// the clock is read about fifty times a second, whatever the speed.
const FIRST_STEP: u64 = 1024;

/// A progress line on standard error for a long run: `gen` knows the total and shows a bar,
/// percentage, rate and time left; `convert` and `validate` show a count and a rate.
///
/// Shown only when standard error is a terminal (not `TERM=dumb`) and standard output is not
/// (output on the screen is its own progress, and the two would garble each other) — unless the
/// command writes nothing to standard output — and, for a command reading standard input, that
/// is not a terminal either (someone typing lines wants no line drawn over them). The hot loop pays one integer comparison per
/// call to [`Progress::tick`]; the clock is read only every `step` items.
pub struct Progress {
    what: &'static str,
    total: Option<u64>,
    start: Instant,
    last_draw: Option<Instant>,
    last_check: Instant,
    last_done: u64,
    next_check: u64,
    step: u64,
}

impl Progress {
    /// A progress line for `what` (e.g. `generated`), with the total if known; `stdout_used`
    /// and `stdin_used` say whether the command writes to standard output and reads standard
    /// input.
    pub fn new(
        what: &'static str,
        total: Option<u64>,
        stdout_used: bool,
        stdin_used: bool,
    ) -> Progress {
        let on = Stream::Stderr.is_terminal()
            && ansi_terminal()
            && !(stdout_used && Stream::Stdout.is_terminal())
            && !(stdin_used && io::stdin().is_terminal());
        Progress::with(on, what, total)
    }

    /// A progress line that is shown (`on`) or not, whatever the streams are.
    pub fn with(on: bool, what: &'static str, total: Option<u64>) -> Progress {
        let now = Instant::now();
        Progress {
            what,
            total,
            start: now,
            last_draw: None,
            last_check: now,
            last_done: 0,
            next_check: if on { FIRST_STEP } else { u64::MAX },
            step: FIRST_STEP,
        }
    }

    /// Reports that `done` items are finished. Cheap: a comparison, unless it is time to look
    /// at the clock.
    #[inline]
    pub fn tick(&mut self, done: u64) {
        if done >= self.next_check {
            self.check(done);
        }
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, done: u64) {
        let now = Instant::now();
        // Aim for a clock reading every ~20 ms at the rate just seen.
        let dt = now.duration_since(self.last_check).as_secs_f64();
        let items = done.saturating_sub(self.last_done);
        if dt > 0.0 && items > 0 {
            let rate = items as f64 / dt;
            self.step = ((rate * 0.02) as u64).clamp(1, 1 << 22);
        }
        self.last_check = now;
        self.last_done = done;
        self.next_check = done.saturating_add(self.step);

        let elapsed = now.duration_since(self.start);
        if elapsed < SHOW_AFTER {
            return;
        }
        if self
            .last_draw
            .is_some_and(|t| now.duration_since(t) < REDRAW_EVERY)
        {
            return;
        }
        if self.last_draw.is_none() {
            crate::sys::clear_progress_on_signal(&PROGRESS_SHOWN);
        }
        self.last_draw = Some(now);
        // The width is read at every redraw, so that a resized terminal is followed.
        let width = crate::sys::stderr_width().unwrap_or(80);
        let line = render_fit(self.what, done, self.total, elapsed, width);
        let mut err = io::stderr().lock();
        let _ = err.write_all(format!("{CLEAR_LINE}{line}").as_bytes());
        let _ = err.flush();
        PROGRESS_SHOWN.store(true, Ordering::Relaxed);
    }

    /// Removes the progress line, if shown. Also done on drop.
    pub fn finish(&mut self) {
        if self.last_draw.take().is_some() && PROGRESS_SHOWN.swap(false, Ordering::Relaxed) {
            let _ = io::stderr().lock().write_all(CLEAR_LINE.as_bytes());
        }
        self.next_check = u64::MAX;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `1234567` as `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rate per second with a k/M/G suffix: `48.2M/s`.
fn rate(per_sec: f64) -> String {
    let (v, unit) = if per_sec >= 1e9 {
        (per_sec / 1e9, "G")
    } else if per_sec >= 1e6 {
        (per_sec / 1e6, "M")
    } else if per_sec >= 1e3 {
        (per_sec / 1e3, "k")
    } else {
        (per_sec, "")
    };
    format!("{v:.1}{unit}/s")
}

/// `1:05` or `1:02:03`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Width of the bar between the brackets.
const BAR: usize = 24;

/// The progress line's text for a terminal `width` columns wide: the fullest form of
/// [`render`]'s that fits in `width - 3` columns, dropping the bar, then the counts, then the
/// rate; cut to fit when even the shortest does not. (A line reaching the last column wraps on
/// some terminals, and every redraw would then start a new line; the two columns more are for
/// the `^C` the terminal echoes after it, which would otherwise wrap too and leave the line on
/// the screen when the signal handler clears the new one.)
pub fn render_fit(
    what: &str,
    done: u64,
    total: Option<u64>,
    elapsed: Duration,
    width: usize,
) -> String {
    let room = width.saturating_sub(3);
    let full = render(what, done, total, elapsed);
    if full.chars().count() <= room {
        return full;
    }
    // The parts of the full line, separated by spaces; the shorter forms keep some of them.
    let parts: Vec<&str> = full.split(' ').filter(|p| !p.is_empty()).collect();
    let forms: Vec<Vec<&str>> = match total {
        // "[bar]", "37%", "done/total", "rate", "0:02", "left"
        Some(t) if t > 0 && parts.len() >= 6 => vec![
            parts[1..].to_vec(),
            vec![parts[1], parts[3], parts[4], parts[5]],
            vec![parts[1], parts[3]],
            vec![parts[1]],
        ],
        // "what", "N", "lines", "rate", "0:04"
        _ if parts.len() >= 5 => vec![
            parts[1..].to_vec(),
            vec![parts[1], parts[2], parts[3]],
            vec![parts[1], parts[2]],
            vec![parts[1]],
        ],
        _ => Vec::new(),
    };
    for form in forms {
        let line = form.join(" ");
        if line.chars().count() <= room {
            return line;
        }
    }
    full.chars().take(room).collect()
}

/// The progress line's text, e.g.
/// `[#########---------------]  37% 111,000,000/300,000,000 48.2M/s 0:02 left` or
/// `validated 1,234,567 lines 12.3M/s 0:04`.
pub fn render(what: &str, done: u64, total: Option<u64>, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let per_sec = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    match total {
        Some(total) if total > 0 => {
            let frac = (done.min(total) as f64 / total as f64).clamp(0.0, 1.0);
            let filled = ((frac * BAR as f64) as usize).min(BAR);
            let left = if per_sec > 0.0 {
                clock(Duration::from_secs_f64(
                    (total.saturating_sub(done) as f64 / per_sec).min(1e9),
                ))
            } else {
                "?".to_string()
            };
            format!(
                "[{}{}] {:3}% {}/{} {} {} left",
                "#".repeat(filled),
                "-".repeat(BAR - filled),
                (frac * 100.0) as u32,
                grouped(done),
                grouped(total),
                rate(per_sec),
                left
            )
        }
        _ => format!(
            "{what} {} lines {} {}",
            grouped(done),
            rate(per_sec),
            clock(elapsed)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_reports_are_the_general_ones_without_colour() {
        let inputs: [&[u8]; 6] = [
            b"67e55044-10b1-426f-9247-bb680e5fe0cg",
            b"",
            b"{67e55044-10b1-426f-9247-bb680e5fe0c8",
            b"x y z ~ !",
            &[b'7'; EXCERPT_WIDTH],
            b"67e5504410b1426f9247bb680e5fe0c8-",
        ];
        let mut out = Vec::new();
        let mut tried = 0;
        for bytes in inputs {
            for pos in [0, bytes.len() / 2, bytes.len(), bytes.len() + 5] {
                for (origin, no, cut) in [
                    (Origin::Line, 1, false),
                    (Origin::Argument, 99, false),
                    (Origin::Line, u64::MAX, true),
                ] {
                    let msg = "invalid character 'g' at byte 35: expected a hexadecimal digit";
                    let at = BadInput {
                        origin,
                        no,
                        bytes,
                        cut,
                        pos,
                    };
                    assert!(plain_report(&at, msg.as_bytes(), &mut out));
                    let want = input_report(&at, &msg, false);
                    assert_eq!(String::from_utf8_lossy(&out), want);
                    tried += 1;
                }
            }
        }
        assert_eq!(tried, 6 * 4 * 3);
        // Not printable ASCII, or too wide: the general path's.
        for bytes in ["é".as_bytes(), b"a\tb", &[b'7'; EXCERPT_WIDTH + 1]] {
            let at = BadInput {
                origin: Origin::Line,
                no: 1,
                bytes,
                cut: false,
                pos: 0,
            };
            assert!(!plain_report(&at, b"m", &mut out));
        }
    }

    #[test]
    fn line_reports_are_the_general_ones_without_colour() {
        let inputs: [&[u8]; 9] = [
            b"67e55044-10b1-426f-9247-bb680e5fe0cg",
            b"",
            b"{67e55044-10b1-426f-9247-bb680e5fe0c8",
            b"x y z ~ !",
            &[b'7'; EXCERPT_WIDTH],
            &[b'7'; EXCERPT_WIDTH + 1],
            b"67e5504410b1426f9247bb680e5fe0c8-",
            b"67e55044-10b1-426f-9247-bb680e5fe0\x7f8",
            "67e55044-10b1-426f-9247-bb680e5f\u{e9}c8".as_bytes(),
        ];
        let msg = "invalid character 'g' at byte 35: expected a hexadecimal digit";
        let in_report = format!(": {msg}\n  ");
        let mut tried = 0;
        let mut r = LineReports::default();
        let mut want = String::new();
        for round in 0..20 {
            for bytes in inputs {
                for pos in [0, bytes.len() / 2, bytes.len(), bytes.len() + 1] {
                    for no in [1u64, 99, 123_456_789, u64::MAX] {
                        let mut c = crate::numerals::Counter::default();
                        c.set(no);
                        let at = BadInput {
                            origin: Origin::Line,
                            no,
                            bytes,
                            cut: false,
                            pos,
                        };
                        let mut plain = Vec::new();
                        let ok =
                            plain_report(&at, msg.as_bytes(), &mut plain) && pos <= bytes.len();
                        if r.len > LineReports::SIZE / 2 {
                            // Emptied here: handing on would write to the tests' stderr.
                            r.len = 0;
                            want.clear();
                        }
                        let done = r.push(c.padded(), in_report.as_bytes(), bytes, pos);
                        assert_eq!(done, ok, "{bytes:?} at {pos}");
                        if ok {
                            want.push_str(&input_report(&at, &msg, false));
                        }
                        assert_eq!(String::from_utf8_lossy(&r.buf[..r.len]), want, "{round}");
                        tried += usize::from(ok);
                    }
                }
            }
        }
        assert!(tried > 1000, "{tried}");
    }

    #[test]
    fn printable_agrees_with_the_byte_by_byte_test() {
        for len in 0..40 {
            let mut s = vec![b'a'; len];
            assert!(printable(&s));
            for i in 0..len {
                for b in 0..=255u8 {
                    s[i] = b;
                    let want = s.iter().all(|b| (0x20..=0x7e).contains(b));
                    assert_eq!(printable(&s), want, "{s:?}");
                }
                s[i] = b'a';
            }
        }
    }

    #[test]
    fn excerpt_of_short_printable_ascii_is_the_general_one() {
        let mut x = 7u64;
        for len in 0..=EXCERPT_WIDTH + 2 {
            for _ in 0..20 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        0x20 + ((x >> 33) % 95) as u8
                    })
                    .collect();
                for pos in [0, len / 2, len.saturating_sub(1), len] {
                    for cut in [false, true] {
                        assert_eq!(
                            excerpt(&bytes, pos, cut),
                            excerpt_general(&bytes, pos, cut),
                            "{bytes:?} at {pos}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn colour_rule_follows_no_color_then_force_then_terminal() {
        // NO_COLOR wins over everything.
        assert!(!color_rule(true, true, true, true));
        assert!(color_rule(false, true, false, false));
        assert!(color_rule(false, false, true, true));
        assert!(!color_rule(false, false, true, false));
        assert!(!color_rule(false, false, false, true));
    }

    #[test]
    fn caret_under_the_bad_byte() {
        let e = excerpt(b"67e55044-x0b1-426f-9247-bb680e5fe0c8", 9, false);
        assert_eq!(e.text, "67e55044-x0b1-426f-9247-bb680e5fe0c8");
        assert_eq!((e.caret_col, e.caret_len), (9, 1));
        let at = BadInput {
            origin: Origin::Line,
            no: 2,
            bytes: b"67e55044-x0b1-426f-9247-bb680e5fe0c8",
            cut: false,
            pos: 9,
        };
        let msg = "invalid character 'x' at byte 9: expected a hexadecimal digit";
        let r = input_report(&at, &msg, false);
        assert_eq!(
            r,
            "error: line 2: invalid character 'x' at byte 9: expected a hexadecimal digit\n  \
             67e55044-x0b1-426f-9247-bb680e5fe0c8\n           ^\n"
        );
    }

    #[test]
    fn caret_after_the_end_for_a_short_input() {
        let e = excerpt(b"abc", 3, false);
        assert_eq!((e.text.as_str(), e.caret_col, e.caret_len), ("abc", 3, 1));
        let e = excerpt(b"", 0, false);
        assert_eq!((e.text.as_str(), e.caret_col, e.caret_len), ("", 0, 1));
    }

    #[test]
    fn control_bytes_and_invalid_utf8_are_escaped_and_the_caret_spans_the_escape() {
        let e = excerpt(b"ab\x1b[31m\xffz\t", 7, false);
        assert_eq!(e.text, "ab\\x1b[31m\\xffz\\t");
        // a b \x1b [ 3 1 m: the 0xff byte (byte 7) starts at column 2 + 4 + 4 = 10.
        assert_eq!((e.caret_col, e.caret_len), (10, 4));
        let e = excerpt(b"\x7f", 0, false);
        assert_eq!((e.text.as_str(), e.caret_len), ("\\x7f", 4));
    }

    #[test]
    fn narrow_letters_shown_wide_and_invisible_characters_escaped() {
        let input = "é漢\u{202e}x".as_bytes();
        let e = excerpt(input, input.len() - 1, false);
        assert_eq!(e.text, "é\\u{6f22}\\u{202e}x");
        assert_eq!((e.caret_col, e.caret_len), (1 + 8 + 8, 1));
        // A position inside a multi-byte character points at the whole character.
        let e = excerpt(input, 3, false);
        assert_eq!((e.caret_col, e.caret_len), (1, 8));
    }

    #[test]
    fn long_lines_show_a_window_around_the_caret() {
        let mut line = vec![b'a'; 1000];
        line[500] = b'X';
        let e = excerpt(&line, 500, true);
        assert!(e.text.starts_with("..."));
        assert!(e.text.ends_with("..."));
        assert_eq!(e.text.len(), 3 + EXCERPT_WIDTH + 3);
        assert_eq!(e.text.chars().nth(e.caret_col), Some('X'));
        // Near the start: no leading dots, but the cut end shows.
        let e = excerpt(&line[..100], 2, false);
        assert!(!e.text.starts_with("..."));
        assert!(e.text.ends_with("..."));
        assert_eq!(e.caret_col, 2);
        // At the very end of a long line.
        let e = excerpt(&line, 1000, false);
        assert!(e.text.starts_with("...") && !e.text.ends_with("..."));
        assert_eq!(e.caret_col, e.text.len());
        // A cut line (only its start kept) ends in dots even when all kept bytes fit.
        let e = excerpt(b"0123", 4, true);
        assert_eq!(e.text, "0123...");
    }

    #[test]
    fn window_of_escapes_never_splits_one() {
        let line = vec![0x01u8; 200];
        let e = excerpt(&line, 100, false);
        let body = e.text.trim_start_matches("...").trim_end_matches("...");
        assert_eq!(body.len() % 4, 0, "{}", e.text);
        assert!(body.len() <= EXCERPT_WIDTH);
        assert_eq!(&e.text[e.caret_col..e.caret_col + 4], "\\x01");
    }

    #[test]
    fn colour_wraps_prefix_and_caret_only() {
        let at = BadInput {
            origin: Origin::Argument,
            no: 1,
            bytes: b"x",
            cut: false,
            pos: 0,
        };
        let r = input_report(&at, &"bad", true);
        assert_eq!(
            r,
            "\x1b[1;31merror:\x1b[0m \x1b[1margument 1:\x1b[0m bad\n  x\n  \x1b[1;31m^\x1b[0m\n"
        );
    }

    #[test]
    fn progress_line_fits_the_width_it_is_given() {
        let t = Duration::from_secs(2);
        for (total, done) in [(Some(300_000_000), 111_000_000), (None, 1_234_567)] {
            let full = render("validated", done, total, t);
            assert!(full.len() > 30, "{full}");
            for width in [0, 1, 5, 10, 20, 30, 40, 60, 80, 200] {
                let line = render_fit("validated", done, total, t, width);
                assert!(
                    line.chars().count() <= width.saturating_sub(3),
                    "{width}: {line:?} ({} columns)",
                    line.chars().count()
                );
                if width >= full.chars().count() + 3 {
                    assert_eq!(line, full);
                }
            }
            // At 20 columns the line keeps the figure that matters.
            let line = render_fit("validated", done, total, t, 20);
            let key = if total.is_some() { "37%" } else { "1,234,567" };
            assert!(line.contains(key), "{line}");
        }
    }

    #[test]
    fn progress_text() {
        let d = Duration::from_secs(2);
        assert_eq!(
            render("generated", 150, Some(300), d),
            "[############------------]  50% 150/300 75.0/s 0:02 left"
        );
        assert_eq!(
            render("validated", 1_234_567, None, Duration::from_secs(65)),
            "validated 1,234,567 lines 19.0k/s 1:05"
        );
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(300_000_000), "300,000,000");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }

    #[test]
    fn progress_off_never_reads_the_clock() {
        let mut p = Progress::with(false, "generated", Some(10));
        assert_eq!(p.next_check, u64::MAX);
        p.tick(u64::MAX - 1);
        assert!(p.last_draw.is_none());
    }
}

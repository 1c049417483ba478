//! Input and output shared by every command: the items to work on (the command-line arguments,
//! or standard input one item per line), a buffered standard output that turns a closed pipe
//! into a quiet exit, diagnostics on standard error, and the exit statuses.
//!
//! Memory stays flat whatever the input: standard input is read line by line into one reused
//! buffer, and a line longer than [`MAX_LINE`] is kept only up to that length (the rest is
//! counted, not stored), since no UUID form is anywhere near that long.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

/// Exit status: everything went well.
pub const EXIT_OK: u8 = 0;
/// Exit status: some input was invalid (the rest was still processed).
pub const EXIT_INVALID: u8 = 1;
/// Exit status: bad usage, or a system error (reading or writing failed).
pub const EXIT_FAILURE: u8 = 2;

/// The longest line kept in memory, in bytes. Longer lines are invalid input whatever they hold:
/// the longest form read (`urn:oid:2.25.` and 39 digits) has 52 bytes.
pub const MAX_LINE: usize = 4096;

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

/// The exit code for a command's result. A closed standard output ends quietly with 0: the
/// reader (`head`, a pager) has what it wanted.
pub fn finish(result: CmdResult) -> ExitCode {
    match result {
        Ok(Status::Ok) => ExitCode::from(EXIT_OK),
        Ok(Status::Invalid) => ExitCode::from(EXIT_INVALID),
        Err(Fatal::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(EXIT_OK),
        Err(Fatal::Write(e)) => {
            error(format_args!("writing standard output: {e}"));
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

/// Writes `uuidkit: error: MESSAGE` on standard error. Failures to write there are ignored:
/// there is nowhere left to report them.
pub fn error(msg: fmt::Arguments<'_>) {
    let line = format!("uuidkit: error: {msg}\n");
    let _ = io::stderr().lock().write_all(line.as_bytes());
}

/// Writes `uuidkit: warning: MESSAGE` on standard error.
pub fn warning(msg: fmt::Arguments<'_>) {
    let line = format!("uuidkit: warning: {msg}\n");
    let _ = io::stderr().lock().write_all(line.as_bytes());
}

/// Writes one `LINE:COLUMN: message` diagnostic on standard error, in one write so that
/// concurrent writers do not interleave within a line.
pub fn diagnostic(line: u64, column: usize, msg: &dyn fmt::Display) {
    let text = format!("{line}:{column}: {msg}\n");
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// Buffered standard output. Every write reports failure as [`Fatal::Write`], so that `?`
/// carries a closed pipe up to [`finish`].
pub struct Out {
    w: BufWriter<io::StdoutLock<'static>>,
}

impl Out {
    /// Standard output with a 64 KiB buffer.
    pub fn stdout() -> Out {
        Out {
            w: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
        }
    }

    /// Writes bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) -> Result<(), Fatal> {
        self.w.write_all(b).map_err(Fatal::Write)
    }

    /// Writes formatted text (no allocation: the pieces go straight into the buffer).
    #[inline]
    pub fn fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), Fatal> {
        self.w.write_fmt(args).map_err(Fatal::Write)
    }

    /// The underlying writer, for library functions that take `impl Write`.
    pub fn writer(&mut self) -> &mut BufWriter<io::StdoutLock<'static>> {
        &mut self.w
    }

    /// Flushes the buffer; call before returning so that errors are seen.
    pub fn flush(&mut self) -> Result<(), Fatal> {
        self.w.flush().map_err(Fatal::Write)
    }
}

/// One input item.
pub struct Line<'a> {
    /// 1-based: the index of the argument, or the line number on standard input.
    pub no: u64,
    /// The item's bytes without the line end; at most [`MAX_LINE`] of them.
    pub bytes: &'a [u8],
    /// The item's full length in bytes (more than `bytes.len()` when the line was cut).
    pub len: usize,
}

impl Line<'_> {
    /// Whether the line was longer than [`MAX_LINE`] and only its start is in `bytes`.
    pub fn is_cut(&self) -> bool {
        self.len > self.bytes.len()
    }

    /// The item as text for display, invalid UTF-8 replaced by U+FFFD.
    pub fn lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.bytes)
    }
}

enum Source {
    Args(std::vec::IntoIter<OsString>),
    Stdin(io::StdinLock<'static>),
}

/// The items of a command: its arguments if it was given any, else the lines of standard input.
pub struct Lines {
    src: Source,
    buf: Vec<u8>,
    no: u64,
}

impl Lines {
    /// The arguments, or standard input when there are none.
    pub fn new(args: Vec<OsString>) -> Lines {
        let src = if args.is_empty() {
            Source::Stdin(io::stdin().lock())
        } else {
            Source::Args(args.into_iter())
        };
        Lines {
            src,
            buf: Vec::new(),
            no: 0,
        }
    }

    /// The next item, or `None` at the end. A lending iterator: the bytes live in a buffer that
    /// the next call reuses.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, Fatal> {
        let len = match &mut self.src {
            Source::Args(it) => match it.next() {
                None => return Ok(None),
                Some(a) => {
                    self.buf.clear();
                    let b = os_bytes(&a);
                    let keep = b.len().min(MAX_LINE);
                    self.buf.extend_from_slice(&b[..keep]);
                    b.len()
                }
            },
            Source::Stdin(r) => match read_line_capped(r, &mut self.buf, MAX_LINE) {
                Ok(None) => return Ok(None),
                Ok(Some(len)) => len,
                Err(e) => return Err(Fatal::Read(e)),
            },
        };
        self.no += 1;
        Ok(Some(Line {
            no: self.no,
            bytes: &self.buf,
            len,
        }))
    }
}

/// An argument's bytes. On Unix these are exactly the bytes given; elsewhere an argument that is
/// not Unicode has its bad parts replaced by U+FFFD (and is then invalid input anyway).
pub fn os_bytes(a: &std::ffi::OsStr) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::borrow::Cow::Borrowed(a.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match a.to_string_lossy() {
            std::borrow::Cow::Borrowed(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
            std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s.into_bytes()),
        }
    }
}

/// Reads one line into `buf` (cleared first), keeping at most `cap` bytes of it and dropping the
/// `\n` and a `\r` before it. Returns the line's full length without the line end, or `None` at
/// the end of the input.
pub fn read_line_capped(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    let mut seen_any = false;
    let mut last = 0u8;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (chunk, newline) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], true),
            None => (avail, false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if let Some(&b) = chunk.last() {
            last = b;
        }
        total += chunk.len();
        let used = chunk.len() + usize::from(newline);
        r.consume(used);
        if newline {
            break;
        }
    }
    if last == b'\r' && total > 0 {
        if buf.len() == total {
            buf.pop();
        }
        total -= 1;
    }
    Ok(Some(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<(Vec<u8>, usize)> {
        let mut r = io::BufReader::with_capacity(3, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(n) = read_line_capped(&mut r, &mut buf, cap).unwrap() {
            out.push((buf.clone(), n));
        }
        out
    }

    #[test]
    fn line_ends_and_caps() {
        assert_eq!(
            lines(b"ab\r\ncd\n\nef", 10),
            vec![
                (b"ab".to_vec(), 2),
                (b"cd".to_vec(), 2),
                (b"".to_vec(), 0),
                (b"ef".to_vec(), 2)
            ]
        );
        assert_eq!(
            lines(b"abcdefgh\r\nx", 4),
            vec![(b"abcd".to_vec(), 8), (b"x".to_vec(), 1)]
        );
        assert_eq!(lines(b"abc\r", 4), vec![(b"abc".to_vec(), 3)]);
        assert!(lines(b"", 4).is_empty());
    }
}

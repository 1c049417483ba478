//! Input and output shared by every command: the items to work on (the command-line arguments,
//! or standard input one item per line), a buffered standard output that turns a closed pipe
//! into a quiet exit, diagnostics on standard error, and the exit statuses.
//!
//! Memory stays flat whatever the input: standard input is read in fixed blocks and handed out
//! as line slices, and a line longer than [`MAX_LINE`] is kept only up to that length (the rest
//! is counted, not stored), since no UUID form is anywhere near that long.
//!
//! `validate` and `convert` read most lines through [`Lines::take_run`]: the lines of a file
//! of UUIDs have one length, so each is checked for a line end at the length of the last valid
//! one and parsed in place, and only a line that does not fit is searched for its end.

use std::ffi::OsString;
use std::fmt;
#[cfg(test)]
use std::io::BufRead;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// Size of the output buffer.
const OUT_BUF: usize = 64 * 1024;

/// Standard output written straight to descriptor 1, without the standard library's
/// `Stdout`, which reports a write that fails with EBADF (standard output closed, or open
/// only for reading) as a success: output lost with status 0. Here that failure is an error
/// like any other write error (status 2, see [`finish`]). Unbuffered: [`Out`] buffers.
pub struct RawStdout;

impl Write for RawStdout {
    #[cfg(unix)]
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        use std::os::fd::FromRawFd;
        // SAFETY: descriptor 1 is open for the whole run (the start-up opens /dev/null on it
        // when it is closed; see `sys::start`); the `File` is never dropped, so it does not
        // close it.
        let mut f = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(1) });
        f.write(b)
    }
    #[cfg(not(unix))]
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        io::stdout().write(b)
    }
    fn flush(&mut self) -> io::Result<()> {
        #[cfg(not(unix))]
        io::stdout().flush()?;
        Ok(())
    }
}

/// Whether standard output is open for writing: an error (EBADF) when it is open only for
/// reading, as after a start with it closed (see [`RawStdout`]), for output written through
/// the standard library's `Stdout` (clap's help), which would otherwise report success.
pub fn stdout_writable() -> io::Result<()> {
    #[cfg(unix)]
    {
        // SAFETY: F_GETFL on descriptor 1 only reads its flags.
        let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
        if flags == -1 {
            return Err(io::Error::last_os_error());
        }
        if flags & libc::O_ACCMODE == libc::O_RDONLY {
            return Err(io::Error::from_raw_os_error(libc::EBADF));
        }
    }
    Ok(())
}

/// Writes `b` on standard output at once (see [`RawStdout`]): for text written once, such as
/// help, a version or a single UUID.
pub fn write_stdout(b: &[u8]) -> io::Result<()> {
    let mut lock = io::stdout().lock();
    lock.flush()?;
    RawStdout.write_all(b)
}

/// Buffered standard output. Every write reports failure as [`Fatal::Write`], so that `?`
/// carries a closed pipe up to [`finish`].
///
/// The buffer is its own (not a `BufWriter`) so that [`Out::slot`] can let a formatter write a
/// line straight into it: at tens of millions of UUIDs per second, copying each small piece in
/// with a `memcpy` call was a third of the time of `gen` and `convert`.
pub struct Out {
    /// Held while the `Out` lives, so that nothing else writes standard output in between.
    _lock: io::StdoutLock<'static>,
    w: RawStdout,
    buf: Box<[u8]>,
    len: usize,
    /// Set after a failed write, so that dropping does not write again.
    failed: bool,
}

impl Out {
    /// Standard output with a 64 KiB buffer.
    pub fn stdout() -> Out {
        let mut lock = io::stdout().lock();
        // Whatever was written through `std::io::stdout` goes out before this.
        let _ = lock.flush();
        Out {
            _lock: lock,
            w: RawStdout,
            buf: vec![0; OUT_BUF].into_boxed_slice(),
            len: 0,
            failed: false,
        }
    }

    /// Writes the buffered bytes out.
    fn drain(&mut self) -> Result<(), Fatal> {
        let pending = &self.buf[..self.len];
        self.len = 0;
        if let Err(e) = self.w.write_all(pending) {
            self.failed = true;
            return Err(Fatal::Write(e));
        }
        Ok(())
    }
    /// Writes bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) -> Result<(), Fatal> {
        self.bytes_with(b, <[u8]>::copy_from_slice)
    }

    /// [`bytes`](Self::bytes) for a short piece (a message): copied in 16-byte blocks
    /// (`scan::copy_short`) instead of through a call of `memcpy`.
    #[inline(always)]
    pub fn short_bytes(&mut self, b: &[u8]) -> Result<(), Fatal> {
        self.bytes_with(b, crate::scan::copy_short)
    }

    /// `b` into the buffer with `copy` (given a room of exactly `b.len()` bytes), or through
    /// [`bytes_slow`](Self::bytes_slow) when the buffer has no room left.
    #[inline(always)]
    fn bytes_with(&mut self, b: &[u8], copy: impl FnOnce(&mut [u8], &[u8])) -> Result<(), Fatal> {
        if let Some(room) = self.buf.get_mut(self.len..self.len + b.len()) {
            copy(room, b);
            self.len += b.len();
            return Ok(());
        }
        self.bytes_slow(b)
    }

    #[cold]
    fn bytes_slow(&mut self, b: &[u8]) -> Result<(), Fatal> {
        self.drain()?;
        if b.len() >= OUT_BUF {
            return self.w.write_all(b).map_err(|e| {
                self.failed = true;
                Fatal::Write(e)
            });
        }
        self.buf[..b.len()].copy_from_slice(b);
        self.len = b.len();
        Ok(())
    }

    /// Lets `f` write up to `N` bytes in place and return how many it wrote (at most `N`).
    #[inline]
    pub fn slot<const N: usize>(
        &mut self,
        f: impl FnOnce(&mut [u8; N]) -> usize,
    ) -> Result<(), Fatal> {
        const { assert!(N <= OUT_BUF) };
        if self.len + N > OUT_BUF {
            self.drain()?;
        }
        if let Some(room) = self
            .buf
            .get_mut(self.len..)
            .and_then(|r| r.first_chunk_mut::<N>())
        {
            let n = f(room);
            self.len += n.min(N);
        }
        Ok(())
    }

    /// Lets `f` write up to `max` bytes (at most the buffer's size) in place and return how
    /// many it wrote.
    #[inline]
    pub fn slot_dyn(
        &mut self,
        max: usize,
        f: impl FnOnce(&mut [u8]) -> usize,
    ) -> Result<(), Fatal> {
        let max = max.min(OUT_BUF);
        if self.len + max > OUT_BUF {
            self.drain()?;
        }
        if let Some(room) = self.buf.get_mut(self.len..self.len + max) {
            let n = f(room);
            self.len += n.min(max);
        }
        Ok(())
    }

    /// Writes formatted text (no allocation: the pieces go straight into the buffer).
    #[inline]
    pub fn fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), Fatal> {
        struct Adapter<'a> {
            out: &'a mut Out,
            err: Option<Fatal>,
        }
        impl fmt::Write for Adapter<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.out.bytes(s.as_bytes()).map_err(|e| {
                    self.err = Some(e);
                    fmt::Error
                })
            }
        }
        let mut a = Adapter {
            out: self,
            err: None,
        };
        match fmt::write(&mut a, args) {
            Ok(()) => Ok(()),
            Err(_) => Err(a
                .err
                .unwrap_or_else(|| Fatal::Msg("formatting failed".into()))),
        }
    }

    /// The writer, for library functions that take `impl Write`.
    pub fn writer(&mut self) -> &mut Out {
        self
    }

    /// Flushes the buffer; call before returning so that errors are seen.
    pub fn flush(&mut self) -> Result<(), Fatal> {
        self.drain()?;
        self.w.flush().map_err(|e| {
            self.failed = true;
            Fatal::Write(e)
        })
    }
}

impl Write for Out {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.write_all(b)?;
        Ok(b.len())
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        match self.bytes(b) {
            Ok(()) => Ok(()),
            Err(Fatal::Write(e)) => Err(e),
            Err(_) => Err(io::Error::other("write failed")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match Out::flush(self) {
            Ok(()) => Ok(()),
            Err(Fatal::Write(e)) => Err(e),
            Err(_) => Err(io::Error::other("flush failed")),
        }
    }
}

impl Drop for Out {
    /// Like `BufWriter`: what is still buffered is written, errors ignored (a command that
    /// cares calls [`Out::flush`] first).
    fn drop(&mut self) {
        if !self.failed {
            let _ = self.drain();
            let _ = self.w.flush();
        }
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
    Stdin(Blocks<io::StdinLock<'static>>),
}

/// The items of a command: its arguments if it was given any, else the lines of standard input.
pub struct Lines {
    src: Source,
    buf: Vec<u8>,
    no: u64,
    /// `--tokens`: the items are the whitespace-separated tokens of each line.
    tokens: Option<Tokens>,
}

/// The line being split into tokens, and where the next token is looked for.
struct Tokens {
    line: Vec<u8>,
    at: usize,
    /// How many bytes of the line were dropped (a line over [`MAX_LINE`] bytes).
    cut: usize,
}

/// What `--tokens` skips between tokens: ASCII whitespace (a CR of a CR LF included).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c')
}

const BOM: &[u8] = b"\xef\xbb\xbf";

impl Lines {
    /// The arguments, or standard input when there are none.
    pub fn new(args: Vec<OsString>) -> Lines {
        let src = if args.is_empty() {
            Source::Stdin(Blocks::new(io::stdin().lock()))
        } else {
            Source::Args(args.into_iter())
        };
        Lines {
            src,
            buf: Vec::new(),
            no: 0,
            tokens: None,
        }
    }

    /// `--tokens`: hand out the whitespace-separated tokens of every line (or argument)
    /// instead of whole lines, as uuidparse reads them: a UTF-8 BOM at the start of standard
    /// input, spaces, tabs, CRs and blank lines are skipped. Each token carries the number of
    /// its line. A line over [`MAX_LINE`] bytes is cut there, and its last token kept is
    /// marked cut (so it is reported as invalid).
    pub fn tokenised(mut self, on: bool) -> Lines {
        if on {
            self.tokens = Some(Tokens {
                line: Vec::new(),
                at: 0,
                cut: 0,
            });
        }
        self
    }

    /// [`Lines::next_line`] under `--tokens`.
    #[cold]
    fn next_token(&mut self) -> Result<Option<Line<'_>>, Fatal> {
        let (start, end) = loop {
            let Some(t) = self.tokens.as_mut() else {
                return Ok(None);
            };
            let rest = t.line.get(t.at..).unwrap_or_default();
            if let Some(a) = rest.iter().position(|&b| !is_space(b)) {
                let start = t.at + a;
                let len = t
                    .line
                    .get(start..)
                    .unwrap_or_default()
                    .iter()
                    .position(|&b| is_space(b))
                    .unwrap_or(t.line.len() - start);
                t.at = start + len;
                break (start, start + len);
            }
            // The line is used up: the next one.
            t.line.clear();
            t.at = 0;
            t.cut = 0;
            match &mut self.src {
                Source::Args(it) => match it.next() {
                    None => return Ok(None),
                    Some(a) => {
                        let b = os_bytes(&a);
                        let keep = b.len().min(MAX_LINE);
                        t.line.extend_from_slice(&b[..keep]);
                        t.cut = b.len() - keep;
                    }
                },
                Source::Stdin(blocks) => match blocks.next_line() {
                    Ok(None) => return Ok(None),
                    Ok(Some((bytes, len))) => {
                        let bytes = if self.no == 0 {
                            bytes.strip_prefix(BOM).unwrap_or(bytes)
                        } else {
                            bytes
                        };
                        t.line.extend_from_slice(bytes);
                        t.cut = len.saturating_sub(bytes.len());
                    }
                    Err(e) => return Err(Fatal::Read(e)),
                },
            }
            self.no += 1;
        };
        let Some(t) = self.tokens.as_ref() else {
            return Ok(None);
        };
        // The token that reaches the cut end of a long line is marked cut.
        let cut = if end == t.line.len() { t.cut } else { 0 };
        let bytes = t.line.get(start..end).unwrap_or_default();
        Ok(Some(Line {
            no: self.no,
            bytes,
            len: bytes.len() + cut,
        }))
    }

    /// Whether the items are arguments or lines of standard input, for error reports.
    pub fn origin(&self) -> crate::ui::Origin {
        match self.src {
            Source::Args(_) => crate::ui::Origin::Argument,
            Source::Stdin(_) => crate::ui::Origin::Line,
        }
    }

    /// The next item, or `None` at the end. A lending iterator: the bytes live in a buffer that
    /// the next call reuses. Inlined into each command's loop: the call and the returned
    /// `Result` in memory were a third of `validate`'s time.
    #[inline(always)]
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, Fatal> {
        if self.tokens.is_some() {
            return self.next_token();
        }
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
            Source::Stdin(blocks) => {
                return match blocks.next_line() {
                    Ok(None) => Ok(None),
                    Ok(Some((bytes, len))) => {
                        self.no += 1;
                        Ok(Some(Line {
                            no: self.no,
                            bytes,
                            len,
                        }))
                    }
                    Err(e) => Err(Fatal::Read(e)),
                };
            }
        };
        self.no += 1;
        Ok(Some(Line {
            no: self.no,
            bytes: &self.buf,
            len,
        }))
    }

    /// How many items have been handed out so far (the number of the last one).
    #[inline]
    pub fn count(&self) -> u64 {
        self.no
    }

    /// Offers `accept` the lines of standard input that follow while they are `len` or `alt`
    /// bytes long (or empty), without searching for their ends; returns how many it took. See
    /// [`Blocks::take_run`], whose rule `accept` must follow: it takes only bytes that are a
    /// whole line (a valid UUID always is; anything else it checks with
    /// [`Candidate::whole`]). Arguments are never taken here.
    #[inline(always)]
    pub fn take_run(
        &mut self,
        len: &mut usize,
        alt: &mut usize,
        accept: impl FnMut(Candidate<'_>) -> bool,
    ) -> u64 {
        if self.tokens.is_some() {
            return 0;
        }
        match &mut self.src {
            Source::Stdin(blocks) => {
                let n = blocks.take_run(self.no + 1, len, alt, accept);
                self.no += n;
                n
            }
            Source::Args(_) => 0,
        }
    }
}

/// A line that [`Lines::take_run`] offers, found where the run's lengths say it ends.
#[derive(Clone, Copy)]
pub struct Candidate<'a> {
    /// The bytes before the line end that was found (`\n`, or `\r\n`).
    pub bytes: &'a [u8],
    /// Its number, as [`Line::no`] would give it.
    no: u64,
    /// Whether this is an empty line (a constant where `take_run` offers one, so that a
    /// command's test of it costs nothing on the other lines).
    empty: bool,
}

impl<'a> Candidate<'a> {
    /// `bytes`, the line numbered `no`.
    pub fn new(bytes: &'a [u8], no: u64) -> Candidate<'a> {
        Candidate {
            bytes,
            no,
            empty: bytes.is_empty(),
        }
    }

    /// Whether the line is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// Its number, as [`Line::no`] would give it.
    #[inline]
    pub fn no(&self) -> u64 {
        self.no
    }

    /// Whether `bytes` are the whole line, as [`Lines::next_line`] would hand it out: no `\n`
    /// inside (the line would end there) and no `\r` at the end (it would belong to the line
    /// end). A valid UUID always is; other bytes must be checked before they are taken.
    #[inline]
    pub fn whole(&self) -> bool {
        !has_newline(self.bytes) && self.bytes.last() != Some(&b'\r')
    }

    /// The line, as [`Lines::next_line`] would hand it out (when [`whole`](Self::whole)).
    #[inline]
    pub fn line(&self) -> Line<'a> {
        Line {
            no: self.no(),
            bytes: self.bytes,
            len: self.bytes.len(),
        }
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

/// Bytes read per `read` call on standard input.
const BLOCK: usize = 256 * 1024;

/// A reader that hands out lines as slices of a large block: no copy and no per-line system
/// call, which at UUID-sized lines is most of the cost of `validate` and `convert`. Lines
/// follow [`read_line_capped`]'s rules exactly (same cap, same counting of a cut line, a final
/// `\r` dropped); memory stays flat (one block, plus [`MAX_LINE`] bytes for the start of an
/// over-long line, whose rest is counted and skipped).
pub struct Blocks<R> {
    r: R,
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    eof: bool,
    /// The kept start of an over-long line.
    long: Vec<u8>,
}

impl<R: io::Read> Blocks<R> {
    /// Lines of `r`.
    pub fn new(r: R) -> Blocks<R> {
        Blocks {
            r,
            buf: vec![0; BLOCK + MAX_LINE],
            start: 0,
            end: 0,
            eof: false,
            long: Vec::new(),
        }
    }

    /// The next line without its line end, and its full length; `None` at the end.
    #[inline]
    pub fn next_line(&mut self) -> io::Result<Option<(&[u8], usize)>> {
        loop {
            let pending = &self.buf[self.start..self.end];
            if let Some(i) = find_newline(pending) {
                let at = self.start;
                self.start += i + 1;
                return Ok(Some(capped(&self.buf[at..at + i])));
            }
            if self.eof {
                if pending.is_empty() {
                    return Ok(None);
                }
                let at = self.start;
                self.start = self.end;
                return Ok(Some(capped(&self.buf[at..self.end])));
            }
            if pending.len() > MAX_LINE {
                return self.long_line().map(Some);
            }
            self.refill()?;
        }
    }

    /// Offers `accept` each following line that is empty, or `len` or `alt` bytes long (then
    /// `\n`, or `\r\n`), numbered from `first_no`, and goes past it if `accept` returns true;
    /// stops at the first line it does not take and at the end of the buffered bytes (it never
    /// reads). Returns how many lines it took, which are then exactly what
    /// [`Blocks::next_line`] would have returned. A line taken at `alt` makes `alt` the length
    /// tried first for the next (the two lengths trade places).
    ///
    /// This is the fast path of `validate` and `convert`: in a file of UUIDs the lines have
    /// one length (or two, hyphenated and simple forms mixed), so a byte comparison or two
    /// finds a line's end instead of a search. The price is a rule for `accept`: it may take
    /// only bytes that are the whole line, which bytes holding a `\n` (the line really ends
    /// earlier) or ending in `\r` (that `\r` belongs to the line end) are not
    /// ([`Candidate::whole`]). No UUID form holds either, so a valid line is always whole; a
    /// command that reports a bad line in the run checks it first.
    #[inline(always)]
    pub fn take_run(
        &mut self,
        first_no: u64,
        len: &mut usize,
        alt: &mut usize,
        mut accept: impl FnMut(Candidate<'_>) -> bool,
    ) -> u64 {
        // The number of the next line (counted rather than added up when asked for).
        let mut no = first_no;
        if (*len).max(*alt) > MAX_LINE {
            return 0;
        }
        // The bytes and where the next line starts, in locals: the calls of `accept` cannot
        // change them, so they need not be read again after each.
        let data = self.buf.get(..self.end).unwrap_or_default();
        let mut start = self.start;
        'lines: while let Some(pending @ [first_byte, ..]) = data.get(start..) {
            // An empty line (`\n` or `\r\n`) is neither length (and no UUID starts with a
            // byte up to `\r`).
            if *first_byte <= b'\r' {
                let step = match pending {
                    [b'\n', _, ..] => 1,
                    [b'\r', b'\n', _, ..] => 2,
                    _ => 0,
                };
                if step != 0 {
                    let empty = Candidate {
                        bytes: &[],
                        no,
                        empty: true,
                    };
                    if !accept(empty) {
                        break;
                    }
                    start += step;
                    no += 1;
                    continue;
                }
            }
            for first in [true, false] {
                let l = if first { *len } else { *alt };
                // Two bytes after the line: room for the `\n` of a `\r\n`; only the last
                // line of the block misses the fast path for it.
                let (Some(line), Some(&[end, next])) = (
                    pending.get(..l),
                    pending.get(l..).and_then(|r| r.first_chunk::<2>()),
                ) else {
                    break 'lines;
                };
                let step = match (end, next) {
                    (b'\n', _) => l + 1,
                    (b'\r', b'\n') => l + 2,
                    _ => continue,
                };
                if !accept(Candidate {
                    bytes: line,
                    no,
                    empty: false,
                }) {
                    continue;
                }
                if !first {
                    std::mem::swap(len, alt);
                }
                start += step;
                no += 1;
                continue 'lines;
            }
            break;
        }
        self.start = start;
        no - first_no
    }

    /// Moves the pending bytes to the front and reads more after them.
    fn refill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        loop {
            match self.r.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// A line longer than [`MAX_LINE`]: keeps its start, counts and skips the rest.
    #[cold]
    fn long_line(&mut self) -> io::Result<(&[u8], usize)> {
        self.long.clear();
        self.long
            .extend_from_slice(&self.buf[self.start..self.start + MAX_LINE]);
        let mut total = 0usize;
        let mut last = 0u8;
        loop {
            let pending = &self.buf[self.start..self.end];
            let (chunk, newline) = match find_newline(pending) {
                Some(i) => (&pending[..i], true),
                None => (pending, false),
            };
            if let Some(&b) = chunk.last() {
                last = b;
            }
            total += chunk.len();
            self.start += chunk.len() + usize::from(newline);
            if newline {
                break;
            }
            self.refill()?;
            if self.eof && self.start == self.end {
                break;
            }
        }
        if last == b'\r' && total > 0 {
            if self.long.len() == total {
                self.long.pop();
            }
            total -= 1;
        }
        Ok((&self.long, total))
    }
}

/// A whole line's kept bytes (at most [`MAX_LINE`]) and length, both without a final `\r`.
#[inline]
fn capped(line: &[u8]) -> (&[u8], usize) {
    let body = match line.split_last() {
        Some((b'\r', rest)) => rest,
        _ => line,
    };
    (&body[..body.len().min(MAX_LINE)], body.len())
}

/// The first `\n` in `s`, eight bytes at a time.
#[inline]
fn find_newline(s: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut words = s.chunks_exact(8);
    let mut at = 0;
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        let x = u64::from_le_bytes(b) ^ (ONES * u64::from(b'\n'));
        // The lowest set bit marks the first zero byte of `x` (a borrow only runs upwards).
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| at + i)
}

/// Whether `s` holds a `\n`: [`find_newline`] without the place.
#[inline(always)]
fn has_newline(s: &[u8]) -> bool {
    crate::scan::any_byte(s, |b| b == b'\n')
}

/// The line rules, one line at a time: the reference that the tests hold [`Blocks`] to.
///
/// Reads one line into `buf` (cleared first), keeping at most `cap` bytes of it and dropping the
/// `\n` and a `\r` before it. Returns the line's full length without the line end, or `None` at
/// the end of the input.
#[cfg(test)]
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

    fn block_lines(input: &[u8], cap_check: bool) -> Vec<(Vec<u8>, usize)> {
        let mut b = Blocks::new(input);
        let mut out = Vec::new();
        while let Some((line, n)) = b.next_line().unwrap() {
            out.push((line.to_vec(), n));
        }
        if cap_check {
            assert_eq!(
                out,
                lines(input, MAX_LINE),
                "blocks and read_line_capped differ"
            );
        }
        out
    }

    #[test]
    fn blocks_follow_read_line_capped() {
        let long = vec![b'a'; MAX_LINE + 10];
        let mut cases: Vec<Vec<u8>> = vec![
            b"ab\r\ncd\n\nef".to_vec(),
            b"abc\r".to_vec(),
            b"".to_vec(),
            b"\n\n\r\n".to_vec(),
            b"no newline at all".to_vec(),
        ];
        for extra in [0usize, 1, 2, 9] {
            let mut c = vec![b'x'; MAX_LINE - 1 + extra];
            c.extend_from_slice(b"\r\nnext\r\n");
            cases.push(c);
            let mut c = vec![b'y'; MAX_LINE - 1 + extra];
            c.push(b'\r');
            cases.push(c);
        }
        let mut c = long.clone();
        c.push(b'\n');
        c.extend_from_slice(&long);
        cases.push(c);
        // Lines across block boundaries, of every length around a word.
        let mut many = Vec::new();
        for i in 0..200_000usize {
            many.extend(std::iter::repeat_n(b'0' + (i % 10) as u8, i % 23));
            many.extend_from_slice(if i % 3 == 0 { b"\r\n" } else { b"\n" });
        }
        cases.push(many);
        for c in &cases {
            block_lines(c, true);
        }
        assert_eq!(
            block_lines(b"a\nbb", true),
            vec![(b"a".to_vec(), 1), (b"bb".to_vec(), 2)]
        );
    }

    /// The lines of `input` as `validate` and `convert` read them: runs of lines of the last
    /// two taken lengths through `take_run`, the rest through `next_line`. `accept` says
    /// whether a line is valid; `take_bad` whether a whole invalid line is taken in the run.
    /// Each line comes with its number, checked against its place.
    fn run_lines_with(
        input: &[u8],
        accept: impl Fn(&[u8]) -> bool,
        take_bad: bool,
    ) -> Vec<(Vec<u8>, usize)> {
        let mut b = Blocks::new(input);
        let mut out = Vec::new();
        let (mut guess, mut alt) = (3, 2);
        loop {
            let first_no = out.len() as u64 + 1;
            b.take_run(first_no, &mut guess, &mut alt, |c| {
                assert_eq!(c.no(), out.len() as u64 + 1);
                if accept(c.bytes) || (take_bad && c.whole()) {
                    out.push((c.bytes.to_vec(), c.bytes.len()));
                    true
                } else {
                    false
                }
            });
            let Some((line, n)) = b.next_line().unwrap() else {
                break;
            };
            if accept(line) && line.len() != guess {
                alt = guess;
                guess = line.len();
            }
            out.push((line.to_vec(), n));
        }
        out
    }

    fn run_lines(input: &[u8], accept: impl Fn(&[u8]) -> bool) -> Vec<(Vec<u8>, usize)> {
        run_lines_with(input, accept, false)
    }

    #[test]
    fn take_run_returns_the_same_lines() {
        // The rule `take_run` asks of its callers: no `\n` inside, no `\r` at the end.
        let rule = |l: &[u8]| !l.contains(&b'\n') && l.last() != Some(&b'\r');
        let mut cases: Vec<Vec<u8>> = vec![
            b"abc\nabc\r\nabc\r\r\nabc\nab\nc\nabc".to_vec(),
            b"abc\nabc\n\nabc\n\n\n\rabc\nab\rc\n".to_vec(),
            b"abc\r\nabc\r".to_vec(),
            b"\n\n\n".to_vec(),
            b"\r\n\n\r\n\r\r\n\r\r\nabc\n\n".to_vec(),
            b"".to_vec(),
        ];
        // Many equal lines across block boundaries, with a few of other lengths and line ends.
        let mut many = Vec::new();
        for i in 0..100_000usize {
            let len = match i % 997 {
                0 => 5,
                1 => 0,
                _ => 36,
            };
            many.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, len));
            many.extend_from_slice(match i % 1009 {
                0 => b"\r\n".as_slice(),
                1 => b"\r\r\n",
                2 => b"\n\r\n",
                _ => b"\n",
            });
        }
        cases.push(many);
        for c in &cases {
            let want = block_lines(c, true);
            assert_eq!(run_lines(c, rule), want);
            // An acceptor that refuses some lines leaves them to `next_line`, unchanged.
            assert_eq!(run_lines(c, |l| rule(l) && l.first() != Some(&b'b')), want);
            // One that takes the whole ones it finds invalid (as a report would) too.
            for take_bad in [false, true] {
                assert_eq!(
                    run_lines_with(c, |l| rule(l) && l.len() == 3, take_bad),
                    want
                );
                assert_eq!(run_lines_with(c, |_| false, take_bad), want);
            }
        }
    }

    #[test]
    fn newline_search_agrees_with_position() {
        let mut s = vec![b'a'; 40];
        assert_eq!(find_newline(&s), None);
        for i in 0..40 {
            s[i] = b'\n';
            assert_eq!(find_newline(&s), Some(i));
            // 0x0b right after a '\n' is a false match for the word trick (the borrow out of
            // the '\n' byte runs into it): the search must still report the '\n'.
            if i + 1 < 40 {
                s[i + 1] = 0x0b;
            }
            assert_eq!(find_newline(&s), Some(i));
            assert_eq!(find_newline(&s[..=i]), Some(i));
            // A byte just below '\n' where it was is no match.
            s[i] = 0x09;
            assert_eq!(find_newline(&s), s.iter().position(|&b| b == b'\n'));
            s.fill(b'a');
        }
    }

    #[test]
    fn has_newline_agrees_with_contains() {
        for len in 0..80 {
            let mut s = vec![b'a'; len];
            assert!(!has_newline(&s));
            for i in 0..len {
                for b in [b'\n', 0x0b, 0x09, 0x8a] {
                    s[i] = b;
                    assert_eq!(has_newline(&s), s.contains(&b'\n'), "{s:?}");
                    s[(i * 7 + 3) % len] = b'\n';
                    assert_eq!(has_newline(&s), s.contains(&b'\n'), "{s:?}");
                    s.fill(b'a');
                }
            }
        }
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

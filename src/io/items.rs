//! The items of a command ([`Lines`]): its arguments, or the lines of standard input (through
//! [`Blocks`]), or with `--tokens` the whitespace-separated tokens of either.

use std::ffi::OsString;
use std::io;

use super::blocks::Blocks;
use super::exit::Fatal;
use super::line::{Candidate, Line, MAX_LINE};

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

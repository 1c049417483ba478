//! The engine of `uuidkit ldap add-entryuuid`: copies an LDIF stream (RFC 2849) byte for byte
//! and appends an `entryUUID` line (RFC 4530 §2.4) to every entry that lacks one.
//!
//! The stream is handled one record at a time (records are separated by empty lines), so memory
//! is bounded by the largest record, not by the file. Nothing is re-encoded: folded lines,
//! comments, base64 and URL values, change records, CR LF line endings, bytes that are not
//! UTF-8 and a missing final newline all pass through unchanged.
//!
//! Which records get an `entryUUID`:
//! - content records (a `dn:`/`dn::` line first, optionally after a `version:` line, and no
//!   `changetype:`), and change records with `changetype: add`;
//! - change records of any other type (`modify`, `delete`, `modrdn`, `moddn`) are left alone,
//!   since they do not create an entry; their `entryUUID` lines are not examined either;
//! - the `version: 1` header and comment-only blocks pass through.
//!
//! Input that is not LDIF is an error naming its line: a record that does not start with
//! `dn:` (after an optional `version:` before the first record), a second `dn:` in one record
//! (two records without an empty line between them), a line without a colon (other than the
//! `-` of a modify record), a `version:` other than 1, a `name::` value that is not base64,
//! and a CR that does not end a line with LF (a file with CR-only line endings). A line of
//! spaces or tabs only ends a record, as an empty line does, rather than continuing a line.
//! The dn in an error's message has its control characters escaped (`\x1b`).
//!
//! An existing `entryUUID` (any case, with or without options such as `entryUUID;x`, or by its
//! OID `1.3.6.1.1.16.4`) is validated with [`ldap::validate`], after
//! base64 decoding for `entryUUID::`. A URL value (`entryUUID:<`) counts as present but is not
//! fetched. Two `entryUUID` values in one entry are an error: the attribute is SINGLE-VALUE.
//!
//! Processing stops at the first bad value: everything before the failing record has been
//! written (and flushed), so the output is a valid prefix of the result, ending at a record
//! boundary.

use std::fmt;
use std::io::{self, BufRead, Write};

use crate::ldap;
use crate::{Case, Format, Uuid};

/// The counts reported by [`add_entry_uuid`].
///
/// ```
/// use uuidkit::{ldif, Uuid};
/// let input = b"version: 1\n\n\
///     dn: cn=a\ncn: a\n\n\
///     dn: cn=b\nchangetype: add\ncn: b\n\n\
///     dn: cn=c\nchangetype: modify\nreplace: cn\ncn: c\n-\n\n\
///     dn: cn=d\nentryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14\n";
/// let stats = ldif::add_entry_uuid(&input[..], std::io::sink(), &mut || Uuid::NIL)?;
/// // Two entries get a new value and one keeps its own; the modify record and the version
/// // header create no entry and are not counted.
/// assert_eq!(stats, ldif::LdifStats { entries: 3, added: 2, kept: 1 });
/// # Ok::<(), ldif::LdifError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct LdifStats {
    /// Entries examined: content records and `changetype: add` records.
    pub entries: u64,
    /// Entries that received a new `entryUUID` line.
    pub added: u64,
    /// Entries that already had a (valid) `entryUUID` and were left as they were.
    pub kept: u64,
}

/// Why [`add_entry_uuid`] stopped: reading or writing failed, or an entry's data is bad.
///
/// Its `Display` text names the line and the entry's DN. The output holds everything before
/// the bad record, up to a record boundary.
///
/// ```
/// use uuidkit::{ldif, Uuid};
/// let input = b"dn: cn=ok\ncn: ok\n\n\
///     dn: cn=twice\n\
///     entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14\n\
///     entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc15\n";
/// let mut out = Vec::new();
/// let err = ldif::add_entry_uuid(&input[..], &mut out, &mut || Uuid::NIL).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "line 6 (dn: cn=twice): second entryUUID value (the first is on line 5): \
///      entryUUID is single-valued"
/// );
/// assert_eq!(out, b"dn: cn=ok\ncn: ok\nentryUUID: 00000000-0000-0000-0000-000000000000\n\n");
/// ```
#[derive(Debug)]
pub struct LdifError {
    inner: Inner,
}

#[derive(Debug)]
enum Inner {
    Io(io::Error),
    Data {
        line: u64,
        dn: String,
        problem: Problem,
    },
}

#[derive(Debug)]
enum Problem {
    /// The value (shown, possibly shortened) is not of the UUID syntax.
    Value { shown: String, error: crate::Error },
    /// The `attr::` text is not valid base64.
    Base64 {
        attr: String,
        shown: String,
        error: Base64Error,
    },
    /// The input is not LDIF: what was expected, in the words of RFC 2849.
    NotLdif(&'static str),
    /// A `version:` other than 1.
    Version { shown: String },
    /// A second value of the single-valued attribute; `first` is the line of the first one.
    Duplicate { first: u64 },
}

impl LdifError {
    fn io(e: io::Error) -> Self {
        LdifError {
            inner: Inner::Io(e),
        }
    }

    /// The input is not LDIF at `line`, outside any record (`why`: what was expected, in the
    /// words of RFC 2849); `out`, what came before, is written out and flushed first, and an
    /// error doing so is returned instead.
    fn not_ldif<W: Write>(output: &mut W, out: &[u8], line: u64, why: &'static str) -> Self {
        match output.write_all(out).and_then(|()| output.flush()) {
            Err(e) => LdifError::io(e),
            Ok(()) => LdifError {
                inner: Inner::Data {
                    line,
                    dn: String::new(),
                    problem: Problem::NotLdif(why),
                },
            },
        }
    }

    /// Whether reading the input or writing the output failed (as opposed to bad data).
    ///
    /// ```
    /// use uuidkit::{ldif, Uuid};
    /// let input = &b"dn: cn=a\nentryUUID: nope\n"[..];
    /// let err = ldif::add_entry_uuid(input, Vec::new(), &mut || Uuid::NIL).unwrap_err();
    /// assert!(!err.is_io());
    /// assert_eq!(err.line(), Some(2));
    /// assert_eq!(err.dn(), Some("cn=a"));
    /// ```
    pub fn is_io(&self) -> bool {
        matches!(self.inner, Inner::Io(_))
    }

    /// The 1-based line of the offending `entryUUID` line, for a data error.
    ///
    /// Physical lines are counted, comments and folded continuation lines included.
    ///
    /// ```
    /// use uuidkit::{ldif, Uuid};
    /// let input = b"dn: cn=a\ncn: a\n\n# b is next\ndn: cn=b\nentryUUID: 597ae2f6\n";
    /// let err = ldif::add_entry_uuid(&input[..], Vec::new(), &mut || Uuid::NIL).unwrap_err();
    /// assert_eq!(err.line(), Some(6));
    /// ```
    pub fn line(&self) -> Option<u64> {
        match &self.inner {
            Inner::Io(_) => None,
            Inner::Data { line, .. } => Some(*line),
        }
    }

    /// The entry's DN (base64-decoded if given with `dn::`; non-UTF-8 bytes replaced by
    /// U+FFFD), for a data error.
    ///
    /// ```
    /// use uuidkit::{ldif, Uuid};
    /// // "cn=été" in base64 (RFC 2849 `dn::`), and an entryUUID one digit short.
    /// let input = b"dn:: Y249w6l0w6k=\nentryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc1\n";
    /// let err = ldif::add_entry_uuid(&input[..], Vec::new(), &mut || Uuid::NIL).unwrap_err();
    /// assert_eq!(err.dn(), Some("cn=été"));
    /// ```
    pub fn dn(&self) -> Option<&str> {
        match &self.inner {
            Inner::Io(_) => None,
            Inner::Data { dn, .. } => Some(dn),
        }
    }

    /// The UUID syntax error, when the problem is a value that is not a valid UUID.
    ///
    /// ```
    /// use uuidkit::{ldif, ErrorKind, Uuid};
    /// // RFC 4530 allows only the hyphenated form: braces are a syntax error.
    /// let input = b"dn: cn=a\nentryUUID: {597ae2f6-16a6-1027-98f4-d28b5365dc14}\n";
    /// let err = ldif::add_entry_uuid(&input[..], Vec::new(), &mut || Uuid::NIL).unwrap_err();
    /// assert_eq!(err.uuid_error().map(|e| e.kind()), Some(ErrorKind::Form));
    ///
    /// // Not a bad value but a second one: no UUID syntax error.
    /// let u = "597ae2f6-16a6-1027-98f4-d28b5365dc14";
    /// let twice = format!("dn: cn=a\nentryUUID: {u}\nentryUUID: {u}\n");
    /// let err = ldif::add_entry_uuid(twice.as_bytes(), Vec::new(), &mut || Uuid::NIL).unwrap_err();
    /// assert!(err.uuid_error().is_none());
    /// ```
    pub fn uuid_error(&self) -> Option<crate::Error> {
        match &self.inner {
            Inner::Data {
                problem: Problem::Value { error, .. },
                ..
            } => Some(*error),
            _ => None,
        }
    }

    /// The I/O error, when [`is_io`](Self::is_io).
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use uuidkit::{ldif, Uuid};
    /// // An output with room for 8 bytes only.
    /// let mut small = [0u8; 8];
    /// let input = b"dn: cn=a\ncn: a\n";
    /// let err = ldif::add_entry_uuid(&input[..], &mut small[..], &mut || Uuid::NIL).unwrap_err();
    /// assert!(err.is_io());
    /// assert_eq!(err.io_error().map(|e| e.kind()), Some(ErrorKind::WriteZero));
    /// assert_eq!((err.line(), err.dn()), (None, None));
    /// ```
    pub fn io_error(&self) -> Option<&io::Error> {
        match &self.inner {
            Inner::Io(e) => Some(e),
            Inner::Data { .. } => None,
        }
    }
}

impl fmt::Display for LdifError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner {
            Inner::Io(e) => write!(f, "I/O error: {e}"),
            Inner::Data { line, dn, problem } => {
                if dn.is_empty() {
                    write!(f, "line {line}: ")?;
                } else {
                    // Control characters of the dn (ESC, BEL, ...) are shown escaped, never
                    // sent to a terminal; the other values are quoted with `{:?}`.
                    write!(f, "line {line} (dn: ")?;
                    for c in dn.chars() {
                        match c {
                            '\\' => f.write_str("\\\\")?,
                            c if c.is_control() && (c as u32) < 0x100 => {
                                write!(f, "\\x{:02x}", c as u32)?
                            }
                            c if c.is_control() => write!(f, "{}", c.escape_unicode())?,
                            c => write!(f, "{c}")?,
                        }
                    }
                    f.write_str("): ")?;
                }
                match problem {
                    Problem::Value { shown, error } => {
                        write!(f, "invalid entryUUID value {shown:?}: {error}")
                    }
                    Problem::Base64 { attr, shown, error } => {
                        write!(f, "invalid base64 in {attr} value {shown:?}: {error}")
                    }
                    Problem::NotLdif(what) => write!(f, "not LDIF (RFC 2849): {what}"),
                    Problem::Version { shown } => {
                        write!(f, "unsupported LDIF version {shown:?}: only 1 is defined")
                    }
                    Problem::Duplicate { first } => write!(
                        f,
                        "second entryUUID value (the first is on line {first}): \
                         entryUUID is single-valued"
                    ),
                }
            }
        }
    }
}

impl std::error::Error for LdifError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner {
            Inner::Io(e) => Some(e),
            Inner::Data {
                problem: Problem::Value { error, .. },
                ..
            } => Some(error),
            Inner::Data { .. } => None,
        }
    }
}

/// Why a base64 text could not be decoded; positions are within that text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base64Error {
    Char { pos: usize, byte: u8 },
    Length { len: usize },
    Padding { pos: usize },
}

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Base64Error::Char { pos, byte } if byte.is_ascii_graphic() || byte == b' ' => {
                write!(f, "invalid character {:?} at byte {pos}", byte as char)
            }
            Base64Error::Char { pos, byte } => write!(f, "invalid byte 0x{byte:02x} at byte {pos}"),
            Base64Error::Length { len } => write!(f, "length {len} is not a multiple of 4"),
            Base64Error::Padding { pos } => write!(f, "misplaced padding at byte {pos}"),
        }
    }
}

fn b64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decodes padded base64 (RFC 4648 §4, the alphabet RFC 2849 uses via RFC 2045).
fn decode_base64(s: &[u8]) -> Result<Vec<u8>, Base64Error> {
    if s.len() % 4 != 0 {
        return Err(Base64Error::Length { len: s.len() });
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    for (q, quad) in s.chunks_exact(4).enumerate() {
        let last = (q + 1) * 4 == s.len();
        let mut v = [0u8; 4];
        let mut pad = 0;
        for (i, (&c, slot)) in quad.iter().zip(v.iter_mut()).enumerate() {
            let pos = q * 4 + i;
            if c == b'=' {
                // Padding only in the last two places of the last quantum, and only at the end.
                if !last || i < 2 {
                    return Err(Base64Error::Padding { pos });
                }
                pad += 1;
                continue;
            }
            if pad > 0 {
                return Err(Base64Error::Padding { pos: pos - 1 });
            }
            match b64_value(c) {
                Some(d) => *slot = d,
                None => return Err(Base64Error::Char { pos, byte: c }),
            }
        }
        let n = (u32::from(v[0]) << 18)
            | (u32::from(v[1]) << 12)
            | (u32::from(v[2]) << 6)
            | u32::from(v[3]);
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - pad]);
    }
    Ok(out)
}

/// At most this many bytes of a bad value are quoted in an error message.
const SHOWN_MAX: usize = 80;

fn shown(value: &[u8]) -> String {
    let cut = value.len().min(SHOWN_MAX);
    let mut s = String::from_utf8_lossy(value.get(..cut).unwrap_or(value)).into_owned();
    if cut < value.len() {
        s.push('…');
    }
    s
}

/// One logical (unfolded) line of a record: its text in the scratch buffer and the index of its
/// first physical line in the record.
#[derive(Debug, Clone, Copy)]
struct Logical {
    start: usize,
    end: usize,
    phys: usize,
    comment: bool,
}

/// The value part of an attribute line.
enum Value<'a> {
    Plain(&'a [u8]),
    Base64(&'a [u8]),
    Url,
}

/// Splits `name:value` into the attribute description and the value (FILL spaces skipped).
/// `None` for a line without a colon (e.g. the `-` separator of a modify record).
fn split_attr(line: &[u8]) -> Option<(&[u8], Value<'_>)> {
    let colon = line.iter().position(|&c| c == b':')?;
    let name = line.get(..colon)?;
    let rest = line.get(colon + 1..)?;
    let fill = |s: &'_ [u8]| -> usize { s.iter().take_while(|&&c| c == b' ').count() };
    let value = match rest.first() {
        Some(b':') => {
            let r = rest.get(1..).unwrap_or_default();
            Value::Base64(r.get(fill(r)..).unwrap_or_default())
        }
        Some(b'<') => Value::Url,
        _ => Value::Plain(rest.get(fill(rest)..).unwrap_or_default()),
    };
    Some((name, value))
}

/// Whether an attribute description names `entryUUID`, by name (any case) or OID, with any
/// options (RFC 4512 §2.5: `type *( ";" option )`).
fn is_entry_uuid(desc: &[u8]) -> bool {
    let ty = desc.split(|&c| c == b';').next().unwrap_or_default();
    ty.eq_ignore_ascii_case(b"entryUUID") || ty == ldap::ENTRY_UUID_OID.as_bytes()
}

/// The bytes of a line without its line ending (LF or CR LF).
fn content(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

const BOM: &[u8] = b"\xef\xbb\xbf";

/// The record being read: its raw bytes, where each physical line starts, and its first line
/// number.
struct Record {
    buf: Vec<u8>,
    starts: Vec<usize>,
    first_line: u64,
    /// Bytes to skip at the start for classification (a UTF-8 BOM at the start of the stream).
    skip: usize,
    unfolded: Vec<u8>,
    logical: Vec<Logical>,
    /// Whether a record with a dn has been seen (a `version:` line may only come before).
    seen_dn: bool,
}

enum Action {
    PassThrough,
    Keep,
    Add,
}

impl Record {
    fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    fn clear(&mut self) {
        self.buf.clear();
        self.starts.clear();
        self.skip = 0;
    }

    fn physical(&self, i: usize) -> &[u8] {
        let start = self.starts.get(i).copied().unwrap_or(self.buf.len());
        let end = self.starts.get(i + 1).copied().unwrap_or(self.buf.len());
        self.buf.get(start..end).unwrap_or_default()
    }

    /// The line ending of the record's last terminated line, if any line is terminated.
    fn eol(&self) -> Option<&'static [u8]> {
        (0..self.starts.len()).rev().find_map(|i| {
            let l = self.physical(i);
            if l.ends_with(b"\r\n") {
                Some(&b"\r\n"[..])
            } else if l.ends_with(b"\n") {
                Some(&b"\n"[..])
            } else {
                None
            }
        })
    }

    /// Unfolds the record into `self.unfolded` / `self.logical` (RFC 2849: a line starting
    /// with one space continues the previous line, without that space).
    fn unfold(&mut self) {
        self.unfolded.clear();
        self.logical.clear();
        for i in 0..self.starts.len() {
            let start = self.starts.get(i).copied().unwrap_or(0);
            let end = self.starts.get(i + 1).copied().unwrap_or(self.buf.len());
            let from = if i == 0 { start + self.skip } else { start };
            let text = content(self.buf.get(from..end).unwrap_or_default());
            match (text.strip_prefix(b" "), self.logical.last_mut()) {
                (Some(cont), Some(last)) => {
                    self.unfolded.extend_from_slice(cont);
                    last.end = self.unfolded.len();
                }
                _ => {
                    let s = self.unfolded.len();
                    self.unfolded.extend_from_slice(text);
                    self.logical.push(Logical {
                        start: s,
                        end: self.unfolded.len(),
                        phys: i,
                        comment: text.first() == Some(&b'#'),
                    });
                }
            }
        }
    }

    fn text(&self, l: &Logical) -> &[u8] {
        self.unfolded.get(l.start..l.end).unwrap_or_default()
    }

    /// Decides what to do with the record, validating any `entryUUID` it has.
    fn classify(&mut self, stats: &mut LdifStats) -> Result<Action, LdifError> {
        self.unfold();
        let this = &*self;
        let line_of = |l: &Logical| this.first_line + l.phys as u64;
        let not_ldif = |l: &Logical, what| LdifError {
            inner: Inner::Data {
                line: line_of(l),
                dn: String::new(),
                problem: Problem::NotLdif(what),
            },
        };
        // Every line is `name: value` (or `name:: base64`, `name:< URL`), but for the `-`
        // that ends a modification; every base64 value decodes.
        for l in this.logical.iter().filter(|l| !l.comment) {
            let text = this.text(l);
            match split_attr(text) {
                None if text == b"-" => {}
                None => {
                    return Err(not_ldif(
                        l,
                        "a line without a colon (expected `name: value`)",
                    ))
                }
                Some((name, Value::Base64(b))) => {
                    if let Err(error) = decode_base64(b) {
                        let problem = Problem::Base64 {
                            attr: String::from_utf8_lossy(name).into_owned(),
                            shown: shown(b),
                            error,
                        };
                        // Named by its record's dn when there is one (a bad `dn::` is not).
                        let dn = this.logical.iter().find(|d| {
                            !d.comment
                                && d.phys < l.phys
                                && split_attr(this.text(d))
                                    .is_some_and(|(n, _)| n.eq_ignore_ascii_case(b"dn"))
                        });
                        return Err(match dn {
                            Some(dn) => this.data_error(dn, line_of(l), problem),
                            None => LdifError {
                                inner: Inner::Data {
                                    line: line_of(l),
                                    dn: String::new(),
                                    problem,
                                },
                            },
                        });
                    }
                }
                Some(_) => {}
            }
        }
        let mut it = this.logical.iter().filter(|l| !l.comment).peekable();
        let name_is = |l: &Logical, want: &[u8]| {
            split_attr(this.text(l)).is_some_and(|(n, _)| n.eq_ignore_ascii_case(want))
        };
        if let Some(v) = it.next_if(|l| name_is(l, b"version")) {
            if self.seen_dn {
                return Err(not_ldif(v, "`version:` only before the first record"));
            }
            match split_attr(this.text(v)) {
                Some((_, Value::Plain(x))) if content_eq(x, b"1") => {}
                Some((_, Value::Plain(x))) => {
                    return Err(LdifError {
                        inner: Inner::Data {
                            line: line_of(v),
                            dn: String::new(),
                            problem: Problem::Version { shown: shown(x) },
                        },
                    })
                }
                _ => return Err(not_ldif(v, "`version:` with a base64 or URL value")),
            }
        }
        let dn_line = match it.next() {
            // Only a version line (and comments): the header.
            None => return Ok(Action::PassThrough),
            Some(l) if name_is(l, b"dn") => *l,
            Some(l) => {
                return Err(not_ldif(
                    l,
                    "a record starts with `dn:` (after an optional `version:`)",
                ))
            }
        };
        // A second dn: two records with no empty line between them.
        if let Some(l) = this
            .logical
            .iter()
            .filter(|l| !l.comment && l.phys > dn_line.phys)
            .find(|l| name_is(l, b"dn"))
        {
            return Err(self.data_error(
                &dn_line,
                line_of(l),
                Problem::NotLdif("a second `dn:` in one record (records end with an empty line)"),
            ));
        }
        self.seen_dn = true;
        let this = &*self;
        let dn_line = &dn_line;
        let name_is = |l: &Logical, want: &[u8]| {
            split_attr(this.text(l)).is_some_and(|(n, _)| n.eq_ignore_ascii_case(want))
        };
        let mut it = this
            .logical
            .iter()
            .filter(|l| !l.comment && l.phys > dn_line.phys)
            .peekable();
        while it.peek().is_some_and(|l| name_is(l, b"control")) {
            it.next();
        }
        if let Some(ct) = it.peek().filter(|l| name_is(l, b"changetype")) {
            let is_add = match split_attr(this.text(ct)) {
                Some((_, Value::Plain(v))) => content_eq(v, b"add"),
                Some((_, Value::Base64(v))) => {
                    decode_base64(v).is_ok_and(|d| content_eq(&d, b"add"))
                }
                _ => false,
            };
            if !is_add {
                return Ok(Action::PassThrough);
            }
        }
        stats.entries += 1;
        let mut first: Option<u64> = None;
        for l in it {
            let Some((name, value)) = split_attr(self.text(l)) else {
                continue;
            };
            if !is_entry_uuid(name) {
                continue;
            }
            let line = self.first_line + l.phys as u64;
            if let Some(first) = first {
                return Err(self.data_error(dn_line, line, Problem::Duplicate { first }));
            }
            first = Some(line);
            let problem = match value {
                Value::Url => None,
                Value::Plain(v) => ldap::validate(v).err().map(|error| Problem::Value {
                    shown: shown(v),
                    error,
                }),
                Value::Base64(b) => match decode_base64(b) {
                    Ok(v) => ldap::validate(&v).err().map(|error| Problem::Value {
                        shown: shown(&v),
                        error,
                    }),
                    Err(error) => Some(Problem::Base64 {
                        attr: String::from_utf8_lossy(name).into_owned(),
                        shown: shown(b),
                        error,
                    }),
                },
            };
            if let Some(problem) = problem {
                return Err(self.data_error(dn_line, line, problem));
            }
        }
        Ok(if first.is_some() {
            stats.kept += 1;
            Action::Keep
        } else {
            stats.added += 1;
            Action::Add
        })
    }

    fn data_error(&self, dn_line: &Logical, line: u64, problem: Problem) -> LdifError {
        let dn = match split_attr(self.text(dn_line)) {
            Some((_, Value::Plain(v))) => String::from_utf8_lossy(v).into_owned(),
            Some((_, Value::Base64(b))) => match decode_base64(b) {
                Ok(v) => String::from_utf8_lossy(&v).into_owned(),
                Err(_) => String::from_utf8_lossy(b).into_owned(),
            },
            _ => String::new(),
        };
        LdifError {
            inner: Inner::Data { line, dn, problem },
        }
    }
}

/// A `changetype` value compared without regard to case, ignoring trailing spaces.
fn content_eq(v: &[u8], want: &[u8]) -> bool {
    let end = v.iter().rposition(|&c| c != b' ').map_or(0, |p| p + 1);
    v.get(..end).is_some_and(|v| v.eq_ignore_ascii_case(want))
}

/// Output is collected and written in pieces of about this size.
const FLUSH_AT: usize = 64 * 1024;

/// Copies the LDIF `input` to `output`, adding `entryUUID: <uuid>` to every entry without one.
///
/// `next_uuid` is called once per added line (pass a v4 or v7 generator; tests pass a
/// counter). The new line goes at the end of the entry, before the empty line that ends it,
/// with the entry's own line ending (LF or CR LF). When the input's last entry has no final
/// line ending, the line ending is put before the new line instead, so the output ends the
/// same way. See the [module documentation](self) for which records are touched and how
/// existing values are checked.
///
/// Output is buffered internally and flushed at the end and before a data error is returned.
///
/// ```
/// use uuidkit::{ldif, Uuid};
/// let input = b"version: 1\n\ndn: cn=a,dc=example\ncn: a\n\ndn: cn=b\nentryUUID: 597AE2F6-16A6-1027-98F4-D28B5365DC14\n";
/// let mut out = Vec::new();
/// let mut n = 0u128;
/// let stats = ldif::add_entry_uuid(&input[..], &mut out, &mut || { n += 1; Uuid::from_u128(n) })?;
/// assert_eq!(String::from_utf8(out).unwrap(),
///     "version: 1\n\ndn: cn=a,dc=example\ncn: a\nentryUUID: 00000000-0000-0000-0000-000000000001\n\n\
///      dn: cn=b\nentryUUID: 597AE2F6-16A6-1027-98F4-D28B5365DC14\n");
/// assert_eq!((stats.entries, stats.added, stats.kept), (2, 1, 1));
/// # Ok::<(), uuidkit::ldif::LdifError>(())
/// ```
pub fn add_entry_uuid<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    next_uuid: &mut dyn FnMut() -> Uuid,
) -> Result<LdifStats, LdifError> {
    let mut stats = LdifStats::default();
    let mut out: Vec<u8> = Vec::new();
    let mut rec = Record {
        buf: Vec::new(),
        starts: Vec::new(),
        first_line: 0,
        skip: 0,
        unfolded: Vec::new(),
        logical: Vec::new(),
        seen_dn: false,
    };
    // The line ending last seen anywhere, for a record none of whose lines has one.
    let mut last_eol: &'static [u8] = b"\n";
    let mut line_no: u64 = 0;
    // Ends the record read so far, if there is one: at a blank line and at the end of the input.
    macro_rules! finish_record {
        () => {
            if !rec.is_empty() {
                finish(
                    &mut rec,
                    &mut out,
                    &mut output,
                    next_uuid,
                    &mut stats,
                    last_eol,
                )?;
            }
        };
    }
    loop {
        let start = rec.buf.len();
        let n = input
            .read_until(b'\n', &mut rec.buf)
            .map_err(LdifError::io)?;
        if n == 0 {
            break;
        }
        line_no += 1;
        let line = rec.buf.get(start..).unwrap_or_default();
        if line.ends_with(b"\r\n") {
            last_eol = b"\r\n";
        } else if line.ends_with(b"\n") {
            last_eol = b"\n";
        }
        // A CR is part of a CR LF line ending or nothing: a CR-only line ending would turn
        // the whole file into one line. (A lone CR at the very end is half a CR LF.)
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        let blank = body.iter().all(|&c| c == b' ' || c == b'\t') && line.ends_with(b"\n");
        // The first line of a record says at once whether this is LDIF at all, before a
        // record of binary noise is collected.
        if rec.is_empty() && !blank {
            let text = if line_no == 1 {
                body.strip_prefix(BOM).unwrap_or(body)
            } else {
                body
            };
            let starts = |p: &[u8]| {
                text.get(..p.len())
                    .is_some_and(|t| t.eq_ignore_ascii_case(p))
            };
            if !(starts(b"#") || starts(b"dn:") || starts(b"version:")) {
                return Err(LdifError::not_ldif(
                    &mut output,
                    &out,
                    line_no,
                    "a record starts with `dn:` (after an optional `version:`)",
                ));
            }
        }
        if body.contains(&b'\r') {
            return Err(LdifError::not_ldif(
                &mut output,
                &out,
                line_no,
                "a CR not followed by LF (lines end with LF or CR LF; a value holding a CR \
                 must be base64)",
            ));
        }
        // An empty line, or one of whitespace only (which would otherwise continue the line
        // before it): the end of a record, copied as it is.
        if blank {
            let sep = line.to_vec();
            rec.buf.truncate(start);
            finish_record!();
            out.extend_from_slice(&sep);
        } else {
            if rec.is_empty() {
                rec.first_line = line_no;
                if line_no == 1 && line.starts_with(BOM) {
                    rec.skip = BOM.len();
                }
            }
            rec.starts.push(start);
        }
        if out.len() >= FLUSH_AT {
            output.write_all(&out).map_err(LdifError::io)?;
            out.clear();
        }
    }
    finish_record!();
    output.write_all(&out).map_err(LdifError::io)?;
    output.flush().map_err(LdifError::io)?;
    Ok(stats)
}

/// Classifies the complete record in `rec`, appends it (and any new line) to `out`, and clears
/// it. On a data error, what was collected before this record is written out first.
fn finish<W: Write>(
    rec: &mut Record,
    out: &mut Vec<u8>,
    output: &mut W,
    next_uuid: &mut dyn FnMut() -> Uuid,
    stats: &mut LdifStats,
    last_eol: &'static [u8],
) -> Result<(), LdifError> {
    let action = match rec.classify(stats) {
        Ok(a) => a,
        Err(e) => {
            output.write_all(out).map_err(LdifError::io)?;
            out.clear();
            output.flush().map_err(LdifError::io)?;
            return Err(e);
        }
    };
    out.extend_from_slice(&rec.buf);
    if let Action::Add = action {
        let eol = rec.eol().unwrap_or(last_eol);
        let mut text = [0u8; crate::MAX_ENCODED_LEN];
        let uuid = next_uuid().encode(Format::Hyphenated, Case::Lower, &mut text);
        let line = |out: &mut Vec<u8>| {
            out.extend_from_slice(b"entryUUID: ");
            out.extend_from_slice(uuid.as_bytes());
        };
        if rec.buf.ends_with(b"\n") {
            line(out);
            out.extend_from_slice(eol);
        } else {
            // A lone CR at the very end is read as half a CR LF: complete it.
            let eol = if rec.buf.ends_with(b"\r") { b"\n" } else { eol };
            out.extend_from_slice(eol);
            line(out);
        }
    }
    rec.clear();
    Ok(())
}

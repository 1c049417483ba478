//! Reading and writing the representations the commands deal in (`--from`, `--to`, `--format`):
//! one place that maps the flag values onto the library's parsers and formatters, writing
//! through stack buffers so that the per-UUID path never allocates.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use uuidkit::{Case, Format, Uuid};

use crate::args::{FromForm, ToForm};
use crate::io::{Candidate, Fatal, Line, Out};
use crate::ui::BadInput;

/// Why an input item is not a UUID.
#[derive(Debug, Clone, Copy)]
pub enum ParseError {
    /// The library's diagnosis, with the 0-based byte position.
    Uuid(uuidkit::Error),
    /// The line is longer than any form could be; only its start was kept.
    TooLong {
        /// The line's length in bytes.
        len: usize,
        /// The longest input the form allows.
        max: usize,
    },
}

impl ParseError {
    /// The 1-based column (byte) of the problem.
    pub fn column(&self) -> usize {
        self.position() + 1
    }

    /// The 0-based byte offset of the problem.
    pub fn position(&self) -> usize {
        match self {
            ParseError::Uuid(e) => e.position(),
            ParseError::TooLong { max, .. } => *max,
        }
    }

    /// The stable one-word kind used in JSON output (`kind` key).
    pub fn kind_name(&self) -> &'static str {
        match self {
            ParseError::Uuid(e) => error_kind_name(e.kind()),
            ParseError::TooLong { .. } => "length",
        }
    }
}

/// The text of each parse error met, rendered once: a file of bad lines repeats a few errors
/// (the same bad byte at the same place), and rendering one through `fmt` costs more than
/// everything else a bad line does. At most [`Messages::MAX`] are kept; past that, new ones
/// are rendered each time, so memory stays bounded whatever the input. The last error met at
/// each position (modulo [`RECENT`]) is looked at before the hash table: a file of bad lines
/// mostly repeats it, and comparing it costs less than hashing.
pub struct Messages {
    /// Where each error's text is in `texts`.
    index: HashMap<uuidkit::Error, u32, BuildHasherDefault<WordHasher>>,
    texts: Vec<Box<[u8]>>,
    recent: [Option<(uuidkit::Error, u32)>; RECENT],
    scratch: String,
    /// What is written around each message.
    style: Style,
}

/// What [`Messages`] writes around each message.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// The message alone.
    Plain,
    /// `:COLUMN: MESSAGE\n`, what `validate` writes after the line number.
    WithColumn,
    /// `: MESSAGE\n  `, what an error report has between the line number and the excerpt.
    InReport,
}

/// How many positions [`Messages`] remembers the last error of.
const RECENT: usize = 64;

impl Messages {
    /// The most messages kept.
    pub const MAX: usize = 4096;

    fn new(style: Style) -> Messages {
        Messages {
            index: HashMap::default(),
            texts: Vec::new(),
            recent: [None; RECENT],
            scratch: String::new(),
            style,
        }
    }

    /// Messages as [`text`](Self::text) gives them.
    pub fn plain() -> Messages {
        Messages::new(Style::Plain)
    }

    /// Messages as `:COLUMN: MESSAGE` and a newline (the column 1-based), for a report that
    /// starts with the line number.
    pub fn with_column() -> Messages {
        Messages::new(Style::WithColumn)
    }

    /// Messages as `: MESSAGE`, a newline and two spaces: the part of an error report
    /// (`input_report` in ui/report.rs) between the line number and the excerpt.
    pub fn in_report() -> Messages {
        Messages::new(Style::InReport)
    }

    /// What `e`'s `Display` writes (with the column and a newline around it when made by
    /// [`with_column`](Self::with_column), and so on).
    #[inline(always)]
    pub fn text(&mut self, e: &ParseError) -> &[u8] {
        // The last error at this position, inline; anything else out of line.
        let recent = match e {
            ParseError::Uuid(u) => match self.recent.get(u.position() % RECENT) {
                Some(Some((k, i))) if k == u => Some(*i),
                _ => None,
            },
            ParseError::TooLong { .. } => None,
        };
        match recent {
            Some(i) => self.texts.get(i as usize).map_or(&[], |t| t),
            None => self.text_slow(e),
        }
    }

    /// [`text`](Self::text) for an error that is not the last one met at its position.
    #[inline(never)]
    fn text_slow(&mut self, e: &ParseError) -> &[u8] {
        let ParseError::Uuid(u) = e else {
            return self.render(e);
        };
        match self.find(u, u.position() % RECENT) {
            Some(i) => self.texts.get(i as usize).map_or(&[], |t| t),
            None => self.render(e),
        }
    }

    /// Where `u`'s text is (rendered now if it was never met, unless the table is full),
    /// remembered as the last error at `slot`.
    #[inline(never)]
    fn find(&mut self, u: &uuidkit::Error, slot: usize) -> Option<u32> {
        let i = match self.index.get(u) {
            Some(&i) => i,
            None => {
                if self.texts.len() >= Self::MAX {
                    return None;
                }
                let mut s = String::new();
                Messages::render_into(&mut s, &ParseError::Uuid(*u), self.style);
                let i = u32::try_from(self.texts.len()).ok()?;
                self.texts.push(s.into_bytes().into_boxed_slice());
                self.index.insert(*u, i);
                i
            }
        };
        if let Some(r) = self.recent.get_mut(slot) {
            *r = Some((*u, i));
        }
        Some(i)
    }

    fn render(&mut self, e: &ParseError) -> &[u8] {
        self.scratch.clear();
        Messages::render_into(&mut self.scratch, e, self.style);
        self.scratch.as_bytes()
    }

    fn render_into(s: &mut String, e: &ParseError, style: Style) {
        let _ = match style {
            Style::WithColumn => fmt::Write::write_fmt(s, format_args!(":{}: {e}\n", e.column())),
            Style::InReport => fmt::Write::write_fmt(s, format_args!(": {e}\n  ")),
            Style::Plain => fmt::Write::write_fmt(s, format_args!("{e}")),
        };
    }
}

/// A multiply-and-rotate hash for [`Messages`]' small keys, where std's SipHash would cost
/// more than the rest of a lookup. The keys come from the input, but the table is bounded
/// ([`Messages::MAX`]), so colliding keys can slow a lookup, never grow without end.
#[derive(Default)]
pub struct WordHasher(u64);

impl WordHasher {
    #[inline(always)]
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(b.into());
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.add(v.into());
    }
    fn write_u16(&mut self, v: u16) {
        self.add(v.into());
    }
    fn write_u32(&mut self, v: u32) {
        self.add(v.into());
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn write_isize(&mut self, v: isize) {
        self.add(v as u64);
    }
}

/// The stable JSON name of an error kind: `length`, `char`, `hyphen`, `group_length`, `prefix`,
/// `braces`, `overflow`, `leading_zero`, `form` (`other` for kinds a newer library may add).
pub fn error_kind_name(k: uuidkit::ErrorKind) -> &'static str {
    use uuidkit::ErrorKind as K;
    match k {
        K::Length => "length",
        K::Char => "char",
        K::Hyphen => "hyphen",
        K::GroupLength => "group_length",
        K::Prefix => "prefix",
        K::Braces => "braces",
        K::Overflow => "overflow",
        K::LeadingZero => "leading_zero",
        K::Form => "form",
        _ => "other",
    }
}

/// Reports an invalid input on standard error with an excerpt and a caret under the bad byte.
pub fn report(origin: crate::ui::Origin, line: &Line<'_>, e: &ParseError) {
    crate::ui::report_input(&bad_input(origin, line, e), e);
}

/// Where `line` went wrong, for the report.
fn bad_input<'a>(origin: crate::ui::Origin, line: &Line<'a>, e: &ParseError) -> BadInput<'a> {
    BadInput {
        origin,
        no: line.no,
        bytes: line.bytes,
        cut: line.is_cut(),
        pos: e.position(),
    }
}

/// [`report`] for a command that may meet many bad lines: the message from `messages`, the
/// report assembled in `scratch` (the same bytes).
pub fn report_rendered(
    origin: crate::ui::Origin,
    line: &Line<'_>,
    e: &ParseError,
    messages: &mut Messages,
    scratch: &mut Vec<u8>,
) {
    crate::ui::report_input_rendered(&bad_input(origin, line, e), messages.text(e), scratch);
}

/// Writes the JSON object for invalid input number `no`, keys in this order:
/// `{"line", "column", "kind", "message", "input"}` (column, kind and message all from `e`),
/// and a newline.
pub fn json_invalid(out: &mut Out, no: u64, e: &ParseError, input: &str) -> Result<(), Fatal> {
    out.fmt(format_args!(
        "{{\"line\":{no},\"column\":{},\"kind\":\"{}\",\"message\":",
        e.column(),
        e.kind_name()
    ))?;
    json_string(out, &e.to_string())?;
    out.bytes(b",\"input\":")?;
    json_string(out, input)?;
    out.bytes(b"}\n")
}

/// A JSON string with correct escaping.
pub fn json_string(out: &mut Out, s: &str) -> Result<(), Fatal> {
    serde_json::to_writer(out.writer(), s).map_err(|e| Fatal::Write(e.into()))
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Uuid(e) => e.fmt(f),
            ParseError::TooLong { len, max } => write!(
                f,
                "invalid length: a line of {len} bytes is longer than any accepted form ({max} bytes at most)"
            ),
        }
    }
}

/// The case of hex digits for `--upper` (`-U`).
pub fn case(upper: bool) -> Case {
    if upper {
        Case::Upper
    } else {
        Case::Lower
    }
}

/// The longest input a form accepts, in bytes.
pub const fn max_len(form: FromForm) -> usize {
    match form {
        // urn:uuid: and the hyphenated form.
        FromForm::Text => uuidkit::MAX_ENCODED_LEN,
        FromForm::Int => uuidkit::MAX_DECIMAL_LEN,
        FromForm::Oid => "urn:oid:2.25.".len() + uuidkit::MAX_DECIMAL_LEN,
        FromForm::GuidHex => Format::Simple.len(),
        FromForm::Ulid
        | FromForm::Base32hex
        | FromForm::Base58
        | FromForm::Base58Flickr
        | FromForm::Base64url => uuidkit::MAX_SHORT_LEN,
        FromForm::Typeid => uuidkit::MAX_TYPEID_LEN,
    }
}

/// Reads one item in the given form.
pub fn parse(form: FromForm, line: &Line<'_>) -> Result<Uuid, ParseError> {
    if line.is_cut() {
        return Err(ParseError::TooLong {
            len: line.len,
            max: max_len(form),
        });
    }
    parse_bytes(form, line.bytes).map_err(ParseError::Uuid)
}

/// Reads bytes in the given form.
pub fn parse_bytes(form: FromForm, b: &[u8]) -> Result<Uuid, uuidkit::Error> {
    match form {
        FromForm::Text => Uuid::try_parse_ascii(b),
        FromForm::Int => Uuid::parse_decimal(b),
        FromForm::Oid => Uuid::parse_oid(b),
        FromForm::GuidHex => Uuid::parse_guid_hex(b),
        FromForm::Typeid => uuidkit::TypeId::parse(b).map(|t| t.uuid()),
        short => match short.short() {
            Some(f) => Uuid::parse_short(f, b),
            None => Uuid::try_parse_ascii(b),
        },
    }
}

/// What a line of a run ([`crate::io::Lines::take_run`]) parses to in `from`: `empty` (what
/// an empty line parses to, the same every time) for an empty line, else its bytes parsed.
#[inline(always)]
pub fn parse_in_run(
    from: FromForm,
    empty: &Result<Uuid, uuidkit::Error>,
    line: &Candidate<'_>,
) -> Result<Uuid, uuidkit::Error> {
    if line.is_empty() {
        *empty
    } else {
        parse_bytes(from, line.bytes)
    }
}

/// Notes a valid line of the general path, `len` bytes long, for the runs that follow: its
/// length is tried first, the one tried first so far second (see
/// [`crate::io::Lines::take_run`]).
#[inline(always)]
pub fn valid_length(len: usize, guess: &mut usize, alt: &mut usize) {
    if len != *guess {
        *alt = *guess;
        *guess = len;
    }
}

/// The library's text form that `to` names; `None` for the forms written otherwise (the
/// decimal ones and the GUID byte order).
#[inline]
fn text_format(to: ToForm) -> Option<Format> {
    match to {
        ToForm::Hyphenated => Some(Format::Hyphenated),
        ToForm::Simple => Some(Format::Simple),
        ToForm::Braced => Some(Format::Braced),
        ToForm::Urn => Some(Format::Urn),
        ToForm::GuidHex
        | ToForm::Int
        | ToForm::Oid
        | ToForm::OidUrn
        | ToForm::Bytes
        | ToForm::Base64
        | ToForm::Short(_)
        | ToForm::TypeId(_) => None,
    }
}

/// The 16 bytes in padded base64 (RFC 4648 §4): 24 characters.
fn base64(bytes: &[u8; 16]) -> [u8; 24] {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = [b'='; 24];
    let digit = |v: u32| ALPHABET[(v & 63) as usize];
    for (chunk, o) in bytes.chunks(3).zip(out.chunks_mut(4)) {
        let b = |i: usize| chunk.get(i).copied().map_or(0, u32::from);
        let n = b(0) << 16 | b(1) << 8 | b(2);
        // A last chunk of one byte gives two digits, then padding.
        let digits = chunk.len() + 1;
        for (i, slot) in o.iter_mut().enumerate().take(digits) {
            *slot = digit(n >> (18 - 6 * i));
        }
    }
    out
}

/// Writes each of `us` as the `L` bytes `enc` gives, and a newline, in chunks written in place
/// in the output buffer.
#[inline(always)]
fn short_lines<const L: usize>(
    out: &mut Out,
    us: &[Uuid],
    enc: impl Fn(&Uuid) -> [u8; L],
) -> Result<(), Fatal> {
    for chunk in us.chunks(1024) {
        out.slot_dyn(chunk.len() * (L + 1), |buf| {
            for (u, line) in chunk.iter().zip(buf.chunks_exact_mut(L + 1)) {
                if let Some((text, nl)) = line.split_first_chunk_mut::<L>() {
                    *text = enc(u);
                    if let Some(nl) = nl.first_mut() {
                        *nl = b'\n';
                    }
                }
            }
            chunk.len() * (L + 1)
        })?;
    }
    Ok(())
}

/// Writes each of `us` as a TypeID with `prefix`, and a newline, in chunks written in place.
fn typeid_lines(out: &mut Out, us: &[Uuid], prefix: &uuidkit::Prefix) -> Result<(), Fatal> {
    let p = prefix.as_bytes();
    let len = p.len() + usize::from(!p.is_empty()) + 26 + 1;
    for chunk in us.chunks(256) {
        out.slot_dyn(chunk.len() * len, |buf| {
            for (u, line) in chunk.iter().zip(buf.chunks_exact_mut(len)) {
                let (head, rest) = line.split_at_mut(len - 27);
                // A byte loop: prefixes are short, and a `memcpy` call per line cost more.
                for (d, s) in head.iter_mut().zip(p.iter().chain(b"_")) {
                    *d = *s;
                }
                if let Some((text, [nl])) = rest.split_first_chunk_mut::<26>() {
                    *text = u.encode_typeid_suffix();
                    *nl = b'\n';
                }
            }
            chunk.len() * len
        })?;
    }
    Ok(())
}

/// Writes the TypeID of `u` with `prefix` and a newline.
#[inline]
pub fn write_typeid(out: &mut Out, prefix: &uuidkit::Prefix, u: &Uuid) -> Result<(), Fatal> {
    out.slot::<{ uuidkit::MAX_TYPEID_LEN + 1 }>(|line| {
        let n = match line.first_chunk_mut::<{ uuidkit::MAX_TYPEID_LEN }>() {
            Some(enc) => uuidkit::TypeId::new(*prefix, *u).encode(enc).len(),
            None => 0,
        };
        if let Some(nl) = line.get_mut(n) {
            *nl = b'\n';
        }
        n + 1
    })
}

/// Writes each of `us` in the given form, each followed by a newline: the text forms with one
/// call of the library's batch encoder, in place in the output buffer.
pub fn write_lines(out: &mut Out, us: &[Uuid], to: ToForm, case: Case) -> Result<(), Fatal> {
    use uuidkit::ShortForm as S;
    // The short forms and TypeID: one slot per chunk, each form's own loop (its encoder inlined).
    match to {
        ToForm::Short(S::Ulid) => return short_lines(out, us, |u| u.encode_ulid()),
        ToForm::Short(S::Base32Hex) => return short_lines(out, us, |u| u.encode_base32hex()),
        ToForm::Short(S::Base58) => return short_lines(out, us, |u| u.encode_base58()),
        ToForm::Short(S::Base58Flickr) => {
            return short_lines(out, us, |u| u.encode_base58_flickr())
        }
        ToForm::Short(S::Base64Url) => return short_lines(out, us, |u| u.encode_base64url()),
        ToForm::TypeId(p) if p.is_empty() => {
            return short_lines(out, us, |u| u.encode_typeid_suffix())
        }
        ToForm::TypeId(p) => return typeid_lines(out, us, &p),
        _ => {}
    }
    let Some(format) = text_format(to) else {
        return us.iter().try_for_each(|u| write_line(out, u, to, case));
    };
    // Chunks small enough for the output buffer.
    for chunk in us.chunks(1024) {
        out.slot_dyn(chunk.len() * (format.len() + 1), |buf| {
            uuidkit::encode_lines(chunk, format, case, buf)
        })?;
    }
    Ok(())
}

/// Writes `u` in the given form, followed by a newline.
#[inline]
pub fn write_line(out: &mut Out, u: &Uuid, to: ToForm, case: Case) -> Result<(), Fatal> {
    let Some(format) = text_format(to) else {
        if let ToForm::Short(form) = to {
            return out.slot::<{ uuidkit::MAX_SHORT_LEN + 1 }>(|line| {
                let n = match line.first_chunk_mut::<{ uuidkit::MAX_SHORT_LEN }>() {
                    Some(enc) => u.encode_short_bytes(form, enc),
                    None => 0,
                };
                if let Some(nl) = line.get_mut(n) {
                    *nl = b'\n';
                }
                n + 1
            });
        }
        if let ToForm::TypeId(prefix) = &to {
            return write_typeid(out, prefix, u);
        }
        if to == ToForm::Bytes {
            return out.bytes(u.as_bytes());
        }
        if to == ToForm::Base64 {
            out.bytes(&base64(u.as_bytes()))?;
            return out.bytes(b"\n");
        }
        if to == ToForm::GuidHex {
            let le = Uuid::from_bytes(u.to_bytes_le()).encode_simple(case);
            out.bytes(&le)?;
            return out.bytes(b"\n");
        }
        // The decimal forms.
        let prefix: &[u8] = match to {
            ToForm::Oid => b"2.25.",
            ToForm::OidUrn => b"urn:oid:2.25.",
            _ => b"",
        };
        let mut dec: uuidkit::DecimalBuffer = [0; uuidkit::MAX_DECIMAL_LEN];
        out.bytes(prefix)?;
        out.bytes(u.encode_decimal(&mut dec).as_bytes())?;
        return out.bytes(b"\n");
    };
    // The text forms are written in place in the output buffer, newline included.
    out.slot::<{ uuidkit::MAX_ENCODED_LEN + 1 }>(|line| {
        // Both always exist: the slot is one byte longer than the longest form.
        let n = match line.first_chunk_mut::<{ uuidkit::MAX_ENCODED_LEN }>() {
            Some(enc) => u.encode_bytes(format, case, enc),
            None => 0,
        };
        if let Some(nl) = line.get_mut(n) {
            *nl = b'\n';
        }
        n + 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_what_display_writes_before_and_after_the_table_is_full() {
        // Distinct errors: every printable or non-ASCII byte at every slot of the two forms,
        // more than the table keeps; each asked for twice (the second from the table).
        let base = "67e55044-10b1-426f-9247-bb680e5fe0c8";
        let mut errors = vec![ParseError::TooLong { len: 5000, max: 45 }];
        for s in [base.to_string(), base.replace('-', "")] {
            for pos in 0..s.len() {
                for b in (0x21..0x7f).chain(0x80..=0xff) {
                    let mut v = s.clone().into_bytes();
                    v[pos] = b;
                    if let Err(e) = parse_bytes(FromForm::Text, &v) {
                        errors.push(ParseError::Uuid(e));
                    }
                }
            }
        }
        let distinct: std::collections::HashSet<_> = errors
            .iter()
            .filter_map(|e| match e {
                ParseError::Uuid(u) => Some(*u),
                ParseError::TooLong { .. } => None,
            })
            .collect();
        assert!(distinct.len() > Messages::MAX + 1000, "{}", distinct.len());
        let (mut plain, mut col) = (Messages::plain(), Messages::with_column());
        let mut rep = Messages::in_report();
        for round in 0..2 {
            for e in &errors {
                assert_eq!(plain.text(e), e.to_string().as_bytes(), "round {round}");
                let want = format!(":{}: {e}\n", e.column());
                assert_eq!(col.text(e), want.as_bytes(), "round {round}");
                let want = format!(": {e}\n  ");
                assert_eq!(rep.text(e), want.as_bytes(), "round {round}");
            }
        }
        assert_eq!(plain.texts.len(), Messages::MAX);
        assert_eq!(plain.index.len(), Messages::MAX);
    }

    #[test]
    fn max_len_is_the_longest_input_each_form_accepts() {
        let longest = [
            (FromForm::Text, format!("urn:uuid:{}", Uuid::MAX)),
            (FromForm::Int, u128::MAX.to_string()),
            (FromForm::Oid, format!("urn:oid:2.25.{}", u128::MAX)),
            (FromForm::GuidHex, "f".repeat(32)),
            (FromForm::Ulid, "7".repeat(26)),
            (
                FromForm::Typeid,
                format!("{}_{}", "a".repeat(63), "7".repeat(26)),
            ),
        ];
        for (form, s) in longest {
            assert!(parse_bytes(form, s.as_bytes()).is_ok(), "{s}");
            assert_eq!(max_len(form), s.len(), "{form:?}");
        }
    }
}

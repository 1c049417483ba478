//! Reading and writing the representations the commands deal in (`--from`, `--to`, `--format`):
//! one place that maps the flag values onto the library's parsers and formatters, writing
//! through stack buffers so that the per-UUID path never allocates.

use std::fmt;

use uuidkit::{Case, Format, Uuid};

use crate::args::{FromForm, ToForm};
use crate::io::{Fatal, Line, Out};

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
    crate::ui::report_input(origin, line.no, line.bytes, line.is_cut(), e.position(), e);
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
    }
}

/// Whether `b` is a UUID in the given form (no diagnosis: what `validate` needs of most lines).
#[inline(always)]
pub fn is_valid(form: FromForm, b: &[u8]) -> bool {
    parse_bytes(form, b).is_ok()
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
        | ToForm::Base64 => None,
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

/// Writes each of `us` in the given form, each followed by a newline: the text forms with one
/// call of the library's batch encoder, in place in the output buffer.
pub fn write_lines(out: &mut Out, us: &[Uuid], to: ToForm, case: Case) -> Result<(), Fatal> {
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
    fn max_len_is_the_longest_input_each_form_accepts() {
        let longest = [
            (FromForm::Text, format!("urn:uuid:{}", Uuid::MAX)),
            (FromForm::Int, u128::MAX.to_string()),
            (FromForm::Oid, format!("urn:oid:2.25.{}", u128::MAX)),
            (FromForm::GuidHex, "f".repeat(32)),
        ];
        for (form, s) in longest {
            assert!(parse_bytes(form, s.as_bytes()).is_ok(), "{s}");
            assert_eq!(max_len(form), s.len(), "{form:?}");
        }
    }
}

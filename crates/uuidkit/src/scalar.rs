//! The scalar text codec: `const fn` code that writes the four forms and reads a valid one.
//!
//! It is the reference: every SIMD level (`simd/`) accepts exactly what [`parse_fast`] accepts
//! and writes exactly what [`encode_hyphenated`] and [`encode_simple`] write, and it is what
//! runs at compile time ([`Uuid::parse_str`](crate::Uuid::parse_str), [`uuid!`](crate::uuid!),
//! the `const` encoders) and as the scalar level.
//!
//! Reading dispatches on the length alone (32, 36, 38 or 45 bytes; anything else is rejected
//! before a byte is looked at) and decodes with a table lookup per digit. Only when that fails
//! does `diagnose.rs` re-scan the input to say what is wrong and where.

use crate::diagnose;
use crate::error::Error;
use crate::text::{Case, HEX, URN_PREFIX};
use crate::Uuid;

const LOWER: &[u8; 16] = b"0123456789abcdef";
const UPPER: &[u8; 16] = b"0123456789ABCDEF";

const fn table(case: Case) -> &'static [u8; 16] {
    match case {
        Case::Lower => LOWER,
        Case::Upper => UPPER,
    }
}

/// Writes 32 digits at `out[at..at + 32]`.
const fn write_simple(b: &[u8; 16], t: &[u8; 16], out: &mut [u8], at: usize) {
    let mut i = 0;
    while i < 16 {
        out[at + 2 * i] = t[(b[i] >> 4) as usize];
        out[at + 2 * i + 1] = t[(b[i] & 0x0f) as usize];
        i += 1;
    }
}

/// Writes the 36-byte hyphenated form at `out[at..at + 36]`.
const fn write_hyphenated(b: &[u8; 16], t: &[u8; 16], out: &mut [u8], at: usize) {
    let mut i = 0;
    let mut o = at;
    while i < 16 {
        if i == 4 || i == 6 || i == 8 || i == 10 {
            out[o] = b'-';
            o += 1;
        }
        out[o] = t[(b[i] >> 4) as usize];
        out[o + 1] = t[(b[i] & 0x0f) as usize];
        o += 2;
        i += 1;
    }
}

/// The 32 digits of the simple form.
pub(crate) const fn encode_simple(b: &[u8; 16], case: Case) -> [u8; 32] {
    let mut out = [0u8; 32];
    write_simple(b, table(case), &mut out, 0);
    out
}

/// The 36 bytes of the hyphenated form.
pub(crate) const fn encode_hyphenated(b: &[u8; 16], case: Case) -> [u8; 36] {
    let mut out = [0u8; 36];
    write_hyphenated(b, table(case), &mut out, 0);
    out
}

/// Where each of the 16 bytes' two digits start in the hyphenated form.
const HYPHENATED_OFFSETS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

#[inline(always)]
const fn byte_at(s: &[u8], i: usize) -> Option<u8> {
    let hi = HEX[s[i] as usize];
    let lo = HEX[s[i + 1] as usize];
    if (hi | lo) & 0xf0 != 0 {
        None
    } else {
        Some((hi << 4) | lo)
    }
}

/// 32 hex digits starting at `start`.
const fn decode_simple(s: &[u8], start: usize) -> Option<[u8; 16]> {
    let mut out = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        match byte_at(s, start + 2 * i) {
            Some(b) => out[i] = b,
            None => return None,
        }
        i += 1;
    }
    Some(out)
}

/// The 36-byte hyphenated form starting at `start`.
const fn decode_hyphenated(s: &[u8], start: usize) -> Option<[u8; 16]> {
    if s[start + 8] != b'-'
        || s[start + 13] != b'-'
        || s[start + 18] != b'-'
        || s[start + 23] != b'-'
    {
        return None;
    }
    let mut out = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        match byte_at(s, start + HYPHENATED_OFFSETS[i]) {
            Some(b) => out[i] = b,
            None => return None,
        }
        i += 1;
    }
    Some(out)
}

const fn is_urn_prefix(s: &[u8]) -> bool {
    let mut i = 0;
    while i < 9 {
        if s[i].to_ascii_lowercase() != URN_PREFIX[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The fast path: `None` on any failure.
#[inline]
pub(crate) const fn parse_fast(s: &[u8]) -> Option<Uuid> {
    let bytes = match s.len() {
        32 => decode_simple(s, 0),
        36 => decode_hyphenated(s, 0),
        38 if s[0] == b'{' && s[37] == b'}' => decode_hyphenated(s, 1),
        45 if is_urn_prefix(s) => decode_hyphenated(s, 9),
        _ => None,
    };
    match bytes {
        Some(b) => Some(Uuid::from_bytes(b)),
        None => None,
    }
}

/// Parses any of the four forms, with a detailed error.
pub(crate) const fn parse(s: &[u8]) -> Result<Uuid, Error> {
    match parse_fast(s) {
        Some(u) => Ok(u),
        None => Err(diagnose::diagnose(s)),
    }
}

/// Parses exactly the hyphenated form (no braces, no prefix).
pub(crate) const fn parse_hyphenated(s: &[u8]) -> Result<Uuid, Error> {
    if s.len() == 36 {
        if let Some(b) = decode_hyphenated(s, 0) {
            return Ok(Uuid::from_bytes(b));
        }
    }
    Err(diagnose::hyphenated_error(s))
}

/// Parses exactly the simple form (32 hex digits).
pub(crate) const fn parse_simple(s: &[u8]) -> Result<Uuid, Error> {
    if s.len() == 32 {
        if let Some(b) = decode_simple(s, 0) {
            return Ok(Uuid::from_bytes(b));
        }
    }
    Err(diagnose::simple_error(s))
}

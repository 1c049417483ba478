//! The slow path of the text codecs: says what is wrong with an input that the fast path (the
//! scalar `scalar::parse_fast` or a SIMD level's kernel) rejected, and where. Every level hands
//! its rejected inputs here, so errors never depend on the CPU; everything here is `const fn`
//! so that [`uuid!`](crate::uuid!) rejects a bad literal at compile time.
//!
//! # How the slow path chooses its message
//!
//! An error names one problem: the first one met reading left to right, in the form the input
//! evidently means. Its position is the offending byte, or, when something is missing, the byte
//! where it should stand (which may be the input's length, just past its end).
//!
//! - The form is guessed from the ends: a leading `{` means braced, a leading `u`/`U` means URN
//!   (no other form starts with a `u`; `urn:uuid:` is matched case-insensitively, and a
//!   misspelling is a prefix error at the first byte that differs), anything else is bare.
//! - At the length of the form it means (32 or 36 with no brace at either end, 38 starting with
//!   `{`, 45 starting with `urn:uuid:`), every byte is checked against its slot: a hex slot
//!   holding `-` is a misplaced hyphen, a hyphen slot holding a digit a missing hyphen,
//!   anything else an invalid character saying what the slot wanted (`a hexadecimal digit` or
//!   `'-'`).
//! - Otherwise the input is read as hyphen-separated groups of 8-4-4-4-12 digits:
//!   - a hyphen that makes an empty group or a sixth one is misplaced; a group of the wrong
//!     size, ended by a hyphen or by the end of the body, is a group-length error;
//!   - before its first hyphen a bare input may still be the simple form: all digits, or more
//!     than 32 of them, is a length error against 32; the byte after the 32nd digit must be
//!     the end; after exactly 8 digits both a digit and `'-'` may follow, and the message
//!     says so;
//!   - a body that stops after a complete group (or right after a hyphen) is a length error
//!     against the whole form (36, 38 or 45), since nothing is wrong but its shortness;
//!   - any other byte is an invalid character, and the message says what was expected there:
//!     a digit inside a group, `'-'` after a complete group, `'}'` or the end of the input
//!     after the fifth.
//! - Braces: a `{` start whose body is complete but whose `}` is missing or replaced is an
//!   unbalanced brace at the byte where the `}` must be; a `}` ending an input that does not
//!   start with `{` is an unbalanced brace at that `}`. A brace anywhere else is just an invalid
//!   character (`{{…}}`, braces inside a URN).
//! - The empty input is a length error naming all four lengths.
//!
//! Positions never exceed the input's length, and the scan is linear, so any input, however
//! long or malformed, gets its answer without a panic or a long wait.

use crate::error::{Detail, Error, Expected};
use crate::text::{HEX, URN_PREFIX};

/// Digits per group of the hyphenated form.
const GROUPS: [usize; 5] = [8, 4, 4, 4, 12];

pub(crate) const fn length_error(found: usize, expected: usize) -> Error {
    let pos = if found > expected && expected != 0 {
        expected
    } else {
        found
    };
    Error::new(Detail::Length { found, expected }, pos)
}

/// Decodes the UTF-8 character starting at `p`, if a valid one starts there.
const fn decode_char(s: &[u8], p: usize) -> Option<char> {
    let b0 = s[p];
    let (len, init) = if b0 < 0x80 {
        return Some(b0 as char);
    } else if b0 & 0xe0 == 0xc0 {
        (2, (b0 & 0x1f) as u32)
    } else if b0 & 0xf0 == 0xe0 {
        (3, (b0 & 0x0f) as u32)
    } else if b0 & 0xf8 == 0xf0 {
        (4, (b0 & 0x07) as u32)
    } else {
        return None;
    };
    if p + len > s.len() {
        return None;
    }
    let mut cp = init;
    let mut i = 1;
    while i < len {
        let b = s[p + i];
        if b & 0xc0 != 0x80 {
            return None;
        }
        cp = (cp << 6) | (b & 0x3f) as u32;
        i += 1;
    }
    // Reject overlong encodings so that the reported character is the one really written.
    let min = match len {
        2 => 0x80,
        3 => 0x800,
        _ => 0x10000,
    };
    if cp < min {
        return None;
    }
    char::from_u32(cp)
}

/// The error for a byte that is not what `expected` names: the character as written if it
/// starts valid UTF-8 there, else the raw byte.
pub(crate) const fn char_error(s: &[u8], p: usize, expected: Expected) -> Error {
    Error::new(
        Detail::Char {
            ch: decode_char(s, p),
            byte: s[p],
            expected,
        },
        p,
    )
}

/// Checks a body of the right length slot by slot: hex slots and (when `hyphens`) the four
/// hyphen slots. Returns the first problem. Inlined, so that each caller's start and length
/// are constants: the word scan then needs neither bounds checks nor a shifted last word (a
/// bad 36-byte line: about 210 instructions for the failed parse instead of 250).
#[inline(always)]
const fn positional(s: &[u8], start: usize, hyphens: bool) -> Option<Error> {
    // The first slot holding what it must not, found 8 slots at a time; then that slot alone
    // says which problem it is.
    // Each form with its constants, so that the scan unrolls.
    let first = if hyphens {
        first_bad_slot(s, start, 36, true)
    } else {
        first_bad_slot(s, start, 32, false)
    };
    match first {
        Some(j) => Some(slot_error(s, start, j, hyphens)),
        None => None,
    }
}

/// The error for slot `j` of the body at `start`, the first slot holding what it must not.
#[inline(always)]
const fn slot_error(s: &[u8], start: usize, j: usize, hyphens: bool) -> Error {
    let p = start + j;
    let c = s[p];
    if hyphens && (j == 8 || j == 13 || j == 18 || j == 23) {
        if HEX[c as usize] != 0xff {
            return Error::new(Detail::Hyphen { missing: true }, p);
        }
        return char_error(s, p, Expected::Hyphen);
    }
    if c == b'-' {
        return Error::new(Detail::Hyphen { missing: false }, p);
    }
    if c < 0x80 {
        // ASCII: the character is the byte (what `char_error` finds, without the call).
        return Error::new(
            Detail::Char {
                ch: Some(c as char),
                byte: c,
                expected: Expected::Hex,
            },
            p,
        );
    }
    char_error(s, p, Expected::Hex)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The top bit of each byte of `w` that is an ASCII hexadecimal digit (SWAR: the byte ranges
/// are tested on the low 7 bits, where the additions carry into no neighbour).
#[inline(always)]
const fn hex_bytes(w: u64) -> u64 {
    let w7 = w & !HIGH;
    // '0'..='9': at least 0x30 and not above 0x39.
    let digit = (w7 + (0x80 - 0x30) * ONES) & !(w7 + (0x7f - 0x39) * ONES);
    // 'a'..='f' once 0x20 is set ('A'..='F' become them).
    let l = w7 | (0x20 * ONES);
    let letter = (l + (0x80 - 0x61) * ONES) & !(l + (0x7f - 0x66) * ONES);
    (digit | letter) & !w & HIGH
}

/// The top bit of each byte of `w` that is `-`.
#[inline(always)]
const fn hyphen_bytes(w: u64) -> u64 {
    let x = w ^ (b'-' as u64 * ONES);
    // A byte of `x` is zero exactly when neither its low 7 bits nor its top bit are set.
    !((((x & !HIGH) + !HIGH) | x) & HIGH) & HIGH
}

/// The 8 bytes of `s` from `at` as a little-endian word, with zeros for those at or past `end`
/// (`at + 8` past `end`: the word ending at `end`, shifted down). `8 <= end <= s.len()`.
#[inline(always)]
const fn word(s: &[u8], at: usize, end: usize) -> u64 {
    let (from, shift) = if at + 8 <= end {
        (at, 0)
    } else {
        (end - 8, 8 * (at + 8 - end))
    };
    match s.split_at(from).1.first_chunk::<8>() {
        Some(c) => u64::from_le_bytes(*c) >> shift,
        None => 0,
    }
}

/// The first of the `n` slots from `start` (32: the simple form; 36 with `hyphens`: the
/// hyphenated one) whose byte does not belong there: a non-hex byte in a digit slot or
/// anything but `-` in a hyphen slot. `s` holds at least `start + n` bytes.
#[inline(always)]
const fn first_bad_slot(s: &[u8], start: usize, n: usize, hyphens: bool) -> Option<usize> {
    // Hyphen slots 8, 13, 18 and 23, as top bits of the words for slots 8..16 and 16..24.
    const HYPHEN_SLOTS: [u64; 5] = [0, 0x0000_8000_0000_0080, 0x8000_0000_0080_0000, 0, 0];
    let mut k = 0;
    while k * 8 < n {
        let w = word(s, start + k * 8, start + n);
        let slots = if hyphens { HYPHEN_SLOTS[k] } else { 0 };
        let left = n - k * 8;
        let valid = if left >= 8 {
            HIGH
        } else {
            HIGH & ((1u64 << (8 * left)) - 1)
        };
        let bad = ((!hex_bytes(w) & !slots) | (!hyphen_bytes(w) & slots)) & valid;
        if bad != 0 {
            return Some(k * 8 + bad.trailing_zeros() as usize / 8);
        }
        k += 1;
    }
    None
}

/// The slow path: says what is wrong with an input the fast path rejected, and where.
pub(crate) const fn diagnose(s: &[u8]) -> Error {
    let len = s.len();
    // A brace at either end means the braced form whatever the length, so a 32- or 36-byte
    // input with one is not checked slot by slot as the simple or hyphenated form.
    match len {
        32 if !brace_at_an_end(s) => {
            if let Some(e) = positional(s, 0, false) {
                return e;
            }
        }
        36 if !brace_at_an_end(s) => {
            if let Some(e) = positional(s, 0, true) {
                return e;
            }
        }
        38 if s[0] == b'{' => {
            if let Some(e) = positional(s, 1, true) {
                return e;
            }
            if s[37] != b'}' {
                return Error::new(Detail::Unclosed, 37);
            }
        }
        45 if s[0] == b'u' || s[0] == b'U' => {
            if let Some(e) = prefix_error(s) {
                return e;
            }
            if let Some(e) = positional(s, 9, true) {
                return e;
            }
        }
        _ => {}
    }
    generic(s)
}

/// Whether `s` starts with `{` or ends with `}`.
const fn brace_at_an_end(s: &[u8]) -> bool {
    match (s.first(), s.last()) {
        (Some(b), Some(e)) => *b == b'{' || *e == b'}',
        _ => false,
    }
}

/// The first byte where `s` stops matching `urn:uuid:` (case-insensitive), if it does.
const fn prefix_error(s: &[u8]) -> Option<Error> {
    let mut k = 0;
    while k < 9 {
        if k >= s.len() || s[k].to_ascii_lowercase() != URN_PREFIX[k] {
            return Some(Error::new(
                Detail::Prefix {
                    expected: "urn:uuid:",
                },
                k,
            ));
        }
        k += 1;
    }
    None
}

/// Diagnoses an input that no slot-by-slot check explained, by reading it as groups of hex
/// digits (the rules are in the module documentation).
const fn generic(s: &[u8]) -> Error {
    let len = s.len();
    if len == 0 {
        return length_error(0, 0);
    }
    let mut p = 0;
    let mut end = len;
    let mut braced = false;
    let mut urn = false;
    if s[0] == b'{' {
        braced = true;
        p = 1;
        if len >= 2 && s[len - 1] == b'}' {
            end = len - 1;
        }
    } else if s[0] == b'u' || s[0] == b'U' {
        // Nothing else starts with a 'u': it must be meant as a URN.
        if let Some(e) = prefix_error(s) {
            return e;
        }
        urn = true;
        p = 9;
    }
    let bare = !braced && !urn;
    let whole = if braced {
        38
    } else if urn {
        45
    } else {
        36
    };
    let mut g = 0;
    loop {
        let gstart = p;
        while p < end && HEX[s[p] as usize] != 0xff {
            p += 1;
        }
        let r = p - gstart;
        let want = GROUPS[g];
        if p == end {
            if bare && g == 0 {
                return length_error(len, 32);
            }
            if r == 0 || (r == want && g < 4) {
                return length_error(len, whole);
            }
            if r != want {
                return group_error(g, r, gstart);
            }
            // The five groups are complete: only the closing brace can be missing.
            if braced && end == len {
                return Error::new(Detail::Unclosed, len);
            }
            return length_error(len, whole);
        }
        let c = s[p];
        if c == b'}' && p == len - 1 && !braced {
            return Error::new(Detail::Braces, p);
        }
        if bare && g == 0 && r >= 32 {
            if r > 32 {
                return length_error(len, 32);
            }
            if c == b'-' {
                return Error::new(Detail::Hyphen { missing: false }, p);
            }
            return char_error(s, p, Expected::End);
        }
        if c == b'-' {
            if r == 0 || g == 4 {
                return Error::new(Detail::Hyphen { missing: false }, p);
            }
            if r != want {
                return group_error(g, r, gstart);
            }
            g += 1;
            p += 1;
            continue;
        }
        if bare && g == 0 {
            let expected = if r == 8 {
                Expected::HexOrHyphen
            } else {
                Expected::Hex
            };
            return char_error(s, p, expected);
        }
        if r > want {
            return group_error(g, r, gstart);
        }
        if r < want {
            return char_error(s, p, Expected::Hex);
        }
        if g < 4 {
            return char_error(s, p, Expected::Hyphen);
        }
        if braced {
            if c == b'}' {
                // A complete braced UUID followed by more bytes (`p + 1 < len`, since a `}`
                // in the last byte would have ended the body).
                return char_error(s, p + 1, Expected::End);
            }
            return char_error(s, p, Expected::CloseBrace);
        }
        return char_error(s, p, Expected::End);
    }
}

const fn group_error(g: usize, found: usize, at: usize) -> Error {
    Error::new(
        Detail::GroupLength {
            group: g as u8 + 1,
            found,
            expected: GROUPS[g] as u8,
        },
        at,
    )
}

/// The error of `scalar::parse_hyphenated` for an input its fast path rejected.
pub(crate) const fn hyphenated_error(s: &[u8]) -> Error {
    if s.len() == 36 {
        if let Some(e) = positional(s, 0, true) {
            return e;
        }
    }
    length_error(s.len(), 36)
}

/// The error of `scalar::parse_simple` for an input its fast path rejected.
pub(crate) const fn simple_error(s: &[u8]) -> Error {
    if s.len() == 32 {
        if let Some(e) = positional(s, 0, false) {
            return e;
        }
    }
    length_error(s.len(), 32)
}

// The SIMD levels' entry to the slow path, kept out of line (see `Entry`).

/// Which parsing entry rejected an input: each has its own slow path.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(
    not(all(feature = "simd", any(target_arch = "x86_64", target_arch = "aarch64"))),
    allow(dead_code)
)]
pub(crate) enum Entry {
    /// Any of the four forms: [`diagnose`].
    Any,
    /// The hyphenated form only: [`hyphenated_error`].
    Hyphenated,
    /// The simple form only: [`simple_error`].
    Simple,
}

/// The error `entry`'s slow path gives for `s`, which its fast path rejected, given `first`:
/// the first bad slot of `s` read as the bare form of its length (hyphenated for 36 bytes,
/// simple for 32) as a SIMD level's scan found it, or `None` (another length, no bad slot, or
/// no scan). A level calls this from one cold function of its own (with its target features,
/// so that the scan can use them); the answer is the slow path's, only the scan is faster.
#[inline(always)]
#[cfg_attr(
    not(all(feature = "simd", any(target_arch = "x86_64", target_arch = "aarch64"))),
    allow(dead_code)
)]
pub(crate) fn scanned(s: &[u8], entry: Entry, first: Option<usize>) -> Error {
    let len = s.len();
    if let Some(j) = first {
        // The cases where the slow path starts with the slot-by-slot scan of the bare form.
        let bare = match entry {
            Entry::Any => !brace_at_an_end(s),
            Entry::Hyphenated => len == 36,
            Entry::Simple => len == 32,
        };
        if bare && (len == 32 || len == 36) && j < len {
            return slot_error(s, 0, j, len == 36);
        }
    }
    match entry {
        Entry::Any => diagnose(s),
        Entry::Hyphenated => hyphenated_error(s),
        Entry::Simple => simple_error(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slot-by-slot scan that `first_bad_slot` does 8 slots at a time.
    fn first_bad_slot_by_slot(s: &[u8], start: usize, n: usize, hyphens: bool) -> Option<usize> {
        (0..n).find(|&j| {
            let c = s[start + j];
            if hyphens && matches!(j, 8 | 13 | 18 | 23) {
                c != b'-'
            } else {
                HEX[c as usize] == 0xff
            }
        })
    }

    #[test]
    fn the_word_scan_finds_the_first_bad_slot_as_the_slot_scan_does() {
        let bases: [&[u8]; 4] = [
            b"67e55044-10b1-426f-9247-bb680e5fe0c8",
            b"{ABCDEF09-FEDC-BA98-7654-3210ABCDEF12}",
            b"0123456789abcdefABCDEF0123456789",
            b"urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        ];
        let mut checked = 0;
        for base in bases {
            let (start, hyphens) = match base.len() {
                32 => (0, false),
                38 => (1, true),
                45 => (9, true),
                _ => (0, true),
            };
            let n = if hyphens { 36 } else { 32 };
            let mut s = base.to_vec();
            assert_eq!(first_bad_slot(&s, start, n, hyphens), None);
            // Every byte value in every slot, and a second one after it.
            for j in 0..n {
                for b in 0..=255u8 {
                    s[start + j] = b;
                    let want = first_bad_slot_by_slot(&s, start, n, hyphens);
                    assert_eq!(first_bad_slot(&s, start, n, hyphens), want, "{s:?}");
                    let later = (j * 7 + b as usize) % n;
                    let keep = s[start + later];
                    s[start + later] = b.wrapping_mul(31);
                    let want = first_bad_slot_by_slot(&s, start, n, hyphens);
                    assert_eq!(first_bad_slot(&s, start, n, hyphens), want, "{s:?}");
                    s[start + later] = keep;
                    checked += 2;
                }
                s[start + j] = base[start + j];
            }
        }
        assert_eq!(checked, 2 * 256 * (36 + 36 + 32 + 36));
    }
}

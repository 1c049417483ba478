//! Reading the four text forms of RFC 9562 §4 (hyphenated, simple, braced, URN).
//!
//! The fast path dispatches on the length alone (32, 36, 38 or 45 bytes; anything else is
//! rejected before a byte is looked at) and decodes with a table lookup per digit. Only when it
//! fails does [`diagnose`] re-scan the input to say what is wrong and where. Both are `const fn`
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
use crate::Uuid;

/// Hex digit values; 0xFF for every byte that is not a hex digit.
pub(crate) const HEX: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// Where each of the 16 bytes' two digits start in the hyphenated form.
const HYPHENATED_OFFSETS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
/// Digits per group of the hyphenated form.
const GROUPS: [usize; 5] = [8, 4, 4, 4, 12];
/// The URN form's prefix as written (RFC 9562 §4, RFC 8141: `urn:uuid:`); read in any letter
/// case. Shared by the writers and every parser of the URN form.
pub(crate) const URN_PREFIX: &[u8; 9] = b"urn:uuid:";
/// The first 8 bytes of [`URN_PREFIX`] as a little-endian word, and the bits that OR-ed into a
/// word lower-case exactly its letter positions (0x20 in each byte holding a letter, nothing at
/// the `:`): the SIMD levels check the prefix as `(word | URN_LETTERS) == URN_WORD`, then the
/// last `:` alone. The bytes that OR 0x20 turns into a lower-case letter are that letter in
/// either case, so this accepts what `is_urn_prefix` accepts.
#[cfg_attr(
    not(all(feature = "simd", any(target_arch = "x86_64", target_arch = "aarch64"))),
    allow(dead_code)
)]
pub(crate) const URN_WORD: u64 = urn_word().0;
#[cfg_attr(
    not(all(feature = "simd", any(target_arch = "x86_64", target_arch = "aarch64"))),
    allow(dead_code)
)]
pub(crate) const URN_LETTERS: u64 = urn_word().1;

/// [`URN_WORD`] and [`URN_LETTERS`], computed from [`URN_PREFIX`].
const fn urn_word() -> (u64, u64) {
    let (mut word, mut letters) = (0u64, 0u64);
    let mut i = 0;
    while i < 8 {
        word |= (URN_PREFIX[i] as u64) << (8 * i);
        if URN_PREFIX[i].is_ascii_lowercase() {
            letters |= 0x20 << (8 * i);
        }
        i += 1;
    }
    (word, letters)
}

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
        None => Err(diagnose(s)),
    }
}

/// Parses exactly the hyphenated form (no braces, no prefix).
pub(crate) const fn parse_hyphenated(s: &[u8]) -> Result<Uuid, Error> {
    if s.len() == 36 {
        if let Some(b) = decode_hyphenated(s, 0) {
            return Ok(Uuid::from_bytes(b));
        }
        if let Some(e) = positional(s, 0, true) {
            return Err(e);
        }
    }
    Err(length_error(s.len(), 36))
}

/// Parses exactly the simple form (32 hex digits).
pub(crate) const fn parse_simple(s: &[u8]) -> Result<Uuid, Error> {
    if s.len() == 32 {
        if let Some(b) = decode_simple(s, 0) {
            return Ok(Uuid::from_bytes(b));
        }
        if let Some(e) = positional(s, 0, false) {
            return Err(e);
        }
    }
    Err(length_error(s.len(), 32))
}

const fn length_error(found: usize, expected: usize) -> Error {
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
/// hyphen slots. Returns the first problem.
const fn positional(s: &[u8], start: usize, hyphens: bool) -> Option<Error> {
    let n = if hyphens { 36 } else { 32 };
    let mut j = 0;
    while j < n {
        let p = start + j;
        let c = s[p];
        let hyphen_slot = hyphens && (j == 8 || j == 13 || j == 18 || j == 23);
        if hyphen_slot {
            if c != b'-' {
                if HEX[c as usize] != 0xff {
                    return Some(Error::new(Detail::Hyphen { missing: true }, p));
                }
                return Some(char_error(s, p, Expected::Hyphen));
            }
        } else if HEX[c as usize] == 0xff {
            if c == b'-' {
                return Some(Error::new(Detail::Hyphen { missing: false }, p));
            }
            return Some(char_error(s, p, Expected::Hex));
        }
        j += 1;
    }
    None
}

/// The slow path: says what is wrong with an input the fast path rejected, and where.
pub(crate) const fn diagnose(s: &[u8]) -> Error {
    let len = s.len();
    // A brace at either end means the braced form whatever the length, so a 32- or 36-byte
    // input with one is not checked slot by slot as the simple or hyphenated form.
    let brace_at_an_end = len > 0 && (s[0] == b'{' || s[len - 1] == b'}');
    match len {
        32 if !brace_at_an_end => {
            if let Some(e) = positional(s, 0, false) {
                return e;
            }
        }
        36 if !brace_at_an_end => {
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

/// [`diagnose`] kept out of line, so that the fast paths stay small. The SIMD kernels
/// (`crate::simd`) call it, and the two below, for every input they reject.
#[cold]
#[inline(never)]
// Called by the SIMD kernels only.
#[cfg_attr(
    not(all(feature = "simd", any(target_arch = "x86_64", target_arch = "aarch64"))),
    allow(dead_code)
)]
pub(crate) fn diagnose_cold(s: &[u8]) -> Error {
    diagnose(s)
}

/// The error of [`parse_hyphenated`] for an input the fast path rejected.
#[cold]
#[inline(never)]
// Called by the SIMD kernels only.
#[cfg_attr(
    not(all(feature = "simd", any(target_arch = "x86_64", target_arch = "aarch64"))),
    allow(dead_code)
)]
pub(crate) fn hyphenated_error(s: &[u8]) -> Error {
    match parse_hyphenated(s) {
        Err(e) => e,
        // Unreachable: the kernels and the scalar code accept the same inputs.
        Ok(_) => diagnose(s),
    }
}

/// The error of [`parse_simple`] for an input the fast path rejected.
#[cold]
#[inline(never)]
// Called by the SIMD kernels only.
#[cfg_attr(
    not(all(feature = "simd", any(target_arch = "x86_64", target_arch = "aarch64"))),
    allow(dead_code)
)]
pub(crate) fn simple_error(s: &[u8]) -> Error {
    match parse_simple(s) {
        Err(e) => e,
        // Unreachable, as in `hyphenated_error`.
        Ok(_) => diagnose(s),
    }
}

impl Uuid {
    /// Parses the hyphenated, simple, braced or URN form; hex digits in either case.
    ///
    /// Nothing else is accepted: no surrounding whitespace, no `0x`, no other hyphens.
    ///
    /// A `const fn`, so that it also works at compile time (it is what [`uuid!`](crate::uuid!)
    /// uses), and therefore scalar. At run time [`str::parse`], `Uuid::try_from(&str)` and
    /// [`Uuid::try_parse_ascii`] give the same results several times faster, with the SIMD
    /// instructions of the CPU.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// let a = Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap();
    /// assert_eq!(Uuid::parse_str("67E5504410B1426F9247BB680E5FE0C8").unwrap(), a);
    /// assert_eq!(Uuid::parse_str("{67e55044-10b1-426f-9247-bb680e5fe0c8}").unwrap(), a);
    /// assert_eq!(Uuid::parse_str("URN:UUID:67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap(), a);
    /// assert!(Uuid::parse_str(" 67e55044-10b1-426f-9247-bb680e5fe0c8").is_err());
    /// assert_eq!("67e55044-10b1-426f-9247-bb680e5fe0c8".parse::<Uuid>(), Ok(a));
    /// ```
    pub const fn parse_str(s: &str) -> Result<Uuid, Error> {
        parse(s.as_bytes())
    }

    /// Like [`Uuid::parse_str`] on bytes that need not be UTF-8, using the CPU's SIMD
    /// instructions (same results and errors, not `const`).
    ///
    /// ```
    /// let e = uuidkit::Uuid::try_parse_ascii(b"67e55044-10b1-426f-9247-bb680e5fe0c\xff").unwrap_err();
    /// assert_eq!(e.to_string(), "invalid byte 0xff at byte 35: expected a hexadecimal digit");
    /// ```
    #[inline]
    pub fn try_parse_ascii(s: &[u8]) -> Result<Uuid, Error> {
        crate::simd::active().parse(s)
    }

    /// Parses only the 36-byte hyphenated form, using the CPU's SIMD instructions.
    ///
    /// ```
    /// assert!(uuidkit::Uuid::parse_hyphenated("67e5504410b1426f9247bb680e5fe0c8").is_err());
    /// assert!(uuidkit::Uuid::parse_hyphenated("67e55044-10b1-426f-9247-bb680e5fe0c8").is_ok());
    /// ```
    #[inline]
    pub fn parse_hyphenated(s: &str) -> Result<Uuid, Error> {
        crate::simd::active().hyphenated(s.as_bytes())
    }

    /// Parses only the 32-digit simple form, using the CPU's SIMD instructions.
    ///
    /// ```
    /// assert!(uuidkit::Uuid::parse_simple("67e5504410b1426f9247bb680e5fe0c8").is_ok());
    /// ```
    #[inline]
    pub fn parse_simple(s: &str) -> Result<Uuid, Error> {
        crate::simd::active().simple(s.as_bytes())
    }
}

impl core::str::FromStr for Uuid {
    type Err = Error;
    #[inline]
    fn from_str(s: &str) -> Result<Self, Error> {
        crate::simd::active().parse(s.as_bytes())
    }
}

impl TryFrom<&str> for Uuid {
    type Error = Error;
    #[inline]
    fn try_from(s: &str) -> Result<Self, Error> {
        crate::simd::active().parse(s.as_bytes())
    }
}

/// A UUID literal checked at compile time.
///
/// ```
/// use uuidkit::{uuid, Uuid};
/// const ID: Uuid = uuid!("67e55044-10b1-426f-9247-bb680e5fe0c8");
/// assert_eq!(ID.to_string(), "67e55044-10b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// A bad literal does not compile, whatever is wrong with it: an invalid character,
///
/// ```compile_fail
/// const BAD: uuidkit::Uuid = uuidkit::uuid!("67e55044-10b1-426f-9247-bb680e5fe0cX");
/// ```
///
/// a wrong length (also outside a `const` item),
///
/// ```compile_fail
/// let bad = uuidkit::uuid!("67e55044-10b1-426f-9247-bb680e5fe0c");
/// ```
///
/// a missing hyphen, an unclosed brace, a misspelt URN prefix, surrounding whitespace:
///
/// ```compile_fail
/// let bad = uuidkit::uuid!("67e55044010b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// ```compile_fail
/// let bad = uuidkit::uuid!("{67e55044-10b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// ```compile_fail
/// let bad = uuidkit::uuid!("urn:uid:67e55044-10b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// ```compile_fail
/// let bad = uuidkit::uuid!(" 67e55044-10b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// The same literals are accepted in any of the four forms:
///
/// ```
/// use uuidkit::{uuid, Uuid};
/// const A: Uuid = uuid!("67e5504410b1426f9247bb680e5fe0c8");
/// const B: Uuid = uuid!("{67E55044-10B1-426F-9247-BB680E5FE0C8}");
/// const C: Uuid = uuid!("urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8");
/// assert!(A == B && B == C);
/// ```
#[macro_export]
macro_rules! uuid {
    ($s:expr $(,)?) => {{
        const OUTPUT: $crate::Uuid = match $crate::Uuid::parse_str($s) {
            ::core::result::Result::Ok(u) => u,
            ::core::result::Result::Err(e) => panic!("{}", e.kind_str()),
        };
        OUTPUT
    }};
}

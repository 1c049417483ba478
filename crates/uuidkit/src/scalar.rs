//! The scalar text codec: `const fn` code that writes the four forms and reads a valid one.
//!
//! Every SIMD level (`simd/`) accepts exactly what [`parse_fast`] accepts and writes exactly
//! what [`encode_hyphenated`] and [`encode_simple`] write; this code runs at compile time
//! ([`Uuid::parse_str_const`](crate::Uuid::parse_str_const), [`uuid!`](crate::uuid!), the
//! `const` encoders) and as the scalar level. The tests check it and every SIMD level against
//! `reference` (test builds only), the table-driven code of one lookup per digit.
//!
//! Reading dispatches on the length alone (32, 36, 38 or 45 bytes; anything else is rejected
//! before a byte is looked at) and decodes two digits at a time in the byte lanes of a `u16`
//! (SWAR: validation and conversion by arithmetic on the whole lane, no table, no branch per
//! digit), 16 lanes alike, which the compiler turns into vector code; writing looks up the
//! two digits of each byte in a 256-entry table. Only when reading fails does `diagnose.rs`
//! re-scan the input to say what is wrong and where.

use crate::diagnose;
use crate::error::Error;
use crate::text::{Case, URN_LETTERS, URN_PREFIX, URN_WORD};
use crate::Uuid;

// ---- writing: two digits per table lookup -----------------------------------------------------

/// The two digits of every byte value, in one case: `PAIRS[b] == [high digit, low digit]`.
const fn digit_pairs(digits: &[u8; 16]) -> [[u8; 2]; 256] {
    let mut t = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = [digits[b >> 4], digits[b & 15]];
        b += 1;
    }
    t
}
const PAIRS_LOWER: [[u8; 2]; 256] = digit_pairs(b"0123456789abcdef");
const PAIRS_UPPER: [[u8; 2]; 256] = digit_pairs(b"0123456789ABCDEF");

/// The two digits of each byte, in `case`.
#[inline(always)]
const fn pairs(case: Case) -> &'static [[u8; 2]; 256] {
    match case {
        Case::Lower => &PAIRS_LOWER,
        Case::Upper => &PAIRS_UPPER,
    }
}

/// The two digits of each of the 16 bytes as a little-endian `u16` (the first digit in the
/// low byte), widened to `u64` for the shifts that join them.
#[inline(always)]
const fn digit_pairs_of(b: &[u8; 16], case: Case) -> [u64; 16] {
    let pairs = pairs(case);
    let mut p = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        p[i] = u16::from_le_bytes(pairs[b[i] as usize]) as u64;
        i += 1;
    }
    p
}

/// The 32 digits of the simple form: four words of four digit pairs each.
#[inline]
pub(crate) const fn encode_simple(b: &[u8; 16], case: Case) -> [u8; 32] {
    let p = digit_pairs_of(b, case);
    let mut words = [[0u8; 8]; 4];
    let mut k = 0;
    while k < 4 {
        let q = 4 * k;
        words[k] = (p[q] | p[q + 1] << 16 | p[q + 2] << 32 | p[q + 3] << 48).to_le_bytes();
        k += 1;
    }
    // SAFETY: `[[u8; 8]; 4]` and `[u8; 32]` have the same size and alignment, and every bit
    // pattern is valid for both; the words are the digits in order.
    unsafe { core::mem::transmute::<[[u8; 8]; 4], [u8; 32]>(words) }
}

/// The hyphenated form as four eight-byte words and a four-byte tail: the same 36 bytes as a
/// `[u8; 36]` (every field is a byte array, so there is no padding), written with five stores.
#[repr(C)]
struct HyphenatedText {
    words: [[u8; 8]; 4],
    tail: [u8; 4],
}

const _: () = assert!(core::mem::size_of::<HyphenatedText>() == 36);

/// The 36 bytes of the hyphenated form: one table lookup per byte gives its two digits
/// ([`digit_pairs_of`]), and shifts join them and the hyphens into the form's words (text bytes
/// 0..8 are the digits of bytes 0..4; 8..16 `-`, bytes 4 and 5, `-`, byte 6; 16..24 byte 7,
/// `-`, bytes 8 and 9, `-`; 24..32 bytes 10..14; 32..36 bytes 14 and 15). About 70
/// instructions, against about 120 for the same digits computed eight per `u64` with shifts
/// and masks (the code this replaced; callgrind counts in BENCHMARKS.md).
#[inline]
pub(crate) const fn encode_hyphenated(b: &[u8; 16], case: Case) -> [u8; 36] {
    const H: u64 = b'-' as u64;
    let p = digit_pairs_of(b, case);
    let t = HyphenatedText {
        words: [
            (p[0] | p[1] << 16 | p[2] << 32 | p[3] << 48).to_le_bytes(),
            (H | p[4] << 8 | p[5] << 24 | H << 40 | p[6] << 48).to_le_bytes(),
            (p[7] | H << 16 | p[8] << 24 | p[9] << 40 | H << 56).to_le_bytes(),
            (p[10] | p[11] << 16 | p[12] << 32 | p[13] << 48).to_le_bytes(),
        ],
        tail: ((p[14] | p[15] << 16) as u32).to_le_bytes(),
    };
    // SAFETY: `HyphenatedText` is `repr(C)` with only byte-array fields, 36 bytes without
    // padding (checked above), alignment 1, like `[u8; 36]`; every bit pattern is valid.
    unsafe { core::mem::transmute::<HyphenatedText, [u8; 36]>(t) }
}

// ---- reading: SWAR in 16-bit lanes (one digit pair per lane) -------------------------------

/// The 16 digit pairs (each the little-endian `u16` of two text bytes, the first digit in the
/// low byte) to the 16 bytes, if all 32 are hex digits. The same branch-free arithmetic runs
/// on every lane, with nothing carried between lanes, so the compiler can run the loop as
/// vector code (eight lanes per 128-bit register on x86-64's SSE2; `scripts/bench-callgrind`
/// counts 126 instructions for a whole `parse_str_const` call, against 173 for the same
/// arithmetic on four `u64` words of eight digits, whose gathers the compiler left scalar):
///
/// - Each byte `c` is first cut to 7 bits (`x`; a byte >= 0x80 is rejected by the last step), so
///   that adding a constant <= 0x80 to a byte never carries into the next one: `x + (0x80 - k)`
///   has the byte's top bit set exactly when `x >= k`.
/// - `c` is a decimal digit when `x >= '0'` and not `x >= ':'`; a letter `a`-`f` in either case
///   when `x | 0x20 >= 'a'` and not `x | 0x20 >= 'g'` (OR-ing 0x20 maps `A`-`F` and nothing else
///   onto `a`-`f`).
/// - A digit's value is its low nibble, plus 9 for a letter (bit 6 set, which no decimal digit
///   has): `(bit 6 >> 3) + (bit 6 >> 6)`, two shifts rather than a multiply by 9 (126
///   instructions per call against 127 with the multiply).
/// - The byte is the first digit's value shifted up by four, joined with the second's; the
///   lane's low byte is the result.
#[inline(always)]
const fn decode_pairs(pairs: [u16; 16], extra_bad: bool) -> Option<[u8; 16]> {
    const TOP: u16 = 0x8080;
    let mut bad = 0;
    let mut out = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        let w = pairs[i];
        let x = w & !TOP;
        let digit = (x + 0x0101 * (0x80 - 0x30)) & !(x + 0x0101 * (0x80 - 0x3a));
        let l = x | 0x2020;
        let letter = (l + 0x0101 * (0x80 - 0x61)) & !(l + 0x0101 * (0x80 - 0x67));
        bad |= (!(digit | letter) | w) & TOP;
        let letter_bit = w & 0x4040;
        let nib = (w & 0x0f0f) + (letter_bit >> 3) + (letter_bit >> 6);
        out[i] = ((nib << 4) | (nib >> 8)) as u8;
        i += 1;
    }
    if bad != 0 || extra_bad {
        return None;
    }
    Some(out)
}

/// The digit pairs of `s` that start at the 16 offsets `at`.
#[inline(always)]
const fn pairs_at(s: &[u8], at: &[usize; 16]) -> [u16; 16] {
    let mut p = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        p[i] = u16::from_le_bytes([s[at[i]], s[at[i] + 1]]);
        i += 1;
    }
    p
}

/// Where the digit pairs of the simple form start.
const SIMPLE_PAIRS: [usize; 16] = [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30];
/// Where the digit pairs of the hyphenated form start (8, 13, 18 and 23 are the hyphens).
const HYPHENATED_PAIRS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/// 32 hex digits: `s[0..32]`.
#[inline(always)]
const fn decode_simple(s: &[u8; 32]) -> Option<[u8; 16]> {
    decode_pairs(pairs_at(s, &SIMPLE_PAIRS), false)
}

/// The 36-byte hyphenated form: `s[0..36]`.
#[inline(always)]
const fn decode_hyphenated(s: &[u8; 36]) -> Option<[u8; 16]> {
    let hyphens = u32::from_le_bytes([s[8], s[13], s[18], s[23]]);
    decode_pairs(
        pairs_at(s, &HYPHENATED_PAIRS),
        hyphens != u32::from_le_bytes([b'-'; 4]),
    )
}

/// The little-endian word of `s[at..at + 8]`.
#[inline(always)]
const fn word8(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes([
        s[at],
        s[at + 1],
        s[at + 2],
        s[at + 3],
        s[at + 4],
        s[at + 5],
        s[at + 6],
        s[at + 7],
    ])
}

/// `urn:uuid:` in any letter case: the first eight bytes as one word with the letters'
/// case bit set (see `text::URN_WORD`), then the last `:`.
#[inline(always)]
const fn is_urn_prefix(s: &[u8; 9]) -> bool {
    (word8(s, 0) | URN_LETTERS) == URN_WORD && s[8] == URN_PREFIX[8]
}

/// The fast path: `None` on any failure.
#[inline(always)]
pub(crate) const fn parse_fast(s: &[u8]) -> Option<Uuid> {
    let bytes = match s.len() {
        32 => match s.first_chunk::<32>() {
            Some(b) => decode_simple(b),
            None => None,
        },
        36 => match s.first_chunk::<36>() {
            Some(b) => decode_hyphenated(b),
            None => None,
        },
        38 => match s.split_first_chunk::<1>() {
            Some(([b'{'], rest)) => match rest.split_first_chunk::<36>() {
                Some((b, [b'}'])) => decode_hyphenated(b),
                _ => None,
            },
            _ => None,
        },
        45 => match s.split_first_chunk::<9>() {
            Some((prefix, rest)) if is_urn_prefix(prefix) => match rest.first_chunk::<36>() {
                Some(b) => decode_hyphenated(b),
                None => None,
            },
            _ => None,
        },
        _ => None,
    };
    match bytes {
        Some(b) => Some(Uuid::from_bytes(b)),
        None => None,
    }
}

/// Parses any of the four forms, with a detailed error (the slow path out of line).
#[inline]
pub(crate) const fn parse(s: &[u8]) -> Result<Uuid, Error> {
    match parse_fast(s) {
        Some(u) => Ok(u),
        None => Err(diagnose::diagnose(s)),
    }
}

/// Parses exactly the hyphenated form (no braces, no prefix).
pub(crate) const fn parse_hyphenated(s: &[u8]) -> Result<Uuid, Error> {
    if let Some(body) = s.first_chunk::<36>() {
        if s.len() == 36 {
            if let Some(b) = decode_hyphenated(body) {
                return Ok(Uuid::from_bytes(b));
            }
        }
    }
    Err(diagnose::hyphenated_error(s))
}

/// Parses exactly the simple form (32 hex digits).
pub(crate) const fn parse_simple(s: &[u8]) -> Result<Uuid, Error> {
    if let Some(body) = s.first_chunk::<32>() {
        if s.len() == 32 {
            if let Some(b) = decode_simple(body) {
                return Ok(Uuid::from_bytes(b));
            }
        }
    }
    Err(diagnose::simple_error(s))
}

/// The table-driven codec this module had before its SWAR code: one table lookup per digit.
/// Kept as the reference the SWAR code and every SIMD level are tested against.
#[cfg(test)]
pub(crate) mod reference {
    use crate::text::{Case, HEX, URN_PREFIX};
    use crate::Uuid;

    /// The 32 digits of the simple form.
    pub(crate) fn encode_simple(b: &[u8; 16], case: Case) -> [u8; 32] {
        let t = table(case);
        let mut out = [0u8; 32];
        for i in 0..16 {
            out[2 * i] = t[(b[i] >> 4) as usize];
            out[2 * i + 1] = t[(b[i] & 0x0f) as usize];
        }
        out
    }

    /// The 36 bytes of the hyphenated form.
    pub(crate) fn encode_hyphenated(b: &[u8; 16], case: Case) -> [u8; 36] {
        let t = table(case);
        let mut out = [0u8; 36];
        let mut o = 0;
        for (i, byte) in b.iter().enumerate() {
            if i == 4 || i == 6 || i == 8 || i == 10 {
                out[o] = b'-';
                o += 1;
            }
            out[o] = t[(byte >> 4) as usize];
            out[o + 1] = t[(byte & 0x0f) as usize];
            o += 2;
        }
        out
    }

    fn table(case: Case) -> &'static [u8; 16] {
        match case {
            Case::Lower => b"0123456789abcdef",
            Case::Upper => b"0123456789ABCDEF",
        }
    }

    /// Where each of the 16 bytes' two digits start in the hyphenated form.
    const HYPHENATED_OFFSETS: [usize; 16] =
        [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

    fn byte_at(s: &[u8], i: usize) -> Option<u8> {
        let hi = HEX[s[i] as usize];
        let lo = HEX[s[i + 1] as usize];
        ((hi | lo) & 0xf0 == 0).then_some((hi << 4) | lo)
    }

    fn decode(s: &[u8], start: usize, offsets: impl Fn(usize) -> usize) -> Option<[u8; 16]> {
        let mut out = [0u8; 16];
        for (i, o) in out.iter_mut().enumerate() {
            *o = byte_at(s, start + offsets(i))?;
        }
        Some(out)
    }

    fn decode_hyphenated(s: &[u8], start: usize) -> Option<[u8; 16]> {
        if [8, 13, 18, 23].iter().any(|&h| s[start + h] != b'-') {
            return None;
        }
        decode(s, start, |i| HYPHENATED_OFFSETS[i])
    }

    /// The fast path's answer: `None` on any failure.
    pub(crate) fn parse_fast(s: &[u8]) -> Option<Uuid> {
        let bytes = match s.len() {
            32 => decode(s, 0, |i| 2 * i),
            36 => decode_hyphenated(s, 0),
            38 if s[0] == b'{' && s[37] == b'}' => decode_hyphenated(s, 1),
            45 if s[..9].to_ascii_lowercase() == URN_PREFIX[..] => decode_hyphenated(s, 9),
            _ => None,
        };
        bytes.map(Uuid::from_bytes)
    }
}

//! The short text forms of the 128 bits: ULID text (Crockford's base32), base32hex (RFC 4648
//! §7), base58 (Bitcoin's and Flickr's alphabets) and base64url (RFC 4648 §5), and the base32
//! suffix of a TypeID (`typeid.rs` adds the prefix).
//!
//! Everything here is `no_std` and allocation-free, and `const fn` but for the run-time
//! decoders: each encoder returns a byte array, and [`Uuid::encode_short`] writes into a
//! [`ShortBuffer`] on the stack. Each decoder first runs a fast pass that only says "bad"; a
//! rejected input is then read again, one character at a time, to say what is wrong and at
//! which byte, with the same [`Error`] type and positions as the RFC forms. The fast pass of
//! [`Uuid::parse_ulid`], [`Uuid::parse_base32hex`] and [`Uuid::parse_base64url`] is a SIMD
//! kernel on x86-64 (`simd/short.rs`: AVX2 where the CPU has it, else SSE2); their `_const`
//! twins run the scalar table code here, and the slow path is the same for both.
//!
//! # Which forms are recognised without being named
//!
//! None by [`Uuid::parse_str`], which reads the four RFC 9562 forms only. The 26-character
//! forms (ULID, base32hex, an unprefixed TypeID) share their length and most of their
//! alphabets, as do the 22-character ones (base58 and base64url: every base58 string is a
//! base64url string), so a string of those lengths could be more than one of them and each is
//! read only by name ([`Uuid::parse_short`]). A TypeID *with* a prefix is unambiguous (a `_`
//! and at least 28 characters, which no other form has), so a program may recognise it by
//! shape; the CLI's `inspect` does.

use core::fmt;

use crate::diagnose::char_error;
use crate::error::{Detail, Error, Expected};
use crate::text::ShortForm;
use crate::Uuid;

/// The longest short form, in bytes (the 26-character base32 forms).
///
/// ```
/// assert_eq!(uuidkit::MAX_SHORT_LEN, uuidkit::ShortForm::Ulid.len());
/// ```
pub const MAX_SHORT_LEN: usize = 26;

/// A stack buffer large enough for any short form.
///
/// ```
/// use uuidkit::{ShortBuffer, ShortForm, Uuid, MAX_SHORT_LEN};
/// let mut buf: ShortBuffer = [0; MAX_SHORT_LEN];
/// assert_eq!(Uuid::MAX.encode_short(ShortForm::Base58, &mut buf), "YcVfxkQb6JRzqk5kF2tNLv");
/// ```
pub type ShortBuffer = [u8; MAX_SHORT_LEN];

// ---------------------------------------------------------------------------------------------
// Alphabets and their decoding tables.

const CROCKFORD_UPPER: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CROCKFORD_LOWER: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
const BASE32HEX: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";
const BASE58: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BASE58_FLICKR: &[u8; 58] = b"123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Each byte's value in `alphabet`, 0xFF for the bytes not in it; with `fold`, a lower-case
/// letter decodes as its upper-case one.
const fn decode_table(alphabet: &[u8], fold: bool) -> [u8; 256] {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < alphabet.len() {
        t[alphabet[i] as usize] = i as u8;
        if fold && alphabet[i].is_ascii_uppercase() {
            t[alphabet[i].to_ascii_lowercase() as usize] = i as u8;
        }
        i += 1;
    }
    t
}

/// Two characters per entry: the characters of every 10-bit (base32) or 12-bit (base64)
/// value, so that the encoders look up two at a time.
const fn pair_table<const N: usize>(alphabet: &[u8], bits: u32) -> [[u8; 2]; N] {
    let mut t = [[0u8; 2]; N];
    let mask = (1usize << bits) - 1;
    let mut i = 0;
    while i < N {
        t[i] = [alphabet[i >> bits], alphabet[i & mask]];
        i += 1;
    }
    t
}

static ULID_PAIRS: [[u8; 2]; 1024] = pair_table(CROCKFORD_UPPER, 5);
pub(crate) static TYPEID_PAIRS: [[u8; 2]; 1024] = pair_table(CROCKFORD_LOWER, 5);
static BASE32HEX_PAIRS: [[u8; 2]; 1024] = pair_table(BASE32HEX, 5);
static BASE64URL_PAIRS: [[u8; 2]; 4096] = pair_table(BASE64URL, 6);

const ULID_DECODE: [u8; 256] = decode_table(CROCKFORD_UPPER, true);
pub(crate) const TYPEID_DECODE: [u8; 256] = decode_table(CROCKFORD_LOWER, false);
const BASE32HEX_DECODE: [u8; 256] = decode_table(BASE32HEX, true);
const BASE58_DECODE: [u8; 256] = decode_table(BASE58, false);
const BASE58_FLICKR_DECODE: [u8; 256] = decode_table(BASE58_FLICKR, false);
const BASE64URL_DECODE: [u8; 256] = decode_table(BASE64URL, false);

// ---------------------------------------------------------------------------------------------
// base32.

/// Eight characters for the low 40 bits of `v`, two per table entry.
#[inline(always)]
const fn eight32(v: u64, pairs: &[[u8; 2]; 1024], out: &mut [u8; 26], at: usize) {
    let mut k = 0;
    while k < 4 {
        let p = pairs[((v >> (30 - 10 * k)) & 1023) as usize];
        out[at + 2 * k] = p[0];
        out[at + 2 * k + 1] = p[1];
        k += 1;
    }
}

/// 26 base32 characters of `v`, right-aligned (ULID, TypeID: two zero bits first).
#[inline]
pub(crate) const fn encode32_right(v: u128, pairs: &[[u8; 2]; 1024]) -> [u8; 26] {
    let mut out = [0u8; 26];
    let top = pairs[(v >> 120) as usize];
    out[0] = top[0];
    out[1] = top[1];
    eight32((v >> 80) as u64, pairs, &mut out, 2);
    eight32((v >> 40) as u64, pairs, &mut out, 10);
    eight32(v as u64, pairs, &mut out, 18);
    out
}

/// 26 base32 characters of `v`, left-aligned (base32hex: two zero bits last).
#[inline]
const fn encode32_left(v: u128, pairs: &[[u8; 2]; 1024]) -> [u8; 26] {
    let mut out = [0u8; 26];
    // Characters 0-23 from the top 120 bits, then the last 8 bits as two characters of 10.
    eight32((v >> 88) as u64, pairs, &mut out, 0);
    eight32((v >> 48) as u64, pairs, &mut out, 8);
    eight32((v >> 8) as u64, pairs, &mut out, 16);
    let last = pairs[((v as usize) & 0xff) << 2];
    out[24] = last[0];
    out[25] = last[1];
    out
}

/// The values of `n` characters from `at`, 5 bits each, and the OR of their table entries
/// (0x80 set when one is not in the alphabet). Each value is shifted to its place on its own,
/// so that the lookups and shifts run in parallel (a chain of shift-and-OR was twice as slow).
#[inline(always)]
const fn gather32(s: &[u8; 26], table: &[u8; 256], at: usize, n: usize) -> (u64, u8) {
    let (mut v, mut bad) = (0u64, 0u8);
    let mut k = 0;
    while k < n {
        let d = table[s[at + k] as usize];
        bad |= d;
        v |= (d as u64) << (5 * (n - 1 - k));
        k += 1;
    }
    (v, bad)
}

/// The value of 26 right-aligned base32 characters, or `None` if one is not in `table` or the
/// first is above 7 (the fast pass: no reason).
#[inline]
pub(crate) const fn decode32_right(s: &[u8; 26], table: &[u8; 256]) -> Option<u128> {
    let (a, b0) = gather32(s, table, 0, 2);
    let (b, b1) = gather32(s, table, 2, 8);
    let (c, b2) = gather32(s, table, 10, 8);
    let (d, b3) = gather32(s, table, 18, 8);
    if (b0 | b1 | b2 | b3) & 0x80 != 0 || a > 0xff {
        return None;
    }
    Some((a as u128) << 120 | (b as u128) << 80 | (c as u128) << 40 | d as u128)
}

/// The value of 26 left-aligned base32 characters, or `None` if one is not in `table` or the
/// last one's two padding bits are set.
#[inline]
const fn decode32_left(s: &[u8; 26], table: &[u8; 256]) -> Option<u128> {
    let (a, b0) = gather32(s, table, 0, 8);
    let (b, b1) = gather32(s, table, 8, 8);
    let (c, b2) = gather32(s, table, 16, 8);
    let (d, b3) = gather32(s, table, 24, 2);
    if (b0 | b1 | b2 | b3) & 0x80 != 0 || d & 3 != 0 {
        return None;
    }
    Some((a as u128) << 88 | (b as u128) << 48 | (c as u128) << 8 | (d >> 2) as u128)
}

// ---------------------------------------------------------------------------------------------
// base58.

/// 58^5, the largest power of 58 below 2^32: the base58 codec works in groups of 5 digits.
const B58_5: u64 = 656_356_768;

/// 22 base58 digits of `v` in `alphabet`, left-padded with its zero digit.
#[inline]
const fn encode58(v: u128, alphabet: &[u8; 58]) -> [u8; 22] {
    let mut out = [alphabet[0]; 22];
    // Four divisions by 58^5 of the value as four 32-bit limbs (a u64 division by a constant
    // is a multiplication; a u128 division a library call), each giving 5 digits; the last
    // quotient (below 58^2, since 2^128 < 58^22) gives the first 2.
    let mut limbs = [
        (v >> 96) as u32,
        (v >> 64) as u32,
        (v >> 32) as u32,
        v as u32,
    ];
    let mut group = 0;
    while group < 4 {
        let mut rem = 0u64;
        let mut i = 0;
        while i < 4 {
            let x = (rem << 32) | limbs[i] as u64;
            limbs[i] = (x / B58_5) as u32;
            rem = x % B58_5;
            i += 1;
        }
        let mut r = rem as u32;
        let mut k = 0;
        while k < 5 {
            out[21 - 5 * group - k] = alphabet[(r % 58) as usize];
            r /= 58;
            k += 1;
        }
        group += 1;
    }
    let top = limbs[3];
    out[1] = alphabet[(top % 58) as usize];
    out[0] = alphabet[(top / 58) as usize];
    out
}

/// The value of 22 base58 digits, or `None` if one is not in `table` or the value is 2^128
/// or more.
#[inline]
const fn decode58(s: &[u8; 22], table: &[u8; 256]) -> Option<u128> {
    let mut bad = 0u8;
    let d0 = table[s[0] as usize];
    let d1 = table[s[1] as usize];
    bad |= d0 | d1;
    let mut v = d0 as u128 * 58 + d1 as u128;
    let mut group = 0;
    while group < 4 {
        let mut g = 0u64;
        let mut k = 0;
        while k < 5 {
            let d = table[s[2 + 5 * group + k] as usize];
            bad |= d;
            g = g * 58 + d as u64;
            k += 1;
        }
        if bad & 0x80 != 0 {
            return None;
        }
        // Only the last group can overflow (58^17 * 58^5 > 2^128 > 58^17 * 58^4).
        v = match v.checked_mul(B58_5 as u128) {
            Some(m) => match m.checked_add(g as u128) {
                Some(a) => a,
                None => return None,
            },
            None => return None,
        };
        group += 1;
    }
    Some(v)
}

// ---------------------------------------------------------------------------------------------
// base64url.

/// 22 base64url characters of the 16 bytes: five groups of 3 bytes (4 characters, two table
/// lookups), then the last byte's 8 bits as 2 characters.
#[inline]
const fn encode64(b: &[u8; 16]) -> [u8; 22] {
    let mut out = [0u8; 22];
    let mut g = 0;
    while g < 5 {
        let n = (b[3 * g] as usize) << 16 | (b[3 * g + 1] as usize) << 8 | b[3 * g + 2] as usize;
        let hi = BASE64URL_PAIRS[n >> 12];
        let lo = BASE64URL_PAIRS[n & 4095];
        out[4 * g] = hi[0];
        out[4 * g + 1] = hi[1];
        out[4 * g + 2] = lo[0];
        out[4 * g + 3] = lo[1];
        g += 1;
    }
    let last = BASE64URL_PAIRS[(b[15] as usize) << 4];
    out[20] = last[0];
    out[21] = last[1];
    out
}

/// The 16 bytes of 22 base64url characters, or `None` if one is not in the alphabet or the
/// last one's four padding bits are set. The 6-bit values are placed in two words on their own
/// (parallel shifts, no chain through memory) and stored once.
#[inline]
const fn decode64(s: &[u8; 22]) -> Option<[u8; 16]> {
    let t = &BASE64URL_DECODE;
    let (mut hi, mut lo) = (0u64, 0u64);
    let mut bad = 0u8;
    // Characters 0-9 hold bits 127-68 (60 bits), of the high word's 64 bits 63-4.
    let mut k = 0;
    while k < 10 {
        let d = t[s[k] as usize];
        bad |= d;
        hi |= (d as u64) << (58 - 6 * k);
        k += 1;
    }
    // Character 10 holds bits 67-62: 4 in the high word, 2 in the low one.
    let d = t[s[10] as usize];
    bad |= d;
    hi |= (d as u64 & 0x3f) >> 2;
    lo |= (d as u64) << 62;
    // Characters 11-20 hold bits 61-2; character 21 bits 1-0 and 4 padding bits.
    let mut k = 11;
    while k < 21 {
        let d = t[s[k] as usize];
        bad |= d;
        lo |= (d as u64) << (56 - 6 * (k - 11));
        k += 1;
    }
    let d = t[s[21] as usize];
    bad |= d;
    lo |= (d as u64) >> 4;
    if bad & 0x80 != 0 || d & 15 != 0 {
        return None;
    }
    Some(((hi as u128) << 64 | lo as u128).to_be_bytes())
}

// ---------------------------------------------------------------------------------------------
// The slow path: what is wrong, and where.

/// The error for `s`, which the fast pass of `form` rejected (or which has the wrong length).
/// Checks, left to right: the length; each character against the alphabet (for a ULID, I, L,
/// O and U get their own message); the value's range (first character, or for base58 the
/// digit at which the value passes 2^128 - 1); the last character's padding bits. Out of line
/// and cold: the decoders' fast paths stay small.
#[cold]
#[inline(never)]
const fn diagnose(form: ShortForm, s: &[u8]) -> Error {
    let len = form.len();
    if s.len() != len {
        let pos = if s.len() > len { len } else { s.len() };
        return Error::new(
            Detail::Length {
                found: s.len(),
                expected: len,
            },
            pos,
        );
    }
    let table = table(form);
    let mut p = 0;
    while p < len {
        let c = s[p];
        if table[c as usize] == 0xff {
            if matches!(form, ShortForm::Ulid)
                && matches!(c, b'I' | b'L' | b'O' | b'U' | b'i' | b'l' | b'o' | b'u')
            {
                return Error::new(Detail::Crockford { ch: c }, p);
            }
            return char_error(s, p, Expected::Short(form));
        }
        p += 1;
    }
    match form {
        ShortForm::Ulid => too_large(form, 0, Some(b'7')),
        ShortForm::Base32Hex => padding(s, 25, 2),
        ShortForm::Base64Url => padding(s, 21, 4),
        ShortForm::Base58 | ShortForm::Base58Flickr => {
            // One digit at a time, to find the one that overflows.
            let mut v: u128 = 0;
            let mut p = 0;
            while p < len {
                let d = table[s[p] as usize] as u128;
                v = match v.checked_mul(58) {
                    Some(m) => match m.checked_add(d) {
                        Some(a) => a,
                        None => return too_large(form, p, None),
                    },
                    None => return too_large(form, p, None),
                };
                p += 1;
            }
            // Unreachable for an input the fast pass rejected; an honest error all the same.
            too_large(form, len - 1, None)
        }
    }
}

const fn too_large(form: ShortForm, pos: usize, first: Option<u8>) -> Error {
    Error::new(
        Detail::TooLarge {
            max: form.max_text(),
            first,
        },
        pos,
    )
}

const fn padding(s: &[u8], pos: usize, bits: u8) -> Error {
    Error::new(Detail::Padding { ch: s[pos], bits }, pos)
}

const fn table(form: ShortForm) -> &'static [u8; 256] {
    match form {
        ShortForm::Ulid => &ULID_DECODE,
        ShortForm::Base32Hex => &BASE32HEX_DECODE,
        ShortForm::Base58 => &BASE58_DECODE,
        ShortForm::Base58Flickr => &BASE58_FLICKR_DECODE,
        ShortForm::Base64Url => &BASE64URL_DECODE,
    }
}

/// The run-time fast paths: AVX2 or SSE2 kernels on x86-64 (with the `simd` feature; AVX2 where the
/// CPU has it), else the `const` ones. Each accepts exactly what its `const` counterpart accepts,
/// with the same value.
mod fast {
    use super::{Error, Uuid};

    macro_rules! fast {
        ($name:ident, $form:ident, $table:ident, $kernel:ident, $const:ident) => {
            #[inline(always)]
            pub(super) fn $name(s: &[u8]) -> Result<Uuid, Error> {
                #[cfg(all(feature = "simd", target_arch = "x86_64"))]
                return crate::simd::short::$kernel(s, &super::$table, |s| {
                    super::diagnose(super::ShortForm::$form, s)
                });
                #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
                return Uuid::$const(s);
            }
        };
    }
    fast!(ulid, Ulid, ULID_DECODE, parse_ulid, parse_ulid_const);
    fast!(
        base32hex,
        Base32Hex,
        BASE32HEX_DECODE,
        parse_base32hex,
        parse_base32hex_const
    );
    fast!(
        base64url,
        Base64Url,
        BASE64URL_DECODE,
        parse_base64url,
        parse_base64url_const
    );
}

/// `s` as an array of `N` bytes, if it has that length.
#[inline(always)]
const fn exact<const N: usize>(s: &[u8]) -> Option<&[u8; N]> {
    match s.split_first_chunk::<N>() {
        Some((a, [])) => Some(a),
        _ => None,
    }
}

impl Uuid {
    /// ULID text: 26 characters of Crockford's base32, upper case.
    ///
    /// For a v7 UUID the first 48 bits are the same Unix milliseconds in both, so the first 10
    /// characters are the ULID's timestamp, and v7 order is ULID order.
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_str("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")?;
    /// assert_eq!(&u.encode_ulid(), b"01FWHE4YDGFK1SHH6W1G60EECF");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    #[inline]
    pub const fn encode_ulid(&self) -> [u8; 26] {
        encode32_right(self.as_u128(), &ULID_PAIRS)
    }

    /// The 26-character TypeID suffix: ULID's alphabet in lower case, the spec's (an
    /// unprefixed TypeID; [`TypeId`](crate::TypeId) adds a prefix).
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_str("01890a5d-ac96-774b-bcce-b302099a8057")?;
    /// assert_eq!(&u.encode_typeid_suffix(), b"01h455vb4pex5vsknk084sn02q");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    #[inline]
    pub const fn encode_typeid_suffix(&self) -> [u8; 26] {
        encode32_right(self.as_u128(), &TYPEID_PAIRS)
    }

    /// Reads ULID text: 26 characters of Crockford's base32 in either case.
    ///
    /// I, L, O and U are errors (as in the `ulid` crate), not read as 1, 1, 0 and V; the
    /// message says so. A first character above `7` would be 2^128 or more: an overflow error.
    ///
    /// ```
    /// use uuidkit::{ErrorKind, Uuid};
    /// let u = Uuid::parse_ulid(b"01fwhe4ydgfk1shh6w1g60eecf")?;
    /// assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    /// let e = Uuid::parse_ulid(b"01FWHE4YDGFK1SHH6W1G6OEECF").unwrap_err();
    /// assert_eq!(e.to_string(), "invalid character 'O' at byte 21: Crockford's base32 has no \
    ///     I, L, O or U (it reads I and L as 1, O as 0; U is left out)");
    /// assert_eq!(Uuid::parse_ulid(b"80000000000000000000000000").unwrap_err().kind(), ErrorKind::Overflow);
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    ///
    /// At run time this reads 16 characters at a time (SSE2 on x86-64);
    /// [`Uuid::parse_ulid_const`] is the same function for `const` contexts.
    #[inline]
    pub fn parse_ulid(s: &[u8]) -> Result<Uuid, Error> {
        fast::ulid(s)
    }

    /// [`Uuid::parse_ulid`] as a `const fn` (the same results and errors).
    ///
    /// ```
    /// const U: uuidkit::Uuid = match uuidkit::Uuid::parse_ulid_const(b"01FWHE4YDGFK1SHH6W1G60EECF") {
    ///     Ok(u) => u,
    ///     Err(_) => panic!("not a ULID"),
    /// };
    /// assert_eq!(U.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    /// ```
    #[inline]
    pub const fn parse_ulid_const(s: &[u8]) -> Result<Uuid, Error> {
        if let Some(a) = exact::<26>(s) {
            if let Some(v) = decode32_right(a, &ULID_DECODE) {
                return Ok(Uuid::from_u128(v));
            }
        }
        Err(diagnose(ShortForm::Ulid, s))
    }

    /// base32hex (RFC 4648 §7), unpadded: 26 characters, upper case; strings sort like the
    /// bytes.
    ///
    /// ```
    /// assert_eq!(&uuidkit::Uuid::MAX.encode_base32hex(), b"VVVVVVVVVVVVVVVVVVVVVVVVVS");
    /// ```
    #[inline]
    pub const fn encode_base32hex(&self) -> [u8; 26] {
        encode32_left(self.as_u128(), &BASE32HEX_PAIRS)
    }

    /// Reads base32hex (RFC 4648 §7), 26 characters without padding, in either case. The last
    /// character carries 3 bits of the UUID and 2 padding bits, which must be zero.
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_base32hex(b"05VI5OJPM1UC7664RG60O1PPHS")?;
    /// assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    /// let e = uuidkit::Uuid::parse_base32hex(b"05VI5OJPM1UC7664RG60O1PPHT").unwrap_err();
    /// assert_eq!(e.to_string(), "invalid character 'T' at byte 25: its low 2 bits are padding and must be zero");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    ///
    /// At run time this reads 16 characters at a time (SSE2 on x86-64);
    /// [`Uuid::parse_base32hex_const`] is the same function for `const` contexts.
    #[inline]
    pub fn parse_base32hex(s: &[u8]) -> Result<Uuid, Error> {
        fast::base32hex(s)
    }

    /// [`Uuid::parse_base32hex`] as a `const fn` (the same results and errors).
    #[inline]
    pub const fn parse_base32hex_const(s: &[u8]) -> Result<Uuid, Error> {
        if let Some(a) = exact::<26>(s) {
            if let Some(v) = decode32_left(a, &BASE32HEX_DECODE) {
                return Ok(Uuid::from_u128(v));
            }
        }
        Err(diagnose(ShortForm::Base32Hex, s))
    }

    /// base58 with Bitcoin's alphabet, left-padded with `1` to 22 characters.
    ///
    /// ```
    /// assert_eq!(&uuidkit::Uuid::NIL.encode_base58(), b"1111111111111111111111");
    /// ```
    #[inline]
    pub const fn encode_base58(&self) -> [u8; 22] {
        encode58(self.as_u128(), BASE58)
    }

    /// Reads 22 base58 characters (Bitcoin's alphabet). A value of 2^128 or more is an
    /// overflow error at the digit that passes 2^128 - 1.
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_base58(b"1BihbxwwQ4NZZpKRH9JDCz")?;
    /// assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    /// let e = uuidkit::Uuid::parse_base58(b"1BihbxwwQ4NZZpKRH9JDC0").unwrap_err();
    /// assert_eq!((e.position(), e.is_invalid_char()), (21, true));
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    #[inline]
    pub const fn parse_base58(s: &[u8]) -> Result<Uuid, Error> {
        if let Some(a) = exact::<22>(s) {
            if let Some(v) = decode58(a, &BASE58_DECODE) {
                return Ok(Uuid::from_u128(v));
            }
        }
        Err(diagnose(ShortForm::Base58, s))
    }

    /// base58 with Flickr's alphabet (short-uuid's), left-padded with `1` to 22 characters.
    ///
    /// ```
    /// assert_eq!(&uuidkit::Uuid::MAX.encode_base58_flickr(), b"xBuEXKpA6iqZQK5Kf2TnkV");
    /// ```
    #[inline]
    pub const fn encode_base58_flickr(&self) -> [u8; 22] {
        encode58(self.as_u128(), BASE58_FLICKR)
    }

    /// Reads 22 base58 characters of Flickr's alphabet.
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_base58_flickr(b"1bHGAXWWp4nyyPjqh9idcZ")?;
    /// assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    #[inline]
    pub const fn parse_base58_flickr(s: &[u8]) -> Result<Uuid, Error> {
        if let Some(a) = exact::<22>(s) {
            if let Some(v) = decode58(a, &BASE58_FLICKR_DECODE) {
                return Ok(Uuid::from_u128(v));
            }
        }
        Err(diagnose(ShortForm::Base58Flickr, s))
    }

    /// base64url (RFC 4648 §5), unpadded: 22 characters.
    ///
    /// ```
    /// assert_eq!(&uuidkit::Uuid::MAX.encode_base64url(), b"_____________________w");
    /// ```
    #[inline]
    pub const fn encode_base64url(&self) -> [u8; 22] {
        encode64(self.as_bytes())
    }

    /// Reads base64url (RFC 4648 §5), 22 characters without padding. The last character
    /// carries 2 bits of the UUID and 4 padding bits, which must be zero.
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_base64url(b"AX8i4nmwfMOYxNwMDAc5jw")?;
    /// assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    /// assert!(uuidkit::Uuid::parse_base64url(b"AX8i4nmwfMOYxNwMDAc5jw==").unwrap_err().is_length());
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    ///
    /// At run time this reads 16 characters at a time (SSE2 on x86-64);
    /// [`Uuid::parse_base64url_const`] is the same function for `const` contexts.
    #[inline]
    pub fn parse_base64url(s: &[u8]) -> Result<Uuid, Error> {
        fast::base64url(s)
    }

    /// [`Uuid::parse_base64url`] as a `const fn` (the same results and errors).
    #[inline]
    pub const fn parse_base64url_const(s: &[u8]) -> Result<Uuid, Error> {
        if let Some(a) = exact::<22>(s) {
            if let Some(b) = decode64(a) {
                return Ok(Uuid::from_bytes(b));
            }
        }
        Err(diagnose(ShortForm::Base64Url, s))
    }

    /// Reads `form`; the same as its `parse_*` function.
    ///
    /// ```
    /// use uuidkit::{ShortForm, Uuid};
    /// let e = Uuid::parse_short(ShortForm::Base58, b"1BWAT3").unwrap_err();
    /// assert_eq!(e.to_string(), "invalid length: expected 22 bytes, found 6");
    /// ```
    #[inline]
    pub fn parse_short(form: ShortForm, s: &[u8]) -> Result<Uuid, Error> {
        match form {
            ShortForm::Ulid => Uuid::parse_ulid(s),
            ShortForm::Base32Hex => Uuid::parse_base32hex(s),
            ShortForm::Base58 => Uuid::parse_base58(s),
            ShortForm::Base58Flickr => Uuid::parse_base58_flickr(s),
            ShortForm::Base64Url => Uuid::parse_base64url(s),
        }
    }

    /// [`Uuid::parse_short`] as a `const fn` (the same results and errors).
    #[inline]
    pub const fn parse_short_const(form: ShortForm, s: &[u8]) -> Result<Uuid, Error> {
        match form {
            ShortForm::Ulid => Uuid::parse_ulid_const(s),
            ShortForm::Base32Hex => Uuid::parse_base32hex_const(s),
            ShortForm::Base58 => Uuid::parse_base58(s),
            ShortForm::Base58Flickr => Uuid::parse_base58_flickr(s),
            ShortForm::Base64Url => Uuid::parse_base64url_const(s),
        }
    }

    /// Writes `form` at the start of `buf`; returns the number of bytes written (always
    /// ASCII, `form.len()`).
    #[inline]
    pub fn encode_short_bytes(&self, form: ShortForm, buf: &mut ShortBuffer) -> usize {
        match form {
            ShortForm::Ulid => *buf = self.encode_ulid(),
            ShortForm::Base32Hex => *buf = self.encode_base32hex(),
            ShortForm::Base58 => put(buf, &self.encode_base58()),
            ShortForm::Base58Flickr => put(buf, &self.encode_base58_flickr()),
            ShortForm::Base64Url => put(buf, &self.encode_base64url()),
        }
        form.len()
    }

    /// Writes `form` into `buf` and returns it as a `str` (a prefix of `buf`).
    ///
    /// ```
    /// use uuidkit::{ShortForm, Uuid};
    /// let mut buf = [0u8; uuidkit::MAX_SHORT_LEN];
    /// assert_eq!(Uuid::MAX.encode_short(ShortForm::Base64Url, &mut buf), "_____________________w");
    /// ```
    #[inline]
    pub fn encode_short<'b>(&self, form: ShortForm, buf: &'b mut ShortBuffer) -> &'b str {
        let n = self.encode_short_bytes(form, buf);
        let text = &buf[..n];
        debug_assert!(text.is_ascii());
        // SAFETY: every byte the encoders write is an entry of an ASCII alphabet (the tables
        // above are built from ASCII literals), hence UTF-8.
        unsafe { core::str::from_utf8_unchecked(text) }
    }

    /// A `Display` adapter for a short form.
    ///
    /// ```
    /// use uuidkit::{ShortForm, Uuid};
    /// assert_eq!(Uuid::NIL.short(ShortForm::Ulid).to_string(), "00000000000000000000000000");
    /// assert_eq!(format!("[{:>24}]", Uuid::NIL.short(ShortForm::Base58)), "[  1111111111111111111111]");
    /// ```
    pub const fn short(self, form: ShortForm) -> Short {
        Short(self, form)
    }
}

#[inline(always)]
fn put(buf: &mut ShortBuffer, s: &[u8; 22]) {
    if let Some(head) = buf.first_chunk_mut::<22>() {
        *head = *s;
    }
}

/// A UUID in a short form, for `{}`; see [`Uuid::short`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Short(Uuid, ShortForm);

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; MAX_SHORT_LEN];
        f.pad(self.0.encode_short(self.1, &mut buf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_texts_are_the_encodings_of_max() {
        for form in ShortForm::ALL {
            let mut buf = [0u8; MAX_SHORT_LEN];
            assert_eq!(
                Uuid::MAX.encode_short(form, &mut buf),
                form.max_text(),
                "{form}"
            );
        }
    }

    #[test]
    fn base58_overflow_is_at_the_digit_that_passes_the_maximum() {
        // The maximum plus one in the last digit.
        let e = Uuid::parse_base58(b"YcVfxkQb6JRzqk5kF2tNLw").unwrap_err();
        assert_eq!((e.position(), e.is_overflow()), (21, true), "{e}");
        let e = Uuid::parse_base58(b"zzzzzzzzzzzzzzzzzzzzzz").unwrap_err();
        assert!(e.is_overflow());
        assert_eq!(
            e.to_string(),
            format!(
                "value too large at byte {}: a UUID is at most \"YcVfxkQb6JRzqk5kF2tNLv\" (2^128 - 1)",
                e.position()
            )
        );
    }

    #[test]
    fn padding_bits_are_checked() {
        let e = Uuid::parse_base64url(b"_____________________x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid character 'x' at byte 21: its low 4 bits are padding and must be zero"
        );
    }
}

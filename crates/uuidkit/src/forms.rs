//! The other representations of a UUID that RFC 9562 §4 mentions besides the hex text forms:
//! the unsigned 128-bit integer in decimal (Figure 3), the OID `2.25.<integer>` of ITU-T X.667
//! (also as the URN `urn:oid:2.25.<integer>`), and the Microsoft GUID byte order in which the
//! first three fields are stored little-endian.
//!
//! Everything here is `no_std` and allocation-free: decimal text is written into a 39-byte
//! stack buffer, and the `Display` adapters format from such a buffer.

use core::fmt;

use crate::diagnose::char_error;
use crate::digits::eight;
use crate::error::{Detail, Error, Expected};
use crate::scalar::parse_simple;
use crate::{Formatted, Uuid};

/// The most decimal digits a UUID can have: `u128::MAX` has 39.
///
/// ```
/// use uuidkit::{Uuid, MAX_DECIMAL_LEN};
/// assert_eq!(Uuid::MAX.decimal().to_string().len(), MAX_DECIMAL_LEN);
/// assert_eq!(u128::MAX.to_string().len(), MAX_DECIMAL_LEN);
/// ```
pub const MAX_DECIMAL_LEN: usize = 39;

/// A stack buffer large enough for the decimal form of any UUID.
///
/// ```
/// use uuidkit::{DecimalBuffer, Uuid, MAX_DECIMAL_LEN};
/// let mut buf: DecimalBuffer = [0; MAX_DECIMAL_LEN];
/// // 2^128 - 1 fills the buffer exactly.
/// assert_eq!(Uuid::MAX.encode_decimal(&mut buf), "340282366920938463463374607431768211455");
/// assert_eq!(Uuid::NIL.encode_decimal(&mut buf), "0");
/// ```
pub type DecimalBuffer = [u8; MAX_DECIMAL_LEN];

/// The OID arc under which X.667 places UUIDs: `joint-iso-itu-t(2) uuid(25)`.
const OID_PREFIX: &[u8; 5] = b"2.25.";
/// The URN namespace of RFC 3061, compared without regard to case (RFC 8141 §3.1).
const URN_OID_PREFIX: &[u8; 8] = b"urn:oid:";
/// Longest OID URN: `urn:oid:` + `2.25.` + 39 digits.
const MAX_OID_URN_LEN: usize = 8 + 5 + MAX_DECIMAL_LEN;

/// 10^19, the largest power of ten below 2^64.
const TEN19: u64 = 10_000_000_000_000_000_000;

/// 10^0 to 10^19.
const POW10: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// The number of decimal digits of `n` (1 for 0).
const fn digit_count(n: u64) -> usize {
    // Setting the low bit makes 0 count as 1 and changes no other count (powers of ten are
    // even). Bits times log10(2) (1233 / 4096) is then the count or one less; the table says
    // which.
    let n = n | 1;
    let bits = 64 - n.leading_zeros() as usize;
    let t = (bits * 1233) >> 12;
    t + (n >= POW10[t]) as usize
}

/// The nineteen digits of `n` < 10^19, zero padded.
fn nineteen(n: u64, out: &mut [u8; 19]) {
    const TEN16: u64 = 10_000_000_000_000_000;
    let top = n / TEN16;
    let rest = n % TEN16;
    // `top` < 1000.
    out[0] = b'0' + (top / 100) as u8;
    out[1] = b'0' + (top / 10 % 10) as u8;
    out[2] = b'0' + (top % 10) as u8;
    out[3..11].copy_from_slice(&eight(rest / 100_000_000));
    out[11..].copy_from_slice(&eight(rest % 100_000_000));
}

/// The high 128 bits of the 256-bit product `a * b`.
const fn mul_high(a: u128, b: u128) -> u128 {
    const LOW: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & LOW);
    let (b1, b0) = (b >> 64, b & LOW);
    let low = a0 * b0;
    let (m1, m2) = (a1 * b0, a0 * b1);
    let mid = (low >> 64) + (m1 & LOW) + (m2 & LOW);
    a1 * b1 + (m1 >> 64) + (m2 >> 64) + (mid >> 64)
}

/// ceil(2^154 / 5^19), the multiplier of [`div_rem_ten19`].
const RECIP_5_19: u128 = 1_197_262_141_301_475_670_592_458_614_961_180;

/// `v / 10^19` and `v % 10^19`, by multiplication: a u128 division is a library call costing
/// more than the whole digit conversion.
///
/// `v / 10^19 = (v >> 19) / 5^19`, and for a dividend below 2^109 and a divisor below 2^45,
/// the quotient is `(n * m) >> 154` with `m = ceil(2^154 / 5^19)` (Granlund and Montgomery,
/// "Division by invariant integers using multiplication", 1994, Theorem 4.2: it needs
/// `m * 5^19 - 2^154 <= 2^45`, which a unit test checks).
const fn div_rem_ten19(v: u128) -> (u128, u64) {
    let q = mul_high(v >> 19, RECIP_5_19) >> 26;
    (q, (v - q * TEN19 as u128) as u64)
}

/// Writes `v` right-aligned into `buf`; returns the index of its first digit.
fn write_decimal(v: u128, buf: &mut DecimalBuffer) -> usize {
    // Three base-10^19 limbs so that the digits come from u64s; the top limb is below 4
    // (u128::MAX < 4 * 10^38). Values below 2^64 (most of the fields of a UUID that are
    // written in decimal) need u64 arithmetic only.
    let (rest, lo) = match u64::try_from(v) {
        Ok(v) => ((v / TEN19) as u128, v % TEN19),
        Err(_) => div_rem_ten19(v),
    };
    if let Some(low) = buf.last_chunk_mut::<19>() {
        nineteen(lo, low);
    }
    if rest == 0 {
        return MAX_DECIMAL_LEN - digit_count(lo);
    }
    let (hi, mid) = div_rem_ten19(rest);
    if let Some(middle) = buf.get_mut(1..20).and_then(|m| m.first_chunk_mut::<19>()) {
        nineteen(mid, middle);
    }
    buf[0] = b'0' + hi as u8;
    if hi != 0 {
        0
    } else {
        MAX_DECIMAL_LEN - 19 - digit_count(mid)
    }
}

/// Reads `s[start..]` as an unsigned decimal integer below 2^128 without leading zeros.
///
/// Errors carry positions in `s`. The first problem from the left wins, and the scan stops at
/// the digit that overflows, so arbitrarily long inputs cost at most 40 steps.
const fn decimal_at(s: &[u8], start: usize) -> Result<u128, Error> {
    let len = s.len();
    if start >= len {
        return Err(if start == 0 {
            Error::new(Detail::Empty, 0)
        } else {
            Error::new(Detail::MissingDigits, start)
        });
    }
    // X.667 §6.3 and every OID arc: an integer is written without leading zeros.
    if s[start] == b'0' && start + 1 < len && s[start + 1].is_ascii_digit() {
        return Err(Error::new(Detail::LeadingZero, start));
    }
    let mut v: u128 = 0;
    let mut p = start;
    while p < len {
        let c = s[p];
        if !c.is_ascii_digit() {
            return Err(char_error(s, p, Expected::Decimal));
        }
        v = match v.checked_mul(10) {
            Some(t) => match t.checked_add((c - b'0') as u128) {
                Some(n) => n,
                None => return Err(Error::new(Detail::Overflow, p)),
            },
            None => return Err(Error::new(Detail::Overflow, p)),
        };
        p += 1;
    }
    Ok(v)
}

/// The first byte at which `s[at..]` stops matching `prefix` (or the input ends), if any.
/// `fold` compares ASCII letters without regard to case.
const fn prefix_mismatch(s: &[u8], at: usize, prefix: &[u8], fold: bool) -> Option<usize> {
    let mut k = 0;
    while k < prefix.len() {
        let p = at + k;
        if p >= s.len() {
            return Some(p);
        }
        let c = if fold {
            s[p].to_ascii_lowercase()
        } else {
            s[p]
        };
        if c != prefix[k] {
            return Some(p);
        }
        k += 1;
    }
    None
}

impl Uuid {
    /// A `Display` adapter for the UUID as an unsigned decimal integer (RFC 9562 §4, Figure 3).
    ///
    /// Width and zero-fill flags work as for integers (`{:040}`).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // Source: RFC 9562 §4, Figures 1 and 3
    /// let u = Uuid::parse_str("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")?;
    /// assert_eq!(u.decimal().to_string(), "329800735698586629295641978511506172918");
    /// assert_eq!(Uuid::NIL.decimal().to_string(), "0");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn decimal(self) -> Decimal {
        Decimal(self)
    }

    /// Writes the decimal form into `buf` and returns it (the digits are right-aligned in `buf`:
    /// the returned `str` is a suffix of it).
    ///
    /// ```
    /// let mut buf = [0u8; uuidkit::MAX_DECIMAL_LEN];
    /// assert_eq!(uuidkit::Uuid::from_u128(1 << 64).encode_decimal(&mut buf), "18446744073709551616");
    /// ```
    pub fn encode_decimal<'b>(&self, buf: &'b mut DecimalBuffer) -> &'b str {
        let start = write_decimal(self.as_u128(), buf);
        let digits = match buf.get(start..) {
            Some(d) => d,
            None => unreachable!(),
        };
        // SAFETY: `write_decimal` wrote ASCII digits from `start` on, and ASCII is UTF-8 (the
        // check cost as much as the conversion).
        unsafe { core::str::from_utf8_unchecked(digits) }
    }

    /// Reads a UUID written as an unsigned decimal integer (RFC 9562 §4, Figure 3).
    ///
    /// Only ASCII digits are accepted: no sign, no whitespace, no leading zero (except `0`
    /// itself), and the value must be below 2^128. The error names the first problem from the
    /// left and its 0-based byte offset; an overflowing input is rejected at the digit that
    /// overflows without reading further.
    ///
    /// ```
    /// use uuidkit::{ErrorKind, Uuid};
    /// let u = Uuid::parse_decimal(b"329800735698586629295641978511506172918")?;
    /// assert_eq!(u.to_string(), "f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
    ///
    /// let e = Uuid::parse_decimal(b"0123").unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::LeadingZero);
    /// assert_eq!(e.to_string(), "leading zero at byte 0");
    /// let e = Uuid::parse_decimal(b"340282366920938463463374607431768211456").unwrap_err();
    /// assert_eq!(e.to_string(), "integer too large at byte 38: a UUID is less than 2^128");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn parse_decimal(s: &[u8]) -> Result<Uuid, Error> {
        match decimal_at(s, 0) {
            Ok(v) => Ok(Uuid::from_u128(v)),
            Err(e) => Err(e),
        }
    }

    /// A `Display` adapter for the OID of ITU-T X.667 §6.3: `2.25.` and the decimal integer.
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_str("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")?;
    /// assert_eq!(u.oid().to_string(), "2.25.329800735698586629295641978511506172918");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn oid(self) -> Oid {
        Oid(self)
    }

    /// A `Display` adapter for the OID as a URN (RFC 3061): `urn:oid:2.25.` and the integer.
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_str("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")?;
    /// assert_eq!(
    ///     u.oid_urn().to_string(),
    ///     "urn:oid:2.25.329800735698586629295641978511506172918"
    /// );
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn oid_urn(self) -> OidUrn {
        OidUrn(self)
    }

    /// Reads `2.25.<integer>` or `urn:oid:2.25.<integer>` (ITU-T X.667 §6.3).
    ///
    /// `urn:oid:` is matched without regard to case, `2.25.` exactly; the integer follows the
    /// rules of [`Uuid::parse_decimal`]. An input starting with `u` or `U` is read as the URN
    /// form, anything else as the bare OID, and a prefix error names the prefix of that form.
    /// Positions are byte offsets in the whole input.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// let a = Uuid::parse_oid(b"2.25.329800735698586629295641978511506172918")?;
    /// let b = Uuid::parse_oid(b"URN:OID:2.25.329800735698586629295641978511506172918")?;
    /// assert_eq!(a, b);
    /// let e = Uuid::parse_oid(b"2.26.1").unwrap_err();
    /// assert_eq!(e.to_string(), "invalid prefix at byte 3: expected \"2.25.\"");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn parse_oid(s: &[u8]) -> Result<Uuid, Error> {
        if s.is_empty() {
            return Err(Error::new(Detail::Empty, 0));
        }
        let (start, expected) = if s[0] == b'u' || s[0] == b'U' {
            let bad = match prefix_mismatch(s, 0, URN_OID_PREFIX, true) {
                Some(p) => Some(p),
                None => prefix_mismatch(s, URN_OID_PREFIX.len(), OID_PREFIX, false),
            };
            (bad, "urn:oid:2.25.")
        } else {
            (prefix_mismatch(s, 0, OID_PREFIX, false), "2.25.")
        };
        if let Some(p) = start {
            return Err(Error::new(Detail::Prefix { expected }, p));
        }
        match decimal_at(s, expected.len()) {
            Ok(v) => Ok(Uuid::from_u128(v)),
            Err(e) => Err(e),
        }
    }

    /// A UUID from the 16 bytes of a Microsoft GUID as stored in memory: the first three
    /// fields (`Data1` u32, `Data2` u16, `Data3` u16) little-endian, the last 8 bytes as they
    /// are (RFC 9562 §4 mentions this byte order of COM GUIDs).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// let le = [0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66,
    ///           0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];
    /// assert_eq!(Uuid::from_bytes_le(le).to_string(), "00112233-4455-6677-8899-aabbccddeeff");
    /// ```
    pub const fn from_bytes_le(b: [u8; 16]) -> Uuid {
        Uuid::from_bytes(swap_guid_fields(b))
    }

    /// The 16 bytes in Microsoft GUID order: the inverse of [`Uuid::from_bytes_le`].
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_str("00112233-4455-6677-8899-aabbccddeeff")?;
    /// assert_eq!(&u.to_bytes_le()[..8], &[0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66]);
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn to_bytes_le(&self) -> [u8; 16] {
        swap_guid_fields(*self.as_bytes())
    }

    /// Reads the "guid-hex" form: 32 hex digits (either case) of [`Uuid::to_bytes_le`], as
    /// found in registry dumps and some databases. Errors are those of the simple form.
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_guid_hex(b"33221100554477668899aabbccddeeff")?;
    /// assert_eq!(u.to_string(), "00112233-4455-6677-8899-aabbccddeeff");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn parse_guid_hex(s: &[u8]) -> Result<Uuid, Error> {
        match parse_simple(s) {
            Ok(u) => Ok(Uuid::from_bytes_le(u.into_bytes())),
            Err(e) => Err(e),
        }
    }

    /// A `Display` adapter for the "guid-hex" form: 32 hex digits of [`Uuid::to_bytes_le`]
    /// (`{:X}` for upper case). The same as `Uuid::from_bytes(u.to_bytes_le()).simple()`.
    ///
    /// ```
    /// let u = uuidkit::Uuid::parse_str("00112233-4455-6677-8899-aabbccddeeff")?;
    /// assert_eq!(u.guid_hex().to_string(), "33221100554477668899aabbccddeeff");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn guid_hex(self) -> Formatted {
        Uuid::from_bytes(self.to_bytes_le()).simple()
    }
}

/// Reverses the byte order of the first three fields; its own inverse.
const fn swap_guid_fields(b: [u8; 16]) -> [u8; 16] {
    [
        b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13],
        b[14], b[15],
    ]
}

/// A UUID displayed as an unsigned decimal integer; see [`Uuid::decimal`].
///
/// It pads like an integer: a width right-aligns it, `0` fills with zeros.
///
/// ```
/// use uuidkit::Uuid;
/// let d = Uuid::from_u128(42).decimal();
/// assert_eq!(d.to_string(), "42");
/// assert_eq!(format!("{d:5}"), "   42");
/// assert_eq!(format!("{d:05}"), "00042");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decimal(Uuid);

/// A UUID displayed as the OID `2.25.<integer>`; see [`Uuid::oid`].
///
/// A width pads the whole OID, as for any string.
///
/// ```
/// use uuidkit::Uuid;
/// let o = Uuid::from_u128(255).oid();
/// assert_eq!(o.to_string(), "2.25.255");
/// assert_eq!(format!("[{o:>10}]"), "[  2.25.255]");
/// assert_eq!(Uuid::parse_oid(o.to_string().as_bytes())?, Uuid::from_u128(255));
/// # Ok::<(), uuidkit::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Oid(Uuid);

/// A UUID displayed as the URN `urn:oid:2.25.<integer>`; see [`Uuid::oid_urn`].
///
/// ```
/// use uuidkit::Uuid;
/// let urn = Uuid::MAX.oid_urn().to_string();
/// assert_eq!(urn, "urn:oid:2.25.340282366920938463463374607431768211455");
/// assert_eq!(Uuid::parse_oid(urn.as_bytes())?, Uuid::MAX);
/// # Ok::<(), uuidkit::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OidUrn(Uuid);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; MAX_DECIMAL_LEN];
        f.pad_integral(true, "", self.0.encode_decimal(&mut buf))
    }
}

/// Writes `prefix` and the decimal of `u` into one buffer so that `pad` sees the whole text.
fn write_with_prefix(f: &mut fmt::Formatter<'_>, prefix: &[u8], u: Uuid) -> fmt::Result {
    let mut digits = [0u8; MAX_DECIMAL_LEN];
    let d = u.encode_decimal(&mut digits).as_bytes();
    let mut buf = [0u8; MAX_OID_URN_LEN];
    let n = prefix.len() + d.len();
    // Both lengths are bounded (prefix at most 13, digits at most 39), so these never fail.
    match buf.get_mut(..prefix.len()) {
        Some(head) => head.copy_from_slice(prefix),
        None => return Err(fmt::Error),
    }
    match buf.get_mut(prefix.len()..n) {
        Some(tail) => tail.copy_from_slice(d),
        None => return Err(fmt::Error),
    }
    match buf.get(..n).map(core::str::from_utf8) {
        Some(Ok(s)) => f.pad(s),
        _ => Err(fmt::Error),
    }
}

impl fmt::Display for Oid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_prefix(f, OID_PREFIX, self.0)
    }
}

impl fmt::Display for OidUrn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_prefix(f, b"urn:oid:2.25.", self.0)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::*;

    #[test]
    fn reciprocal_meets_the_exactness_condition() {
        // m * 5^19 = 2^154 + e with 0 <= e <= 2^45: the high half is 2^26, the low half e.
        let d: u128 = 19_073_486_328_125;
        assert_eq!(d, 5u128.pow(19));
        assert_eq!(mul_high(RECIP_5_19, d), 1 << 26);
        assert!(RECIP_5_19.wrapping_mul(d) <= 1 << 45);
        // And m is the smallest such multiplier (the ceiling): one less falls below 2^154.
        assert_eq!(mul_high(RECIP_5_19 - 1, d), (1 << 26) - 1);
    }

    #[test]
    fn division_and_digits_agree_with_the_standard_library() {
        // A fixed xorshift stream: values of every bit length, plus the edges.
        let mut x: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;
        let mut values = std::vec![0, 1, u128::MAX, u128::MAX - 1, 1 << 127, (1 << 109) - 1];
        for i in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(x >> (i % 128));
        }
        for v in values {
            let (q, r) = div_rem_ten19(v);
            assert_eq!(
                (q, r as u128),
                (v / TEN19 as u128, v % TEN19 as u128),
                "{v}"
            );
            let mut buf = [0u8; MAX_DECIMAL_LEN];
            assert_eq!(Uuid::from_u128(v).encode_decimal(&mut buf), v.to_string());
            let small = v as u64;
            assert_eq!(digit_count(small), small.to_string().len(), "{small}");
        }
        for p in POW10 {
            for n in [p - 1, p, p + 1] {
                assert_eq!(digit_count(n), n.to_string().len(), "{n}");
            }
        }
    }
}

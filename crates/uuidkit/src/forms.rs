//! The other representations of a UUID that RFC 9562 §4 mentions besides the hex text forms:
//! the unsigned 128-bit integer in decimal (Figure 3), the OID `2.25.<integer>` of ITU-T X.667
//! (also as the URN `urn:oid:2.25.<integer>`), and the Microsoft GUID byte order in which the
//! first three fields are stored little-endian.
//!
//! Everything here is `no_std` and allocation-free: decimal text is written into a 39-byte
//! stack buffer, and the `Display` adapters format from such a buffer.

use core::fmt;

use crate::error::{Detail, Error, Expected};
use crate::parse::{char_error, parse_simple};
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
const TEN19: u128 = 10_000_000_000_000_000_000;

/// "00" to "99".
const PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// Writes `n` in decimal so that it ends just before `end`, with at least `min` digits (zero
/// padded); returns where the digits start.
const fn write_u64(mut n: u64, buf: &mut DecimalBuffer, end: usize, min: usize) -> usize {
    let mut p = end;
    // Two digits per step while at least two are left to write, from a table of pairs.
    while n >= 100 || end - p + 2 <= min {
        let r = (n % 100) as usize;
        n /= 100;
        buf[p - 1] = PAIRS[2 * r + 1];
        buf[p - 2] = PAIRS[2 * r];
        p -= 2;
        if n == 0 && end - p >= min {
            return p;
        }
    }
    loop {
        p -= 1;
        buf[p] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 && end - p >= min {
            return p;
        }
    }
}

/// Writes `v` right-aligned into `buf`; returns the index of its first digit.
const fn write_decimal(v: u128, buf: &mut DecimalBuffer) -> usize {
    // Three base-10^19 limbs so that the digit loop divides u64s: a u128 division per digit
    // costs a library call each. The top limb is below 4 (u128::MAX < 4 * 10^38).
    // One division per limb, the remainder by multiplication: each is a library call.
    let rest = v / TEN19;
    let lo = (v - rest * TEN19) as u64;
    let hi = (rest / TEN19) as u64;
    let mid = (rest - hi as u128 * TEN19) as u64;
    let end = MAX_DECIMAL_LEN;
    if hi != 0 {
        write_u64(lo, buf, end, 19);
        write_u64(mid, buf, end - 19, 19);
        write_u64(hi, buf, end - 38, 1)
    } else if mid != 0 {
        write_u64(lo, buf, end, 19);
        write_u64(mid, buf, end - 19, 1)
    } else {
        write_u64(lo, buf, end, 1)
    }
}

/// The error for a byte that is not a decimal digit. `char_error` reports braces as a brace
/// problem, which only makes sense for the hex forms; here every stray byte is a character error.
const fn decimal_char_error(s: &[u8], p: usize) -> Error {
    let e = char_error(s, p, Expected::Decimal);
    match e.detail {
        Detail::Braces => Error::new(
            Detail::Char {
                ch: Some(s[p] as char),
                byte: s[p],
                expected: Expected::Decimal,
            },
            p,
        ),
        _ => e,
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
            return Err(decimal_char_error(s, p));
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
        match core::str::from_utf8(digits) {
            Ok(s) => s,
            // Only ASCII digits were written.
            Err(_) => unreachable!(),
        }
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
